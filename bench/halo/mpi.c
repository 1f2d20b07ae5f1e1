/* Halo exchange, hand-written MPI (the reference): a periodic Cartesian
 * communicator, MPI_Type_vector for the strided rows, eight persistent
 * requests started together and completed together. */
#include <mpi.h>
#include "../bench.h"
#include "halo.h"

static double U[N + 2][N + 2];

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np, me, dims[2] = { 0, 0 }, periods[2] = { 1, 1 };
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Dims_create(np, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &me);
    int south, north, west, east;
    MPI_Cart_shift(cart, 1, 1, &south, &north);
    MPI_Cart_shift(cart, 0, 1, &west, &east);

    MPI_Datatype row;                   /* U[1..N][j]: stride N+2 */
    MPI_Type_vector(N, 1, N + 2, MPI_DOUBLE, &row);
    MPI_Type_commit(&row);
    MPI_Request rq[8];
    MPI_Status st[8];   /* not MPI_STATUSES_IGNORE: GCC 12 warns on MPICH's (false positive) */
    enum { TN, TS, TE, TW };            /* tag = direction of travel */
    MPI_Send_init(&U[1][N], 1, row, north, TN, cart, &rq[0]);
    MPI_Send_init(&U[1][1], 1, row, south, TS, cart, &rq[1]);
    MPI_Send_init(&U[N][1], N, MPI_DOUBLE, east, TE, cart, &rq[2]);
    MPI_Send_init(&U[1][1], N, MPI_DOUBLE, west, TW, cart, &rq[3]);
    MPI_Recv_init(&U[1][N + 1], 1, row, north, TS, cart, &rq[4]);
    MPI_Recv_init(&U[1][0], 1, row, south, TN, cart, &rq[5]);
    MPI_Recv_init(&U[N + 1][1], N, MPI_DOUBLE, east, TW, cart, &rq[6]);
    MPI_Recv_init(&U[0][1], N, MPI_DOUBLE, west, TE, cart, &rq[7]);

    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            U[i][j] = halo_val(me, i, j);
    int quick = bench_quick(), nb = quick ? HALO_QUICK_BATCHES : HALO_BATCHES;
    int iters = halo_iters(N, np, quick);
    double tb[BENCH_MAXBATCH];
    for (int b = -1; b < nb; b++) {
        MPI_Barrier(cart);
        double t0 = bench_now();
        for (int k = 0; k < iters; k++) {
            MPI_Startall(8, rq);
            MPI_Waitall(8, rq, st);
        }
        if (b >= 0)
            tb[b] = (bench_now() - t0) / iters;
    }
    int bad = 0;
    for (int k = 1; k <= N; k++)
        bad |= U[k][N + 1] != halo_val(north, k, 1) || U[k][0] != halo_val(south, k, N) ||
               U[N + 1][k] != halo_val(east, 1, k) || U[0][k] != halo_val(west, N, k);
    if (bad)
        fprintf(stderr, "halo: rank %d: wrong halo\n", me);
    if (me == 0)
        bench_emit("halo", "exchange", N, tb, nb);
    for (int k = 0; k < 8; k++)
        MPI_Request_free(&rq[k]);
    MPI_Type_free(&row);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return bad;
}
