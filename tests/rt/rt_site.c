/* rt_site.c — a call site's note (mdl_site) holds for one runtime: the
 * program initialises MPI itself and runs MDL_Init/MDL_End three times in
 * one process on one task struct (mdl_init_at), so that each runtime after
 * the first is handed sites noted and planned by the one before, whose
 * layouts that runtime's MDL_End freed (SANITIZE=1 reports their use), and
 * whose plans a call as the generated functions make it (send_site,
 * recv_site: MDL_SITE_PLANNED, then plan_call) must not reach.  Between
 * them, a call on the ended runtime is refused as ever.  Errors are
 * returned (MDL_ERRORS=return is set here) and checked.  Within each
 * runtime, the sites' plans (a sync send or receive with the site's last
 * bounds, made from the plan's words: docs/runtime-mpi.md) must follow the
 * bounds and never serve a call they do not fit: other bounds and back, a
 * call to or from itself, an instance out of range or MDL_ANY, another
 * task struct; a planned receive that gets a message of another size
 * says so.  2 instances: mpiexec -n 2 ./rt_site */
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

/* as the generated send and receive functions keep them, and call them */
static mdl_site ssite = MDL_SITE_INIT(&M[0]);
static mdl_site rsite = MDL_SITE_INIT(&M[1]);

static int send_site(mdl_rt *rt, T *t, int inst, long lo, long hi)
{
    if (MDL_SITE_PLANNED(&ssite, t, inst, lo, hi))
        return ssite.plan_call(&ssite, inst);
    return mdl_send_site(rt, &ssite, t, inst, lo, hi);
}

static int recv_site(mdl_rt *rt, T *t, int inst, long lo, long hi)
{
    if (MDL_SITE_PLANNED(&rsite, t, inst, lo, hi))
        return rsite.plan_call(&rsite, inst);
    return mdl_recv_site(rt, &rsite, t, inst, lo, hi);
}

/* whether the site's plan serves a call from t to or from inst with
 * lo..hi, as the generated function sees it */
static int planned(const mdl_site *s, const T *t, int inst, long lo, long hi)
{
    return MDL_SITE_PLANNED(s, t, inst, lo, hi);
}

static const long mid[] = { 2, 5 };

/* V[lo..hi] = base + j, sent to inst from the site */
static int send_v(mdl_rt *rt, T *t, int inst, long lo, long hi, int base)
{
    for (long j = lo; j <= hi; j++)
        t->V[j] = base + (int)j;
    return send_site(rt, t, inst, lo, hi);
}

/* V[b[0]..b[1]] received from inst (MDL_ANY: from 0) at the site, each
 * base + j, the rest untouched */
static void recv_v(mdl_rt *rt, T *t, int inst, const long *b, int base)
{
    memset(t->V, 0, sizeof t->V);
    CHECK_EQ(recv_site(rt, t, inst, b[0], b[1]), inst == MDL_ANY ? 0 : inst);
    for (long j = 0; j < 8; j++)
        CHECK_EQ(t->V[j], j >= b[0] && j <= b[1] ? base + (int)j : 0);
}

/* The plans of the sites' last bounds, while the calls change around
 * them: rank 0 sends, rank 1 receives; rank 0 also sends to itself. */
static void plans(mdl_rt *rt, int r, int gen, T *t)
{
    static const long short3[] = { 2, 4 }, upper3[] = { 3, 5 };
    int b = 1000 * gen;
    if (r == 0) {
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 100), 0);   /* other bounds */
        CHECK_EQ(send_v(rt, t, 1, 0, 7, b + 200), 0);   /* back: the plan of 0..7 */
        CHECK(planned(&ssite, t, 1, 0, 7));
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 300), 0);
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 400), 0);   /* planned for 2..5 */
        CHECK(planned(&ssite, t, 1, 2, 5));
        CHECK_EQ(send_v(rt, t, 2, 2, 5, b + 450), MDL_ERR_RANK);
        CHECK_EQ(send_v(rt, t, -1, 2, 5, b + 450), MDL_ERR_RANK);
        T other = *t;
        CHECK(send_site(rt, &other, 1, 2, 5) < 0);
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 500), 0);   /* still planned */
        CHECK_EQ(send_v(rt, t, 1, 3, 5, b + 600), 0);   /* the plan's hi, not its lo */
        CHECK_EQ(send_v(rt, t, 1, 2, 4, b + 700), 0);   /* its lo, not its hi */
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 800), 0);   /* still planned */
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 900), 0);
        /* to itself: kept out of MPI, as a send of mdl_send's after it,
         * so that the two are received in order */
        CHECK_EQ(send_v(rt, t, 0, 2, 5, b + 900), 0);
        for (long j = 2; j <= 5; j++)
            t->V[j] = b + 950 + (int)j;
        CHECK_EQ(mdl_send(rt, &M[0], t, 0, NULL, 0, mid), 0);
        recv_v(rt, t, 0, mid, b + 900);
        recv_v(rt, t, 0, mid, b + 950);
        CHECK(planned(&ssite, t, 1, 2, 5));     /* the plan of another stays */
        /* for rank 1's planned receive: a message of its size, a smaller
         * and a larger one, two more of its size, one of other bounds,
         * two of its size again */
        const long *sent[] = { mid, short3, all8, mid, mid, upper3, mid, mid };
        for (int k = 0; k < 8; k++) {
            for (long j = sent[k][0]; j <= sent[k][1]; j++)
                t->V[j] = b + 10 * k + (int)j;
            CHECK_EQ(mdl_send(rt, &M[0], t, 1, NULL, 0, sent[k]), 0);
        }
    } else {
        recv_v(rt, t, 0, mid, b + 100);
        recv_v(rt, t, 0, all8, b + 200);
        for (int k = 3; k <= 9; k++)
            recv_v(rt, t, 0, k == 6 ? (const long[]){ 3, 5 } : k == 7 ? (const long[]){ 2, 4 } : mid,
                   b + 100 * k);
        CHECK(planned(&rsite, t, 0, 2, 5));
        recv_v(rt, t, 0, mid, b);
        CHECK(planned(&rsite, t, 0, 2, 5));
        CHECK_EQ(recv_site(rt, t, 0, 2, 5), MDL_ERR_TRUNCATE);         /* smaller */
        CHECK(planned(&rsite, t, 0, 2, 5));
        CHECK_EQ(recv_site(rt, t, 0, 2, 5), MDL_ERR_TRUNCATE);         /* larger */
        CHECK_EQ(recv_site(rt, t, 2, 2, 5), MDL_ERR_RANK);
        T other = *t;
        CHECK(recv_site(rt, &other, 0, 2, 5) < 0);
        CHECK(planned(&rsite, t, 0, 2, 5));
        recv_v(rt, t, 0, mid, b + 30);
        recv_v(rt, t, MDL_ANY, mid, b + 40);
        CHECK(planned(&rsite, t, 0, 2, 5));
        /* the message's layout changed: the plan, which reads it, is gone */
        recv_v(rt, t, MDL_ANY, upper3, b + 50);
        CHECK(!planned(&rsite, t, 0, 2, 5));
        recv_v(rt, t, 0, mid, b + 60);          /* the layout again */
        recv_v(rt, t, 0, mid, b + 70);          /* planned again */
        CHECK(planned(&rsite, t, 0, 2, 5));
        /* from itself: kept out of MPI, never planned; the plan of
         * another stays */
        CHECK_EQ(send_v(rt, t, 1, 2, 5, b + 80), 0);
        recv_v(rt, t, 1, mid, b + 80);
        CHECK(!planned(&rsite, t, 1, 2, 5));
        CHECK(planned(&rsite, t, 0, 2, 5));
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
            CHECK_EQ(send_site(rt, t, 1, 0, 7), 0);
        } else {
            memset(t->V, 0, sizeof t->V);
            CHECK_EQ(recv_site(rt, t, 0, 0, 7), 0);
            for (int j = 0; j < 8; j++)
                CHECK_EQ(t->V[j], 100 * gen + 10 * k + j);
        }
    }
    plans(rt, r, gen, t);
    CHECK_EQ(mdl_end(rt, t), 0);
    /* the ended runtime's plans are gone, and its handle is refused */
    CHECK(!planned(&ssite, t, 1, 2, 5) && !planned(&rsite, t, 0, 2, 5));
    CHECK_EQ(send_site(rt, t, 1, 2, 5), MDL_ERR_STATE);
    CHECK_EQ(recv_site(rt, t, 0, 2, 5), MDL_ERR_STATE);
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
