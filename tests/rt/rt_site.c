/* rt_site.c — a call site's note (mdl_site) holds for one runtime: the
 * program initialises MPI itself and runs MDL_Init/MDL_End three times in
 * one process on one task struct (mdl_init_at), so that each runtime after
 * the first is handed a site noted by the one before, whose layout that
 * runtime's MDL_End freed (SANITIZE=1 reports its use).  Between them, a
 * call on the ended runtime is refused as ever.  Errors are returned
 * (MDL_ERRORS=return is set here) and checked.  2 instances:
 * mpiexec -n 2 ./rt_site */
#include <mpi.h>
#include <string.h>

#include "rt_task_w.h"

static const mdl_msg_desc M[] = {
    { .name = "hop", .fn = "MDL_SendTo_w_hop", .index = 0, .is_send = 1, .channel = 0,
      .peer_task = 0, .peer_kind = MDL_PEER_ONE, .nitems = 1, .items = v_item, .npairs = 1 },
    { .name = "hop", .fn = "MDL_RecvFrom_w_hop", .index = 1, .channel = 0, .peer_task = 0,
      .peer_kind = MDL_PEER_ONE, .nitems = 1, .items = v_item, .npairs = 1 },
};
static const mdl_msg_desc *const MP[] = { &M[0], &M[1] };

/* as a generated send function keeps it */
static mdl_site site = { &M[0], NULL, 0, NULL };

static void run(int gen, T *t)
{
    mdl_task_desc d = { MDL_ABI, "site.mdl", 7, 1, tasks, 0, 0, { 0, 0, 0 }, 1, NELEM(MP), MP,
                        0, NULL, sizeof(T), 0, 0, NULL, 0, NULL };
    mdl_rt *rt;
    CHECK_EQ(mdl_init_at(&d, NULL, NULL, t, sizeof *t, &rt), 0);
    int r = mdl_my_rank(rt);
    for (int k = 0; k < 3; k++) {
        if (r == 0) {
            for (int j = 0; j < 8; j++)
                t->V[j] = 100 * gen + 10 * k + j;
            CHECK_EQ(mdl_send_site(rt, &site, t, 1, 0, 7), 0);
        } else {
            memset(t->V, 0, sizeof t->V);
            CHECK_EQ(mdl_recv(rt, &M[1], t, 0, all8), 0);
            for (int j = 0; j < 8; j++)
                CHECK_EQ(t->V[j], 100 * gen + 10 * k + j);
        }
    }
    CHECK_EQ(mdl_end(rt, t), 0);
    CHECK_EQ(mdl_send_site(rt, &site, t, 1, 0, 7), MDL_ERR_STATE);
}

int main(int argc, char **argv)
{
    setenv("MDL_ERRORS", "return", 1);
    MPI_Init(&argc, &argv);
    static T t;
    for (int gen = 1; gen <= 3; gen++)
        run(gen, &t);
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (r == 0)
        printf("rt_site: OK\n");
    MPI_Finalize();
    return 0;
}
