/* The hand-written halo exchange (the reference): a periodic Cartesian
 * communicator, MPI_Type_vector for the strided rows, eight persistent
 * requests started together and completed together.  Used by mpi.c alone
 * and by side.c beside the stubs. */
#include <mpi.h>

struct halo_mpi {
    MPI_Comm cart;
    MPI_Datatype row;
    MPI_Request rq[8];
    int me, north, south, east, west;
};

/* U's halo exchanged over a Cartesian communicator made of world, its
 * interior filled; returns the number of processes. */
static inline int halo_mpi_init(struct halo_mpi *h, double (*U)[N + 2], MPI_Comm world)
{
    int np, dims[2] = { 0, 0 }, periods[2] = { 1, 1 };
    MPI_Comm_size(world, &np);
    MPI_Dims_create(np, 2, dims);
    MPI_Cart_create(world, 2, dims, periods, 0, &h->cart);
    MPI_Comm_rank(h->cart, &h->me);
    MPI_Cart_shift(h->cart, 1, 1, &h->south, &h->north);
    MPI_Cart_shift(h->cart, 0, 1, &h->west, &h->east);

    MPI_Type_vector(N, 1, N + 2, MPI_DOUBLE, &h->row);  /* U[1..N][j]: stride N+2 */
    MPI_Type_commit(&h->row);
    enum { TN, TS, TE, TW };            /* tag = direction of travel */
    MPI_Send_init(&U[1][N], 1, h->row, h->north, TN, h->cart, &h->rq[0]);
    MPI_Send_init(&U[1][1], 1, h->row, h->south, TS, h->cart, &h->rq[1]);
    MPI_Send_init(&U[N][1], N, MPI_DOUBLE, h->east, TE, h->cart, &h->rq[2]);
    MPI_Send_init(&U[1][1], N, MPI_DOUBLE, h->west, TW, h->cart, &h->rq[3]);
    MPI_Recv_init(&U[1][N + 1], 1, h->row, h->north, TS, h->cart, &h->rq[4]);
    MPI_Recv_init(&U[1][0], 1, h->row, h->south, TN, h->cart, &h->rq[5]);
    MPI_Recv_init(&U[N + 1][1], N, MPI_DOUBLE, h->east, TW, h->cart, &h->rq[6]);
    MPI_Recv_init(&U[0][1], N, MPI_DOUBLE, h->west, TE, h->cart, &h->rq[7]);
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            U[i][j] = halo_val(h->me, i, j);
    return np;
}

static inline void halo_mpi_exchange(struct halo_mpi *h)
{
    MPI_Status st[8];   /* not MPI_STATUSES_IGNORE: GCC 12 warns on MPICH's (false positive) */
    MPI_Startall(8, h->rq);
    MPI_Waitall(8, h->rq, st);
}

/* Whether a halo cell of U differs from its neighbour's edge. */
static inline int halo_mpi_bad(const struct halo_mpi *h, double (*U)[N + 2])
{
    int bad = 0;
    for (int k = 1; k <= N; k++)
        bad |= U[k][N + 1] != halo_val(h->north, k, 1) || U[k][0] != halo_val(h->south, k, N) ||
               U[N + 1][k] != halo_val(h->east, 1, k) || U[0][k] != halo_val(h->west, N, k);
    return bad;
}

static inline void halo_mpi_free(struct halo_mpi *h)
{
    for (int k = 0; k < 8; k++)
        MPI_Request_free(&h->rq[k]);
    MPI_Type_free(&h->row);
    MPI_Comm_free(&h->cart);
}
