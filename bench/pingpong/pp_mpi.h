/* The hand-written ping-pong's round trips (mpi.c alone, side.c beside
 * the stubs'): instance 0 sends first; half of each trip is timed. */
#ifndef PP_MPI_H
#define PP_MPI_H
#include <mpi.h>

static inline void pp_mpi_trips(char *buf, MPI_Comm comm, int me, long size, int iters)
{
    int other = 1 - me;
    for (int k = 0; k < iters; k++) {
        if (me == 0) {
            MPI_Send(buf, (int)size, MPI_CHAR, other, 0, comm);
            MPI_Recv(buf, (int)size, MPI_CHAR, other, 0, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, (int)size, MPI_CHAR, other, 0, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)size, MPI_CHAR, other, 0, comm);
        }
    }
}
#endif
