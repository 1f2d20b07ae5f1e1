/* direct: large messages between the two instances, each step checked
 * element by element (and what the receive must not touch). */
#include <stdio.h>
#include "dMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "d %d: %s\n", me, what);
    return 1;
}

static double val(int step, int i, int j)
{
    return step * 1e6 + i * N + j;
}

static void fill(struct d *t, int step)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            t->A[i][j] = val(step, i, j);
            t->B[i][j] = -1;
        }
}

/* B[i][j] for i in [r0, r1], j in [c0, c1] is A of `step` at (i + di,
 * j + dj); everything else is still -1. */
static int check(struct d *t, int step, int r0, int r1, int c0, int c1, int di, int dj)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int in = i >= r0 && i <= r1 && j >= c0 && j <= c1;
            double want = in ? val(step, i + di, j + dj) : -1;
            if (t->B[i][j] != want) {
                fprintf(stderr, "d %d: step %d: B[%d][%d] = %g, not %g\n", me, step, i, j,
                        t->B[i][j], want);
                return 0;
            }
        }
    return 1;
}

int main(int argc, char **argv)
{
    struct d *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    if (MDL_FamilySize(t) != 2)
        return fail("launch with -n 2");
    int other = 1 - me;

    /* 1: a strided block (128 x 64, 64 KiB) from instance 0, named */
    fill(t, 1);
    if (me == 0 ? MDL_SendTo_d_blk(t, 1, 0, N - 1, 32, 95) != MDL_SUCCESS
                : MDL_RecvFrom_d_blk(t, 0, 0, N - 1, 64, 127) != 0)
        return fail("step 1");
    if (me == 1 && !check(t, 1, 0, N - 1, 64, 127, 0, -32))
        return 1;

    /* 2: the same from instance 1, received from MDL_ANY */
    fill(t, 2);
    if (me == 1 ? MDL_SendTo_d_blk(t, 0, 0, N - 1, 0, 63) != MDL_SUCCESS
                : MDL_RecvFrom_d_blk(t, MDL_ANY, 0, N - 1, 0, 63) != 1)
        return fail("step 2");
    if (me == 0 && !check(t, 2, 0, N - 1, 0, 63, 0, 0))
        return 1;

    /* 3: two async sends on one channel, received in order */
    fill(t, 3);
    if (me == 1) {
        if (MDL_SendTo_d_ablk(t, 0, 64, N - 1, 0, N - 1) ||
            MDL_SendTo_d_ablk(t, 0, 0, 63, 0, N - 1) || MDL_ablkWait(t))
            return fail("step 3 sends");
    } else {
        if (MDL_RecvFrom_d_ablk(t, 1, 0, 63, 0, N - 1) != 1 ||
            MDL_RecvFrom_d_ablk(t, 1, 64, N - 1, 0, N - 1) != 1 || MDL_ablkWait(t))
            return fail("step 3 receives");
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (t->B[i][j] != val(3, i < 64 ? i + 64 : i - 64, j))
                    return fail("step 3: the messages out of order or wrong");
    }

    /* 4: both exchange their whole A (128 KiB) through one name */
    fill(t, 4 + me);
    if (MDL_SendTo_d_swap(t, other) || MDL_RecvFrom_d_swap(t, other) != other ||
        MDL_swapWait(t))
        return fail("step 4");
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (t->B[i][j] != val(4 + other, i, j))
                return fail("step 4 values");

    /* 5: the receiver in a barrier while the sync sender waits */
    fill(t, 5);
    if (me == 0) {
        if (MDL_RecvFrom_d_s2a(t, 1, 0, 63, 0, N - 1) != 1 || MDL_Barrier(t) || MDL_s2aWait(t))
            return fail("step 5 receive");
        if (!check(t, 5, 0, 63, 0, N - 1, 0, 0))
            return 1;
    } else if (MDL_SendTo_d_s2a(t, 0, 0, 63, 0, N - 1) || MDL_Barrier(t)) {
        return fail("step 5 send");
    }

    /* 6: the receiver receiving what the sender sends after */
    fill(t, 6);
    t->x = 6;
    if (me == 0) {
        t->x = 0;
        if (MDL_RecvFrom_d_s2a(t, 1, 64, N - 1, 0, N - 1) != 1 ||
            MDL_RecvFrom_d_tiny(t, 1) != 1 || MDL_s2aWait(t) || t->x != 6)
            return fail("step 6 receive");
        if (!check(t, 6, 64, N - 1, 0, N - 1, -64, 0))
            return 1;
    } else if (MDL_SendTo_d_s2a(t, 0, 0, 63, 0, N - 1) || MDL_SendTo_d_tiny(t, 0)) {
        return fail("step 6 send");
    }

    /* 7: the receiver polling with Test for what the sender sends after */
    fill(t, 7);
    t->x = 7;
    if (me == 0) {
        t->x = 0;
        if (MDL_RecvFrom_d_s2a(t, 1, 0, 63, 0, N - 1) != 1 || MDL_RecvFrom_d_atiny(t, 1) != 1)
            return fail("step 7 receive");
        int done;
        while ((done = MDL_atinyTest(t)) == 0)
            ;
        if (done != 1 || t->x != 7 || MDL_s2aWait(t))
            return fail("step 7 completion");
        if (!check(t, 7, 0, 63, 0, N - 1, 64, 0))
            return 1;
    } else if (MDL_SendTo_d_s2a(t, 0, 64, N - 1, 0, N - 1) != MDL_SUCCESS ||
               MDL_SendTo_d_atiny(t, 0) || MDL_atinyWait(t)) {
        return fail("step 7 send");
    }

    /* 8: each waits for its send first (p from 0, q from 1): each copies
     * the other's message while it waits */
    fill(t, 8 + me);
    int bad8;
    if (me == 0)
        bad8 = MDL_SendTo_d_p(t, 1, 0, 63, 0, N - 1) ||
               MDL_RecvFrom_d_q(t, 1, 64, N - 1, 0, N - 1) != 1 || MDL_pWait(t) || MDL_qWait(t);
    else
        bad8 = MDL_SendTo_d_q(t, 0, 0, 63, 0, N - 1) ||
               MDL_RecvFrom_d_p(t, 0, 64, N - 1, 0, N - 1) != 0 || MDL_qWait(t) || MDL_pWait(t);
    if (bad8)
        return fail("step 8");
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (t->B[i][j] != (i < 64 ? -1 : val(8 + other, i - 64, j)))
                return fail("step 8 values");

    /* 9: a receive MDL_End finds matched: the sender is not left waiting */
    fill(t, 9);
    if (me == 0) {
        if (MDL_RecvFrom_d_ablk(t, 1, 0, 63, 0, N - 1) != 1 || MDL_RecvFrom_d_tiny(t, 1) != 1)
            return fail("step 9 receive");
    } else if (MDL_SendTo_d_ablk(t, 0, 0, 63, 0, N - 1) || MDL_SendTo_d_tiny(t, 0) ||
               MDL_ablkWait(t)) {
        return fail("step 9 send");
    }
    if (MDL_End(t) != MDL_SUCCESS)
        return fail("MDL_End");
    if (me == 0)
        printf("d ok\n");
    return 0;
}
