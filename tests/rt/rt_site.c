/* rt_site.c — a call site's note (mdl_site) holds for one runtime: the
 * program initialises MPI itself and runs MDL_Init/MDL_End three times in
 * one process on one task struct (mdl_init_at), so that each runtime after
 * the first is handed a site noted by the one before, whose layout that
 * runtime's MDL_End freed (SANITIZE=1 reports its use).  Between them, a
 * call on the ended runtime is refused as ever.  Errors are returned
 * (MDL_ERRORS=return is set here) and checked.  Within each runtime,
 * the site's plan (a sync send with the site's last bounds, sent from the
 * plan's words: docs/runtime-mpi.md) must follow the bounds and never
 * serve a call it does not fit: other bounds and back, a send to itself,
 * an instance out of range, another task struct.  2 instances:
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
static mdl_site site = MDL_SITE_INIT(&M[0]);

static const long mid[] = { 2, 5 };

/* V[lo..hi] = base + j, sent to inst from the site */
static int send_v(mdl_rt *rt, T *t, int inst, long lo, long hi, int base)
{
    for (long j = lo; j <= hi; j++)
        t->V[j] = base + (int)j;
    return mdl_send_site(rt, &site, t, inst, lo, hi);
}

/* V[lo..hi] received from inst, each base + j, the rest untouched */
static void recv_v(mdl_rt *rt, T *t, int inst, const long *b, int base)
{
    memset(t->V, 0, sizeof t->V);
    CHECK_EQ(mdl_recv(rt, &M[1], t, inst, b), inst);
    for (long j = 0; j < 8; j++)
        CHECK_EQ(t->V[j], j >= b[0] && j <= b[1] ? base + (int)j : 0);
}

/* The plan of the site's last bounds, while the calls change around it:
 * rank 0 sends, rank 1 receives; rank 0 also sends to itself. */
static void plans(mdl_rt *rt, int r, int gen, T *t)
{
    int b = 1000 * gen;
    if (r == 0) {
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 100), 0);   /* other bounds */
        CHECK_EQ(send_v(rt, t, 1, 0, 7, b + 200), 0);   /* back: the plan of 0..7 */
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 300), 0);
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 400), 0);   /* planned for 2..5 */
        CHECK_EQ(send_v(rt, t, 2, 2, 5, b + 450), MDL_ERR_RANK);
        CHECK_EQ(send_v(rt, t, -1, 2, 5, b + 450), MDL_ERR_RANK);
        T other = *t;
        CHECK(mdl_send_site(rt, &site, &other, 1, 2, 5) < 0);
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 500), 0);   /* still planned */
        CHECK_EQ(send_v(rt, t, 1, 3, 5, b + 600), 0);   /* the plan's hi, not its lo */
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 700), 0);
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 800), 0);   /* planned again */
        /* to itself: kept out of MPI, as a send of mdl_send's after it,
         * so that the two are received in order */
        CHECK_EQ(send_v(rt, t, 0, 2, 5, b + 900), 0);
        for (long j = 2; j <= 5; j++)
            t->V[j] = b + 950 + (int)j;
        CHECK_EQ(mdl_send(rt, &M[0], t, 0, NULL, 0, mid), 0);
        recv_v(rt, t, 0, mid, b + 900);
        recv_v(rt, t, 0, mid, b + 950);
    } else {
        recv_v(rt, t, 0, mid, b + 100);
        recv_v(rt, t, 0, all8, b + 200);
        for (int k = 3; k <= 8; k++)
            recv_v(rt, t, 0, k == 6 ? (const long[]){ 3, 5 } : mid, b + 100 * k);
    }
}

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
    plans(rt, r, gen, t);
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
