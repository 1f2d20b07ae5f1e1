/* The smallest job that hung in MPICH 4.0.2's MPI_Finalize over UCX/TCP
 * (openucx/ucx#8738): an Allreduce, one message around the ring, Finalize.
 * Rank 0 prints "trivial: ok SUM" before MPI_Finalize, and every rank
 * "finalized R" after it, so a hang shows where it is.
 * Arguments, to try remedies in the program: "warm" (an Alltoall right
 * after MPI_Init, so that every pair is connected before any real message),
 * "barrier" (an MPI_Barrier just before MPI_Finalize). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, sum, token;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int warm = 0, barrier = 0;
    for (int i = 1; i < argc; i++) {
        warm |= !strcmp(argv[i], "warm");
        barrier |= !strcmp(argv[i], "barrier");
    }
    if (warm) {
        int *a = calloc((size_t)size, sizeof(int)), *b = calloc((size_t)size, sizeof(int));
        MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
        free(a);
        free(b);
    }
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &token, 1, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("trivial: ok %d\n", sum == size * (size - 1) / 2 && token == size - 1 ? sum : -1);
    fflush(stdout);
    if (barrier)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    printf("finalized %d\n", rank);
    return 0;
}
