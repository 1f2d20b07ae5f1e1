/* One step of the Vlasov code written directly against MPI (the reference
 * of examples/vlasov): the same kernels (examples/vlasov/vlasov_numerics.h),
 * the same data layout and the same collectives, so that only the data
 * movement is written differently.  Used by mpi.c alone and by side.c
 * beside the stubs' step (examples/vlasov/vlasov_mdl.h).
 *
 * f[v][x] is indexed alike everywhere; rank p owns rows p·nv/n … (x phase)
 * and columns p·nx/n … (v phase).  Every block a rank swaps with another is
 * an lv × lx piece of f with rows nx apart: one MPI_Type_vector, committed
 * once, serves all of them.  The exchanges of one direction are persistent
 * requests (MPI_Recv_init/MPI_Send_init) created once and run with
 * MPI_Startall + MPI_Waitall — every pair in flight at once, no datatype,
 * request or argument set up per step.  (An MPI_Alltoallw would need a
 * second array: MPI forbids one buffer as both its send and its receive
 * argument, so the blocks would be copied once more.)  Everything runs on
 * a communicator of its own, a duplicate of the one given, so that its
 * messages never meet another code's in the same job. */
#ifndef VLASOV_MPI_H
#define VLASOV_MPI_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/vlasov/vlasov_numerics.h"

enum { TAG_TO_V = 1, TAG_TO_X = 2 };

struct vlasov_mpi {
    MPI_Comm comm;
    MPI_Datatype block;
    MPI_Request *rq;    /* [0, 2n) x -> v, [2n, 4n) v -> x; receives first in each half */
    MPI_Status *st;     /* not MPI_STATUSES_IGNORE: GCC 12 warns on MPICH's (false positive) */
    int np, me, n, v0, v1, x0, x1;
    double *f;          /* f[nv][nx] */
    double *rho, *rho_total, *E;
};

static inline void *vlasov_mpi_alloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        perror("malloc");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* The slabs of this rank of world (np dividing nx and nv: checked by the
 * caller), f zeroed, the persistent requests of both directions made. */
static inline void vlasov_mpi_init(struct vlasov_mpi *h, const vlasov_mesh *m, MPI_Comm world)
{
    int nx = m->nx, nv = m->nv;
    MPI_Comm_dup(world, &h->comm);
    MPI_Comm_size(h->comm, &h->np);
    MPI_Comm_rank(h->comm, &h->me);
    int lv = nv / h->np, lx = nx / h->np, n = h->n = h->np - 1;
    h->v0 = h->me * lv;
    h->v1 = h->v0 + lv - 1;
    h->x0 = h->me * lx;
    h->x1 = h->x0 + lx - 1;
    double (*f)[nx] = vlasov_mpi_alloc((size_t)nv * sizeof *f);
    memset(f, 0, (size_t)nv * sizeof *f);
    h->f = &f[0][0];
    h->rho = vlasov_mpi_alloc(3 * (size_t)nx * sizeof *h->rho);
    h->rho_total = h->rho + nx;
    h->E = h->rho + 2 * nx;
    h->rq = vlasov_mpi_alloc(sizeof *h->rq * (size_t)(4 * n + 1));
    h->st = vlasov_mpi_alloc(sizeof *h->st * (size_t)(2 * n + 1));
    MPI_Type_vector(lv, lx, nx, MPI_DOUBLE, &h->block);
    MPI_Type_commit(&h->block);
    for (int k = 1; k < h->np; k++) {
        int q = (h->me + k) % h->np, i = k - 1;
        /* x -> v: q's rows of my columns in, my rows of q's columns out */
        MPI_Recv_init(&f[q * lv][h->x0], 1, h->block, q, TAG_TO_V, h->comm, &h->rq[i]);
        MPI_Send_init(&f[h->v0][q * lx], 1, h->block, q, TAG_TO_V, h->comm, &h->rq[n + i]);
        /* v -> x: the same blocks back */
        MPI_Recv_init(&f[h->v0][q * lx], 1, h->block, q, TAG_TO_X, h->comm, &h->rq[2 * n + i]);
        MPI_Send_init(&f[q * lv][h->x0], 1, h->block, q, TAG_TO_X, h->comm, &h->rq[3 * n + i]);
    }
}

/* One step of the Strang splitting on h->f; at rank 0 *W is the electric
 * energy of the step.  Returns the time spent in MPI calls. */
static inline double vlasov_mpi_step(struct vlasov_mpi *h, vlasov_mesh *m, double *W)
{
    double (*f)[m->nx] = (double (*)[m->nx])h->f;
    double kin, kin_total, t_comm = 0, c0;
    int n = h->n;
    advect_x(m, f, h->v0, h->v1, DT / 2);

    kin = moments(m, f, h->v0, h->v1, h->rho);
    c0 = MPI_Wtime();
    MPI_Reduce(h->rho, h->rho_total, m->nx, MPI_DOUBLE, MPI_SUM, 0, h->comm);
    MPI_Reduce(&kin, &kin_total, 1, MPI_DOUBLE, MPI_SUM, 0, h->comm);
    t_comm += MPI_Wtime() - c0;
    if (h->me == 0)
        *W = solve_field(m, h->rho_total, h->E);
    c0 = MPI_Wtime();
    MPI_Bcast(h->E, m->nx, MPI_DOUBLE, 0, h->comm);
    MPI_Startall(2 * n, h->rq);
    MPI_Waitall(2 * n, h->rq, h->st);
    t_comm += MPI_Wtime() - c0;

    advect_v(m, f, h->x0, h->x1, h->E, DT);

    c0 = MPI_Wtime();
    MPI_Startall(2 * n, h->rq + 2 * n);
    MPI_Waitall(2 * n, h->rq + 2 * n, h->st);
    t_comm += MPI_Wtime() - c0;

    advect_x(m, f, h->v0, h->v1, DT / 2);
    return t_comm;
}

static inline void vlasov_mpi_free(struct vlasov_mpi *h)
{
    for (int i = 0; i < 4 * h->n; i++)
        MPI_Request_free(&h->rq[i]);
    MPI_Type_free(&h->block);
    MPI_Comm_free(&h->comm);
    free(h->rq);
    free(h->st);
    free(h->rho);
    free(h->f);
}

#endif
