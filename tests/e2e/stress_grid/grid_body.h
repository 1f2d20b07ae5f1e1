/* stress_grid: the program of a grid family (g.c: not periodic, h.c:
 * periodic), included with TASK (g or h) and FAM (0 or 1) defined.
 *
 * A round, every instance in the same order (deadlock-free: every send is
 * posted before anything blocks on it, and a sync send's receive is
 * always posted in step 1):
 *   1. async receives of w and sw (their sends are sync), of n and ne for
 *      some instances; async sends e, n, ne (U sections), far (to
 *      Neighbor[-2][1]: a section of a and of the pointer pa) and up (to
 *      one m instance: a section of a and of the struct array qs);
 *   2. the sync sends w, sw, in an order of each instance's own;
 *   3. the sync receives e, far, and one down from every m instance (`to
 *      {g}`; h: from the m instances whose [h] list holds it), the late
 *      async receives, in an order of each instance's own;
 *   4. every name completed by Wait or Test polling; then a done to m[0]
 *      and its go (m has received everything of the round by then), or a
 *      family barrier without m.
 * Sizes per direction and round are the same on every instance; the
 * sender's and receiver's shapes of a section are drawn separately.
 * Neighbours outside a non-periodic grid are MDL_PROC_NULL: their sends
 * and receives must do nothing.  Checked: every element, the neighbour
 * members against the coordinates, the whole receive variables (V, b,
 * qr, pb) against a shadow at the end of each round. */
#include "common.h"

#define CAT3(a, b, c) a##b##c
#define XCAT3(a, b, c) CAT3(a, b, c)
#define SEND(nm) XCAT3(MDL_SendTo_, TASK, _##nm)
#define RECV(nm) XCAT3(MDL_RecvFrom_, TASK, _##nm)
#define TF(nm) XCAT3(TASK, _MDL_, nm)
#define TNAME XSTR(TASK)
#define XSTR(x) STR(x)
#define STR(x) #x

typedef struct TASK task;
static task *t;
static int me, n, dims[2], my[2];

enum dir { D_E, D_N, D_NE, D_W, D_SW, NDIR };
static const char *const dir_name[NDIR] = { "e", "n", "ne", "w", "sw" };
static const int dir_off[NDIR][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { -1, 0 }, { -1, -1 } };
#define BAND (R / NDIR)          /* rows of U and V per direction */

typedef struct {
    long cnt;
    int s[4], r[4];             /* sender's rows lo hi, cols lo hi; receiver's */
} section;

/* A shape h x w of n elements in BAND x C, or 0. */
static int shape(stream *r, long cnt, int *h, int *w)
{
    if (cnt == 0) {
        if (below(r, 2))
            *h = 0, *w = 1 + below(r, C);
        else
            *h = 1 + below(r, BAND), *w = 0;
        return 1;
    }
    int cand[64], nc = 0;
    for (int x = 1; x <= C && nc < 64; x++)
        if (cnt % x == 0 && cnt / x <= BAND)
            cand[nc++] = x;
    if (!nc)
        return 0;
    *w = cand[below(r, nc)];
    *h = (int)(cnt / *w);
    return 1;
}

static void place(stream *r, int d, int h, int w, int *b)
{
    b[0] = d * BAND + below(r, BAND - h + 1);
    b[1] = b[0] + h - 1;
    b[2] = below(r, C - w + 1);
    b[3] = b[2] + w - 1;
}

typedef struct {
    section sec[NDIR];
    long far_na, far_np;
    int early[MAXF][NDIR];
    int sync_order[MAXF][2];
    int wait_mode[MAXF][8];
    int recv_order[MAXF][2 + MAXF];     /* -1 e, -2 far, j >= 0: the j-th down */
} grid_plan;

static void plan_grid(stream *r, grid_plan *p, int nd)
{
    memset(p, 0, sizeof *p);
    for (int d = 0; d < NDIR; d++) {
        section *s = &p->sec[d];
        int h1, w1, h2, w2;
        s->cnt = draw_count(r, (long)BAND * C);
        while (!shape(r, s->cnt, &h1, &w1) || !shape(r, s->cnt, &h2, &w2))
            s->cnt--;
        place(r, d, h1, w1, s->s);
        place(r, d, h2, w2, s->r);
    }
    p->far_na = draw_count(r, GV / 2);
    p->far_np = draw_count(r, GV);
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < NDIR; d++)
            p->early[i][d] = d == D_W || d == D_SW || below(r, 2);
        p->sync_order[i][0] = below(r, 2);
        p->sync_order[i][1] = !p->sync_order[i][0];
        for (int k = 0; k < 8; k++)
            p->wait_mode[i][k] = below(r, 4);
        int *o = p->recv_order[i];
        o[0] = -1, o[1] = -2;
        for (int j = 0; j < nd; j++)
            o[2 + j] = j;
        shuffle(r, o, 2 + nd);
    }
}

/* The rank at my coordinates + (dx, dy), or MDL_PROC_NULL outside. */
static int rank_at(int dx, int dy)
{
    int c[2] = { my[0] + dx, my[1] + dy };
    for (int k = 0; k < 2; k++) {
        if (FAM == 1)
            c[k] = ((c[k] % dims[k]) + dims[k]) % dims[k];
        else if (c[k] < 0 || c[k] >= dims[k])
            return MDL_PROC_NULL;
    }
    return c[0] * dims[1] + c[1];
}

static double *shV, *shb, *shpb;
static struct Q shqr[QN];
static long nmessages, nbytes;

static void fill_u(int d, const section *s)
{
    long idx = 0;
    for (int i = s->s[0]; i <= s->s[1]; i++)
        for (int j = s->s[2]; j <= s->s[3]; j++)
            t->U[i][j] = mval(K_DIR0 + d + 8 * FAM, me, idx++);
}

static void check_v(int d, const section *s)
{
    int from = rank_at(-dir_off[d][0], -dir_off[d][1]);
    if (from == MDL_PROC_NULL)
        return;                 /* V must be untouched: the shadow says so */
    long idx = 0;
    for (int i = s->r[0]; i <= s->r[1]; i++)
        for (int j = s->r[2]; j <= s->r[3]; j++) {
            double w = mval(K_DIR0 + d + 8 * FAM, from, idx++);
            if (t->V[i][j] != w)
                fail("%s from %s[%d] (%ld elements): V[%d][%d] = %.17g, not %.17g", dir_name[d],
                     TNAME, from, s->cnt, i, j, t->V[i][j], w);
            shV[(long)i * C + j] = w;
        }
    nmessages++;
    nbytes += s->cnt * 8;
}

static void check_far(const grid_plan *p)
{
    int from = rank_at(2, -1);
    if (from == MDL_PROC_NULL)
        return;
    for (long i = 0; i < p->far_na; i++) {
        double w = mval(K_FAR + 8 * FAM, from, i);
        if (t->b[GV / 2 + i] != w)
            fail("far from %s[%d]: b[%ld] = %.17g, not %.17g", TNAME, from, GV / 2 + i,
                 t->b[GV / 2 + i], w);
        shb[GV / 2 + i] = w;
    }
    for (long i = 0; i < p->far_np; i++) {
        double w = mval(K_FARP + 8 * FAM, from, i);
        if (t->pb[i] != w)
            fail("far from %s[%d]: pb[%ld] = %.17g, not %.17g", TNAME, from, i, t->pb[i], w);
        shpb[i] = w;
    }
    nmessages++;
    nbytes += (p->far_na + p->far_np) * 8;
}

/* down (g) or hdown (h) from m instance j, the k-th this round */
static void down_range(const cross_plan *x, int j, long *a0, long *na, long *q0, long *nq)
{
    const long *xa = FAM ? x->hd_na : x->down_na, *xq = FAM ? x->hd_nq : x->down_nq;
    *a0 = *q0 = 0;
    for (int k = 0; k < j; k++)
        *a0 += xa[k], *q0 += xq[k];
    *na = xa[j];
    *nq = xq[j];
}

static void recv_down(const cross_plan *x, int j)
{
    long a0, na, q0, nq;
    down_range(x, j, &a0, &na, &q0, &nq);
    int rc = MDL_RecvFrom_m_down(t, j, (int)a0, (int)(a0 + na - 1), (int)q0, (int)(q0 + nq - 1));
    if (rc != j)
        fail("down from m[%d] returned %d", j, rc);
    for (long i = 0; i < na; i++) {
        double w = mval(FAM ? K_HDOWN : K_DOWN, j, i);
        if (t->b[a0 + i] != w)
            fail("down from m[%d]: b[%ld] = %.17g, not %.17g", j, a0 + i, t->b[a0 + i], w);
        shb[a0 + i] = w;
    }
    for (long i = 0; i < nq; i++) {
        struct Q w;
        qset(&w, mval(FAM ? K_HDOWN : K_DOWN, j, QIDX + i));
        if (!qeq(&t->qr[q0 + i], &w))
            fail("down from m[%d]: qr[%ld].v[0] = %.17g, not %.17g", j, q0 + i,
                 t->qr[q0 + i].v[0], w.v[0]);
        shqr[q0 + i] = w;
    }
    nmessages++;
    nbytes += na * 8 + nq * (long)sizeof(struct Q);
}

static int dir_send(int d, const section *s)
{
    const int *b = s->s;
    switch (d) {
    case D_E: return SEND(e)(t, b[0], b[1], b[2], b[3]);
    case D_N: return SEND(n)(t, b[0], b[1], b[2], b[3]);
    case D_NE: return SEND(ne)(t, b[0], b[1], b[2], b[3]);
    case D_W: return SEND(w)(t, b[0], b[1], b[2], b[3]);
    default: return SEND(sw)(t, b[0], b[1], b[2], b[3]);
    }
}

static int dir_recv(int d, const section *s)
{
    const int *b = s->r;
    switch (d) {
    case D_E: return RECV(e)(t, b[0], b[1], b[2], b[3]);
    case D_N: return RECV(n)(t, b[0], b[1], b[2], b[3]);
    case D_NE: return RECV(ne)(t, b[0], b[1], b[2], b[3]);
    case D_W: return RECV(w)(t, b[0], b[1], b[2], b[3]);
    default: return RECV(sw)(t, b[0], b[1], b[2], b[3]);
    }
}

/* names with something to complete: e n ne w sw far up */
static int complete_name(int k, int mode)
{
    int (*test)(task *), (*wait)(task *);
    switch (k) {
    case 0: test = TF(eTest), wait = TF(eWait); break;
    case 1: test = TF(nTest), wait = TF(nWait); break;
    case 2: test = TF(neTest), wait = TF(neWait); break;
    case 3: test = TF(wTest), wait = TF(wWait); break;
    case 4: test = TF(swTest), wait = TF(swWait); break;
    case 5: test = TF(farTest), wait = TF(farWait); break;
    default: test = TF(upTest), wait = TF(upWait); break;
    }
    int rc;
    if (mode == 0)
        return wait(t);
    while ((rc = test(t)) == 0)
        if (mode == 2)
            usleep(20);
        else if (mode == 3)
            return wait(t);
    return rc == 1 ? MDL_SUCCESS : rc;
}

static void check_rc(int rc, const char *what)
{
    if (rc != MDL_SUCCESS)
        fail("%s returned %d", what, rc);
}

static void run_round(const grid_plan *p, const cross_plan *x)
{
    double s = sentinel();
    for (long i = 0; i < (long)R * C; i++)
        ((double *)t->V)[i] = shV[i] = s;
    for (long i = 0; i < GV; i++)
        t->b[i] = shb[i] = t->pb[i] = shpb[i] = s;
    for (int i = 0; i < QN; i++) {
        qset(&t->qr[i], s);
        shqr[i] = t->qr[i];
    }
    /* 1. */
    for (int d = 0; d < NDIR; d++)
        if (p->early[me][d] && d != D_E)
            check_rc(dir_recv(d, &p->sec[d]), dir_name[d]);
    for (int d = 0; d < NDIR; d++)
        fill_u(d, &p->sec[d]);
    check_rc(dir_send(D_E, &p->sec[D_E]), "send e");
    check_rc(dir_send(D_N, &p->sec[D_N]), "send n");
    check_rc(dir_send(D_NE, &p->sec[D_NE]), "send ne");
    for (long i = 0; i < p->far_na; i++)
        t->a[i] = mval(K_FAR + 8 * FAM, me, i);
    for (long i = 0; i < p->far_np; i++)
        t->pa[i] = mval(K_FARP + 8 * FAM, me, i);
    check_rc(SEND(far)(t, 0, (int)p->far_na - 1, 0, (int)p->far_np - 1), "send far");
    if (x->nm) {
        long na = x->up_na[FAM], nq = x->up_nq[FAM];
        for (long i = 0; i < na; i++)
            t->a[GV / 2 + i] = mval(FAM ? K_UPH : K_UPG, me, i);
        for (long i = 0; i < nq; i++)
            qset(&t->qs[i], mval(FAM ? K_UPH : K_UPG, me, QIDX + i));
        check_rc(MDL_SendTo_m_up(t, x->up_tgt[FAM][me], GV / 2, (int)(GV / 2 + na - 1), 0,
                                 (int)nq - 1),
                 "send up");
    }
    /* 2. */
    for (int k = 0; k < 2; k++) {
        int d = p->sync_order[me][k] ? D_SW : D_W;
        check_rc(dir_send(d, &p->sec[d]), dir_name[d]);
    }
    /* 3. */
    int nd = FAM ? x->hd_cnt[me] : x->nm;
    for (int k = 0; k < 2 + x->nm; k++) {
        int o = p->recv_order[me][k];
        if (o == -1)
            check_rc(dir_recv(D_E, &p->sec[D_E]), "receive e");
        else if (o == -2)
            check_rc(RECV(far)(t, GV / 2, (int)(GV / 2 + p->far_na - 1), 0, (int)p->far_np - 1),
                     "receive far");
        else if (o < nd)
            recv_down(x, FAM ? x->hd_order[me][o] : x->down_order[me][o]);
    }
    for (int d = 0; d < NDIR; d++)
        if (!p->early[me][d] && d != D_E)
            check_rc(dir_recv(d, &p->sec[d]), dir_name[d]);
    check_v(D_E, &p->sec[D_E]);
    check_far(p);
    /* 4. */
    for (int k = 0; k < 7; k++)
        check_rc(complete_name(k, p->wait_mode[me][k]), "a completion");
    for (int d = D_N; d < NDIR; d++)
        check_v(d, &p->sec[d]);
    for (long i = 0; i < (long)R * C; i++)
        if (((double *)t->V)[i] != shV[i])
            fail("end of round: V[%ld][%ld] = %.17g, not %.17g", i / C, i % C,
                 ((double *)t->V)[i], shV[i]);
    for (long i = 0; i < GV; i++)
        if (t->b[i] != shb[i] || t->pb[i] != shpb[i])
            fail("end of round: b[%ld] = %.17g (%.17g), pb = %.17g (%.17g)", i, t->b[i], shb[i],
                 t->pb[i], shpb[i]);
    for (int i = 0; i < QN; i++)
        if (!qeq(&t->qr[i], &shqr[i]))
            fail("end of round: qr[%d] changed", i);
    if (x->nm) {
        t->tok = me;
        int rc = MDL_SendTo_m_done(t, 0);
        check_rc(rc, "send done");
        rc = MDL_RecvFrom_m_go(t, 0);
        if (rc != 0)
            fail("receive go returned %d", rc);
    } else
        check_rc(MDL_Barrier(t), "MDL_Barrier");
}

int main(int argc, char **argv)
{
    who_task = TNAME;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = who_inst = MDL_MyRank(t);
    n = MDL_FamilySize(t);
    long first, count, rounds;
    int ng, nh, nm;
    args(argc, argv, &first, &count, &rounds, &ng, &nh, &nm);
    if ((FAM ? nh : ng) != n || MDL_mSize(t) != nm || n > MAXF || nm > MAXF)
        fail("launched with %d %s and %d m, the arguments say %d and %d", n, TNAME,
             MDL_mSize(t), FAM ? nh : ng, nm);
    check_rc(MDL_Grid_Create(t, dims), "MDL_Grid_Create");
    check_rc(MDL_Grid_Mycoords(t, my), "MDL_Grid_Mycoords");
    /* the neighbour members against the coordinates */
    int want[5] = { rank_at(1, 0), rank_at(0, 1), rank_at(1, 1), rank_at(-1, 0), rank_at(-1, -1) };
    int got[5] = { t->East_Neighbor, t->North_Neighbor, t->North_East_Neighbor, t->West_Neighbor,
                   t->South_West_Neighbor };
    for (int d = 0; d < 5; d++)
        if (want[d] != got[d])
            fail("neighbour %s is %d, not %d (dims %d x %d, coords %d %d)", dir_name[d], got[d],
                 want[d], dims[0], dims[1], my[0], my[1]);
    t->pa = malloc(GV * sizeof(double));
    t->pb = malloc(GV * sizeof(double));
    shV = malloc((size_t)R * C * sizeof(double));
    shb = malloc(GV * sizeof(double));
    shpb = malloc(GV * sizeof(double));
    if (!t->pa || !t->pb || !shV || !shb || !shpb)
        return 1;
    static grid_plan gp;
    static cross_plan xp;
    for (long sd = first; sd < first + count; sd++) {
        seed_now = (uint64_t)sd;
        stream xs = { stress_mix((uint64_t)sd, 7, 0) | 1 };
        stream gs = { stress_mix((uint64_t)sd, 8, FAM) | 1 };
        for (round_now = 0; round_now < rounds; round_now++) {
            plan_cross(&xs, &xp, ng, nh, nm);
            plan_grid(&gs, &gp, nm);
            run_round(&gp, &xp);
        }
    }
    double *pa = t->pa, *pb = t->pb;
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    free(pa);
    free(pb);
    free(shV);
    free(shb);
    free(shpb);
    printf("%s[%d] ok: %ld seeds, grid %d x %d, %ld messages received, %ld bytes\n", TNAME, me,
           count, dims[0], dims[1], nmessages, nbytes);
    return 0;
}
