/* Point-to-point on one SPMD family of >= 3 instances (run with
 * MDL_ERRORS=return): eager and rendezvous, strided sections, pointer items,
 * to {A}, to [A], MDL_ANY, async Test/Wait with several sends in flight,
 * and the errors TRUNCATE, BOUNDS, RANK. */
#include "shm_rtt.h"

#define BIG (1 << 22)
#define PN (1 << 20)

struct T {
    int a, b;
    double x, y;
    double M[8][8];
    double col[8];
    int arr[100];
    int *p;
    char big[BIG];
    char big2[BIG];
    mdl_rt *mdl_rt_;
};
typedef struct T T;

static const mdl_item_desc s_scal[] = {ITEM(T, a, t_int, 0, 0), ITEM(T, x, t_double, 0, 0)};
static const mdl_item_desc r_scal[] = {ITEM(T, b, t_int, 0, 0), ITEM(T, y, t_double, 0, 0)};
static const mdl_item_desc s_col[] = {ITEM(T, M, t_double, 2, 0, 8, 8)};
static const long b_col[] = {0, 7, 2, 2};
static const mdl_item_desc r_col[] = {ITEM(T, col, t_double, 1, 0, 8)};
static const long b_all8[] = {0, 7};
static const mdl_item_desc s_big[] = {ITEM(T, big, t_char, 1, 0, BIG)};
static const long b_big[] = {0, BIG - 1};
static const mdl_item_desc r_big[] = {ITEM(T, big2, t_char, 1, 0, BIG)};
static const mdl_item_desc s_ptr[] = {PITEM(T, p, t_int, 0)};
static const mdl_item_desc r_arr[] = {ITEM(T, arr, t_int, 1, 0, 100)};
static const long b_arr[] = {0, 99};
static const mdl_item_desc s_a[] = {ITEM(T, a, t_int, 0, 0)};
static const mdl_item_desc r_b[] = {ITEM(T, b, t_int, 0, 0)};

enum { M_SCAL, M_SCAL_R, M_COL, M_COL_R, M_BIG, M_BIG_R, M_PTR, M_PTR_R, M_ALL, M_ALL_R,
       M_SUB, M_SUB_R, M_BS, M_BS_R, M_PB, M_PB_R, NMSG };

static const mdl_msg_desc msgs[NMSG] = {
    MSG("scal", M_SCAL, 1, 0, 0, 0, MDL_PEER_ONE, s_scal, 0, NULL),
    MSG("scal_r", M_SCAL_R, 0, 0, 0, 0, MDL_PEER_ONE, r_scal, 0, NULL),
    MSG("col", M_COL, 1, 1, 1, 0, MDL_PEER_ONE, s_col, 2, b_col),
    MSG("col_r", M_COL_R, 0, 0, 1, 0, MDL_PEER_ONE, r_col, 1, b_all8),
    MSG("big", M_BIG, 1, 1, 2, 0, MDL_PEER_ONE, s_big, 1, b_big),
    MSG("big_r", M_BIG_R, 0, 1, 2, 0, MDL_PEER_ONE, r_big, 1, b_big),
    MSG("ptr", M_PTR, 1, 0, 3, 0, MDL_PEER_ONE, s_ptr, 1, NULL),
    MSG("ptr_r", M_PTR_R, 0, 0, 3, 0, MDL_PEER_ONE, r_arr, 1, NULL),
    MSG("all", M_ALL, 1, 1, 4, 0, MDL_PEER_ALL, r_arr, 1, b_arr),
    MSG("all_r", M_ALL_R, 0, 0, 4, 0, MDL_PEER_ONE, r_arr, 1, b_arr),
    MSG("sub", M_SUB, 1, 0, 5, 0, MDL_PEER_SUBSET, s_a, 0, NULL),
    MSG("sub_r", M_SUB_R, 0, 0, 5, 0, MDL_PEER_ONE, r_b, 0, NULL),
    MSG("bs", M_BS, 1, 0, 6, 0, MDL_PEER_ONE, s_big, 1, b_big),
    MSG("bs_r", M_BS_R, 0, 0, 6, 0, MDL_PEER_ONE, r_big, 1, NULL),
    MSG("pb", M_PB, 1, 1, 7, 0, MDL_PEER_ONE, s_ptr, 1, NULL),
    MSG("pb_r", M_PB_R, 0, 0, 7, 0, MDL_PEER_ONE, s_ptr, 1, NULL),
};
static const mdl_msg_desc *const msgp[NMSG] = {
    &msgs[0], &msgs[1], &msgs[2], &msgs[3], &msgs[4], &msgs[5], &msgs[6], &msgs[7],
    &msgs[8], &msgs[9], &msgs[10], &msgs[11], &msgs[12], &msgs[13], &msgs[14], &msgs[15],
};
static const char *const tasks[] = {"t"};
static const mdl_task_desc desc = {
    MDL_ABI, "rt_p2p.mdl", 0x1234, 1, tasks, 0, 0, {0, 0, 0}, 8, NMSG, msgp, 0, NULL, sizeof(T), 0,
    0, NULL, 0, NULL, /* no run-time-sized variables */
};

int main(int argc, char **argv)
{
    T *t;
    mdl_rt *rt;
    CHECK(mdl_init(&desc, &argc, &argv, (void **)&t, &rt) == 0);
    t->mdl_rt_ = rt;
    int me = mdl_my_rank(rt), n = mdl_task_size(rt, 0);
    CHECK(n >= 3);
    CHECK(t->a == 0 && t->big[BIG - 1] == 0);  /* zeroed */
    CHECK(((size_t)t & 63) == 0);

    /* scalars around a ring */
    t->a = me;
    t->x = me * 1.5;
    CHECK(mdl_send(rt, &msgs[M_SCAL], t, (me + 1) % n, NULL, 0, NULL) == 0);
    int from = (me + n - 1) % n;
    CHECK(mdl_recv(rt, &msgs[M_SCAL_R], t, from, NULL) == from);
    CHECK(t->b == from && t->y == from * 1.5);
    mdl_barrier(rt);

    /* a strided column, async eager */
    if (me == 0) {
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++)
                t->M[i][j] = i * 10 + j;
        CHECK(mdl_send(rt, &msgs[M_COL], t, 1, NULL, 0, NULL) == 0);
        CHECK(mdl_wait(rt, &msgs[M_COL]) == 0);
    } else if (me == 1) {
        CHECK(mdl_recv(rt, &msgs[M_COL_R], t, 0, NULL) == 0);
        for (int i = 0; i < 8; i++)
            CHECK(t->col[i] == i * 10 + 2);
    }

    /* 4 MiB rendezvous: n-1 async sends of one message in flight */
    if (me == 0) {
        for (int i = 0; i < BIG; i++)
            t->big[i] = (char)(i * 7 + 1);
        for (int k = 1; k < n; k++)
            CHECK(mdl_send(rt, &msgs[M_BIG], t, k, NULL, 0, NULL) == 0);
        CHECK(mdl_wait(rt, &msgs[M_BIG]) == 0);
        CHECK(mdl_test(rt, &msgs[M_BIG]) == 1);
    } else {
        CHECK(mdl_recv(rt, &msgs[M_BIG_R], t, 0, NULL) == 0);
        CHECK(mdl_wait(rt, &msgs[M_BIG_R]) == 0);
        CHECK(mdl_test(rt, &msgs[M_BIG_R]) == 1);
        for (int i = 0; i < BIG; i++)
            CHECK(t->big2[i] == (char)(i * 7 + 1));
    }
    mdl_barrier(rt);

    /* pointer items: small into an array section, large pointer to pointer */
    t->p = calloc(PN, sizeof(int));
    if (me == 1) {
        for (int i = 0; i < PN; i++)
            t->p[i] = i ^ 0x5a5a;
        long b1[] = {10, 59};
        CHECK(mdl_send(rt, &msgs[M_PTR], t, 0, NULL, 0, b1) == 0);
        long b2[] = {0, 9};  /* smaller than the receive: an error too */
        CHECK(mdl_send(rt, &msgs[M_PTR], t, 0, NULL, 0, b2) == 0);
        CHECK(mdl_send(rt, &msgs[M_PTR], t, 0, NULL, 0, b2) == 0);
        long b3[] = {0, PN - 1};
        CHECK(mdl_send(rt, &msgs[M_PB], t, 2, NULL, 0, b3) == 0);
        CHECK(mdl_wait(rt, &msgs[M_PB]) == 0);
    } else if (me == 0) {
        long r1[] = {0, 49};
        CHECK(mdl_recv(rt, &msgs[M_PTR_R], t, 1, r1) == 1);
        for (int i = 0; i < 50; i++)
            CHECK(t->arr[i] == ((10 + i) ^ 0x5a5a));
        t->arr[5] = -1;
        long r2[] = {0, 19};
        CHECK(mdl_recv(rt, &msgs[M_PTR_R], t, MDL_ANY, r2) == MDL_ERR_TRUNCATE);
        CHECK(t->arr[5] == -1);     /* nothing written */
        long r3[] = {0, 9};
        CHECK(mdl_recv(rt, &msgs[M_PTR_R], t, MDL_ANY, r3) == 1);
        for (int i = 0; i < 10; i++)
            CHECK(t->arr[i] == (i ^ 0x5a5a));
    } else if (me == 2) {
        long r3[] = {0, PN - 1};
        CHECK(mdl_recv(rt, &msgs[M_PB_R], t, 1, r3) == 1);
        for (int i = 0; i < PN; i++)
            CHECK(t->p[i] == (i ^ 0x5a5a));
    }
    mdl_barrier(rt);

    /* to {t}: every other instance (like MPI_Bcast, not the sender);
     * MDL_ANY reports the sender */
    if (me == n - 1) {
        for (int i = 0; i < 100; i++)
            t->arr[i] = i * 3;
        CHECK(mdl_send(rt, &msgs[M_ALL], t, 0, NULL, 0, NULL) == 0);
        CHECK(mdl_wait(rt, &msgs[M_ALL]) == 0);
    } else {
        CHECK(mdl_recv(rt, &msgs[M_ALL_R], t, MDL_ANY, NULL) == n - 1);
        for (int i = 0; i < 100; i++)
            CHECK(t->arr[i] == i * 3);
    }
    mdl_barrier(rt);

    /* to [t] */
    if (me == 0) {
        int l[] = {1, n - 1};
        t->a = 42;
        CHECK(mdl_send(rt, &msgs[M_SUB], t, 0, l, 2, NULL) == 0);
        int dup[] = {1, 1}, out[] = {n};
        CHECK(mdl_send(rt, &msgs[M_SUB], t, 0, dup, 2, NULL) == MDL_ERR_RANK);
        CHECK(mdl_send(rt, &msgs[M_SUB], t, 0, out, 1, NULL) == MDL_ERR_RANK);
    } else if (me == 1 || me == n - 1) {
        t->b = 0;
        CHECK(mdl_recv(rt, &msgs[M_SUB_R], t, 0, NULL) == 0 && t->b == 42);
    }
    mdl_barrier(rt);

    /* more messages than the ring holds, sent before a barrier that the
     * receiver reaches before receiving: sends never wait for room */
    if (me == 0) {
        for (int i = 0; i < 300; i++) {
            t->a = i;
            t->x = i * 0.5;
            CHECK(mdl_send(rt, &msgs[M_SCAL], t, 1, NULL, 0, NULL) == 0);
            if (i % 30 == 0)    /* rendezvous ones in between, several in flight */
                CHECK(mdl_send(rt, &msgs[M_BIG], t, 1, NULL, 0, NULL) == 0);
        }
    }
    mdl_barrier(rt);
    if (me == 1) {
        for (int i = 0; i < 300; i++) {
            CHECK(mdl_recv(rt, &msgs[M_SCAL_R], t, 0, NULL) == 0);
            CHECK(t->b == i && t->y == i * 0.5);
            if (i % 30 == 0) {
                memset(t->big2, 0, 64);
                CHECK(mdl_recv(rt, &msgs[M_BIG_R], t, 0, NULL) == 0);
                CHECK(mdl_wait(rt, &msgs[M_BIG_R]) == 0);
                CHECK(t->big2[BIG - 1] == (char)((BIG - 1) * 7 + 1) && t->big2[5] == 36);
            }
        }
    }
    if (me == 0)
        CHECK(mdl_wait(rt, &msgs[M_BIG]) == 0);
    mdl_barrier(rt);

    /* errors */
    CHECK(mdl_send(rt, &msgs[M_SCAL], t, n, NULL, 0, NULL) == MDL_ERR_RANK);
    CHECK(mdl_recv(rt, &msgs[M_SCAL_R], t, -5, NULL) == MDL_ERR_RANK);
    long bad[] = {0, 100};
    CHECK(mdl_recv(rt, &msgs[M_PTR_R], t, 0, bad) == MDL_ERR_BOUNDS);
    long badp[] = {5, 3};
    CHECK(mdl_send(rt, &msgs[M_PTR], t, 0, NULL, 0, badp) == MDL_ERR_BOUNDS);
    if (me == 1) {
        long b1[] = {0, 49};
        CHECK(mdl_send(rt, &msgs[M_PTR], t, 0, NULL, 0, b1) == 0);   /* 200 B eager */
        CHECK(mdl_send(rt, &msgs[M_BS], t, 2, NULL, 0, NULL) == 0);  /* 4 MiB */
    } else if (me == 0) {
        memset(t->arr, 0x11, sizeof t->arr);
        long r1[] = {0, 4};
        CHECK(mdl_recv(rt, &msgs[M_PTR_R], t, 1, r1) == MDL_ERR_TRUNCATE);
        CHECK(t->arr[5] == 0x11111111 && t->arr[0] == 0x11111111);  /* nothing written */
    } else if (me == 2) {
        memset(t->big2, 0, 200);
        long r2[] = {0, 99};
        CHECK(mdl_recv(rt, &msgs[M_BS_R], t, 1, r2) == MDL_ERR_TRUNCATE);
        CHECK(t->big2[100] == 0);
    }
    mdl_barrier(rt);
    free(t->p);
    CHECK(mdl_end(rt, t) == 0);
    if (me == 0)
        printf("rt_p2p ok\n");
    return 0;
}
