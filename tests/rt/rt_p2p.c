/* rt_p2p.c — every point-to-point form with exact values.
 * Launch: mpiexec -n 1 ./rt_p2p father : -n 3 ./rt_p2p son
 *
 *   m1    father -> son[k]      {i, f}                    scalars
 *   bc    father -> {son}       {V}                       broadcast
 *   mc    father -> [son]       {A}                       multicast to {2, 0}
 *   back  son -> father         {who}                     received with MDL_ANY
 *   col   father -> son[k]      {M[1..4][2], M[3][0..7]}  strided column + row
 *         into                  {R[0..3][5], R[1][0..4], R[3][0..2]}
 *   dyn   father -> son[k]      {W[..]}                   bounds at the call
 *   parts father -> son[k]      {P[1..2]} -> {P[0..1]}    struct elements
 *   ptr   father -> son[k]      {p[..]}                   pointer item
 *   as    father -> son[k]      {out}  async both sides, several in flight
 *   ring  son[0] -> son[n-1]    {ring}                    own family, MDL_ANY */
#include <string.h>

#include "rt_test.h"

typedef struct Particle {
    double x, y;
    int id;
} Particle;

static const mdl_field_desc particle_fields[] = {
    { MDL_T_DOUBLE, NULL, 1, offsetof(Particle, x) },
    { MDL_T_DOUBLE, NULL, 1, offsetof(Particle, y) },
    { MDL_T_INT, NULL, 1, offsetof(Particle, id) },
};
static const mdl_type_desc td_particle = { "Particle", MDL_T_STRUCT, sizeof(Particle), 3,
                                           particle_fields };

typedef struct T {
    int i;
    double f;
    float V[10];
    int A[5];
    double M[6][8];
    double R[4][6];
    double W[20];
    Particle P[4];
    int *p;
    int who;
    int out[4];
    int ring;
    void *rt;
} T;

static const char *const tasks[] = { "father", "son" };

/* ---- father */
static const mdl_item_desc f_m1[] = { ITEM0(T, i, td_int), ITEM0(T, f, td_double) };
static const mdl_item_desc f_bc[] = { ITEM1(T, V, td_float, 10, 0) };
static const long f_bc_b[] = { 0, 9 };
static const mdl_item_desc f_mc[] = { ITEM1(T, A, td_int, 5, 0) };
static const long f_mc_b[] = { 0, 4 };
static const mdl_item_desc f_back[] = { ITEM0(T, who, td_int) };
static const mdl_item_desc f_col[] = { ITEM2(T, M, td_double, 6, 8, 0),
                                       ITEM2(T, M, td_double, 6, 8, 2) };
static const long f_col_b[] = { 1, 4, 2, 2, 3, 3, 0, 7 };
static const mdl_item_desc f_dyn[] = { ITEM1(T, W, td_double, 20, 0) };
static const mdl_item_desc f_parts[] = { ITEM1(T, P, td_particle, 4, 0) };
static const long f_parts_b[] = { 1, 2 };
static const mdl_item_desc f_ptr[] = { ITEMP(T, p, td_int, 0) };
static const mdl_item_desc f_as[] = { ITEM1(T, out, td_int, 4, 0) };
static const long f_as_b[] = { 0, 3 };

#define MSG(nm, fnm, idx, snd, asy, ch, pt, kind, it, np, fb)                           \
    { .name = nm, .fn = fnm, .index = idx, .is_send = snd, .async = asy, .channel = ch, \
      .peer_task = pt, .peer_kind = kind, .nitems = NELEM(it), .items = it,            \
      .npairs = np, .fixed_bounds = fb }

static const mdl_msg_desc fm[] = {
    MSG("m1", "MDL_SendTo_son_m1", 0, 1, 0, 0, 1, MDL_PEER_ONE, f_m1, 0, NULL),
    MSG("bc", "MDL_SendTo_son_bc", 1, 1, 0, 1, 1, MDL_PEER_ALL, f_bc, 1, f_bc_b),
    MSG("mc", "MDL_SendTo_son_mc", 2, 1, 1, 2, 1, MDL_PEER_SUBSET, f_mc, 1, f_mc_b),
    MSG("back", "MDL_RecvFrom_son_back", 3, 0, 0, 3, 1, MDL_PEER_ONE, f_back, 0, NULL),
    MSG("col", "MDL_SendTo_son_col", 4, 1, 0, 4, 1, MDL_PEER_ONE, f_col, 4, f_col_b),
    MSG("dyn", "MDL_SendTo_son_dyn", 5, 1, 0, 5, 1, MDL_PEER_ONE, f_dyn, 1, NULL),
    MSG("parts", "MDL_SendTo_son_parts", 6, 1, 0, 6, 1, MDL_PEER_ONE, f_parts, 1, f_parts_b),
    MSG("ptr", "MDL_SendTo_son_ptr", 7, 1, 0, 7, 1, MDL_PEER_ONE, f_ptr, 1, NULL),
    MSG("as", "MDL_SendTo_son_as", 8, 1, 1, 8, 1, MDL_PEER_ONE, f_as, 1, f_as_b),
};
static const mdl_msg_desc *const fmsgs[] = { &fm[0], &fm[1], &fm[2], &fm[3], &fm[4],
                                             &fm[5], &fm[6], &fm[7], &fm[8] };

/* ---- son */
static const mdl_item_desc s_col[] = { ITEM2(T, R, td_double, 4, 6, 0),
                                       ITEM2(T, R, td_double, 4, 6, 2),
                                       ITEM2(T, R, td_double, 4, 6, 4) };
static const long s_col_b[] = { 0, 3, 5, 5, 1, 1, 0, 4, 3, 3, 0, 2 };
static const long s_parts_b[] = { 0, 1 };
static const mdl_item_desc s_ring[] = { ITEM0(T, ring, td_int) };

static const mdl_msg_desc sm[] = {
    MSG("m1", "MDL_RecvFrom_father_m1", 0, 0, 0, 0, 0, MDL_PEER_ONE, f_m1, 0, NULL),
    MSG("bc", "MDL_RecvFrom_father_bc", 1, 0, 0, 1, 0, MDL_PEER_ONE, f_bc, 1, f_bc_b),
    MSG("mc", "MDL_RecvFrom_father_mc", 2, 0, 0, 2, 0, MDL_PEER_ONE, f_mc, 1, f_mc_b),
    MSG("back", "MDL_SendTo_father_back", 3, 1, 0, 3, 0, MDL_PEER_ONE, f_back, 0, NULL),
    MSG("col", "MDL_RecvFrom_father_col", 4, 0, 0, 4, 0, MDL_PEER_ONE, s_col, 6, s_col_b),
    MSG("dyn", "MDL_RecvFrom_father_dyn", 5, 0, 0, 5, 0, MDL_PEER_ONE, f_dyn, 1, NULL),
    MSG("parts", "MDL_RecvFrom_father_parts", 6, 0, 0, 6, 0, MDL_PEER_ONE, f_parts, 1,
        s_parts_b),
    MSG("ptr", "MDL_RecvFrom_father_ptr", 7, 0, 0, 7, 0, MDL_PEER_ONE, f_ptr, 1, NULL),
    MSG("as", "MDL_RecvFrom_father_as", 8, 0, 1, 8, 0, MDL_PEER_ONE, f_as, 1, f_as_b),
    MSG("ring", "MDL_SendTo_son_ring", 9, 1, 0, 9, 1, MDL_PEER_ONE, s_ring, 0, NULL),
    MSG("ring", "MDL_RecvFrom_son_ring", 10, 0, 0, 9, 1, MDL_PEER_ONE, s_ring, 0, NULL),
};
static const mdl_msg_desc *const smsgs[] = { &sm[0], &sm[1], &sm[2], &sm[3], &sm[4], &sm[5],
                                             &sm[6], &sm[7], &sm[8], &sm[9], &sm[10] };

static mdl_task_desc desc(int self)
{
    mdl_task_desc d = { MDL_ABI, "p2p.mdl", 0x1234abcdULL, 2, tasks, self, 0, { 0, 0, 0 }, 10,
                        self ? NELEM(smsgs) : NELEM(fmsgs), self ? smsgs : fmsgs,
                        0, NULL, sizeof(T), 0, 0, NULL, 0, NULL };
    return d;
}

static void father(T *t, mdl_rt *rt)
{
    int sons = mdl_task_size(rt, 1);
    CHECK_EQ(mdl_task_size(rt, 0), 1);
    CHECK_EQ(mdl_my_rank(rt), 0);
    CHECK(sons >= 2);
    for (int k = 0; k < sons; k++) {
        t->i = 42 + k;
        t->f = 2.5;
        CHECK_EQ(mdl_send(rt, &fm[0], t, k, NULL, 0, NULL), 0);
    }
    for (int j = 0; j < 10; j++)
        t->V[j] = (float)j * 1.5f;
    CHECK_EQ(mdl_send(rt, &fm[1], t, 0, NULL, 0, NULL), 0);
    for (int j = 0; j < 5; j++)
        t->A[j] = 7 + j;
    const int subset[] = { 2, 0 };
    CHECK_EQ(mdl_send(rt, &fm[2], t, 0, subset, 2, NULL), 0);
    CHECK_EQ(mdl_wait(rt, &fm[2]), 0);
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 8; b++)
            t->M[a][b] = a * 100 + b;
    for (int k = 0; k < sons; k++)
        CHECK_EQ(mdl_send(rt, &fm[4], t, k, NULL, 0, NULL), 0);
    for (int k = 0; k < sons; k++) {
        long b1[] = { 3, 7 }, b2[] = { 0, 1 };
        for (int j = 0; j < 20; j++)
            t->W[j] = j;
        CHECK_EQ(mdl_send(rt, &fm[5], t, k, NULL, 0, b1), 0);
        for (int j = 0; j < 20; j++)
            t->W[j] = j + 100;
        CHECK_EQ(mdl_send(rt, &fm[5], t, k, NULL, 0, b1), 0);    /* same bounds: cached type */
        CHECK_EQ(mdl_send(rt, &fm[5], t, k, NULL, 0, b2), 0);    /* new bounds */
    }
    for (int j = 0; j < 4; j++)
        t->P[j] = (Particle){ j, 2.0 * j, j };
    for (int k = 0; k < sons; k++)
        CHECK_EQ(mdl_send(rt, &fm[6], t, k, NULL, 0, NULL), 0);
    long pb[] = { 1, 4 };
    for (int round = 0; round < 2; round++) {
        int *keep = t->p;
        t->p = malloc(6 * sizeof(int));    /* a new address each round */
        free(keep);
        for (int j = 0; j < 6; j++)
            t->p[j] = j * j + 1000 * round;
        for (int k = 0; k < sons; k++)
            CHECK_EQ(mdl_send(rt, &fm[7], t, k, NULL, 0, pb), 0);
    }
    free(t->p);
    t->p = NULL;
    for (int j = 0; j < 4; j++)
        t->out[j] = j + 1;
    for (int k = 0; k < sons; k++)    /* several sends of one message in flight */
        CHECK_EQ(mdl_send(rt, &fm[8], t, k, NULL, 0, NULL), 0);
    int done = mdl_test(rt, &fm[8]);
    CHECK(done == 0 || done == 1);
    CHECK_EQ(mdl_wait(rt, &fm[8]), 0);
    CHECK_EQ(mdl_test(rt, &fm[8]), 1);

    /* son 1 sends twice: its first message from it by name, then the
       other sons' and its second in any order */
    CHECK_EQ(mdl_recv(rt, &fm[3], t, 1, NULL), 1);
    CHECK_EQ(t->who, 8);
    int seen[8] = { 0 };
    for (int k = 0; k < sons; k++) {
        int from = mdl_recv(rt, &fm[3], t, MDL_ANY, NULL);
        CHECK(from >= 0 && from < sons);
        CHECK_EQ(t->who, from == 1 ? 1000 : from * 7 + 1);
        CHECK(!seen[from]);
        seen[from] = 1;
    }
}

static void son(T *t, mdl_rt *rt)
{
    int k = mdl_my_rank(rt), n = mdl_task_size(rt, 1);
    CHECK_EQ(mdl_recv(rt, &sm[0], t, 0, NULL), 0);
    CHECK_EQ(t->i, 42 + k);
    CHECK(t->f == 2.5);
    CHECK_EQ(mdl_recv(rt, &sm[1], t, MDL_ANY, NULL), 0);
    for (int j = 0; j < 10; j++)
        CHECK(t->V[j] == (float)j * 1.5f);
    if (k == 0 || k == 2) {
        CHECK_EQ(mdl_recv(rt, &sm[2], t, 0, NULL), 0);
        for (int j = 0; j < 5; j++)
            CHECK_EQ(t->A[j], 7 + j);
    }
    CHECK_EQ(mdl_recv(rt, &sm[4], t, 0, NULL), 0);
    for (int a = 0; a < 4; a++)
        CHECK(t->R[a][5] == (a + 1) * 100 + 2);
    for (int b = 0; b < 5; b++)
        CHECK(t->R[1][b] == 300 + b);
    for (int b = 0; b < 3; b++)
        CHECK(t->R[3][b] == 305 + b);
    CHECK(t->R[0][0] == 0 && t->R[3][3] == 0 && t->R[2][4] == 0);    /* untouched */

    long b1[] = { 10, 14 }, b2[] = { 0, 1 };
    CHECK_EQ(mdl_recv(rt, &sm[5], t, 0, b1), 0);
    for (int j = 0; j < 5; j++)
        CHECK(t->W[10 + j] == 3 + j);
    CHECK(t->W[9] == 0 && t->W[15] == 0);
    CHECK_EQ(mdl_recv(rt, &sm[5], t, 0, b1), 0);
    for (int j = 0; j < 5; j++)
        CHECK(t->W[10 + j] == 103 + j);
    CHECK_EQ(mdl_recv(rt, &sm[5], t, 0, b2), 0);
    CHECK(t->W[0] == 100 && t->W[1] == 101 && t->W[2] == 0);

    CHECK_EQ(mdl_recv(rt, &sm[6], t, 0, NULL), 0);
    for (int j = 0; j < 2; j++)
        CHECK(t->P[j].x == j + 1 && t->P[j].y == 2.0 * (j + 1) && t->P[j].id == j + 1);
    CHECK(t->P[2].id == 0);

    long pb[] = { 2, 5 };
    for (int round = 0; round < 2; round++) {
        int *keep = t->p;
        t->p = calloc(8, sizeof(int));
        free(keep);
        CHECK_EQ(mdl_recv(rt, &sm[7], t, 0, pb), 0);
        for (int j = 0; j < 4; j++)
            CHECK_EQ(t->p[2 + j], (j + 1) * (j + 1) + 1000 * round);
        CHECK(t->p[1] == 0 && t->p[6] == 0);
    }
    free(t->p);
    t->p = NULL;

    CHECK_EQ(mdl_recv(rt, &sm[8], t, 0, NULL), 0);    /* async: posted */
    while (!mdl_test(rt, &sm[8]))
        ;
    for (int j = 0; j < 4; j++)
        CHECK_EQ(t->out[j], j + 1);
    CHECK_EQ(mdl_wait(rt, &sm[8]), 0);

    t->who = k * 7 + 1;
    CHECK_EQ(mdl_send(rt, &sm[3], t, 0, NULL, 0, NULL), 0);
    if (k == 1) {
        t->who = 1000;
        CHECK_EQ(mdl_send(rt, &sm[3], t, 0, NULL, 0, NULL), 0);
    }
    if (k == 0) {
        t->ring = 555;
        CHECK_EQ(mdl_send(rt, &sm[9], t, n - 1, NULL, 0, NULL), 0);
    }
    if (k == n - 1) {
        CHECK_EQ(mdl_recv(rt, &sm[10], t, MDL_ANY, NULL), 0);
        CHECK_EQ(t->ring, 555);
    }
}

int main(int argc, char **argv)
{
    int self = argc > 1 && strcmp(argv[1], "son") == 0;
    mdl_task_desc d = desc(self);
    void *mem;
    mdl_rt *rt;
    CHECK_EQ(mdl_init(&d, &argc, &argv, &mem, &rt), 0);
    T *t = mem;
    CHECK(((size_t)mem & 63) == 0);
    if (self)
        son(t, rt);
    else
        father(t, rt);
    CHECK_EQ(mdl_end(rt, t), 0);
    if (!self)
        printf("rt_p2p: OK\n");
    return 0;
}
