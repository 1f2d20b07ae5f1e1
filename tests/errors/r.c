/* r.c — every misuse of run-time-sized variables (rtsize.mdl), run with
 * errors returned by two instances: each call must return its code, and
 * the lines are compared across the runtimes by tests/suite-errors.sh. */
#include <stdio.h>

#include "rMDL.h"

static int me, bad;

static void want(int got, int code, const char *what)
{
    if (got != code) {
        fprintf(stdout, "r %d: %s returned %d, expected %d\n", me, what, got, code);
        bad = 1;
    }
}

static void sync_all(struct r *t)
{
    fflush(stderr);
    want(MDL_Barrier(t), MDL_SUCCESS, "barrier");
}

int main(int argc, char **argv)
{
    struct r *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int other = 1 - me;
    /* before MDL_Allocate */
    want(MDL_SendTo_r_h(t, other), MDL_ERR_STATE, "send before MDL_Allocate");
    want(MDL_Allreduce_s(t), MDL_ERR_STATE, "collective before MDL_Allocate");
    sync_all(t);
    /* bad sizes, each refused before anything changes */
    t->huge = 1;
    t->a = -2;
    t->b = 3;
    want(MDL_Allocate(t), MDL_ERR_ARG, "negative size");
    t->a = 4;
    t->b = 0;
    want(MDL_Allocate(t), MDL_ERR_ARG, "zero size");
    t->b = 3;
    t->huge = 1L << 31;
    want(MDL_Allocate(t), MDL_ERR_ARG, "sizes whose bytes overflow");
    t->huge = 1;
    want(MDL_SendTo_r_h(t, other), MDL_ERR_STATE, "send after a refused MDL_Allocate");
    sync_all(t);
    want(MDL_Allocate(t), MDL_SUCCESS, "MDL_Allocate");
    /* a section outside the extents set at run time */
    want(MDL_SendTo_r_blk(t, other, 0, 4, 0, 2), MDL_ERR_BOUNDS, "section past the end");
    want(MDL_RecvFrom_r_blk(t, other, 1, 2, 0, 3), MDL_ERR_BOUNDS, "receive past the end");
    /* a block moved after a size changed (the layer's moved path) */
    if (me == 0)
        want(MDL_SendTo_r_blk(t, 1, 0, 1, 0, 2), MDL_SUCCESS, "block send");
    else
        want(MDL_RecvFrom_r_blk(t, 0, 0, 1, 0, 2), 0, "block receive");
    t->b = 4;
    want(me == 0 ? MDL_SendTo_r_blk(t, 1, 1, 2, 0, 2) : MDL_RecvFrom_r_blk(t, 0, 1, 2, 0, 2),
         MDL_ERR_STATE, "block moved after a size changed");
    t->b = 3;
    sync_all(t);
    /* a size changed without MDL_Allocate */
    t->b = 5;
    want(MDL_SendTo_r_h(t, other), MDL_ERR_STATE, "send after a size changed");
    want(MDL_RecvFrom_r_h(t, other), MDL_ERR_STATE, "receive after a size changed");
    want(MDL_Allreduce_s(t), MDL_ERR_STATE, "collective after a size changed");
    t->b = 3;   /* back as it was allocated: fine again */
    sync_all(t);
    for (int j = 0; j < 3; j++)
        t->U[j] = 10 * me + j;
    if (me == 0) {
        want(MDL_SendTo_r_h(t, 1), MDL_SUCCESS, "send");
    } else {
        want(MDL_RecvFrom_r_h(t, 0), 0, "receive");
        for (int j = 0; j < 3; j++)
            if (t->U[3 * 3 + j] != j)
                want(-1, 0, "received value");
    }
    sync_all(t);
    /* storage still in an async receive is not replaced */
    if (me == 0) {
        want(MDL_RecvFrom_r_post(t, 1), 1, "async receive posted");
        t->b = 4;
        want(MDL_Allocate(t), MDL_ERR_STATE, "MDL_Allocate under a receive");
        t->b = 3;
    }
    sync_all(t);
    if (me == 1)
        want(MDL_SendTo_r_post(t, 0), MDL_SUCCESS, "async send");
    want(MDL_postWait(t), MDL_SUCCESS, "Wait");
    sync_all(t);
    want(MDL_End(t), MDL_SUCCESS, "MDL_End");
    if (!bad)
        printf("r %d: OK\n", me);
    return bad;
}
