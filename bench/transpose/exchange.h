/* The exchange and the timed run of the MeDLey transpose programs
 * (transpose.c here and in ../transpose_rt, whose specs name the task,
 * its variables and message alike).  An exchange: the receives of every
 * block the others owe, the sends of the own blocks straight from a, the
 * local blocks transposed, the Wait, the received blocks transposed where
 * they landed.  Included after the generated header, transpose.h and
 * bench.h. */
#ifndef MEDLEY_BENCH_TRANSPOSE_EXCHANGE_H
#define MEDLEY_BENCH_TRANSPOSE_EXCHANGE_H

/* Rows and columns of block (I, J) as bounds of a call: *r rows, *c columns. */
static void bounds(const tr_run *s, int I, int J, int r[2], int c[2])
{
    r[0] = (I - tr_first(s, I / s->own)) * s->bs;
    r[1] = r[0] + s->bs - 1;
    c[0] = J * s->bs;
    c[1] = c[0] + s->bs - 1;
}

/* a, b: the matrices' first elements */
static void exchange(struct transpose *t, const tr_run *s, double *a, double *b)
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
    tr_local(s, a, b);
    MDL_blockWait(t);
    tr_received(s, b);
}

/* The run once the matrices' rows are set (s->ld): one untimed
 * iteration, then s->iters timed; the slowest instance's time printed
 * under `name` by instance 0, the MDL_End.  The exit status. */
static int tr_mdl_run(struct transpose *t, tr_run *s, double *a, double *b, const char *name)
{
    tr_fill(s, a, b);
    for (int k = 0; k <= s->iters; k++) {
        if (k == 1) {
            MDL_Barrier(t);
            t->t = bench_now();
        }
        exchange(t, s, a, b);
        tr_bump(s, a);
    }
    t->t = bench_now() - t->t;
    MDL_Reduce_slowest(t);
    int rc = bench_kernel_end(name, "elements", s->me, s->order, t->tmax, s->iters,
                              tr_check(s, b, s->iters + 1));
    MDL_End(t);
    return rc;
}

#endif
