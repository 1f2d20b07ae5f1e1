/* Halo exchange, hand-written MPI (the reference): halo_mpi.h's exchange,
 * timed as every benchmark program is (bench.h). */
#include "../bench.h"
#include "halo.h"
#include "halo_mpi.h"

static double U[N + 2][N + 2];
static struct bench_each each;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct halo_mpi h;
    int np = halo_mpi_init(&h, U, MPI_COMM_WORLD);
    int quick = bench_quick(), nb = quick ? HALO_QUICK_BATCHES : HALO_BATCHES;
    int iters = halo_iters(N, np, quick);
    double tb[BENCH_MAXBATCH];
    for (int b = -1; b < nb; b++) {
        MPI_Barrier(h.cart);
        double t0 = each.last = bench_now();
        for (int k = 0; k < iters; k++) {
            halo_mpi_exchange(&h);
            bench_each_mark(&each, b >= 0);
        }
        if (b >= 0)
            tb[b] = (bench_now() - t0) / iters;
    }
    int bad = halo_mpi_bad(&h, U);
    if (bad)
        fprintf(stderr, "halo: rank %d: wrong halo\n", h.me);
    if (h.me == 0) {
        bench_emit("halo", "exchange", N, tb, nb);
        bench_emit_each("halo", "exchange", N, &each);
    }
    halo_mpi_free(&h);
    MPI_Finalize();
    return bad;
}
