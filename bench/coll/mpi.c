/* Bcast, Allreduce, Alltoall, hand-written MPI (the reference). */
#include <mpi.h>
#include "../bench.h"
#include "coll.h"

static double a[MAXC], b[MAXC];
enum { BC, AR, AA };
static const char *const names[] = { "bcast", "allreduce", "alltoall" };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int quick = bench_quick(), nb = quick ? COLL_QUICK_BATCHES : COLL_BATCHES;
    for (int op = BC; op <= AA; op++)
        for (int s = 0; s < COLL_NSIZES; s++) {
            long bytes = coll_bytes[s];
            int n = (int)(bytes / 8), nblk = n / np;
            int iters = coll_iters(bytes, quick);
            double tb[BENCH_MAXBATCH];
            for (int bt = -1; bt < nb; bt++) {
                for (int k = 0; k < n; k++)
                    a[k] = me + k;
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = bench_now();
                for (int k = 0; k < iters; k++) {
                    if (op == BC)
                        MPI_Bcast(a, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                    else if (op == AR)
                        MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                    else
                        MPI_Alltoall(a, nblk, MPI_DOUBLE, b, nblk, MPI_DOUBLE, MPI_COMM_WORLD);
                }
                /* first start to last end: -t0 and t1 reduced by MAX */
                double tv[2] = { -t0, bench_now() }, tr[2];
                MPI_Reduce(tv, tr, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
                if (bt >= 0)
                    tb[bt] = (tr[1] + tr[0]) / iters;
            }
            long k = n - 1;
            double want = op == BC ? (double)k
                        : op == AR ? (double)np * k + np * (np - 1) / 2.0
                        : (double)(np - 1) + (double)me * nblk + (k % nblk);
            double got = op == BC ? a[k] : b[k];
            if (got != want) {
                fprintf(stderr, "coll %s: rank %d: got %g want %g\n", names[op], me, got, want);
                bad = 1;
            }
            if (me == 0)
                bench_emit("coll", names[op], bytes, tb, nb);
        }
    MPI_Finalize();
    return bad;
}
