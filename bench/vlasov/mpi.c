/* The Vlasov code of examples/vlasov written directly against MPI, as the
 * reference of `make bench BENCH_ONLY=vlasov`: the same kernels
 * (examples/vlasov/vlasov_numerics.h), the same data layout and the same
 * collectives, so that only the data movement is written differently.
 *
 * f[v][x] is indexed alike everywhere; rank p owns rows p·nv/n … (x phase)
 * and columns p·nx/n … (v phase).  Every block a rank swaps with another is
 * an lv × lx piece of f with rows nx apart: one MPI_Type_vector, committed
 * once, serves all of them.  The exchanges of one direction are persistent
 * requests (MPI_Recv_init/MPI_Send_init) created once and run with
 * MPI_Startall + MPI_Waitall — every pair in flight at once, no datatype,
 * request or argument set up per step.  (An MPI_Alltoallw would need a
 * second array: MPI forbids one buffer as both its send and its receive
 * argument, so the blocks would be copied once more.)
 *
 *   mpiexec -n N ./vlasov-mpi [--mesh NX NV] --bench STEPS [WFILE]
 *
 * prints the same `bench:` line as the MeDLey program and writes the same
 * W(t) to WFILE; the mesh as the program's (default 64 × 128). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/vlasov/vlasov_numerics.h"

enum { TAG_TO_V = 1, TAG_TO_X = 2 };

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        perror("malloc");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* The persistent requests of both directions: [0, 2(np-1)) x -> v,
 * [2(np-1), 4(np-1)) v -> x; receives first in each half. */
static MPI_Request *exchanges(int nx, int nv, double (*f)[nx], int np, int me,
                              MPI_Datatype *block)
{
    int lv = nv / np, lx = nx / np, v0 = me * lv, x0 = me * lx, n = np - 1;
    MPI_Request *rq = xmalloc(sizeof *rq * (size_t)(4 * n + 1));
    MPI_Type_vector(lv, lx, nx, MPI_DOUBLE, block);
    MPI_Type_commit(block);
    for (int k = 1; k < np; k++) {
        int q = (me + k) % np, i = k - 1;
        /* x -> v: q's rows of my columns in, my rows of q's columns out */
        MPI_Recv_init(&f[q * lv][x0], 1, *block, q, TAG_TO_V, MPI_COMM_WORLD, &rq[i]);
        MPI_Send_init(&f[v0][q * lx], 1, *block, q, TAG_TO_V, MPI_COMM_WORLD, &rq[n + i]);
        /* v -> x: the same blocks back */
        MPI_Recv_init(&f[v0][q * lx], 1, *block, q, TAG_TO_X, MPI_COMM_WORLD, &rq[2 * n + i]);
        MPI_Send_init(&f[q * lv][x0], 1, *block, q, TAG_TO_X, MPI_COMM_WORLD, &rq[3 * n + i]);
    }
    return rq;
}

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
    int lv = nv / np, lx = nx / np, v0 = me * lv, v1 = v0 + lv - 1, x0 = me * lx,
        x1 = x0 + lx - 1, n = np - 1;
    vlasov_mesh *m = mesh_new(nx, nv);
    if (!m) {
        perror("vlasov-mpi: the mesh's workspace");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double (*f)[nx] = xmalloc((size_t)nv * sizeof *f);
    double *W = xmalloc((size_t)steps * sizeof *W), *step = xmalloc((size_t)steps * sizeof *step);
    double *rho = xmalloc(3 * (size_t)nx * sizeof *rho), *rho_total = rho + nx, *E = rho + 2 * nx;
    double kin, kin_total;
    memset(f, 0, (size_t)nv * sizeof *f);
    MPI_Datatype block;
    MPI_Request *rq = exchanges(nx, nv, f, np, me, &block);
    /* not MPI_STATUSES_IGNORE: GCC 12 warns on MPICH's (false positive) */
    MPI_Status *st = xmalloc(sizeof *st * (size_t)(2 * n + 1));

    initial(m, f, v0, v1, 0.01);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), t_comm = 0, c0;
    for (int k = 0; k < steps; k++) {
        double s0 = MPI_Wtime();
        advect_x(m, f, v0, v1, DT / 2);

        kin = moments(m, f, v0, v1, rho);
        c0 = MPI_Wtime();
        MPI_Reduce(rho, rho_total, nx, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&kin, &kin_total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        t_comm += MPI_Wtime() - c0;
        if (me == 0)
            W[k] = solve_field(m, rho_total, E);
        c0 = MPI_Wtime();
        MPI_Bcast(E, nx, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Startall(2 * n, rq);
        MPI_Waitall(2 * n, rq, st);
        t_comm += MPI_Wtime() - c0;

        advect_v(m, f, x0, x1, E, DT);

        c0 = MPI_Wtime();
        MPI_Startall(2 * n, rq + 2 * n);
        MPI_Waitall(2 * n, rq + 2 * n, st);
        t_comm += MPI_Wtime() - c0;

        advect_x(m, f, v0, v1, DT / 2);
        step[k] = MPI_Wtime() - s0;
    }
    double times[2], slowest[2];
    times[0] = MPI_Wtime() - t0;
    times[1] = times[0] - t_comm;
    MPI_Reduce(times, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    int ok = me != 0 || bench_report(m, np, steps, slowest[0], slowest[1], step, W, wfile) == 0;
    for (int i = 0; i < 4 * n; i++)
        MPI_Request_free(&rq[i]);
    MPI_Type_free(&block);
    free(rq);
    free(st);
    free(W);
    free(step);
    free(rho);
    free(f);
    mesh_free(m);
    MPI_Finalize();
    return ok ? 0 : 1;
}
