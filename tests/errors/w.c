/* w.c — every misuse of the generated API a program can make on the tasks
 * of spec.mdl, run with errors returned: each call must return its code,
 * and the lines the runtime prints are compared across the runtimes by
 * tests/suite-errors.sh.  Two instances; argv[1] = "fatal-…" runs one
 * fault with the default (fatal) policy instead. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "mdl_rt.h"
#include "wMDL.h"

static int me, bad;

static void want(int got, int code, const char *what)
{
    if (got != code) {
        fprintf(stdout, "w %d: %s returned %d, expected %d\n", me, what, got, code);
        bad = 1;
    }
}

/* Lines of different calls must not depend on timing: every instance
 * finishes a group of calls before the next group starts. */
static void sync_all(struct w *t)
{
    fflush(stderr);
    want(MDL_Barrier(t), MDL_SUCCESS, "barrier");
}

static void point_to_point(struct w *t)
{
    int other = 1 - me;
    want(MDL_SendTo_w_part(t, 5, 0, 1), MDL_ERR_RANK, "send to instance 5");
    want(MDL_SendTo_w_part(t, MDL_ANY, 0, 1), MDL_ERR_RANK, "send to MDL_ANY");
    want(MDL_SendTo_w_part(t, -3, 0, 1), MDL_ERR_RANK, "send to instance -3");
    want(MDL_RecvFrom_w_part(t, 9, 0, 1), MDL_ERR_RANK, "receive from instance 9");
    want(MDL_SendTo_w_part(t, other, 0, 8), MDL_ERR_BOUNDS, "section past the end");
    want(MDL_SendTo_w_part(t, other, -1, 2), MDL_ERR_BOUNDS, "negative bound");
    want(MDL_SendTo_w_part(t, other, 5, 2), MDL_ERR_BOUNDS, "lo > hi + 1");
    want(MDL_RecvFrom_w_part(t, other, 2, 9), MDL_ERR_BOUNDS, "receive past the end");
    t->p = NULL;
    want(MDL_SendTo_w_ptr(t, other, 0, 3), MDL_ERR_BOUNDS, "NULL pointer item");
    const int dup[] = { 1, 1 }, out[] = { 0, 2 }, longer[] = { 0, 1, 0 };
    want(MDL_SendTo_w_ml(t, dup, 2), MDL_ERR_RANK, "list with a duplicate");
    want(MDL_SendTo_w_ml(t, out, 2), MDL_ERR_RANK, "list out of range");
    want(MDL_SendTo_w_ml(t, NULL, 1), MDL_ERR_ARG, "NULL list");
    want(MDL_SendTo_w_ml(t, dup, -1), MDL_ERR_ARG, "negative list length");
    want(MDL_SendTo_w_ml(t, longer, INT_MAX), MDL_ERR_RANK, "list length far too large");
    want(MDL_Sbarrier(t, dup, 2), MDL_ERR_RANK, "Sbarrier list with a duplicate");
    want(MDL_Sbarrier(t, out, 2), MDL_ERR_RANK, "Sbarrier list out of range");
    want(MDL_Sbarrier(t, NULL, 2), MDL_ERR_ARG, "Sbarrier NULL list");
    sync_all(t);

    /* sizes that disagree: the receiver reports */
    for (int j = 0; j < 8; j++)
        t->V[j] = j;
    if (me == 0) {
        want(MDL_SendTo_w_part(t, 1, 0, 7), MDL_SUCCESS, "send 8");
        want(MDL_SendTo_w_part(t, 1, 0, 3), MDL_SUCCESS, "send 4");
        want(MDL_SendTo_w_late(t, 1, 0, 7), MDL_SUCCESS, "async send 8");
        want(MDL_lateWait(t), MDL_SUCCESS, "wait for the async send");
    } else {
        want(MDL_RecvFrom_w_part(t, 0, 0, 3), MDL_ERR_TRUNCATE, "8 into a receive of 4");
        want(MDL_RecvFrom_w_part(t, 0, 0, 7), MDL_ERR_TRUNCATE, "4 into a receive of 8");
        want(MDL_RecvFrom_w_late(t, 0, 0, 1), 0, "async receive of 2");
        want(MDL_lateWait(t), MDL_ERR_TRUNCATE, "8 into an async receive of 2");
    }
    sync_all(t);

    /* a send that repeats its last call is sent again from what the
     * runtime noted (docs/runtime-mpi.md): what the call's checks refuse
     * is refused after it too, with the same line */
    struct w copy = *t;
    if (me == 0) {
        want(MDL_SendTo_w_part(t, 1, 0, 7), MDL_SUCCESS, "send 8, noted");
        want(MDL_SendTo_w_part(&copy, 1, 0, 7), MDL_ERR_ARG,
             "the same send through a copy of the task struct");
        want(MDL_SendTo_w_part(t, 5, 0, 7), MDL_ERR_RANK, "the same send to instance 5");
        want(MDL_SendTo_w_part(t, 1, 0, 8), MDL_ERR_BOUNDS, "the same send past the end");
        want(MDL_SendTo_w_part(t, 1, 0, 7), MDL_SUCCESS, "send 8 again");
    } else {
        want(MDL_RecvFrom_w_part(t, 0, 0, 7), MDL_SUCCESS, "receive 8");
        want(MDL_RecvFrom_w_part(t, 0, 0, 7), MDL_SUCCESS, "receive 8 again");
    }
    sync_all(t);
}

static void collectives(struct w *t)
{
    t->n = 5;                   /* 2 x 5 elements do not fit in b[4] */
    want(MDL_Gather_g(t), MDL_ERR_BOUNDS, "Gather count beyond the receive");
    want(MDL_Allreduce_ar(t), MDL_ERR_BOUNDS, "Allreduce count beyond the variables");
    t->n = -1;
    want(MDL_Gather_g(t), MDL_ERR_ARG, "negative Gather count");
    want(MDL_Gather_g3(t), MDL_ERR_RANK, "root 3 of 2 instances");
    const int dup[] = { 1, 1 }, out[] = { 0, 2 };
    want(MDL_Mcast_mc(t, dup, 2), MDL_ERR_RANK, "Mcast list with a duplicate");
    want(MDL_Mcast_mc(t, out, 2), MDL_ERR_RANK, "Mcast list out of range");
    want(MDL_Mcast_mc(t, NULL, 1), MDL_ERR_ARG, "Mcast NULL list");
    t->tbl[0] = 1;
    t->tbl[1] = 5;
    t->tbl[2] = -1;
    want(MDL_Mcast_mt(t), MDL_ERR_RANK, "Mcast table out of range");
    t->tbl[1] = 1;
    want(MDL_Mcast_mt(t), MDL_ERR_RANK, "Mcast table with a duplicate");
    t->counts[0] = -1;
    t->counts[1] = 1;
    t->displs[0] = 0;
    t->displs[1] = 1;
    want(MDL_ScatterV_sv(t), MDL_ERR_ARG, "negative count in counts");
    t->counts[0] = 1;
    t->displs[1] = 16;
    want(MDL_ScatterV_sv(t), MDL_ERR_BOUNDS, "block past the send variable");
    t->counts[0] = 3;
    t->displs[1] = 3;
    want(MDL_ScatterV_sv(t), MDL_ERR_BOUNDS, "block larger than the receive");
    t->displs[1] = -2;
    want(MDL_ScatterV_sv(t), MDL_ERR_ARG, "negative displacement");
    sync_all(t);
    /* counts that differ between instances: the root gets a block larger
     * than its place */
    t->counts[0] = 2;
    t->counts[1] = me == 0 ? 1 : 2;
    t->displs[0] = 0;
    t->displs[1] = 2;
    want(MDL_GatherV_gv(t), me == 0 ? MDL_ERR_TRUNCATE : MDL_SUCCESS, "GatherV counts differ");
    sync_all(t);
}

static void grid_on_a_plain_task(struct w *t)
{
    int c[2], dims[2] = { 0, 0 };
    want(mdl_grid_create(t->mdl_rt_, dims, 0), MDL_ERR_GRID, "grid on a task without one");
    want(mdl_grid_mycoords(t->mdl_rt_, c), MDL_ERR_GRID, "coordinates without a grid");
    want(mdl_task_size(t->mdl_rt_, 7), MDL_ERR_ARG, "size of task 7");
    sync_all(t);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    struct w *t, *none = NULL;
    if (strcmp(mode, "all") == 0) {
        want(mdl_my_rank(NULL), MDL_ERR_STATE, "a call before MDL_Init");
        /* the natural mistake: a task pointer not set yet */
        want(MDL_SendTo_w_part(none, 1, 0, 1), MDL_ERR_STATE, "a send before MDL_Init");
        want(MDL_RecvFrom_w_part(none, MDL_ANY, 0, 1), MDL_ERR_STATE, "a receive before MDL_Init");
        want(MDL_lateWait(none), MDL_ERR_STATE, "a Wait before MDL_Init");
        want(MDL_Gather_g(none), MDL_ERR_STATE, "a Gather before MDL_Init");
        want(MDL_Barrier(none), MDL_ERR_STATE, "a barrier before MDL_Init");
        want(MDL_MyRank(none), MDL_ERR_STATE, "MDL_MyRank before MDL_Init");
        want(MDL_End(none), MDL_ERR_STATE, "MDL_End before MDL_Init");
        want(MDL_Init((struct w **)NULL, &argc, &argv), MDL_ERR_ARG, "MDL_Init(NULL)");
        /* the Fortran modules' layout check with no runtime: an error, not
         * a read through the marker of no runtime */
        void *const addr[] = { NULL };
        const size_t size[] = { 0 };
        want(mdl_check_layout(NULL, "0", 1, "w", addr, size), MDL_ERR_STATE,
             "a layout check before MDL_Init");
        /* the entry of the C++ class's MDL_Init, called from C */
        static struct w small;
        want(w_MDL_Init_at(NULL, sizeof small, &argc, &argv), MDL_ERR_ARG, "MDL_Init_at of NULL");
        want(w_MDL_Init_at(&small, 16, &argc, &argv), MDL_ERR_ARG, "MDL_Init_at too small");
    }
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    if (strcmp(mode, "fatal-rank") == 0) {
        if (me == 0)
            MDL_SendTo_w_part(t, 5, 0, 1);
        MDL_Barrier(t);
        return 0;
    }
    if (strcmp(mode, "fatal-truncate") == 0) {
        if (me == 0)
            MDL_SendTo_w_part(t, 1, 0, 7);
        else
            MDL_RecvFrom_w_part(t, 0, 0, 3);
        MDL_Barrier(t);
        return 0;
    }
    struct w *t2;
    want(MDL_Init(&t2, &argc, &argv), MDL_ERR_STATE, "MDL_Init twice");
    struct w copy = *t;
    want(mdl_my_rank((mdl_rt *)&copy), MDL_ERR_STATE, "not the runtime handle");
    want(MDL_SendTo_w_part(none, 0, 0, 1), MDL_ERR_ARG, "a send through NULL after MDL_Init");
    sync_all(t);
    point_to_point(t);
    collectives(t);
    grid_on_a_plain_task(t);
    want(MDL_End(&copy), MDL_ERR_ARG, "MDL_End of another struct");
    want(MDL_End(t), MDL_SUCCESS, "MDL_End");
    want(MDL_Barrier(&copy), MDL_ERR_STATE, "a call after MDL_End");
    want(MDL_Barrier(none), MDL_ERR_STATE, "a call through NULL after MDL_End");
    want(MDL_Init(&t2, &argc, &argv), MDL_ERR_STATE, "MDL_Init after MDL_End");
    if (bad)
        return 1;
    printf("w %d: OK\n", me);
    return 0;
}
