/* mpi_errhandlers.c — where MPI raises the error a request's completion
 * finds (a truncated async receive), and the program's handlers there
 * set aside while the runtime completes its requests.
 *
 * MPI-3 leaves it open: MPICH 4.0 raises it on MPI_COMM_WORLD's handler,
 * MPICH >= 4.2 on MPI_COMM_SELF's, Open MPI 4.1 on the request's
 * communicator's only (the runtime's, which returns errors).  A handler
 * there that is fatal (the default) would end the job with MPI's words
 * instead of the one-line report, and MDL_ERRORS=return would not return.
 * So MDL_Init finds out, with one truncated receive, and the completions
 * set MPI_ERRORS_RETURN only where this MPI raises (none: nothing to do),
 * putting the program's handler back after.  The receive is from a
 * partner process (world ranks 2k and 2k+1; the last of an odd world
 * from itself): Open MPI 4.1 does not report the truncation of a message
 * a process sent itself at all, and MPICH 4.0 raises only when given a
 * status, as the runtime gives.  Where it raises depends on the MPI
 * library only, so the probe runs at the first MDL_Init of the process;
 * a program that calls MDL_Init again after MDL_End (MPI initialised by
 * the program) reuses its answer. */
#include "mpi_rt.h"

enum { RAISED_WORLD = 1, RAISED_SELF = 2 };

/* The handlers of the probe record where the error was raised. */
static int raised;

static void raised_on_world(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    raised |= RAISED_WORLD;
}

static void raised_on_self(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    raised |= RAISED_SELF;
}

/* The truncated receive of the probe: where MPI raised its error
 * (RAISED_*), or a negative error code. */
static int probe_raised(mdl_rt *rt, const char *fn)
{
    MPI_Comm comms[2] = { MPI_COMM_WORLD, MPI_COMM_SELF };
    MPI_Comm_errhandler_function *record[2] = { raised_on_world, raised_on_self };
    MPI_Errhandler probe[2], program[2];
    for (int i = 0; i < 2; i++) {
        MPI_Comm_create_errhandler(record[i], &probe[i]);
        MPI_Comm_get_errhandler(comms[i], &program[i]);
        MPI_Comm_set_errhandler(comms[i], probe[i]);
    }
    /* the partner's first message to this process on the runtime's
     * communicator: neither leaves MDL_Init before the other has joined it */
    int partner = rt->job.world_rank ^ 1;
    if (partner >= rt->job.world_size)
        partner = rt->job.world_rank;
    char out[2] = { 0, 0 }, in[1];
    MPI_Request recv, send;
    MPI_Status st;
    raised = 0;
    int rc = MPI_Irecv(in, 1, MPI_BYTE, partner, 0, rt->job.world, &recv);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Isend(out, 2, MPI_BYTE, partner, 0, rt->job.world, &send);
        MPI_Wait(&recv, &st);   /* truncated */
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&send, &st);
    }
    for (int i = 0; i < 2; i++) {
        MPI_Comm_set_errhandler(comms[i], program[i]);
        MPI_Errhandler_free(&probe[i]);
        MPI_Errhandler_free(&program[i]);   /* the get's reference */
    }
    return rc == MPI_SUCCESS ? raised : mpi_fail(rt, fn, rc, "MPI_Isend/MPI_Irecv to itself");
}

int mpi_errhandlers_probe(mdl_rt *rt, const char *fn)
{
    static int probed, where;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &rt->job.world_eh);
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &rt->job.self_eh);
    if (!probed) {
        int rc = probe_raised(rt, fn);
        if (rc < 0)
            return rc;
        where = rc;
        probed = 1;
    }
    rt->job.raised = where;
    return 0;
}

void mpi_errhandlers_free(mdl_rt *rt)
{
    MPI_Errhandler_free(&rt->job.world_eh);
    MPI_Errhandler_free(&rt->job.self_eh);
}

void mpi_completion_errors_returned(mdl_rt *rt, int on)
{
    if (rt->job.raised & RAISED_WORLD)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, on ? MPI_ERRORS_RETURN : rt->job.world_eh);
    if (rt->job.raised & RAISED_SELF)
        MPI_Comm_set_errhandler(MPI_COMM_SELF, on ? MPI_ERRORS_RETURN : rt->job.self_eh);
}
