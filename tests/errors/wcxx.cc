// wcxx.cc — the misuses of w.c that a C++ program can make through the
// class binding (wMDL.hh: methods of the task object), run with errors
// returned and printed.  Each call must return the C function's code, and
// tests/suite-errors.sh checks that every line printed is one the C
// program w.c prints too: a fault reads the same whichever binding made it.
// Two instances.
#include <climits>
#include <cstdio>

#include "wMDL.hh"

static int me, bad;
static w t;                     // namespace scope, as in the thesis's Annex A

static void want(int got, int code, const char *what)
{
    if (got != code) {
        std::printf("wcxx %d: %s returned %d, expected %d\n", me, what, got, code);
        bad = 1;
    }
}

static void sync_all()
{
    std::fflush(stderr);
    want(t.MDL_Barrier(), MDL_SUCCESS, "barrier");
}

static void point_to_point()
{
    int other = 1 - me;
    want(t.MDL_SendTo_w_part(5, 0, 1), MDL_ERR_RANK, "send to instance 5");
    want(t.MDL_SendTo_w_part(MDL_ANY, 0, 1), MDL_ERR_RANK, "send to MDL_ANY");
    want(t.MDL_SendTo_w_part(-3, 0, 1), MDL_ERR_RANK, "send to instance -3");
    want(t.MDL_RecvFrom_w_part(9, 0, 1), MDL_ERR_RANK, "receive from instance 9");
    want(t.MDL_SendTo_w_part(other, 0, 8), MDL_ERR_BOUNDS, "section past the end");
    want(t.MDL_SendTo_w_part(other, -1, 2), MDL_ERR_BOUNDS, "negative bound");
    want(t.MDL_RecvFrom_w_part(other, 2, 9), MDL_ERR_BOUNDS, "receive past the end");
    t.p = nullptr;
    want(t.MDL_SendTo_w_ptr(other, 0, 3), MDL_ERR_BOUNDS, "NULL pointer item");
    const int dup[] = { 1, 1 }, out[] = { 0, 2 };
    want(t.MDL_SendTo_w_ml(dup, 2), MDL_ERR_RANK, "list with a duplicate");
    want(t.MDL_SendTo_w_ml(out, 2), MDL_ERR_RANK, "list out of range");
    want(t.MDL_SendTo_w_ml(nullptr, 1), MDL_ERR_ARG, "NULL list");
    want(t.MDL_Sbarrier(dup, 2), MDL_ERR_RANK, "Sbarrier list with a duplicate");
    sync_all();

    // sizes that disagree: the receiver reports, through a method and
    // through the C API's short name on the same object
    for (int j = 0; j < 8; j++)
        t.V[j] = j;
    if (me == 0) {
        want(t.MDL_SendTo_w_part(1, 0, 7), MDL_SUCCESS, "send 8");
        want(MDL_SendTo_w_part(&t, 1, 0, 3), MDL_SUCCESS, "send 4");
        want(t.MDL_SendTo_w_late(1, 0, 7), MDL_SUCCESS, "async send 8");
        want(t.MDL_lateWait(), MDL_SUCCESS, "wait for the async send");
    } else {
        want(t.MDL_RecvFrom_w_part(0, 0, 3), MDL_ERR_TRUNCATE, "8 into a receive of 4");
        want(MDL_RecvFrom_w_part(&t, 0, 0, 7), MDL_ERR_TRUNCATE, "4 into a receive of 8");
        want(t.MDL_RecvFrom_w_late(0, 0, 1), 0, "async receive of 2");
        want(t.MDL_lateWait(), MDL_ERR_TRUNCATE, "8 into an async receive of 2");
    }
    sync_all();
}

static void collectives()
{
    t.n = 5;
    want(t.MDL_Gather_g(), MDL_ERR_BOUNDS, "Gather count beyond the receive");
    t.n = -1;
    want(t.MDL_Gather_g(), MDL_ERR_ARG, "negative Gather count");
    want(t.MDL_Gather_g3(), MDL_ERR_RANK, "root 3 of 2 instances");
    const int dup[] = { 1, 1 };
    want(t.MDL_Mcast_mc(dup, 2), MDL_ERR_RANK, "Mcast list with a duplicate");
    t.tbl[0] = 1;
    t.tbl[1] = 5;
    t.tbl[2] = -1;
    want(t.MDL_Mcast_mt(), MDL_ERR_RANK, "Mcast table out of range");
    sync_all();
}

int main(int argc, char **argv)
{
    // named by the task, as the C API's NULL task pointer is
    want(t.MDL_MyRank(), MDL_ERR_STATE, "a method before MDL_Init");
    want(t.MDL_SendTo_w_part(1, 0, 1), MDL_ERR_STATE, "a send method before MDL_Init");
    want(t.MDL_lateWait(), MDL_ERR_STATE, "a Wait method before MDL_Init");
    if (t.MDL_Init(&argc, &argv) != MDL_SUCCESS)
        return 1;
    me = t.MDL_MyRank();
    want(t.MDL_Init(&argc, &argv), MDL_ERR_STATE, "MDL_Init twice");
    {
        w other;
        want(other.MDL_Init(&argc, &argv), MDL_ERR_STATE, "MDL_Init of a second object");
    }
    sync_all();
    point_to_point();
    collectives();
    want(t.MDL_End(), MDL_SUCCESS, "MDL_End");
    want(t.MDL_Barrier(), MDL_ERR_STATE, "a method after MDL_End");
    want(t.MDL_Init(&argc, &argv), MDL_ERR_STATE, "MDL_Init after MDL_End");
    if (bad)
        return 1;
    std::printf("wcxx %d: OK\n", me);
    return 0;
}
