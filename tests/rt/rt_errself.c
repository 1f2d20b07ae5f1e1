/* rt_errself.c — a failed completion raised on MPI_COMM_SELF's handler, as
 * MPICH >= 4.2 raises it (MPICH 4.0 on MPI_COMM_WORLD's, Open MPI on the
 * request's communicator's only), is returned to the runtime, not fatal
 * to the job through the program's handler there.  MPICH >= 4.2 is played
 * by MPI_Wait below: a profiling wrapper that raises every error of the
 * MPI_Wait it wraps on MPI_COMM_SELF.  SPMD, 2 instances, with
 * MDL_ERRORS=return: instance 0 sends 8 ints, instance 1's async receive
 * of 4 is waited for — MDL_ERR_TRUNCATE — then the two exchange a message
 * that fits, and MPI_COMM_SELF's handler is the program's again.
 * Built with the MPI's mpicc (it calls MPI). */
#include <mpi.h>
#include <string.h>

#include "rt_task_w.h"

int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
    int rc = PMPI_Wait(req, st);
    if (rc != MPI_SUCCESS)
        MPI_Comm_call_errhandler(MPI_COMM_SELF, rc);
    return rc;
}

static const long first4[] = { 0, 3 };

#define P2P(nm, fnm, idx, snd, asy, ch, fb)                                               \
    { .name = nm, .fn = fnm, .index = idx, .is_send = snd, .async = asy, .channel = ch, \
      .peer_task = 0, .peer_kind = MDL_PEER_ONE, .nitems = 1, .items = v_item,         \
      .npairs = 1, .fixed_bounds = fb }

static const mdl_msg_desc M[] = {
    P2P("big", "MDL_SendTo_w_big", 0, 1, 0, 0, all8),
    P2P("big", "MDL_RecvFrom_w_big", 1, 0, 1, 0, first4),
    P2P("ok", "MDL_SendTo_w_ok", 2, 1, 0, 1, all8),
    P2P("ok", "MDL_RecvFrom_w_ok", 3, 0, 0, 1, all8),
};
static const mdl_msg_desc *const MP[] = { &M[0], &M[1], &M[2], &M[3] };

int main(int argc, char **argv)
{
    mdl_task_desc d = { MDL_ABI, "errself.mdl", 7, 1, tasks, 0, 0, { 0, 0, 0 }, 2, NELEM(MP), MP,
                        0, NULL, sizeof(T), 0, 0, NULL, 0, NULL };
    void *mem;
    mdl_rt *rt;
    CHECK_EQ(mdl_init(&d, &argc, &argv, &mem, &rt), 0);
    MPI_Errhandler before, after;
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &before);
    T *t = mem;
    int r = mdl_my_rank(rt);
    CHECK_EQ(mdl_task_size(rt, 0), 2);
    if (r == 0) {
        for (int j = 0; j < 8; j++)
            t->V[j] = j;
        CHECK_EQ(mdl_send(rt, &M[0], t, 1, NULL, 0, NULL), 0);
        CHECK_EQ(mdl_recv(rt, &M[3], t, 1, NULL), 1);
    } else {
        CHECK_EQ(mdl_recv(rt, &M[1], t, 0, NULL), 0);
        CHECK_EQ(mdl_wait(rt, &M[1]), MDL_ERR_TRUNCATE);    /* 8 into 4 */
        CHECK_EQ(mdl_send(rt, &M[2], t, 0, NULL, 0, NULL), 0);
    }
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &after);
    CHECK_EQ(after == before, 1);
    MPI_Errhandler_free(&before);
    MPI_Errhandler_free(&after);
    CHECK_EQ(mdl_end(rt, mem), 0);
    if (r == 1)     /* one line: the launcher may interleave two processes' */
        printf("rt_errself: OK\n");
    return 0;
}
