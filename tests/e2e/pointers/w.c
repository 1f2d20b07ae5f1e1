/* pointers: two instances.  The data lives in malloc'ed arrays the task
 * struct points to. */
#include <stdio.h>
#include <stdlib.h>
#include "wMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "w %d: %s\n", me, what);
    return 1;
}

int main(int argc, char **argv)
{
    struct w *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    if (MDL_FamilySize(t) != 2)
        return fail("launch with -n 2");
    t->p = calloc(10, sizeof *t->p);
    t->q = calloc(10, sizeof *t->q);
    t->counts = calloc(2, sizeof *t->counts);
    t->displs = calloc(2, sizeof *t->displs);
    if (!t->p || !t->q || !t->counts || !t->displs)
        return fail("malloc");

    /* p2p: p[1..len] of 0 lands in p[0..len-1] of 1, with n */
    t->len = 5;
    t->n = me == 0 ? 42 : 0;
    if (me == 0) {
        for (int k = 0; k < 10; k++)
            t->p[k] = k * 1.5;
        if (MDL_SendTo_w_ptr(t, 1) != MDL_SUCCESS)
            return fail("send ptr");
    } else {
        for (int k = 0; k < 10; k++)
            t->p[k] = -1;
        if (MDL_RecvFrom_w_ptr(t, 0) != 0 || t->n != 42)
            return fail("recv ptr");
        for (int k = 0; k < 10; k++)
            if (t->p[k] != (k < 5 ? (k + 1) * 1.5 : -1))
                return fail("ptr values");
    }

    /* the same bounds again, the pointer moved to another array on both
       sides: the runtime must not reuse the previous call's layout */
    double *first = t->p, other[10];
    t->p = other;
    for (int k = 0; k < 10; k++)
        other[k] = me == 0 ? k * 2.5 : -1;
    if (me == 0 ? MDL_SendTo_w_ptr(t, 1) != MDL_SUCCESS : MDL_RecvFrom_w_ptr(t, 0) != 0)
        return fail("ptr moved");
    for (int k = 0; me == 1 && k < 10; k++)
        if (other[k] != (k < 5 ? (k + 1) * 2.5 : -1) || first[k] != (k < 5 ? (k + 1) * 1.5 : -1))
            return fail("ptr moved values");
    t->p = first;

    /* Mcast to the instances of the table (instance 1; a negative entry
       ends the list) */
    t->members[0] = 1;
    t->members[1] = -1;
    for (int k = 0; k < 8; k++)
        t->v[k] = me == 0 ? 100 + k : 0;
    if (MDL_Mcast_mc(t) != MDL_SUCCESS)
        return fail("Mcast");
    for (int k = 0; k < 8; k++)
        if (t->v[k] != 100 + k)
            return fail("Mcast values");

    /* ScatterV: 3 elements at 5 to instance 0, 2 at 0 to instance 1 */
    t->counts[0] = 3; t->displs[0] = 5;
    t->counts[1] = 2; t->displs[1] = 0;
    for (int k = 0; k < 8; k++) {
        t->v[k] = me == 0 ? 200 + k : -1;
        t->all[k] = -1;
    }
    if (MDL_ScatterV_sv(t) != MDL_SUCCESS)
        return fail("ScatterV");
    for (int k = 0; k < 8; k++) {
        double want = me == 0 ? (k < 3 ? 205 + k : -1) : (k < 2 ? 200 + k : -1);
        if (t->all[k] != want)
            return fail("ScatterV values");
    }

    /* AllgatherV: instance r contributes counts[r] elements of its v */
    for (int k = 0; k < 8; k++) {
        t->v[k] = 10 * me + k;
        t->all[k] = -1;
    }
    if (MDL_AllgatherV_agv(t) != MDL_SUCCESS)
        return fail("AllgatherV");
    for (int k = 0; k < 8; k++) {
        double want = k >= 5 ? k - 5 : k < 2 ? 10 + k : -1;
        if (t->all[k] != want)
            return fail("AllgatherV values");
    }

    /* Bcast of a pointer section from instance 1, count read at the call */
    t->n = 4;
    for (int k = 0; k < 10; k++)
        t->q[k] = me == 1 ? 7 * k : -1;
    if (MDL_Bcast_bp(t) != MDL_SUCCESS)
        return fail("Bcast");
    for (int k = 0; k < 10; k++)
        if (t->q[k] != (k < 4 || me == 1 ? 7 * k : -1))
            return fail("Bcast values");

    if (me == 0)
        printf("pointers ok\n");
    free(t->p);
    free(t->q);
    free(t->counts);
    free(t->displs);
    MDL_End(t);
    return 0;
}
