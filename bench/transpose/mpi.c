/* The blocked transpose, hand-written MPI (the reference), as the
 * Parallel Research Kernels write it:
 *     transpose [order] [blocks] [iterations]
 * each block sent is transposed while it is packed into a contiguous
 * buffer of its own, received into another and copied into place in B;
 * every receive posted first, the sends, the blocks it keeps transposed
 * locally, one MPI_Waitall.  Contiguous, not a vector type of the block
 * straight from A: with MPICH 4.0.2 (ch4:ucx, no yaksa) the vector type
 * made the whole transpose 4-5.5 times slower (4 instances, order 4096;
 * docs/performance.md), contiguous blocks going in one copy (UCX's cma).
 * The arrays are allocated to their size at run time.  Same timing and
 * check as the MeDLey program (transpose.h). */
#include <mpi.h>
#include "../bench.h"
#include "transpose.h"

/* the name of the results: ../transpose_rt includes this file under its own */
#ifndef TR_BENCH
#define TR_BENCH "transpose"
#endif

/* A block received contiguous (rows bs apart) put in its place, rows ld
 * apart. */
static void place(const tr_run *s, double *to, const double *from)
{
    for (long i = 0; i < s->bs; i++)
        for (long j = 0; j < s->bs; j++)
            to[i * s->ld + j] = from[i * s->bs + j];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np, me;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    tr_run s;
    if (!tr_setup(&s, argc, argv, np, me))
        MPI_Abort(MPI_COMM_WORLD, 1);
    /* per partner and direction own x own blocks of bs x bs */
    int nblk = (np - 1) * s.own * s.own;
    size_t n = (size_t)s.rows * (size_t)s.ld, bsz = (size_t)s.bs * (size_t)s.bs;
    double *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    double *in = malloc(sizeof *in * bsz * (size_t)(nblk ? nblk : 1));
    double *out = malloc(sizeof *out * bsz * (size_t)(nblk ? nblk : 1));
    MPI_Request *rq = malloc(sizeof *rq * (size_t)(2 * nblk + 1));
    MPI_Status *st = malloc(sizeof *st * (size_t)(2 * nblk + 1));
    if (!a || !b || !in || !out || !rq || !st)
        MPI_Abort(MPI_COMM_WORLD, 1);
    tr_fill(&s, a, b);
    int f = tr_first(&s, me);
    double t0 = 0;
    for (int k = 0; k <= s.iters; k++) {
        if (k == 1) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = bench_now();
        }
        int r = 0, x = 0;
        for (int p = 1; p < np; p++) {
            int q = (me + p) % np;
            for (int I = tr_first(&s, q); I < tr_first(&s, q) + s.own; I++)
                for (int J = f; J < f + s.own; J++, x++)
                    MPI_Irecv(in + bsz * (size_t)x, (int)bsz, MPI_DOUBLE, q, 0, MPI_COMM_WORLD,
                              &rq[r++]);
        }
        x = 0;
        for (int p = 1; p < np; p++) {
            int q = (me - p + np) % np;
            for (int I = f; I < f + s.own; I++)
                for (int J = tr_first(&s, q); J < tr_first(&s, q) + s.own; J++, x++) {
                    double *o = out + bsz * (size_t)x;
                    tr_copy(&s, o, s.bs, tr_a_block(&s, a, I, J), s.ld);
                    MPI_Isend(o, (int)bsz, MPI_DOUBLE, q, 0, MPI_COMM_WORLD, &rq[r++]);
                }
        }
        tr_local(&s, a, b);
        MPI_Waitall(r, rq, st);
        x = 0;
        for (int p = 1; p < np; p++) {
            int q = (me + p) % np;
            for (int I = tr_first(&s, q); I < tr_first(&s, q) + s.own; I++)
                for (int J = f; J < f + s.own; J++, x++)
                    place(&s, tr_b_block(&s, b, I, J), in + bsz * (size_t)x);
        }
        tr_bump(&s, a);
    }
    double t = bench_now() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    int rc = bench_kernel_end(TR_BENCH, "elements", me, s.order, tmax, s.iters,
                              tr_check(&s, b, s.iters + 1));
    free(rq);
    free(st);
    free(in);
    free(out);
    free(a);
    free(b);
    MPI_Finalize();
    return rc;
}
