/* Ping-pong between world rank 0 and the last rank (on another host when
 * the ranks are mapped round-robin or by blocks over two hosts or more):
 * for each size in argv[2..] (bytes; default 8 65536), argv[1] round trips
 * (default 1000) after 10% as warm-up.  Every message carries a pattern of
 * (iteration, byte) that the receiver checks.  Rank 0 prints one line per
 * size:
 *   pingpong SIZE B: N iters, one-way min X us median Y us, ok
 * ("FAIL" instead of "ok", exit 1, when a byte was wrong).  Other ranks
 * only take part in the final barrier. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char pat(long it, long i) { return (unsigned char)(it * 131 + i * 7 + 1); }

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long iters = argc > 1 ? atol(argv[1]) : 1000;
    int peer = rank == 0 ? size - 1 : 0;
    long sizes_default[] = {8, 65536};
    int nsizes = argc > 2 ? argc - 2 : 2;
    if (iters < 1 || size < 2)
        MPI_Abort(MPI_COMM_WORLD, 2);

    for (int s = 0; s < nsizes; s++) {
        long n = argc > 2 ? atol(argv[2 + s]) : sizes_default[s];
        unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
        long warm = iters / 10, total = iters + warm;
        double *t = malloc(sizeof(double) * (size_t)total);
        if (rank == 0 || rank == size - 1) {
            for (long it = 0; it < total; it++) {
                if (rank == 0) {
                    for (long i = 0; i < n; i++)
                        buf[i] = pat(it, i);
                    double t0 = MPI_Wtime();
                    MPI_Send(buf, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                    MPI_Recv(buf, (int)n, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    t[it] = (MPI_Wtime() - t0) / 2;
                    for (long i = 0; i < n; i++)
                        bad |= buf[i] != (unsigned char)~pat(it, i);
                } else {
                    MPI_Recv(buf, (int)n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    for (long i = 0; i < n; i++) {
                        bad |= buf[i] != pat(it, i);
                        buf[i] = (unsigned char)~buf[i];
                    }
                    MPI_Send(buf, (int)n, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
                }
            }
        }
        int anybad = bad;
        MPI_Allreduce(MPI_IN_PLACE, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0) {
            qsort(t + warm, (size_t)iters, sizeof(double), cmpd);
            printf("pingpong %ld B: %ld iters, one-way min %.1f us median %.1f us, %s\n",
                   n, iters, t[warm] * 1e6, t[warm + iters / 2] * 1e6, anybad ? "FAIL" : "ok");
            fflush(stdout);
        }
        bad = anybad;
        free(t);
        free(buf);
    }
    MPI_Finalize();
    return bad;
}
