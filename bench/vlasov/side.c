/* The Vlasov code, the hand-written MPI step and the stubs' side by side in
 * one job (bench/hosts.sh), as bench/halo/side.c does the halo: the same
 * processes, cores and connections, and the same moment, for both, so
 * that the job's state across the test hosts (which moves one code's step
 * time by up to 50x from job to job, docs/performance.md "Across hosts")
 * weighs on both alike.  Batches of SIDE_BATCH steps of each alternate in
 * ABBA order, after one untimed batch of each; each code advances its own
 * f from the same initial state, on its own communicator (the stubs' is
 * the runtime's, the hand-written one a duplicate of MPI_COMM_WORLD).
 *
 *   mpiexec -n N ./vlasov-side [--mesh NX NV] --bench STEPS
 *
 * STEPS timed steps of each code (a multiple of SIDE_BATCH).  Instance 0
 * checks that both codes computed the same W(t) (to 1e-12 of max W: a fast
 * wrong exchange wins nothing) and prints, per code (mpi, mdl-mpi), the
 * median of its batches' mean step time and the median and 10th
 * percentile of its steps' times, in seconds:
 *     vlasov side <variant> <NX> <batch median> <median> <p10> */
#include "../bench.h"
#include "vlasov_mpi.h"
#include "../../examples/vlasov/vlasov_mdl.h"

#define SIDE_BATCH 2
#define VLASOV_SIDE_STR_(x) #x
#define VLASOV_SIDE_STR(x) VLASOV_SIDE_STR_(x)

static struct bench_each each[2];
static const char *const variant[2] = { "mpi", "mdl-mpi" };

/* The largest |W_mpi - W_mdl| over the steps, relative to the largest W. */
static double w_deviation(const double *a, const double *b, int n)
{
    double dev = 0, wmax = 0;
    for (int k = 0; k < n; k++) {
        dev = fmax(dev, fabs(a[k] - b[k]));
        wmax = fmax(wmax, fabs(a[k]));
    }
    return wmax > 0 ? dev / wmax : INFINITY;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct vlasov *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int me = MDL_MyRank(t), np = MDL_FamilySize(t), nx, nv;
    const char *bad_mesh = mesh_args(&argc, argv, &nx, &nv);
    int steps = argc > 2 && strcmp(argv[1], "--bench") == 0 ? atoi(argv[2]) : 0;
    if (bad_mesh || nx % np || nv % np || steps < SIDE_BATCH || steps % SIDE_BATCH ||
        steps / SIDE_BATCH > BENCH_MAXBATCH) {
        if (me == 0)
            fprintf(stderr, "usage: vlasov-side [--mesh NX NV] --bench STEPS; %s\n",
                    bad_mesh ? bad_mesh : nx % np || nv % np ? "the instances must divide NX and NV"
                    : "STEPS: a multiple of " VLASOV_SIDE_STR(SIDE_BATCH) ", at most "
                      VLASOV_SIDE_STR(SIDE_BATCH) " x " VLASOV_SIDE_STR(BENCH_MAXBATCH));
        MDL_End(t);
        MPI_Finalize();
        return 2;
    }
    t->nx = nx;
    t->nv = nv;
    vlasov_mesh *m = mesh_new(nx, nv);
    if (!m || MDL_Allocate(t) != MDL_SUCCESS)       /* MDL_Allocate has said why */
        MPI_Abort(MPI_COMM_WORLD, 1);
    struct vlasov_mpi h;
    vlasov_mpi_init(&h, m, MPI_COMM_WORLD);
    slabs s = slabs_of(m, np, me);
    initial(m, (double (*)[nx])h.f, h.v0, h.v1, 0.01);
    initial(m, vlasov_MDL_View_f(t), s.v0, s.v1, 0.01);

    int nb = steps / SIDE_BATCH, all = steps + SIDE_BATCH;
    double *W[2] = { vlasov_mpi_alloc((size_t)all * sizeof(double)),
                     vlasov_mpi_alloc((size_t)all * sizeof(double)) }, Etot;
    double tb[2][BENCH_MAXBATCH];
    int done[2] = { 0, 0 };
    for (int b = -1; b < nb; b++)
        for (int i = 0; i < 2; i++) {
            int v = b & 1 ? 1 - i : i;  /* A B, B A, A B … */
            MPI_Barrier(h.comm);
            double t0 = each[v].last = bench_now();
            for (int k = 0; k < SIDE_BATCH; k++, done[v]++) {
                if (v == 0)
                    vlasov_mpi_step(&h, m, &W[0][done[0]]);
                else
                    vlasov_mdl_step(t, m, &s, &W[1][done[1]], &Etot);
                bench_each_mark(&each[v], b >= 0);
            }
            if (b >= 0)
                tb[v][b] = (bench_now() - t0) / SIDE_BATCH;
        }
    int bad = 0;
    if (me == 0) {
        double dev = w_deviation(W[0], W[1], all);
        if ((bad = !(dev <= 1e-12)))
            fprintf(stderr, "vlasov side: wrong W: the stubs' differs from the hand-written "
                    "one's by %.1e of max W\n", dev);
        for (int v = 0; v < 2; v++) {
            double median, p10;
            bench_each_figures(&each[v], &median, &p10);
            printf("vlasov side %s %d %.9e %.9e %.9e\n", variant[v], nx, bench_median(tb[v], nb),
                   median, p10);
        }
        fflush(stdout);
    }
    free(W[0]);
    free(W[1]);
    vlasov_mpi_free(&h);
    mesh_free(m);
    MDL_End(t);
    MPI_Finalize();
    return bad;
}
