/* rt_errors.c — run-time errors of the MPI runtime.  SPMD, 2 instances;
 * the mode is argv[1]:
 *   return     (with MDL_ERRORS=return) every check returns its code:
 *              truncation both ways, bad instances, multicast lists, section
 *              bounds, NULL pointer item, collective counts, Sbarrier/Mcast
 *              lists, grid calls on a non-grid task, Init twice, calls after End
 *   rank       fatal: send to instance 5 (exits non-zero, one line)
 *   truncate   fatal: receive smaller than the message
 *   spec       instance 1 built from another spec (different hash)
 *   launcher   MDL_SHM_FD set: started by mdlrun
 *   channel    a large send's channel past the descriptor's nchannels:
 *              refused by MDL_Init (the MPI runtime's tables of the
 *              task's channels have nchannels entries) */
#include <string.h>

#include "rt_test.h"

typedef struct T {
    int V[8];
    int *p;
    int a[16];
    void *rt;
} T;

static const char *const tasks[] = { "w", "ghost" };    /* no ghost is launched */
static const mdl_item_desc v_item[] = { ITEM1(T, V, td_int, 8, 0) };
static const mdl_item_desc p_item[] = { ITEMP(T, p, td_int, 0) };
/* large enough for the one-copy path (mode channel: never sent) */
static const mdl_item_desc huge_item[] = { ITEM1(T, V, td_int, 1 << 20, 0) };
static const long all8[] = { 0, 7 }, first4[] = { 0, 3 };

#define P2P(nm, fnm, idx, snd, ch, kind, it, np, fb)                                      \
    { .name = nm, .fn = fnm, .index = idx, .is_send = snd, .async = 0, .channel = ch,   \
      .peer_task = 0, .peer_kind = kind, .nitems = 1, .items = it, .npairs = np,        \
      .fixed_bounds = fb }

static const mdl_msg_desc M[] = {
    P2P("big", "MDL_SendTo_w_big", 0, 1, 0, MDL_PEER_ONE, v_item, 1, all8),
    P2P("big", "MDL_RecvFrom_w_big", 1, 0, 0, MDL_PEER_ONE, v_item, 1, first4),
    P2P("small", "MDL_SendTo_w_small", 2, 1, 1, MDL_PEER_ONE, v_item, 1, first4),
    P2P("small", "MDL_RecvFrom_w_small", 3, 0, 1, MDL_PEER_ONE, v_item, 1, all8),
    P2P("mc", "MDL_SendTo_w_mc", 4, 1, 2, MDL_PEER_SUBSET, v_item, 1, all8),
    P2P("dyn", "MDL_SendTo_w_dyn", 5, 1, 3, MDL_PEER_ONE, v_item, 1, NULL),
    P2P("ptr", "MDL_SendTo_w_ptr", 6, 1, 4, MDL_PEER_ONE, p_item, 1, NULL),
    { .name = "boo", .fn = "MDL_RecvFrom_ghost_boo", .index = 7, .channel = 5, .peer_task = 1,
      .peer_kind = MDL_PEER_ONE, .nitems = 1, .items = v_item, .npairs = 1,
      .fixed_bounds = all8 },
    P2P("rep", "MDL_SendTo_w_rep", 8, 1, 6, MDL_PEER_ONE, v_item, 1, NULL),
    P2P("rep", "MDL_RecvFrom_w_rep", 9, 0, 6, MDL_PEER_ONE, v_item, 1, NULL),
    P2P("two", "MDL_SendTo_w_two", 10, 1, 7, MDL_PEER_ONE, v_item, 2, NULL),
};
static const mdl_msg_desc *const MP[] = { &M[0], &M[1], &M[2], &M[3], &M[4], &M[5],
                                          &M[6], &M[7], &M[8], &M[9], &M[10] };

static const mdl_coll_desc C[] = {
    { "g", "MDL_Gather_g", 0, MDL_COLL_GATHER, 0, 0, &td_int, 16, 16, 0, -1, -1 },
    { "mc", "MDL_Mcast_mc", 1, MDL_COLL_MCAST, 0, 0, &td_int, 16, 16, 0, -1, -1 },
    { "sv", "MDL_ScatterV_sv", 2, MDL_COLL_SCATTERV, 1, 0, &td_int, 16, 4, 0, -1, -1 },
};
static const mdl_coll_desc *const CP[] = { &C[0], &C[1], &C[2] };

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "return";
    mdl_task_desc d = { MDL_ABI, "errors.mdl", 5, 2, tasks, 0, 0, { 0, 0, 0 }, 8, NELEM(MP), MP,
                        NELEM(CP), CP, sizeof(T), 0, 0, NULL, 0, NULL };
    void *mem;
    mdl_rt *rt;
    if (strcmp(mode, "launcher") == 0)
        setenv("MDL_SHM_FD", "3", 1);
    mdl_msg_desc bad = M[5];
    const mdl_msg_desc *bad_mp[NELEM(MP)];
    if (strcmp(mode, "channel") == 0) {
        bad.channel = d.nchannels;
        bad.items = huge_item;
        memcpy(bad_mp, MP, sizeof MP);
        bad_mp[bad.index] = &bad;
        d.msgs = bad_mp;
    }
    if (strcmp(mode, "spec") == 0) {
        /* which instance is built differently does not matter: all see it
           (the rank as MPICH's and Open MPI's launchers give it) */
        const char *r = getenv("PMI_RANK") ? getenv("PMI_RANK") : getenv("OMPI_COMM_WORLD_RANK");
        if (r && strcmp(r, "1") == 0)
            d.spec_hash = 6;
    }
    int rc = mdl_init(&d, &argc, &argv, &mem, &rt);
    if (strcmp(mode, "channel") == 0) {
        CHECK_EQ(rc, MDL_ERR_ARG);    /* reached only with MDL_ERRORS=return */
        printf("rt_errors %s: returned %d\n", mode, rc);
        return 0;
    }
    if (strcmp(mode, "spec") == 0 || strcmp(mode, "launcher") == 0) {
        CHECK_EQ(rc, MDL_ERR_LAUNCH);    /* reached only with MDL_ERRORS=return */
        printf("rt_errors %s: returned %d\n", mode, rc);
        return 0;
    }
    CHECK_EQ(rc, 0);
    T *t = mem;
    int r = mdl_my_rank(rt);
    CHECK_EQ(mdl_task_size(rt, 0), 2);

    if (strcmp(mode, "rank") == 0) {
        if (r == 0)
            mdl_send(rt, &M[0], t, 5, NULL, 0, NULL);
        mdl_barrier(rt);
        return 0;
    }
    if (strcmp(mode, "truncate") == 0) {
        if (r == 0)
            mdl_send(rt, &M[0], t, 1, NULL, 0, NULL);
        else
            mdl_recv(rt, &M[1], t, 0, NULL);
        mdl_barrier(rt);
        return 0;
    }

    /* ---- MDL_ERRORS=return */
    void *mem2;
    mdl_rt *rt2;
    CHECK_EQ(mdl_init(&d, &argc, &argv, &mem2, &rt2), MDL_ERR_STATE);
    for (int j = 0; j < 8; j++)
        t->V[j] = 10 * r + j;
    if (r == 0) {
        CHECK_EQ(mdl_send(rt, &M[0], t, 1, NULL, 0, NULL), 0);
        CHECK_EQ(mdl_send(rt, &M[2], t, 1, NULL, 0, NULL), 0);
    } else {
        CHECK_EQ(mdl_recv(rt, &M[1], t, 0, NULL), MDL_ERR_TRUNCATE);    /* 8 into 4 */
        CHECK_EQ(mdl_recv(rt, &M[3], t, 0, NULL), MDL_ERR_TRUNCATE);    /* 4 into 8 */
    }
    /* a send that repeats its last call goes again from what the runtime
     * noted of it (docs/runtime-mpi.md): what the checks refuse is refused
     * after it too */
    if (r == 0) {
        CHECK_EQ(mdl_send(rt, &M[8], t, 1, NULL, 0, all8), 0);
        mdl_msg_desc alias = M[8];
        CHECK_EQ(mdl_send(rt, &alias, t, 1, NULL, 0, all8), MDL_ERR_ARG);  /* not this task's */
        CHECK_EQ(mdl_send(rt, &M[9], t, 1, NULL, 0, all8), MDL_ERR_ARG);   /* a receive */
        T copy = *t;
        CHECK_EQ(mdl_send(rt, &M[8], &copy, 1, NULL, 0, all8), MDL_ERR_ARG);
        CHECK_EQ(mdl_send(rt, &M[8], t, 1, NULL, 0, NULL), MDL_ERR_ARG);   /* no bounds */
        CHECK_EQ(mdl_send(rt, &M[8], t, 1, NULL, 0, all8), 0);
        /* the same through a call site's note (mdl_send_site: the bounds
         * by value), the layout's note the one mdl_send made: the site's
         * note, made by its first call, stands for no check but the
         * descriptor's and the task struct's of its runtime */
        mdl_site s8 = MDL_SITE_INIT(&M[8]), s_alias = MDL_SITE_INIT(&alias);
        mdl_site s9 = MDL_SITE_INIT(&M[9]), s10 = MDL_SITE_INIT(&M[10]);
        CHECK_EQ(mdl_send_site(rt, &s8, t, 1, 0, 7), 0);
        CHECK_EQ(mdl_send_site(rt, &s_alias, t, 1, 0, 7), MDL_ERR_ARG);
        CHECK_EQ(mdl_send_site(rt, &s9, t, 1, 0, 7), MDL_ERR_ARG);
        CHECK_EQ(mdl_send_site(rt, &s8, &copy, 1, 0, 7), MDL_ERR_ARG);
        CHECK_EQ(mdl_send_site(rt, &s8, t, 5, 0, 7), MDL_ERR_RANK);
        CHECK_EQ(mdl_send_site(rt, &s8, t, MDL_ANY, 0, 7), MDL_ERR_RANK);
        CHECK_EQ(mdl_send_site(rt, &s8, t, 1, 0, 8), MDL_ERR_BOUNDS);
        CHECK_EQ(mdl_send_site(rt, &s10, t, 1, 0, 7), MDL_ERR_ARG);  /* two pairs: no bounds */
        CHECK_EQ(mdl_send_site(rt, &s8, t, 1, 0, 7), 0);
    } else {
        for (int k = 0; k < 4; k++) {
            memset(t->V, 0, sizeof t->V);
            CHECK_EQ(mdl_recv(rt, &M[9], t, 0, all8), 0);
            for (int j = 0; j < 8; j++)
                CHECK_EQ(t->V[j], j);
        }
    }
    CHECK_EQ(mdl_send(rt, &M[0], t, 5, NULL, 0, NULL), MDL_ERR_RANK);
    CHECK_EQ(mdl_send(rt, &M[0], t, MDL_ANY, NULL, 0, NULL), MDL_ERR_RANK);
    CHECK_EQ(mdl_recv(rt, &M[1], t, 2, NULL), MDL_ERR_RANK);
    CHECK_EQ(mdl_recv(rt, &M[1], t, -7, NULL), MDL_ERR_RANK);
    const int dup[] = { 1, 1 }, out[] = { 0, 2 };
    CHECK_EQ(mdl_send(rt, &M[4], t, 0, dup, 2, NULL), MDL_ERR_RANK);
    CHECK_EQ(mdl_send(rt, &M[4], t, 0, out, 2, NULL), MDL_ERR_RANK);
    CHECK_EQ(mdl_send(rt, &M[4], t, 0, NULL, 1, NULL), MDL_ERR_ARG);
    const long past[] = { 0, 8 }, neg[] = { -1, 3 }, back[] = { 5, 2 };
    CHECK_EQ(mdl_send(rt, &M[5], t, 0, NULL, 0, past), MDL_ERR_BOUNDS);
    CHECK_EQ(mdl_send(rt, &M[5], t, 0, NULL, 0, neg), MDL_ERR_BOUNDS);
    CHECK_EQ(mdl_send(rt, &M[5], t, 0, NULL, 0, back), MDL_ERR_BOUNDS);
    CHECK_EQ(mdl_send(rt, &M[5], t, 0, NULL, 0, NULL), MDL_ERR_ARG);
    CHECK_EQ(mdl_send(rt, &M[6], t, 0, NULL, 0, first4), MDL_ERR_BOUNDS);    /* p NULL */
    CHECK_EQ(mdl_test(rt, &M[0]), 1);    /* nothing pending */
    CHECK_EQ(mdl_wait(rt, &M[0]), 0);

    /* collectives: caps are checked on every instance, so both return */
    CHECK_EQ(mdl_collective(rt, &C[0], t->a, t->a + 0, 9, NULL, NULL, NULL, 0), MDL_ERR_BOUNDS);
    CHECK_EQ(mdl_collective(rt, &C[0], t->a, t->a, -3, NULL, NULL, NULL, 0), MDL_ERR_ARG);
    CHECK_EQ(mdl_collective(rt, &C[1], t->a, t->a, 1, NULL, NULL, dup, 2), MDL_ERR_RANK);
    CHECK_EQ(mdl_collective(rt, &C[1], t->a, t->a, 1, NULL, NULL, out, 2), MDL_ERR_RANK);
    const int counts[] = { 5, 1 }, displs[] = { 0, 5 }, displs_far[] = { 0, 16 };
    CHECK_EQ(mdl_collective(rt, &C[2], t->a, t->V, -1, counts, displs, NULL, 0),
             MDL_ERR_BOUNDS);    /* 5 elements into a receive of 4 */
    CHECK_EQ(mdl_collective(rt, &C[2], t->a, t->V, -1, (const int[]){ 1, 1 }, displs_far,
                            NULL, 0),
             MDL_ERR_BOUNDS);    /* block past the send variable */
    CHECK_EQ(mdl_collective(rt, &C[2], t->a, t->V, -1, NULL, displs, NULL, 0), MDL_ERR_ARG);
    CHECK_EQ(mdl_sbarrier(rt, dup, 2), MDL_ERR_RANK);
    CHECK_EQ(mdl_sbarrier(rt, out, 2), MDL_ERR_RANK);
    const int both[] = { 1, 0 };
    CHECK_EQ(mdl_sbarrier(rt, both, 2), 0);
    int dims[2] = { 0, 0 }, c[2];
    CHECK_EQ(mdl_grid_create(rt, dims, 0), MDL_ERR_GRID);
    CHECK_EQ(mdl_grid_mycoords(rt, c), MDL_ERR_GRID);
    CHECK_EQ(mdl_task_size(rt, 1), 0);
    CHECK_EQ(mdl_task_size(rt, 2), MDL_ERR_ARG);
    CHECK_EQ(mdl_recv(rt, &M[7], t, MDL_ANY, NULL), MDL_ERR_RANK);    /* no ghost: no hang */
    CHECK_EQ(mdl_recv(rt, &M[7], t, 0, NULL), MDL_ERR_RANK);

    CHECK_EQ(mdl_end(rt, t), 0);
    CHECK_EQ(mdl_my_rank(rt), MDL_ERR_STATE);
    CHECK_EQ(mdl_barrier(rt), MDL_ERR_STATE);
    CHECK_EQ(mdl_init(&d, &argc, &argv, &mem, &rt), MDL_ERR_STATE);    /* MPI finalized */
    if (r == 0)
        printf("rt_errors return: OK\n");
    return 0;
}
