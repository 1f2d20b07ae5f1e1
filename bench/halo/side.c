/* Halo exchange, the hand-written MPI and the stubs side by side in one job
 * (bench/hosts.sh): the same processes, on the same cores, over the same
 * connections, alternate batches of each in ABBA order, so that the load
 * of the moment and the job's placement weigh on both alike (between two
 * jobs across the test hosts the time of one exchange moves by up to 30 %,
 * docs/performance.md "Across hosts").  Each batch is a quarter of the
 * programs' alone (mpi.c, noeud.c), twice as many per variant.  Instance 0
 * prints, per variant (mpi, mdl-mpi), the median of its batches' mean and
 * the median and 10th percentile of its exchanges' times, in seconds:
 *     halo side <variant> <N> <batch median> <median> <p10>
 * The hand-written exchange has its own communicator (a Cartesian one made
 * of MPI_COMM_WORLD), so its messages never meet the stubs'. */
#include "../bench.h"
#include "halo.h"
#include "halo_mpi.h"
#include "halo_mdl.h"

#define SIDE_SPLIT 4

static double U[N + 2][N + 2];          /* the hand-written exchange's; the stubs' is t->U */
static struct bench_each each[2];
static const char *const variant[2] = { "mpi", "mdl-mpi" };

static void run(int v, struct halo_mpi *h, struct noeud *t, int iters, int timed)
{
    for (int k = 0; k < iters; k++) {
        if (v == 0)
            halo_mpi_exchange(h);
        else
            halo_mdl_exchange(t);
        bench_each_mark(&each[v], timed);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct noeud *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS || halo_mdl_init(t) != MDL_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    struct halo_mpi h;
    int np = halo_mpi_init(&h, U, MPI_COMM_WORLD);
    int quick = bench_quick(), nb = SIDE_SPLIT * (quick ? HALO_QUICK_BATCHES : HALO_BATCHES);
    int iters = (halo_iters(N, np, quick) + SIDE_SPLIT - 1) / SIDE_SPLIT;
    double tb[2][SIDE_SPLIT * HALO_BATCHES];
    for (int b = -1; b < nb; b++)
        for (int i = 0; i < 2; i++) {
            int v = b & 1 ? 1 - i : i;  /* A B, B A, A B … */
            MPI_Barrier(h.cart);
            double t0 = each[v].last = bench_now();
            run(v, &h, t, iters, b >= 0);
            if (b >= 0)
                tb[v][b] = (bench_now() - t0) / iters;
        }
    int bad_mpi = halo_mpi_bad(&h, U), bad_mdl = halo_mdl_bad(t);
    if (bad_mpi || bad_mdl)
        fprintf(stderr, "halo: rank %d: wrong halo (%s)\n", h.me,
                bad_mpi && bad_mdl ? "both" : bad_mpi ? "hand-written MPI" : "stubs");
    for (int v = 0; h.me == 0 && v < 2; v++) {
        double median, p10;
        bench_each_figures(&each[v], &median, &p10);
        printf("halo side %s %d %.9e %.9e %.9e\n", variant[v], N, bench_median(tb[v], nb), median,
               p10);
    }
    fflush(stdout);
    halo_mpi_free(&h);
    MDL_End(t);
    MPI_Finalize();
    return bad_mpi || bad_mdl;
}
