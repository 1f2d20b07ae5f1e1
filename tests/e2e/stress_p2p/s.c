/* stress_p2p: a randomized differential stress test of point-to-point
 * messages.  From a seed, every instance draws the same schedule of
 * exchanges between the instances of the family (2 to 4): sizes from 0 to
 * 128 KiB (biased to straddle the 192-byte announcement and the MPI
 * runtime's 64 KiB one-copy threshold), sender's and receiver's shapes
 * drawn independently (a row block sent into a column, ...), sync and
 * async sides, receives posted before or after their sends, named or
 * MDL_ANY, completed by Wait, by Test polling (busy or sleeping) or by a
 * Test that happens to find them done, pair Waits over a send and a
 * receive of one name, sends to itself, and compute phases (busy loops,
 * sleeps up to 20 ms: a late receiver the MPI runtime waits for, a
 * blocked one it withdraws from after 100 µs of its time on a CPU).
 * Some rounds are bursts of small messages (the shm runtime's rings
 * overflow), some floods of up to 700 async sends in flight from one
 * instance (more than the MPI runtime's 500 announcement slots).
 *
 * Deadlock-free by construction: the schedule is one global sequence of
 * events; each instance runs its own in that order, and every blocking
 * event (sync send, sync receive, Wait, Test loop) comes after the
 * peer's side of what it waits for, so the earliest blocked event always
 * has its peer there.  Messages of one (sender, receiver, channel) are
 * posted in the same order on both sides; an MDL_ANY receive is drawn
 * only on a (receiver, channel) that a single sender uses in that round.
 *
 * Checked: every element of every message (values derived from the seed,
 * the sender and the message number), that nothing outside the received
 * sections was written (the whole receive variables against a shadow at
 * the end of each round, whose sentinel changes every round), the sender
 * a sync receive returns, and that a sender's section is no longer read
 * once its send completed (it is overwritten then: a late copy shows).
 *
 * Seeds: the arguments "first count" (default 1 6), or MDL_STRESS_SEEDS=
 * "first count", which overrides them; rounds per seed MDL_STRESS_ROUNDS
 * (default 12); MDL_STRESS_VERBOSE=1 prints each seed.  The e2e suite runs
 * the seeds of `launch`, and e2e/stress_p2p_net the same program through
 * MPI alone (MDL_MPI_DIRECT=0).  More seeds through the suite (each run
 * has 60 s):  MDL_STRESS_SEEDS="1000 40" MEDLEY_SUITES=e2e
 * MEDLEY_E2E=stress_p2p make check;  or built by hand (medleyc -o gen
 * spec.mdl; cc -std=c11 -Igen s.c gen/sMDL.c $(pkg-config --cflags --libs
 * medley-mpi) -o s), for example:
 *   MDL_STRESS_SEEDS="1000 500" mpiexec -n 3 ./s
 *   MDL_STRESS_SEEDS="1000 500" MDL_MPI_DIRECT=0 mpiexec -n 2 ./s
 *   MDL_STRESS_SEEDS="1000 500" mdlrun -n 3 ./s
 * A failure names the seed, round and message; rerun that seed alone. */
#define _DEFAULT_SOURCE /* usleep */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../stress_common.h"
#include "sMDL.h"

enum kind { K_SS, K_AA, K_SA, K_AS, K_SW, K_VEC, K_TWO, K_FIX, NKIND };
static const char *const kind_name[NKIND] = { "ss", "aa", "sa", "as", "sw", "vec", "two", "fix" };
static const int send_async[NKIND] = { 0, 1, 0, 1, 1, 0, 1, 0 };
static const int recv_async[NKIND] = { 0, 1, 1, 0, 1, 0, 1, 0 };
/* the Test/Wait name of each side: 0 ss .. ; names of async sides only */
enum name { N_AA, N_AS, N_SW, N_TWO, N_RSA, NNAME };
static const char *const name_str[NNAME] = { "aa", "as", "sw", "two", "rsa" };

#define MAXI 4
#define MAXMSG 800
#define MAXEV 4096

typedef struct {
    int kind, snd, rcv, any, flood;
    long n;                     /* elements */
    int sr0, sr1, sc0, sc1;     /* sender's section (matrix), or sr0..sr1 (vector) */
    int rr0, rr1, rc0, rc1;     /* receiver's */
} msg;

enum evtype { E_SEND, E_RECV, E_WAIT, E_TEST, E_DELAY };
typedef struct {
    int type, inst, msg, name, mode, us;
} event;

typedef struct {
    msg m[MAXMSG];
    int nmsg;
    event ev[MAXEV];
    int nev;
} round_plan;

/* ------------------------------------------------------------ random */

static uint64_t rng;

static uint64_t next(void)
{
    return stress_next(&rng);
}

static int below(int n)
{
    return n <= 1 ? 0 : (int)(next() % (uint64_t)n);
}

/* ------------------------------------------------------------ values */

static uint64_t seed_now;
static int round_now;

/* Element idx of message k of this round: exact in a double, positive,
 * different for every message of a run (nearly always). */
static double val(int k, long idx)
{
    uint64_t h = stress_mix(seed_now, (uint64_t)round_now, (uint64_t)k) & 0xFFFFFull;
    return (double)((h + 1) << 20) + (double)idx;
}

static int ival(int k, int idx)
{
    return (int)(stress_mix(seed_now, (uint64_t)round_now, (uint64_t)k) & 0x3FFFFFFF) ^ (idx + 1);
}

/* A flood round's sends overlap (they only read): A holds one pattern. */
static double aval(int i, int j)
{
    return val(MAXMSG, (long)i * C + j);
}

static double sentinel(void)
{
    return -1.0 - (double)(round_now % 997) - (double)(seed_now % 1000) * 1000.0;
}

#define SCRIBBLE (-7e15)

/* ------------------------------------------------------------ planning */

/* Rectangles (matrix) or intervals (vector: columns unused) taken in one
 * round, per instance and variable: sections of one round never overlap,
 * so everything in flight has its own memory. */
typedef struct {
    int r0[MAXMSG], r1[MAXMSG], c0[MAXMSG], c1[MAXMSG], n;
} space;

static int overlaps(const space *s, int r0, int r1, int c0, int c1)
{
    for (int i = 0; i < s->n; i++)
        if (r0 <= s->r1[i] && s->r0[i] <= r1 && c0 <= s->c1[i] && s->c0[i] <= c1)
            return 1;
    return 0;
}

static void take(space *s, int r0, int r1, int c0, int c1)
{
    s->r0[s->n] = r0;
    s->r1[s->n] = r1;
    s->c0[s->n] = c0;
    s->c1[s->n] = c1;
    s->n++;
}

/* A place for h x w in a rows x cols variable (an empty section: anywhere). */
static int place(space *s, int rows, int cols, int h, int w, int *r0, int *c0)
{
    if (h == 0 || w == 0) {     /* lo..lo-1, lo up to the extent itself */
        *r0 = below(rows - h + 1);
        *c0 = below(cols - w + 1);
        return 1;
    }
    for (int tries = 0; tries < 40; tries++) {
        int a = below(rows - h + 1), b = below(cols - w + 1);
        if (!overlaps(s, a, a + h - 1, b, b + w - 1)) {
            take(s, a, a + h - 1, b, b + w - 1);
            *r0 = a;
            *c0 = b;
            return 1;
        }
    }
    return 0;
}

/* A shape h x w of n elements fitting rows x cols, or 0. */
static int shape(long n, int rows, int cols, int *h, int *w)
{
    if (rows == 1) {            /* a vector: lo..lo-1 when empty */
        *h = 1;
        *w = (int)n;
        return n <= cols;
    }
    if (n == 0) {
        /* empty: lo..lo-1 in one dimension or the other */
        if (below(2)) {
            *h = 0;
            *w = 1 + below(cols);
        } else {
            *h = 1 + below(rows);
            *w = 0;
        }
        return 1;
    }
    int cand[64], nc = 0;
    for (int x = 1; x <= cols && nc < 64; x++)
        if (n % x == 0 && n / x <= rows)
            cand[nc++] = x;
    if (!nc)
        return 0;
    *w = cand[below(nc)];
    *h = (int)(n / *w);
    return 1;
}

static int burst;               /* this round: many small messages */

static long draw_count(long most)
{
    int r = below(100);
    long n;
    if (burst)
        n = below(3) ? 1 + below(24) : 1024 - 2 + below(5);
    else if (r < 6)
        n = 0;
    else if (r < 28)
        n = 1 + below(30);                  /* around the 192-byte (24) announcement */
    else if (r < 34)
        n = 24;
    else if (r < 55)
        n = 8192 - 16 + below(33);          /* around 64 KiB */
    else if (r < 62)
        n = 8192;
    else if (r < 70)
        n = 1024 - 4 + below(9);            /* around 8 KiB: the shm runtime's eager limit */
    else {
        double lg = (double)below(1000) / 1000.0 * 14.0;  /* 1 .. 16384, log-uniform */
        n = (long)(1 << (int)lg) + below(1 << (int)lg);
    }
    return n > most ? most : n;
}

typedef struct {
    space A[MAXI], B[MAXI], V[MAXI], W[MAXI];
    int h_used[MAXI], k_used[MAXI];
    int single[MAXI][NKIND];    /* -1 none yet, else the one sender so far, -2 several */
    int anyused[MAXI][NKIND];   /* an MDL_ANY receive: no other sender this round */
    int open[MAXI][MAXI][NKIND];/* a message of this triple not yet posted on both sides */
    int npend[MAXI][NNAME];     /* async sides posted and not yet waited for */
    int pend_msg[MAXI][NNAME][MAXMSG];
    int posted_s[MAXMSG], posted_r[MAXMSG];
    event deferred[MAXMSG];
    int ndef;
} planner;

static int side_name(int kind, int is_send)
{
    switch (kind) {
    case K_AA: return N_AA;
    case K_AS: return is_send ? N_AS : -1;
    case K_SA: return is_send ? -1 : N_RSA;
    case K_SW: return N_SW;
    case K_TWO: return N_TWO;
    default: return -1;
    }
}

static int rows_of(int kind)
{
    return kind == K_VEC || kind == K_TWO ? 1 : R;
}

static int cols_of(int kind)
{
    return kind == K_VEC || kind == K_TWO ? VN : C;
}

static void emit(round_plan *p, event e)
{
    if (p->nev < MAXEV)
        p->ev[p->nev++] = e;
}

/* A side emitted: bookkeeping of what is open and pending. */
static void emitted(planner *pl, round_plan *p, event e)
{
    emit(p, e);
    msg *m = &p->m[e.msg];
    int is_send = e.type == E_SEND, inst = is_send ? m->snd : m->rcv;
    if (is_send)
        pl->posted_s[e.msg] = 1;
    else
        pl->posted_r[e.msg] = 1;
    if (pl->posted_s[e.msg] && pl->posted_r[e.msg])
        pl->open[m->snd][m->rcv][m->kind] = 0;
    int nm = side_name(m->kind, is_send);
    if (nm >= 0)
        pl->pend_msg[inst][nm][pl->npend[inst][nm]++] = e.msg;
}

static int new_message(planner *pl, round_plan *p, int ninst)
{
    if (p->nmsg >= MAXMSG)
        return 0;
    msg *m = &p->m[p->nmsg];
    memset(m, 0, sizeof *m);
    m->kind = below(NKIND);
    m->snd = below(ninst);
    m->rcv = below(12) ? (m->snd + 1 + below(ninst - 1)) % ninst : m->snd;  /* or itself */
    if (pl->open[m->snd][m->rcv][m->kind])
        return 0;
    if (m->kind == K_TWO && (pl->h_used[m->snd] || pl->k_used[m->rcv]))
        return 0;
    int cur = pl->single[m->rcv][m->kind];
    if (pl->anyused[m->rcv][m->kind] && cur != m->snd)
        return 0;
    int rows = rows_of(m->kind), cols = cols_of(m->kind);
    long most = m->kind == K_FIX ? FN : (m->kind == K_VEC || m->kind == K_TWO) ? VN : 16384;
    m->n = m->kind == K_FIX ? FN : draw_count(most);
    int sh, sw, rh, rw;
    for (;;) {
        if (shape(m->n, rows, cols, &sh, &sw) && shape(m->n, rows, cols, &rh, &rw))
            break;
        m->n--;
    }
    if (m->kind != K_FIX) {
        space *ss = m->kind == K_VEC || m->kind == K_TWO ? &pl->V[m->snd] : &pl->A[m->snd];
        space *rs = m->kind == K_VEC || m->kind == K_TWO ? &pl->W[m->rcv] : &pl->B[m->rcv];
        int a, b, c, d;
        if (!place(ss, rows, cols, sh, sw, &a, &b))
            return 0;
        if (!place(rs, rows, cols, rh, rw, &c, &d)) {
            if (sh && sw)
                ss->n--;
            return 0;
        }
        m->sr0 = a, m->sr1 = a + sh - 1, m->sc0 = b, m->sc1 = b + sw - 1;
        m->rr0 = c, m->rr1 = c + rh - 1, m->rc0 = d, m->rc1 = d + rw - 1;
    }
    if (m->kind == K_TWO)
        pl->h_used[m->snd] = pl->k_used[m->rcv] = 1;
    /* MDL_ANY only on a (receiver, channel) that one sender uses this round */
    m->any = (cur == -1 || cur == m->snd) && below(3) == 0;
    pl->anyused[m->rcv][m->kind] |= m->any;
    pl->single[m->rcv][m->kind] = cur == -1 || cur == m->snd ? m->snd : -2;
    int k = p->nmsg++;
    pl->posted_s[k] = pl->posted_r[k] = 0;
    pl->open[m->snd][m->rcv][m->kind] = 1;
    event s = { E_SEND, m->snd, k, 0, 0, 0 }, r = { E_RECV, m->rcv, k, 0, 0, 0 };
    int sa = send_async[m->kind], ra = recv_async[m->kind];
    if (!sa && !ra) {                   /* a rendezvous at this point */
        if (below(2) || m->snd == m->rcv) {    /* to itself: the buffered send first */
            emitted(pl, p, s);
            emitted(pl, p, r);
        } else {
            emitted(pl, p, r);
            emitted(pl, p, s);
        }
    } else if (!sa) {                   /* the async receive first, the send later */
        emitted(pl, p, r);
        pl->deferred[pl->ndef++] = s;
    } else if (!ra) {
        emitted(pl, p, s);
        pl->deferred[pl->ndef++] = r;
    } else {                            /* both async: either first, the other now or later */
        event first = below(2) ? s : r, second = first.type == E_SEND ? r : s;
        emitted(pl, p, first);
        if (below(2))
            emitted(pl, p, second);
        else
            pl->deferred[pl->ndef++] = second;
    }
    return 1;
}

/* Whether instance i may block on its pending sides of name nm: every
 * peer side posted. */
static int waitable(const planner *pl, int i, int nm)
{
    for (int j = 0; j < pl->npend[i][nm]; j++) {
        int k = pl->pend_msg[i][nm][j];
        if (!pl->posted_s[k] || !pl->posted_r[k])
            return 0;
    }
    return pl->npend[i][nm] > 0;
}

/* A flood: up to 700 async sends of 64 KiB (or small) sections of A,
 * overlapping, from one instance to another, in flight at once (more than
 * the MPI runtime's 500 announcement slots), received one by one. */
static void plan_flood(round_plan *p, int ninst)
{
    int snd = below(ninst), rcv = (snd + 1 + below(ninst - 1)) % ninst;
    int k, n = 1 + below(700);
    for (k = 0; k < n; k++) {
        msg *m = &p->m[p->nmsg++];
        memset(m, 0, sizeof *m);
        m->kind = K_AA;
        m->snd = snd;
        m->rcv = rcv;
        m->flood = 1;
        m->any = below(4) == 0;
        int h = 64, w = 128;
        if (below(4) == 0)
            h = 1 + below(4), w = 1 + below(40);
        m->n = (long)h * w;
        m->sr0 = below(R - h + 1), m->sc0 = below(C - w + 1);
        m->sr1 = m->sr0 + h - 1, m->sc1 = m->sc0 + w - 1;
        /* received as w x h when it fits: another layout than the send's */
        int rh = h, rw = w;
        if (w <= R && h <= C && below(2))
            rh = w, rw = h;
        m->rr0 = below(R - rh + 1), m->rc0 = below(C - rw + 1);
        m->rr1 = m->rr0 + rh - 1, m->rc1 = m->rc0 + rw - 1;
        event e = { E_SEND, snd, k, 0, 0, 0 };
        emit(p, e);
    }
    for (k = 0; k < n; k++) {
        event r = { E_RECV, rcv, k, 0, 0, 0 }, w = { E_WAIT, rcv, -1, N_AA, below(4), 0 };
        emit(p, r);
        emit(p, w);
    }
    event w = { E_WAIT, snd, -1, N_AA, below(4), 0 };
    emit(p, w);
}

static void plan_round(round_plan *p, int ninst)
{
    static planner pl;
    memset(&pl, 0, sizeof pl);
    for (int i = 0; i < MAXI; i++)
        for (int k = 0; k < NKIND; k++)
            pl.single[i][k] = -1;
    p->nmsg = p->nev = 0;
    if (below(12) == 0) {
        plan_flood(p, ninst);
        return;
    }
    burst = below(5) == 0;
    int want = burst ? 20 + below(40) : 3 + below(14), made = 0, idle = 0;
    while (made < want || pl.ndef) {
        int r = below(100);
        if (r < 40 && made < want) {
            if (new_message(&pl, p, ninst))
                made++;
            else if (++idle > 200)
                want = made;    /* the variables are full */
        } else if (r < 60 && pl.ndef) {
            int j = below(pl.ndef);
            event e = pl.deferred[j];
            pl.deferred[j] = pl.deferred[--pl.ndef];
            emitted(&pl, p, e);
        } else if (r < 75) {
            int i = below(ninst), nm = below(NNAME);
            if (waitable(&pl, i, nm)) {
                event e = { E_WAIT, i, -1, nm, below(4), 0 };
                emit(p, e);
                pl.npend[i][nm] = 0;
            }
        } else if (r < 85) {
            int i = below(ninst), nm = below(NNAME);
            if (pl.npend[i][nm]) {
                event e = { E_TEST, i, -1, nm, 0, 0 };
                emit(p, e);
            }
        } else if (r < 95) {
            static const int us[] = { 0, 30, 150, 600, 2000, 11000, 20000 };
            event e = { E_DELAY, below(ninst), -1, 0, below(2), us[below(7)] };
            if (e.us >= 11000 && below(3))
                e.us = 300;     /* long sleeps: a third of the draws */
            emit(p, e);
        }
    }
    /* everything posted: complete what is pending, in a random order */
    for (int left = 1; left;) {
        left = 0;
        int i0 = below(ninst), n0 = below(NNAME);
        for (int a = 0; a < ninst; a++)
            for (int b = 0; b < NNAME; b++) {
                int i = (i0 + a) % ninst, nm = (n0 + b) % NNAME;
                if (pl.npend[i][nm]) {
                    event e = { E_WAIT, i, -1, nm, below(4), 0 };
                    emit(p, e);
                    pl.npend[i][nm] = 0;
                    left = 1;
                }
            }
    }
}

/* ------------------------------------------------------------ running */

static struct s *t;
static int me, nfam;
static double *shadowB, *shadowW, *shadowG;
static int shadowK[4];
static long nmessages, nbytes;
static int pend[NNAME][MAXMSG], npend[NNAME];
static int sent_pend[NNAME][MAXMSG], nsent_pend[NNAME];

static void die(const char *fmt, const char *what, int k, const msg *m)
{
    fprintf(stderr, "s[%d]: seed %llu round %d message %d (%s, s[%d] -> s[%d], %ld elements%s): ",
            me, (unsigned long long)seed_now, round_now, k, m ? kind_name[m->kind] : "-",
            m ? m->snd : -1, m ? m->rcv : -1, m ? m->n : 0L, m && m->any ? ", MDL_ANY" : "");
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    exit(1);
}

static int is_vec(int kind)
{
    return kind == K_VEC || kind == K_TWO;
}

/* The sender's data, in the row-major order of its section. */
static void fill_send(int k, const msg *m)
{
    long idx = 0;
    if (m->kind == K_FIX) {
        for (int i = 0; i < FN; i++)
            t->F[i] = val(k, idx++);
        return;
    }
    if (is_vec(m->kind)) {
        for (int i = m->sc0; i <= m->sc1 && m->sr1 >= m->sr0; i++)
            t->V[i] = val(k, idx++);
        if (m->kind == K_TWO)
            for (int i = 0; i < 4; i++)
                t->H[i] = ival(k, i);
        return;
    }
    if (m->flood) {             /* the round's pattern, once */
        static uint64_t filled_seed = ~0ull;
        static int filled_round = -1;
        if (filled_seed != seed_now || filled_round != round_now)
            for (int i = 0; i < R; i++)
                for (int j = 0; j < C; j++)
                    t->A[i][j] = aval(i, j);
        filled_seed = seed_now;
        filled_round = round_now;
        return;
    }
    for (int i = m->sr0; i <= m->sr1; i++)
        for (int j = m->sc0; j <= m->sc1; j++)
            t->A[i][j] = val(k, idx++);
}

/* Element idx of message k as sent. */
static double want(int k, const msg *m, long idx)
{
    if (!m->flood)
        return val(k, idx);
    long w = m->sc1 - m->sc0 + 1;
    return aval(m->sr0 + (int)(idx / w), m->sc0 + (int)(idx % w));
}

/* Once the send completed, its section may change: a late reader sees it. */
static void scribble_send(const msg *m)
{
    if (m->kind == K_FIX) {
        for (int i = 0; i < FN; i++)
            t->F[i] = SCRIBBLE;
        return;
    }
    if (is_vec(m->kind)) {
        for (int i = m->sc0; i <= m->sc1 && m->sr1 >= m->sr0; i++)
            t->V[i] = SCRIBBLE;
        if (m->kind == K_TWO)
            memset(t->H, 0x5a, sizeof t->H);
        return;
    }
    for (int i = m->sr0; i <= m->sr1; i++)
        for (int j = m->sc0; j <= m->sc1; j++)
            t->A[i][j] = SCRIBBLE;
}

/* The receiver's section holds the message; the shadow learns it. */
static void check_recv(int k, const msg *m)
{
    long idx = 0;
    char what[160];
    if (m->kind == K_FIX) {
        for (int i = 0; i < FN; i++, idx++)
            if (t->G[i] != val(k, idx)) {
                snprintf(what, sizeof what, "G[%d] = %.17g, not %.17g", i, t->G[i], val(k, idx));
                die("%s", what, k, m);
            }
        memcpy(shadowG, t->G, sizeof t->G);
        nbytes += (long)sizeof t->G;
        return;
    }
    if (is_vec(m->kind)) {
        for (int i = m->rc0; i <= m->rc1 && m->rr1 >= m->rr0; i++, idx++) {
            if (t->W[i] != val(k, idx)) {
                snprintf(what, sizeof what, "W[%d] = %.17g, not %.17g", i, t->W[i], val(k, idx));
                die("%s", what, k, m);
            }
            shadowW[i] = t->W[i];
        }
        if (m->kind == K_TWO)
            for (int i = 0; i < 4; i++) {
                if (t->K[i] != ival(k, i)) {
                    snprintf(what, sizeof what, "K[%d] = %d, not %d", i, t->K[i], ival(k, i));
                    die("%s", what, k, m);
                }
                shadowK[i] = t->K[i];
            }
        nbytes += idx * 8;
        return;
    }
    for (int i = m->rr0; i <= m->rr1; i++)
        for (int j = m->rc0; j <= m->rc1; j++, idx++) {
            if (t->B[i][j] != want(k, m, idx)) {
                snprintf(what, sizeof what, "B[%d][%d] = %.17g, not %.17g (section [%d..%d][%d..%d])",
                         i, j, t->B[i][j], want(k, m, idx), m->rr0, m->rr1, m->rc0, m->rc1);
                die("%s", what, k, m);
            }
            shadowB[(long)i * C + j] = t->B[i][j];
        }
    nbytes += idx * 8;
}

static void check_rc(int rc, int want, const char *call, int k, const msg *m)
{
    if (rc != want) {
        char what[120];
        snprintf(what, sizeof what, "%s returned %d, not %d", call, rc, want);
        die("%s", what, k, m);
    }
}

static void do_send(int k, const msg *m)
{
    fill_send(k, m);
    int rc = -999, d = m->rcv;
    switch (m->kind) {
    case K_SS: rc = MDL_SendTo_s_ss(t, d, m->sr0, m->sr1, m->sc0, m->sc1); break;
    case K_SA: rc = MDL_SendTo_s_sa(t, d, m->sr0, m->sr1, m->sc0, m->sc1); break;
    case K_AA: rc = MDL_SendTo_s_aa(t, d, m->sr0, m->sr1, m->sc0, m->sc1); break;
    case K_AS: rc = MDL_SendTo_s_as(t, d, m->sr0, m->sr1, m->sc0, m->sc1); break;
    case K_SW: rc = MDL_SendTo_s_sw(t, d, m->sr0, m->sr1, m->sc0, m->sc1); break;
    case K_VEC: rc = MDL_SendTo_s_vec(t, d, m->sc0, m->sc1); break;
    case K_TWO: rc = MDL_SendTo_s_two(t, d, m->sc0, m->sc1); break;
    case K_FIX: rc = MDL_SendTo_s_fix(t, d); break;
    }
    check_rc(rc, MDL_SUCCESS, "the send", k, m);
    int nm = side_name(m->kind, 1);
    if (nm < 0)
        scribble_send(m);
    else
        sent_pend[nm][nsent_pend[nm]++] = k;
}

static void do_recv(int k, const msg *m)
{
    int rc = -999, f = m->any ? MDL_ANY : m->snd;
    switch (m->kind) {
    case K_SS: rc = MDL_RecvFrom_s_ss(t, f, m->rr0, m->rr1, m->rc0, m->rc1); break;
    case K_SA: rc = MDL_RecvFrom_s_rsa(t, f, m->rr0, m->rr1, m->rc0, m->rc1); break;
    case K_AA: rc = MDL_RecvFrom_s_aa(t, f, m->rr0, m->rr1, m->rc0, m->rc1); break;
    case K_AS: rc = MDL_RecvFrom_s_ras(t, f, m->rr0, m->rr1, m->rc0, m->rc1); break;
    case K_SW: rc = MDL_RecvFrom_s_sw(t, f, m->rr0, m->rr1, m->rc0, m->rc1); break;
    case K_VEC: rc = MDL_RecvFrom_s_vec(t, f, m->rc0, m->rc1); break;
    case K_TWO: rc = MDL_RecvFrom_s_two(t, f, m->rc0, m->rc1); break;
    case K_FIX: rc = MDL_RecvFrom_s_fix(t, f); break;
    }
    int nm = side_name(m->kind, 0);
    /* sync: the sender; async: the instance posted for, MDL_SUCCESS for MDL_ANY */
    check_rc(rc, nm < 0 ? m->snd : m->any ? MDL_SUCCESS : m->snd, "the receive", k, m);
    nmessages++;
    if (nm < 0)
        check_recv(k, m);
    else
        pend[nm][npend[nm]++] = k;
}

static int test_name(int nm)
{
    switch (nm) {
    case N_AA: return MDL_aaTest(t);
    case N_AS: return MDL_asTest(t);
    case N_SW: return MDL_swTest(t);
    case N_TWO: return MDL_twoTest(t);
    default: return MDL_rsaTest(t);
    }
}

static int wait_name(int nm)
{
    switch (nm) {
    case N_AA: return MDL_aaWait(t);
    case N_AS: return MDL_asWait(t);
    case N_SW: return MDL_swWait(t);
    case N_TWO: return MDL_twoWait(t);
    default: return MDL_rsaWait(t);
    }
}

static void complete(const round_plan *p, int nm)
{
    for (int j = 0; j < npend[nm]; j++)
        check_recv(pend[nm][j], &p->m[pend[nm][j]]);
    for (int j = 0; j < nsent_pend[nm]; j++)
        scribble_send(&p->m[sent_pend[nm][j]]);
    npend[nm] = nsent_pend[nm] = 0;
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void spin(int us)
{
    double end = now_us() + us;
    while (now_us() < end)
        ;
}

static void run_event(const round_plan *p, const event *e)
{
    char what[80];
    switch (e->type) {
    case E_SEND:
        do_send(e->msg, &p->m[e->msg]);
        break;
    case E_RECV:
        do_recv(e->msg, &p->m[e->msg]);
        break;
    case E_TEST: {
        int rc = test_name(e->name);
        if (rc < 0 || rc > 1) {
            snprintf(what, sizeof what, "MDL_%sTest returned %d", name_str[e->name], rc);
            die("%s", what, -1, NULL);
        }
        if (rc == 1)
            complete(p, e->name);
        break;
    }
    case E_WAIT: {
        int rc = 0;
        long polls = 0;
        switch (e->mode) {
        case 0:
            rc = wait_name(e->name);
            break;
        case 1:                         /* busy polling */
        case 2:                         /* polling with naps */
            while ((rc = test_name(e->name)) == 0) {
                if (e->mode == 2)
                    usleep(20);
                polls++;
            }
            rc = rc == 1 ? 0 : rc;
            break;
        default:                        /* a few Tests, then Wait */
            for (int i = 0; i < 3 && (rc = test_name(e->name)) == 0; i++)
                ;
            rc = rc == 1 ? 0 : rc < 0 ? rc : wait_name(e->name);
            break;
        }
        if (rc != MDL_SUCCESS) {
            snprintf(what, sizeof what, "MDL_%s%s returned %d (after %ld polls)",
                     name_str[e->name], e->mode == 0 ? "Wait" : "Test", rc, polls);
            die("%s", what, -1, NULL);
        }
        complete(p, e->name);
        break;
    }
    case E_DELAY:
        if (e->mode)
            spin(e->us);
        else if (e->us)
            usleep((useconds_t)e->us);
        break;
    }
}

/* The receive variables against the shadow: nothing outside a received
 * section was written, and nothing of an earlier round arrived late. */
static void check_round(void)
{
    char what[160];
    for (long i = 0; i < (long)R * C; i++)
        if (((double *)t->B)[i] != shadowB[i]) {
            snprintf(what, sizeof what, "end of round: B[%ld][%ld] = %.17g, not %.17g",
                     i / C, i % C, ((double *)t->B)[i], shadowB[i]);
            die("%s", what, -1, NULL);
        }
    for (long i = 0; i < VN; i++)
        if (t->W[i] != shadowW[i]) {
            snprintf(what, sizeof what, "end of round: W[%ld] = %.17g, not %.17g", i, t->W[i],
                     shadowW[i]);
            die("%s", what, -1, NULL);
        }
    if (memcmp(t->G, shadowG, sizeof t->G) != 0)
        die("%s", "end of round: G changed", -1, NULL);
    if (memcmp(t->K, shadowK, sizeof t->K) != 0)
        die("%s", "end of round: K changed", -1, NULL);
}

static void reset_round(void)
{
    double s = sentinel();
    for (long i = 0; i < (long)R * C; i++)
        ((double *)t->B)[i] = shadowB[i] = s;
    for (long i = 0; i < VN; i++)
        t->W[i] = shadowW[i] = s;
}

int main(int argc, char **argv)
{
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    nfam = MDL_FamilySize(t);
    if (nfam < 2 || nfam > MAXI) {
        fprintf(stderr, "s: launch with 2 to %d instances\n", MAXI);
        return 1;
    }
    long first, count, rounds;
    stress_seeds(argc, argv, 6, 12, &first, &count, &rounds);
    int verbose = getenv("MDL_STRESS_VERBOSE") != NULL;
    shadowB = malloc(sizeof t->B);
    shadowW = malloc(sizeof t->W);
    shadowG = calloc(1, sizeof t->G);
    static round_plan plan;
    if (!shadowB || !shadowW || !shadowG)
        return 1;
    long nevents = 0;
    for (long sd = first; sd < first + count; sd++) {
        seed_now = (uint64_t)sd;
        rng = stress_mix((uint64_t)sd, (uint64_t)nfam, 77) | 1;
        for (round_now = 0; round_now < rounds; round_now++) {
            reset_round();
            plan_round(&plan, nfam);
            nevents += plan.nev;
            for (int i = 0; i < plan.nev; i++) {
                const event *e = &plan.ev[i];
                const msg *m = e->msg >= 0 ? &plan.m[e->msg] : NULL;
                int mine = e->type == E_SEND ? m->snd == me
                         : e->type == E_RECV ? m->rcv == me
                                             : e->inst == me;
                if (mine)
                    run_event(&plan, e);
            }
            for (int nm = 0; nm < NNAME; nm++)
                if (npend[nm] || nsent_pend[nm])
                    die("%s", "a side left pending at the end of the round", -1, NULL);
            check_round();
            if (MDL_Barrier(t) != MDL_SUCCESS)
                die("%s", "MDL_Barrier failed", -1, NULL);
        }
        if (verbose && me == 0)
            printf("seed %ld ok\n", sd), fflush(stdout);
    }
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    printf("s[%d] ok: %ld seeds, %ld rounds, %ld messages received, %ld bytes, %ld events\n", me,
           count, count * rounds, nmessages, nbytes, nevents);
    return 0;
}
