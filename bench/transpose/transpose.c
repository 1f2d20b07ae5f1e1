/* The blocked transpose on the generated stubs (either runtime):
 *     transpose [order] [blocks] [iterations]
 * One untimed iteration, then `iterations` timed; instance 0 prints the
 * slowest instance's time per iteration.  Each iteration posts the
 * receives of every block the others owe it, sends its own blocks straight
 * from a, transposes the blocks it keeps, waits, transposes the received
 * blocks where they landed in b, and adds 1 to a.  Exit status 1 when an
 * element is wrong (transpose.h) or the matrix does not fit the spec's
 * ORDER x ROWS (the program is built for one size: -D ORDER, ROWS). */
#include "transposeMDL.h"
#include "../bench.h"
#include "transpose.h"

/* Rows and columns of block (I, J) as bounds of a call: *r rows, *c columns. */
static void bounds(const tr_run *s, int I, int J, int r[2], int c[2])
{
    r[0] = (I - tr_first(s, I / s->own)) * s->bs;
    r[1] = r[0] + s->bs - 1;
    c[0] = J * s->bs;
    c[1] = c[0] + s->bs - 1;
}

static void exchange(struct transpose *t, const tr_run *s)
{
    int me = s->me, np = s->np, f = tr_first(s, me), r[2], c[2];
    for (int p = 1; p < np; p++) {      /* from q, in the order q sends them */
        int q = (me + p) % np;
        for (int I = tr_first(s, q); I < tr_first(s, q) + s->own; I++)
            for (int J = f; J < f + s->own; J++) {
                bounds(s, J, I, r, c);  /* block (J, I) of B */
                MDL_RecvFrom_transpose_block(t, q, r[0], r[1], c[0], c[1]);
            }
    }
    for (int p = 1; p < np; p++) {
        int q = (me - p + np) % np;
        for (int I = f; I < f + s->own; I++)
            for (int J = tr_first(s, q); J < tr_first(s, q) + s->own; J++) {
                bounds(s, I, J, r, c);
                MDL_SendTo_transpose_block(t, q, r[0], r[1], c[0], c[1]);
            }
    }
    tr_local(s, &t->a[0][0], &t->b[0][0]);
    MDL_blockWait(t);
    tr_received(s, &t->b[0][0]);
}

int main(int argc, char **argv)
{
    struct transpose *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    tr_run s;
    if (!tr_setup(&s, argc, argv, MDL_FamilySize(t), MDL_MyRank(t)))
        return 1;
    if (s.order > ORDER || s.rows > ROWS) {
        fprintf(stderr, "transpose: %d rows of %d, but built for %d of %d (medleyc -D ORDER=%d "
                "-D ROWS=%d)\n", s.rows, s.order, ROWS, ORDER, s.order, s.rows);
        return 1;
    }
    s.ld = ORDER;               /* the spec's row: padded when the order is smaller */
    tr_fill(&s, &t->a[0][0], &t->b[0][0]);
    for (int k = 0; k <= s.iters; k++) {
        if (k == 1) {
            MDL_Barrier(t);
            t->t = bench_now();
        }
        exchange(t, &s);
        tr_bump(&s, &t->a[0][0]);
    }
    t->t = bench_now() - t->t;
    MDL_Reduce_slowest(t);
    int rc = bench_kernel_end("transpose", "elements", s.me, s.order, t->tmax, s.iters,
                              tr_check(&s, &t->b[0][0], s.iters + 1));
    MDL_End(t);
    return rc;
}
