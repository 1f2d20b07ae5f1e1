/* Ring + Allreduce, hand-written MPI (the reference): MPI_Sendrecv for
 * the ring shift. */
#include <mpi.h>
#include "../bench.h"
#include "oversub.h"

static double x[RN], y[RN];

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np, iters, nb, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int right = (me + 1) % np, left = (me + np - 1) % np;
    ov_plan(np, bench_quick(), &iters, &nb);
    for (int k = 0; k < RN; k++)
        x[k] = me * 1000 + k;
    double s = me, tot = 0;
    double tb[BENCH_MAXBATCH];
    for (int b = -1; b < nb; b++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = bench_now();
        for (int k = 0; k < iters; k++) {
            MPI_Sendrecv(x, RN, MPI_DOUBLE, right, 0, y, RN, MPI_DOUBLE, left, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Allreduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        if (b >= 0)
            tb[b] = (bench_now() - t0) / iters;
    }
    if (y[RN - 1] != left * 1000 + RN - 1 || tot != np * (np - 1) / 2.0) {
        fprintf(stderr, "oversub: rank %d: wrong data\n", me);
        bad = 1;
    }
    if (me == 0)
        bench_emit("oversub", "ring+allreduce", RN * 8, tb, nb);
    MPI_Finalize();
    return bad;
}
