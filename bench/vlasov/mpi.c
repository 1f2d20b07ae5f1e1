/* The Vlasov code of examples/vlasov written directly against MPI, as the
 * reference of `make bench BENCH_ONLY=vlasov`: vlasov_mpi.h's step, timed
 * as the MeDLey program times its own.
 *
 *   mpiexec -n N ./vlasov-mpi [--mesh NX NV] --bench STEPS [WFILE]
 *
 * prints the same `bench:` line as the MeDLey program and writes the same
 * W(t) to WFILE; the mesh as the program's (default 64 × 128). */
#include "vlasov_mpi.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np, me;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int nx, nv;
    const char *bad_mesh = mesh_args(&argc, argv, &nx, &nv);
    int steps = argc > 2 && strcmp(argv[1], "--bench") == 0 ? atoi(argv[2]) : 0;
    if (bad_mesh || nx % np || nv % np || steps < 1) {
        if (me == 0)
            fprintf(stderr, "usage: vlasov-mpi [--mesh NX NV] --bench STEPS [WFILE]; %s\n",
                    bad_mesh ? bad_mesh : "the ranks must divide NX and NV");
        MPI_Finalize();
        return 2;
    }
    const char *wfile = argc > 3 ? argv[3] : NULL;
    vlasov_mesh *m = mesh_new(nx, nv);
    if (!m) {
        perror("vlasov-mpi: the mesh's workspace");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double *W = vlasov_mpi_alloc((size_t)steps * sizeof *W);
    double *step = vlasov_mpi_alloc((size_t)steps * sizeof *step);
    struct vlasov_mpi h;
    vlasov_mpi_init(&h, m, MPI_COMM_WORLD);

    initial(m, (double (*)[nx])h.f, h.v0, h.v1, 0.01);
    MPI_Barrier(h.comm);
    double t0 = MPI_Wtime(), t_comm = 0;
    for (int k = 0; k < steps; k++) {
        double s0 = MPI_Wtime();
        t_comm += vlasov_mpi_step(&h, m, &W[k]);
        step[k] = MPI_Wtime() - s0;
    }
    double times[2], slowest[2];
    times[0] = MPI_Wtime() - t0;
    times[1] = times[0] - t_comm;
    MPI_Reduce(times, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, h.comm);

    int ok = me != 0 || bench_report(m, np, steps, slowest[0], slowest[1], step, W, wfile) == 0;
    vlasov_mpi_free(&h);
    free(W);
    free(step);
    mesh_free(m);
    MPI_Finalize();
    return ok ? 0 : 1;
}
