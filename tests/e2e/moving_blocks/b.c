/* moving_blocks: every instance sends every other one (and itself) a 2 x 3
 * block of `a` taken at a place that depends on both, received into `got`
 * at another such place; twice, by an async send with sync receives and by
 * sync sends with async receives; then the same bounds before and after a
 * block of another shape.  Then, with MDL_ERRORS=return, the same shape out
 * of bounds on all four functions. */
#include <stdio.h>
#include "bMDL.h"

static int me, bad;

static void want(int got, int code, const char *what)
{
    if (got != code) {
        fprintf(stderr, "b %d: %s returned %d, expected %d\n", me, what, got, code);
        bad = 1;
    }
}

/* where q's block from p is taken (src) and put (dst), second exchange k */
static int src_row(int p, int q, int k) { return (p + 2 * q + k) % (R - 1); }
static int src_col(int p, int q, int k) { return (3 * p + q + k) % (C - 2); }
static int dst_row(int p, int q, int k) { return (q + 3 * p + k) % (R - 1); }
static int dst_col(int p, int q, int k) { return (2 * p + q + 2 * k) % (C - 2); }

/* got holds the h x w blocks of senders p0..p1-1 of exchange k, -1 elsewhere */
static int check(struct b *t, int p0, int p1, int k, int h, int w)
{
    int n = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int want_v = -1;
            for (int p = p0; p < p1; p++) {
                int dr = r - dst_row(p, me, k), dc = c - dst_col(p, me, k);
                if (dr >= 0 && dr < h && dc >= 0 && dc < w)
                    want_v = 1000 * p + 10 * (src_row(p, me, k) + dr) + src_col(p, me, k) + dc;
            }
            n += t->got[r][c] != want_v;
        }
    return n;
}

int main(int argc, char **argv)
{
    struct b *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int np = MDL_FamilySize(t);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            t->a[r][c] = 1000 * me + 10 * r + c;
    if (np > 2) {               /* destinations must not overlap */
        fprintf(stderr, "moving_blocks: 1 or 2 instances\n");
        return 1;
    }

    /* 1: async sends, sync receives (the MPI runtime's short paths) */
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            t->got[r][c] = -1;
    for (int q = 0; q < np; q++) {
        int r0 = src_row(me, q, 0), c0 = src_col(me, q, 0);
        want(MDL_SendTo_b_out(t, q, r0, r0 + 1, c0, c0 + 2), MDL_SUCCESS, "async send");
    }
    for (int p = 0; p < np; p++) {
        int r0 = dst_row(p, me, 0), c0 = dst_col(p, me, 0);
        want(MDL_RecvFrom_b_in(t, p, r0, r0 + 1, c0, c0 + 2), p, "sync receive");
    }
    want(MDL_outWait(t), MDL_SUCCESS, "wait for the sends");
    want(check(t, 0, np, 0, 2, 3), 0, "misplaced values, exchange 1");

    /* 2: async receives posted first, then sync sends */
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            t->got[r][c] = -1;
    for (int p = 0; p < np; p++) {
        int r0 = dst_row(p, me, 1), c0 = dst_col(p, me, 1);
        want(MDL_RecvFrom_b_in2(t, p, r0, r0 + 1, c0, c0 + 2), p, "async receive");
    }
    for (int q = 0; q < np; q++) {
        int r0 = src_row(me, q, 1), c0 = src_col(me, q, 1);
        want(MDL_SendTo_b_out2(t, q, r0, r0 + 1, c0, c0 + 2), MDL_SUCCESS, "sync send");
    }
    want(MDL_in2Wait(t), MDL_SUCCESS, "wait for the receives");
    want(check(t, 0, np, 1, 2, 3), 0, "misplaced values, exchange 2");

    /* 3: one block to the next instance, its bounds repeated after a call
     * of another shape: it has the shape of its own bounds (the MPI
     * runtime's cache of the last bounds is dropped with the datatype) */
    static const int shape[3][2] = { { 2, 3 }, { 1, 2 }, { 2, 3 } };
    int other = (me + 1) % np, prev = (me + np - 1) % np;
    for (int k = 0; k < 3; k++) {
        int h = shape[k][0], w = shape[k][1];
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++)
                t->got[r][c] = -1;
        int r0 = src_row(me, other, 2), c0 = src_col(me, other, 2);
        want(MDL_SendTo_b_out(t, other, r0, r0 + h - 1, c0, c0 + w - 1), MDL_SUCCESS,
             "async send");
        r0 = dst_row(prev, me, 2);
        c0 = dst_col(prev, me, 2);
        want(MDL_RecvFrom_b_in(t, prev, r0, r0 + h - 1, c0, c0 + w - 1), prev, "sync receive");
        want(MDL_outWait(t), MDL_SUCCESS, "wait for the send");
        want(check(t, prev, prev + 1, 2, h, w), 0, "misplaced values, exchange 3");
    }

    /* the cached 2 x 3 shape, out of bounds: refused, nothing moves */
    want(MDL_SendTo_b_out(t, other, R - 1, R, 0, 2), MDL_ERR_BOUNDS, "rows past the end");
    want(MDL_SendTo_b_out2(t, other, -1, 0, 0, 2), MDL_ERR_BOUNDS, "negative row");
    want(MDL_RecvFrom_b_in(t, other, 0, 1, C - 2, C), MDL_ERR_BOUNDS, "columns past the end");
    want(MDL_RecvFrom_b_in2(t, other, 0, 1, -2, 0), MDL_ERR_BOUNDS, "negative column");
    want(MDL_outWait(t), MDL_SUCCESS, "nothing pending");
    want(MDL_in2Wait(t), MDL_SUCCESS, "nothing pending");

    MDL_Barrier(t);
    if (MDL_End(t) != MDL_SUCCESS || bad)
        return 1;
    if (me == 0)
        printf("moving_blocks: OK\n");
    return 0;
}
