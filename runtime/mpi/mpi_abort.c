/* mpi_abort.c — the fatal path of the MPI runtime (be_abort): the whole
 * job ends, also from a process that has not started MPI.  A leaf: it
 * calls MPI and nothing of the runtime but what a launcher said
 * (runtime/core), which reports before it. */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "mpi_rt.h"

int mpi_exit_armed;
int mpi_unusable;

/* How long a fatal error before MPI_Init waits for the other processes to
 * join it in MPI_Init (be_abort). */
#define ABORT_JOIN_SECONDS 10

/* Whether a launcher started this process as one of several. */
static int in_a_job(void)
{
    long size = rt_launcher_size();
    return size ? size > 1 : rt_launched();
}

void be_abort(int code)
{
    (void)code;
    mpi_exit_armed = 0;
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    /* A fatal error before MPI_Init (a call before MDL_Init): the other
     * processes wait in MPI_Init for this one for ever — hydra does not end
     * a job when a process exits before MPI_Init.  It joins them there, to
     * end the job with MPI_Abort.  MPI_Init returns only once every process
     * has called it: if one has exited before, or computes for long, the
     * alarm ends this process by a signal, which mpiexec takes as a bad
     * termination and ends the job too. */
    if (!up && !down && !mpi_unusable && in_a_job()) {
        signal(SIGALRM, SIG_DFL);
        alarm(ABORT_JOIN_SECONDS);
        up = MPI_Init(NULL, NULL) == MPI_SUCCESS;
        alarm(0);
    }
    if (up && !down) {
        /* mpiexec's proxy forwards our stderr through a pipe, and on an
         * abort it may kill the job before reading what is left in it: the
         * one-line report was lost about once in 40 runs.  Give it time. */
        struct timespec ts = { 0, 200 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    exit(1);
}
