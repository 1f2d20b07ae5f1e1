/* async_test_error: instance 1 sends 4 doubles, then (after a barrier) 2;
 * instance 0 has posted two receives of 2 doubles, polls with Test until
 * it reports the first one's size error, then Waits for the second.  On
 * the large message's channel the MPI runtime receives into buffers of
 * 192 bytes of its own: 4 doubles fit there (the runtime finds the error
 * itself, the other receive still in flight), 32 do not (MPI does). */
#include <stdio.h>
#include "dMDL.h"

enum { SMALL, LARGE, LARGE_FITS };

static double *var(struct d *t, int which)
{
    return which == SMALL ? t->s : t->l;
}

static int send(struct d *t, int which, int hi)
{
    return which == SMALL ? MDL_SendTo_d_small(t, 0, 0, hi) : MDL_SendTo_d_large(t, 0, 0, hi);
}

static int recv(struct d *t, int which)
{
    return which == SMALL ? MDL_RecvFrom_d_small(t, 1, 0, 1) : MDL_RecvFrom_d_large(t, 1, 0, 1);
}

static int test(struct d *t, int which)
{
    return which == SMALL ? MDL_smallTest(t) : MDL_largeTest(t);
}

static int wait(struct d *t, int which)
{
    return which == SMALL ? MDL_smallWait(t) : MDL_largeWait(t);
}

int main(int argc, char **argv)
{
    struct d *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), bad = 0;
    for (int which = SMALL; which <= LARGE_FITS; which++) {
        double *v = var(t, which);
        if (me == 1) {
            int hi = which == LARGE ? 31 : 3;
            for (int j = 0; j <= hi; j++)
                v[j] = 100 + j;
            bad += send(t, which, hi) != MDL_SUCCESS || wait(t, which) != MDL_SUCCESS;
            bad += MDL_Barrier(t) != MDL_SUCCESS;
            v[0] = 200;
            v[1] = 201;
            bad += send(t, which, 1) != MDL_SUCCESS || wait(t, which) != MDL_SUCCESS;
            continue;
        }
        bad += recv(t, which) != 1 || recv(t, which) != 1;
        int rc;
        while ((rc = test(t, which)) == 0)
            ;
        bad += rc != MDL_ERR_TRUNCATE;
        bad += MDL_Barrier(t) != MDL_SUCCESS;
        /* the second receive is still posted: this Wait gets its message */
        bad += wait(t, which) != MDL_SUCCESS || v[0] != 200 || v[1] != 201;
    }
    int ended = MDL_End(t);
    if (ended != MDL_SUCCESS || bad)
        fprintf(stderr, "async_test_error: instance %d: %d wrong, MDL_End %d\n", me, bad, ended);
    else if (me == 0)
        printf("async_test_error ok\n");
    return ended != MDL_SUCCESS || bad;
}
