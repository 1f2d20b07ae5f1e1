/* The blocked transpose on the generated stubs, its matrices sized at run
 * time (spec.mdl): as ../transpose/transpose.c, but any order and
 * instance count with one build, the rows exactly the matrix's.
 *     transpose [order] [blocks] [iterations] */
#include "transposeMDL.h"
#include "../bench.h"
#include "../transpose/transpose.h"

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
    tr_local(s, t->a, t->b);
    MDL_blockWait(t);
    tr_received(s, t->b);
}

int main(int argc, char **argv)
{
    struct transpose *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    tr_run s;
    if (!tr_setup(&s, argc, argv, MDL_FamilySize(t), MDL_MyRank(t)))
        return 1;
    t->rows = s.rows;
    t->order = s.order;
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return 1;
    s.ld = s.order;
    tr_fill(&s, t->a, t->b);
    for (int k = 0; k <= s.iters; k++) {
        if (k == 1) {
            MDL_Barrier(t);
            t->t = bench_now();
        }
        exchange(t, &s);
        tr_bump(&s, t->a);
    }
    t->t = bench_now() - t->t;
    MDL_Reduce_slowest(t);
    int rc = bench_kernel_end("transpose_rt", "elements", s.me, s.order, t->tmax, s.iters,
                              tr_check(&s, t->b, s.iters + 1));
    MDL_End(t);
    return rc;
}
