/* stress_coll: a randomized differential stress test of collectives, with
 * point-to-point messages of every peer form in flight across them.
 *
 * From a seed, every instance of the family (2 to 4) draws the same
 * schedule.  A round:
 *   1. posts async sends (`one` to one instance or itself, `all` to {s},
 *      `some` and `st` to [s] lists drawn at run time, empty ones and the
 *      sender itself included, `st` carrying a padded struct section and
 *      a pointer section, `ptr` a pointer section) and, for some
 *      (receiver, message name) pairs, their async receives;
 *   2. runs collectives of every kind of the spec (roots, counts, start
 *      offsets per instance, counts/displs, Mcast lists and tables,
 *      Sbarrier subsets drawn from the seed; in place and not; doubles,
 *      integers of every width, structs, pointer buffers; reductions with
 *      every operator), interleaved with the other receives (sync, or
 *      async posted late; named or MDL_ANY) and Tests;
 *   3. completes every name by Wait, Test polling, or Tests then Wait, in
 *      an order of each instance's own.
 * Deadlock-free by construction: every send is posted before anything
 * blocks, and the instances run the collectives in one order.  MDL_ANY
 * is drawn only on a (receiver, name) that one sender uses in the round,
 * and the receives of one (receiver, name) are posted in message order.
 *
 * Checked: after each collective, the whole send and receive variables
 * of every instance against a model: each instance's variables are
 * filled before the call with values derived from (seed, round,
 * collective, variable, instance, index), so every instance computes
 * what any other one holds and what the collective must leave where,
 * elements outside what it writes included; reductions of values chosen
 * to be exact in every type.  For the point-to-point messages every
 * element (struct fields one by one), the whole receive variables against
 * a shadow at the end of each round, the value a receive returns, and
 * that a send's sections are no longer read once it completed (they are
 * overwritten then).  MDL_End must find nothing left unreceived.
 *
 * Seeds: the arguments "first count", or MDL_STRESS_SEEDS="first count",
 * which overrides them; rounds per seed MDL_STRESS_ROUNDS (default 6);
 * MDL_STRESS_VERBOSE=1 prints each seed, =2 each collective too.  The
 * e2e suite runs the seeds of `launch`; e2e/stress_coll_net the same
 * program through MPI alone (MDL_MPI_DIRECT=0).  By hand (medleyc -o gen
 * spec.mdl; cc -std=c11 -Igen s.c gen/sMDL.c $(pkg-config --cflags --libs
 * medley-mpi) -o s):  MDL_STRESS_SEEDS="1000 200" mpiexec -n 3 ./s,
 * or the same with mdlrun and the shm library.  A failure names the
 * seed, round and collective or message; rerun that seed alone. */
#define _DEFAULT_SOURCE /* usleep */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../stress_common.h"
#include "sMDL.h"

/* ------------------------------------------------------------ random */

static uint64_t rng;

static uint64_t next(void)
{
    return stress_next(&rng);
}

static int below(long n)
{
    return n <= 1 ? 0 : (int)(next() % (uint64_t)n);
}

static uint64_t seed_now;
static int round_now, item_now;
static struct s *t;
static int me, nfam, trace;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "s[%d]: seed %llu round %d item %d: ", me, (unsigned long long)seed_now,
            round_now, item_now);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* A count from 0 to most, biased to the edges (0, 1, most) and to sizes
 * around the runtimes' thresholds (in 8-byte elements: 24 = 192 bytes,
 * 1024 = 8 KiB, 8192 = 64 KiB). */
static long draw_count(long most)
{
    if (most <= 0)
        return 0;
    int r = below(100);
    long n;
    if (r < 7)
        n = 0;
    else if (r < 12)
        n = 1;
    else if (r < 18)
        n = most;
    else if (r < 40)
        n = 1 + below(30);
    else if (r < 50)
        n = 1020 + below(9);
    else if (r < 58)
        n = 8184 + below(17);
    else {
        int lg = below(15);
        n = (1L << lg) + below(1L << lg);
    }
    return n > most ? most : n;
}

/* ------------------------------------------------------------ struct P */

static void pset(struct P *p, long long v)
{
    p->c = (char)(1 + (v & 0x3F));
    p->x = (double)v;
    for (int j = 0; j < 3; j++)
        p->s[j] = (short)((v >> (4 * j)) & 0x7FFF);
    p->k = (int)((v & 0x3FFFFFFF) ^ 0x15555);
}

/* Members only: MPI moves the members, not the padding. */
static int peq(const struct P *a, const struct P *b)
{
    return a->c == b->c && a->x == b->x && a->s[0] == b->s[0] && a->s[1] == b->s[1] &&
           a->s[2] == b->s[2] && a->k == b->k;
}

/* ------------------------------------------------------------ collective buffers */

enum ty { T_D, T_I, T_F, T_L, T_S, T_U, T_P };
enum buf { BX, BY, BI, BJ, BF, BFF, BL, BLL, BS, BSS, BU, BUU, Bx, By, BPS, BQS, BPX, BPY, BDS, BDA,
           BDIP, BPSEG, BPALL, NBUF };
static const char *const buf_name[NBUF] = { "X", "Y", "I", "J", "F", "FF", "L", "LL", "S", "SS",
                                            "U", "UU", "x", "y", "ps", "qs", "px", "py", "DS", "DA",
                                            "DIP", "pseg", "pall" };
static const int buf_ty[NBUF] = { T_D, T_D, T_I, T_I, T_F, T_F, T_L, T_L, T_S, T_S, T_U, T_U,
                                  T_D, T_D, T_P, T_P, T_D, T_D, T_D, T_D, T_D, T_P, T_P };
static const long buf_cap[NBUF] = { N, N, N, N, N, N, N, N, N, N, N, N, 1, 1, SN, SN, N, N,
                                    SEG, SEG * NI, SEG * NI, 8, 8 * NI };

static size_t esize(int ty)
{
    static const size_t sz[] = { sizeof(double), sizeof(int), sizeof(float), sizeof(long),
                                 sizeof(short), 1, sizeof(struct P) };
    return sz[ty];
}

static void *buf_ptr(int b)
{
    switch (b) {
    case BX: return t->X;
    case BY: return t->Y;
    case BI: return t->I;
    case BJ: return t->J;
    case BF: return t->F;
    case BFF: return t->FF;
    case BL: return t->L;
    case BLL: return t->LL;
    case BS: return t->S;
    case BSS: return t->SS;
    case BU: return t->U;
    case BUU: return t->UU;
    case Bx: return &t->x;
    case By: return &t->y;
    case BPS: return t->ps;
    case BQS: return t->qs;
    case BPX: return t->px;
    case BPY: return t->py;
    case BDS: return t->DS;
    case BDA: return t->DA;
    case BDIP: return t->DIP;
    case BPSEG: return t->pseg;
    default: return t->pall;
    }
}

static void eset(int ty, void *p, long long v)
{
    switch (ty) {
    case T_D: *(double *)p = (double)v; break;
    case T_I: *(int *)p = (int)v; break;
    case T_F: *(float *)p = (float)v; break;
    case T_L: *(long *)p = (long)v; break;
    case T_S: *(short *)p = (short)v; break;
    case T_U: *(unsigned char *)p = (unsigned char)v; break;
    default: pset(p, v); break;
    }
}

static int eeq(int ty, const void *a, const void *b)
{
    switch (ty) {
    case T_D: return *(const double *)a == *(const double *)b;
    case T_F: return *(const float *)a == *(const float *)b;
    case T_P: return peq(a, b);
    default: return memcmp(a, b, esize(ty)) == 0;
    }
}

static double eshow(int ty, const void *p)
{
    switch (ty) {
    case T_D: return *(const double *)p;
    case T_I: return *(const int *)p;
    case T_F: return *(const float *)p;
    case T_L: return (double)*(const long *)p;
    case T_S: return *(const short *)p;
    case T_U: return *(const unsigned char *)p;
    default: return ((const struct P *)p)->x;
    }
}

/* What instance inst's variable b holds before the current collective:
 * distinct values for copies; for a reduction, values whose results are
 * exact in every type (sums of |v| <= 1000, products of |v| <= 3, max and
 * min of |v| <= 30000, unsigned char 0..255). */
static int val_op;              /* 0: a copy, else the MDL_ operator */

static long long gen(int b, int inst, long idx)
{
    uint64_t h = stress_mix(seed_now, (uint64_t)round_now * 256 + (uint64_t)item_now,
                     (uint64_t)b * NI + (uint64_t)inst);
    int ty = buf_ty[b];
    switch (val_op) {
    case MDL_SUM:
        return ty == T_U ? (long long)((h + (uint64_t)idx * 7) % 60)
                         : (long long)((h + (uint64_t)idx * 131) % 2001) - 1000;
    case MDL_PROD: {
        long long v = 1 + (long long)((h / 7 + (uint64_t)idx) % 3);
        return ty != T_U && ((h >> 3) + (uint64_t)idx) % 5 == 0 ? -v : v;
    }
    case MDL_MAX:
    case MDL_MIN: {
        uint64_t g = stress_mix(h, (uint64_t)idx, 5);
        return ty == T_U ? (long long)(g % 256) : (long long)(g % 60001) - 30000;
    }
    default:
        break;
    }
    switch (ty) {
    case T_I: return (long long)((h & 0x3FFF) << 16) + idx;
    case T_F: return (long long)((h & 0xFF) << 16) + idx;
    case T_S: return (long long)((h + (uint64_t)idx) & 0x7FFF);
    case T_U: return (long long)((h + (uint64_t)idx) & 0xFF);
    default: return (long long)((h & 0xFFFFF) << 16) + idx;
    }
}

static void fill(int b)
{
    unsigned char *p = buf_ptr(b);
    size_t es = esize(buf_ty[b]);
    for (long i = 0; i < buf_cap[b]; i++)
        eset(buf_ty[b], p + i * es, gen(b, me, i));
}

/* ------------------------------------------------------------ collectives */

enum kind { C_BCAST, C_MCAST, C_SCATTER, C_SCATTERV, C_GATHER, C_GATHERV, C_ALLGATHER,
            C_ALLGATHERV, C_ALLTOALL, C_REDUCE, C_ALLREDUCE, C_BARRIER, C_SBARRIER };
enum { ML_NONE, ML_LIST, ML_TABLE };

typedef struct {
    const char *name;
    int (*fn)(struct s *);
    int (*mfn)(struct s *, const int *, int);
    int kind, root, sb, rb, so, ro, op, vc, ml;  /* so/ro: a start X[off] / Y[roff]; vc: counts
                                                    in arrays (1) or pointers (2) */
} coll;

#define CO(nm, k, r, s, rv, so, ro, op, vc) \
    { #nm, s_MDL_##k##_##nm, NULL, C_##k, r, s, rv, so, ro, op, vc, ML_NONE }
#define C_Bcast C_BCAST
#define C_Scatter C_SCATTER
#define C_ScatterV C_SCATTERV
#define C_Gather C_GATHER
#define C_GatherV C_GATHERV
#define C_Allgather C_ALLGATHER
#define C_AllgatherV C_ALLGATHERV
#define C_Alltoall C_ALLTOALL
#define C_Reduce C_REDUCE
#define C_Allreduce C_ALLREDUCE

static const coll colls[] = {
    CO(b0, Bcast, 0, BX, BY, 1, 1, 0, 0),
    CO(b1, Bcast, 1, BX, BX, 0, 0, 0, 0),
    CO(bp, Bcast, 1, BPX, BPY, 0, 0, 0, 0),
    CO(bs, Bcast, 0, BPS, BQS, 0, 0, 0, 0),
    { "mc", NULL, s_MDL_Mcast_mc, C_MCAST, 0, BX, BY, 1, 1, 0, 0, ML_LIST },
    { "mt", s_MDL_Mcast_mt, NULL, C_MCAST, 1, BX, BX, 0, 0, 0, 0, ML_TABLE },
    { "ms", NULL, s_MDL_Mcast_ms, C_MCAST, 1, BPS, BQS, 0, 0, 0, 0, ML_LIST },
    CO(sc, Scatter, 0, BDA, BDS, 0, 0, 0, 0),
    CO(sci, Scatter, 1, BDIP, BDIP, 0, 0, 0, 0),
    CO(scs, Scatter, 1, BPALL, BPSEG, 0, 0, 0, 0),
    CO(sv, ScatterV, 0, BX, BY, 1, 1, 0, 1),
    CO(svi, ScatterV, 1, BX, BX, 0, 0, 0, 1),
    CO(svp, ScatterV, 1, BPX, BPY, 0, 0, 0, 2),
    CO(g, Gather, 0, BX, BY, 1, 0, 0, 0),
    CO(gi, Gather, 1, BI, BI, 0, 0, 0, 0),
    CO(gs, Gather, 1, BPS, BQS, 0, 0, 0, 0),
    CO(gv, GatherV, 0, BX, BY, 1, 1, 0, 1),
    CO(gvi, GatherV, 1, BY, BY, 0, 0, 0, 1),
    CO(gvs, GatherV, 0, BPS, BQS, 0, 0, 0, 2),
    CO(ag, Allgather, 0, BDS, BDA, 0, 0, 0, 0),
    CO(agi, Allgather, 0, BDIP, BDIP, 0, 0, 0, 0),
    CO(ags, Allgather, 0, BPSEG, BPALL, 0, 0, 0, 0),
    CO(agv, AllgatherV, 0, BX, BY, 1, 1, 0, 1),
    CO(agvi, AllgatherV, 0, BX, BX, 0, 0, 0, 1),
    CO(agvp, AllgatherV, 0, BPX, BPY, 0, 0, 0, 2),
    CO(a2, Alltoall, 0, BX, BY, 1, 1, 0, 0),
    CO(a2i, Alltoall, 0, BI, BI, 0, 0, 0, 0),
    CO(a2s, Alltoall, 0, BPS, BQS, 0, 0, 0, 0),
    CO(ars, Allreduce, 0, BX, BY, 0, 0, MDL_SUM, 0),
    CO(arp, Allreduce, 0, BX, BY, 1, 1, MDL_PROD, 0),
    CO(arx, Allreduce, 0, BI, BI, 0, 0, MDL_MAX, 0),
    CO(arn, Allreduce, 0, BI, BJ, 0, 0, MDL_MIN, 0),
    CO(arf, Allreduce, 0, BF, BFF, 0, 0, MDL_SUM, 0),
    CO(arl, Allreduce, 0, BL, BL, 0, 0, MDL_PROD, 0),
    CO(arh, Allreduce, 0, BS, BSS, 0, 0, MDL_MIN, 0),
    CO(aru, Allreduce, 0, BU, BUU, 0, 0, MDL_MAX, 0),
    CO(ar1, Allreduce, 0, Bx, By, 0, 0, MDL_SUM, 0),
    CO(arq, Allreduce, 0, BPX, BPY, 0, 0, MDL_MAX, 0),
    CO(rs, Reduce, 0, BX, BY, 1, 1, MDL_SUM, 0),
    CO(rx, Reduce, 1, BI, BJ, 0, 0, MDL_MAX, 0),
    CO(rpi, Reduce, 1, BX, BX, 0, 0, MDL_PROD, 0),
    CO(rn, Reduce, 0, BF, BFF, 0, 0, MDL_MIN, 0),
    CO(rl, Reduce, 1, BL, BLL, 0, 0, MDL_SUM, 0),
    CO(rh, Reduce, 0, BS, BS, 0, 0, MDL_SUM, 0),
    CO(ru, Reduce, 1, BU, BUU, 0, 0, MDL_MIN, 0),
    CO(rq, Reduce, 0, BPX, BPY, 0, 0, MDL_SUM, 0),
    { "Barrier", NULL, NULL, C_BARRIER, 0, 0, 0, 0, 0, 0, 0, 0 },
    { "Sbarrier", NULL, NULL, C_SBARRIER, 0, 0, 0, 0, 0, 0, 0, 0 },
};
#define NCOLL ((int)(sizeof colls / sizeof colls[0]))

/* One collective of a round, as drawn. */
typedef struct {
    int c, cnt, off[NI], roff[NI], counts[NI], displs[NI], list[NI], nlist;
} call;

/* counts/displs: n blocks in random places of [0, span) that do not
 * overlap, each in its own slot; returns the end of the last. */
static long draw_layout(call *k, long span)
{
    long w = span / nfam, end = 0;
    int order[NI];
    for (int i = 0; i < nfam; i++)
        order[i] = i;
    for (int i = nfam - 1; i > 0; i--) {
        int j = below(i + 1), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    for (int i = 0; i < nfam; i++) {
        int r = order[i];
        k->counts[r] = (int)draw_count(w);
        k->displs[r] = (int)(i * w + below(w - k->counts[r] + 1));
        if (k->displs[r] + k->counts[r] > end)
            end = k->displs[r] + k->counts[r];
    }
    return end;
}

static void draw_list(int *list, int *n)
{
    int perm[NI];
    for (int i = 0; i < nfam; i++)
        perm[i] = i;
    for (int i = nfam - 1; i > 0; i--) {
        int j = below(i + 1), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    *n = below(nfam + 1);
    memcpy(list, perm, sizeof perm);
}

static void draw_call(call *k)
{
    memset(k, 0, sizeof *k);
    do
        k->c = below(NCOLL);
    while (colls[k->c].root >= nfam);
    const coll *c = &colls[k->c];
    long cs = buf_cap[c->sb], cr = buf_cap[c->rb], m = cs < cr ? cs : cr;
    long sneed = 0, rneed[NI] = { 0 };  /* the extents from the starts */
    switch (c->kind) {
    case C_BCAST:
    case C_MCAST:
    case C_REDUCE:
    case C_ALLREDUCE:
        k->cnt = (int)(c->sb == Bx ? 1 : draw_count(m));
        sneed = k->cnt;
        for (int i = 0; i < nfam; i++)
            rneed[i] = k->cnt;
        if (c->ml != ML_NONE)
            draw_list(k->list, &k->nlist);
        break;
    case C_GATHER:
        k->cnt = (int)draw_count(cr / nfam < cs ? cr / nfam : cs);
        sneed = k->cnt;
        break;
    case C_ALLTOALL:
        k->cnt = (int)draw_count(m / nfam);
        sneed = (long)k->cnt * nfam;
        for (int i = 0; i < nfam; i++)
            rneed[i] = sneed;
        break;
    case C_SCATTERV: {
        long end = draw_layout(k, cs * (1 + below(4)) / 4);
        sneed = end;
        for (int i = 0; i < nfam; i++)
            rneed[i] = k->counts[i];
        break;
    }
    case C_GATHERV:
    case C_ALLGATHERV: {
        long end = draw_layout(k, cr * (1 + below(4)) / 4);
        for (int i = 0; i < nfam; i++)
            rneed[i] = end;
        for (int i = 0; i < nfam; i++)
            if (k->counts[i] > sneed)
                sneed = k->counts[i];
        break;
    }
    case C_SBARRIER:
        draw_list(k->list, &k->nlist);
        break;
    default:
        break;
    }
    for (int i = 0; i < nfam; i++) {
        k->off[i] = c->so ? below(cs - sneed + 1) : 0;
        k->roff[i] = c->ro ? below(cr - rneed[i] + 1) : 0;
    }
}

static unsigned char *expect_buf[NBUF];

/* Element di of my expected variable rb := element si of inst's sb. */
static void put(int rb, long di, int sb, int inst, long si)
{
    size_t es = esize(buf_ty[rb]);
    eset(buf_ty[rb], expect_buf[rb] + di * es, gen(sb, inst, si));
}

static long long reduce2(int op, long long a, long long b)
{
    switch (op) {
    case MDL_SUM: return a + b;
    case MDL_PROD: return a * b;
    case MDL_MAX: return a > b ? a : b;
    default: return a < b ? a : b;
    }
}

static long ncolls, ncoll_elems;

static void run_call(const call *k)
{
    const coll *c = &colls[k->c];
    int rc;
    if (c->kind == C_BARRIER) {
        if ((rc = MDL_Barrier(t)) != MDL_SUCCESS)
            fail("MDL_Barrier returned %d", rc);
        return;
    }
    if (c->kind == C_SBARRIER) {
        if ((rc = MDL_Sbarrier(t, k->list, k->nlist)) != MDL_SUCCESS)
            fail("MDL_Sbarrier over %d instances returned %d", k->nlist, rc);
        return;
    }
    if (trace)
        fprintf(stderr, "s[%d]: seed %llu round %d item %d: %s cnt %d off %d roff %d\n", me,
                (unsigned long long)seed_now, round_now, item_now, c->name, k->cnt, k->off[me],
                k->roff[me]);
    val_op = c->op;
    int sb = c->sb, rb = c->rb, inplace = sb == rb, root = c->root, n = nfam;
    fill(sb);
    if (!inplace)
        fill(rb);
    t->cnt = k->cnt;
    t->off = k->off[me];
    t->roff = k->roff[me];
    memcpy(t->counts, k->counts, sizeof t->counts);
    memcpy(t->displs, k->displs, sizeof t->displs);
    memcpy(t->pc, k->counts, sizeof k->counts);
    memcpy(t->pd, k->displs, sizeof k->displs);
    for (int i = 0; i < NI; i++)
        t->tbl[i] = i < k->nlist ? k->list[i] : -1;
    int member = 0;
    for (int i = 0; i < k->nlist; i++)
        member |= k->list[i] == me;

    if (c->ml == ML_LIST)
        rc = c->mfn(t, k->list, k->nlist);
    else
        rc = c->fn(t);
    if (rc != MDL_SUCCESS)
        fail("MDL_..._%s (cnt %d) returned %d", c->name, k->cnt, rc);

    /* the model: my variables as they were, then what the call writes */
    for (int v = 0; v < 2; v++) {
        int b = v ? rb : sb;
        size_t es = esize(buf_ty[b]);
        for (long i = 0; i < buf_cap[b]; i++)
            eset(buf_ty[b], expect_buf[b] + i * es, gen(b, me, i));
    }
#define SOFF(i) ((long)k->off[i])
#define ROFF(i) ((long)k->roff[i])
    long seg;
    switch (c->kind) {
    case C_MCAST:
        if (!member)
            break;
        /* fall through */
    case C_BCAST:
        if (!inplace || me != root)
            for (long i = 0; i < k->cnt; i++)
                put(rb, ROFF(me) + i, sb, root, SOFF(root) + i);
        break;
    case C_SCATTER:
        seg = inplace ? buf_cap[sb] / n : buf_cap[rb];
        for (long i = 0; i < seg; i++)
            if (!inplace)
                put(rb, i, sb, root, me * seg + i);
            else if (me != root)
                put(rb, me * seg + i, sb, root, me * seg + i);
        break;
    case C_SCATTERV:
        for (long i = 0; i < k->counts[me]; i++)
            if (!inplace)
                put(rb, ROFF(me) + i, sb, root, SOFF(root) + k->displs[me] + i);
            else if (me != root)
                put(rb, k->displs[me] + i, sb, root, k->displs[me] + i);
        break;
    case C_GATHER:
    case C_GATHERV:
        if (me != root)
            break;
        /* fall through */
    case C_ALLGATHERV:
        for (int r = 0; r < n; r++) {
            long cnt = c->kind == C_GATHER ? k->cnt : k->counts[r];
            long pos = c->kind == C_GATHER ? r * cnt : k->displs[r];
            for (long i = 0; i < cnt; i++)
                if (inplace)
                    put(rb, pos + i, sb, r, pos + i);
                else
                    put(rb, ROFF(me) + pos + i, sb, r, SOFF(r) + i);
        }
        break;
    case C_ALLGATHER:
        seg = inplace ? buf_cap[sb] / n : buf_cap[sb];
        for (int r = 0; r < n; r++)
            for (long i = 0; i < seg; i++)
                put(rb, r * seg + i, sb, r, inplace ? r * seg + i : i);
        break;
    case C_ALLTOALL:
        for (int r = 0; r < n; r++)
            for (long i = 0; i < k->cnt; i++)
                put(rb, ROFF(me) + r * k->cnt + i, sb, r, SOFF(r) + (long)me * k->cnt + i);
        break;
    case C_REDUCE:
    case C_ALLREDUCE:
        if (c->kind == C_REDUCE && me != root)
            break;
        for (long i = 0; i < k->cnt; i++) {
            long long acc = gen(sb, 0, SOFF(0) + i);
            for (int r = 1; r < n; r++)
                acc = reduce2(c->op, acc, gen(sb, r, SOFF(r) + i));
            eset(buf_ty[rb], expect_buf[rb] + (ROFF(me) + i) * esize(buf_ty[rb]), acc);
        }
        break;
    }
    for (int v = 0; v < 2; v++) {
        int b = v ? rb : sb;
        int ty = buf_ty[b];
        size_t es = esize(ty);
        const unsigned char *got = buf_ptr(b);
        for (long i = 0; i < buf_cap[b]; i++)
            if (!eeq(ty, got + i * es, expect_buf[b] + i * es))
                fail("%s (root %d, cnt %d, off %d, roff %d, counts %d %d %d %d, "
                     "displs %d %d %d %d, %d listed): %s[%ld] = %.17g, not %.17g",
                     c->name, root, k->cnt, k->off[me], k->roff[me], k->counts[0], k->counts[1],
                     k->counts[2], k->counts[3], k->displs[0], k->displs[1], k->displs[2],
                     k->displs[3], k->nlist, buf_name[b], i, eshow(ty, got + i * es),
                     eshow(ty, expect_buf[b] + i * es));
    }
    ncolls++;
    ncoll_elems += k->cnt;
}

/* ------------------------------------------------------------ point to point */

enum pk { P_ONE, P_ALL, P_SOME, P_ST, P_PTR, NPK };
static const char *const pk_name[NPK] = { "one", "all", "some", "st", "ptr" };
static const int pk_async_recv[NPK] = { 1, 0, 1, 0, 1 };

#define MAXMSG 16
typedef struct {
    int kind, snd, nt, tg[NI];
    long n, n2;                  /* elements of the first item, of the second (st) */
    long s0, s1;                 /* the sender's starts */
    long r0[NI], r1[NI];         /* each target's starts */
    int any[NI];
} pmsg;

/* item: a collective, a receive (message m, target j), or a Test */
enum { I_COLL, I_RECV, I_TEST };
typedef struct {
    int type, m, j, inst, name;
    call k;
} item;

#define MAXITEM 256
typedef struct {
    pmsg m[MAXMSG];
    int nmsg;
    int early[NI][NPK];
    item it[MAXITEM];
    int nit;
    int wait_order[NI][NPK], wait_mode[NI][NPK];
} round_plan;

/* values of message k: first item, second item */
static double pval(int k, int item2, long idx)
{
    uint64_t h = stress_mix(seed_now, (uint64_t)round_now, 1000 + (uint64_t)(k * 2 + item2));
    h &= 0xFFFFF;
    return (double)((h + 1) << 20) + (double)idx;
}

static double sentinel(void)
{
    return -1.0 - (double)(round_now % 997) - (double)(seed_now % 1000) * 1000.0;
}

#define SCRIBBLE (-7e15)

static void plan_round(round_plan *p)
{
    memset(p, 0, sizeof *p);
    long acur[NI] = { 0 }, spcur[NI] = { 0 }, pacur[NI] = { 0 };   /* senders' cursors */
    long bcur[NI] = { 0 }, rpcur[NI] = { 0 }, pbcur[NI] = { 0 };   /* receivers' */
    int senders[NI][NPK];       /* -1 none, the one sender, -2 several */
    memset(senders, 0xFF, sizeof senders);
    p->nmsg = 1 + below(MAXMSG);
    for (int k = 0; k < p->nmsg; k++) {
        pmsg *m = &p->m[k];
        m->kind = below(NPK);
        m->snd = below(nfam);
        if (m->kind == P_ONE || m->kind == P_PTR) {
            m->nt = 1;
            m->tg[0] = below(8) ? (m->snd + 1 + below(nfam - 1)) % nfam : m->snd;
        } else if (m->kind == P_ALL) {
            for (int i = 0; i < nfam; i++)
                if (i != m->snd)
                    m->tg[m->nt++] = i;
        } else
            draw_list(m->tg, &m->nt);
        /* the sections: what the sender and every target have left */
        long *sc = m->kind == P_ST ? spcur : m->kind == P_PTR ? pacur : acur;
        long scap = m->kind == P_ST ? SPN : PN;
        long most = scap - sc[m->snd];
        for (int j = 0; j < m->nt; j++) {
            long *rc = m->kind == P_ST ? rpcur : m->kind == P_PTR ? pbcur : bcur;
            if (scap - rc[m->tg[j]] < most)
                most = scap - rc[m->tg[j]];
        }
        m->n = draw_count(most);
        m->s0 = sc[m->snd];
        sc[m->snd] += m->n;
        for (int j = 0; j < m->nt; j++) {
            long *rc = m->kind == P_ST ? rpcur : m->kind == P_PTR ? pbcur : bcur;
            m->r0[j] = rc[m->tg[j]];
            rc[m->tg[j]] += m->n;
        }
        if (m->kind == P_ST) {  /* the pointer item */
            most = PN - pacur[m->snd];
            for (int j = 0; j < m->nt; j++)
                if (PN - pbcur[m->tg[j]] < most)
                    most = PN - pbcur[m->tg[j]];
            m->n2 = draw_count(most);
            m->s1 = pacur[m->snd];
            pacur[m->snd] += m->n2;
            for (int j = 0; j < m->nt; j++) {
                m->r1[j] = pbcur[m->tg[j]];
                pbcur[m->tg[j]] += m->n2;
            }
        }
        for (int j = 0; j < m->nt; j++) {
            int *sd = &senders[m->tg[j]][m->kind];
            *sd = *sd == -1 || *sd == m->snd ? m->snd : -2;
        }
    }
    for (int k = 0; k < p->nmsg; k++)
        for (int j = 0; j < p->m[k].nt; j++)
            p->m[k].any[j] = senders[p->m[k].tg[j]][p->m[k].kind] >= 0 && below(3) == 0;
    for (int i = 0; i < nfam; i++)
        for (int q = 0; q < NPK; q++)
            p->early[i][q] = pk_async_recv[q] && below(2);
    /* the middle: collectives, the late receives in message order, Tests */
    int ncall = 1 + below(8), rk = 0, rj = 0;
    while (p->nit < MAXITEM) {
        while (rk < p->nmsg && (rj >= p->m[rk].nt || p->early[p->m[rk].tg[rj]][p->m[rk].kind])) {
            if (rj >= p->m[rk].nt)
                rk++, rj = 0;
            else
                rj++;
        }
        if (rk >= p->nmsg && !ncall)
            break;
        item *it = &p->it[p->nit];
        int r = below(10);
        if (r < 4 && ncall) {
            it->type = I_COLL;
            draw_call(&it->k);
            ncall--;
        } else if (r < 8 && rk < p->nmsg) {
            it->type = I_RECV;
            it->m = rk;
            it->j = rj++;
        } else if (r < 9) {
            it->type = I_TEST;
            it->inst = below(nfam);
            it->name = below(NPK);
        } else
            continue;
        p->nit++;
    }
    for (int i = 0; i < nfam; i++) {
        for (int q = 0; q < NPK; q++) {
            p->wait_order[i][q] = q;
            p->wait_mode[i][q] = below(4);
        }
        for (int q = NPK - 1; q > 0; q--) {
            int j = below(q + 1), x = p->wait_order[i][q];
            p->wait_order[i][q] = p->wait_order[i][j];
            p->wait_order[i][j] = x;
        }
    }
}

static double *shadowB, *shadowPB;
static struct P *shadowRP;
static long nmessages, nbytes;
/* pending: receives (message, target) and sends, per name */
static int rpend[NPK][MAXMSG * NI][2], nrpend[NPK];
static int spend[NPK][MAXMSG], nspend[NPK];

static void send_msg(const pmsg *m, int k)
{
    int rc = -999;
    long hi = m->s0 + m->n - 1;
    switch (m->kind) {
    case P_ONE:
    case P_ALL:
    case P_SOME:
        for (long i = 0; i < m->n; i++)
            t->A[m->s0 + i] = pval(k, 0, i);
        rc = m->kind == P_ONE ? MDL_SendTo_s_one(t, m->tg[0], (int)m->s0, (int)hi)
           : m->kind == P_ALL ? MDL_SendTo_s_all(t, (int)m->s0, (int)hi)
                              : MDL_SendTo_s_some(t, m->tg, m->nt, (int)m->s0, (int)hi);
        break;
    case P_ST:
        for (long i = 0; i < m->n; i++)
            pset(&t->sp[m->s0 + i], (long long)pval(k, 0, i));
        for (long i = 0; i < m->n2; i++)
            t->pa[m->s1 + i] = pval(k, 1, i);
        rc = MDL_SendTo_s_st(t, m->tg, m->nt, (int)m->s0, (int)hi, (int)m->s1,
                             (int)(m->s1 + m->n2 - 1));
        break;
    case P_PTR:
        for (long i = 0; i < m->n; i++)
            t->pa[m->s0 + i] = pval(k, 0, i);
        rc = MDL_SendTo_s_ptr(t, m->tg[0], (int)m->s0, (int)hi);
        break;
    }
    if (rc != MDL_SUCCESS)
        fail("message %d (%s, %ld elements): the send returned %d", k, pk_name[m->kind], m->n, rc);
    spend[m->kind][nspend[m->kind]++] = k;
}

/* A completed send: its sections must no longer be read. */
static void scribble(const pmsg *m)
{
    if (m->kind == P_ST) {
        for (long i = 0; i < m->n; i++)
            pset(&t->sp[m->s0 + i], (long long)SCRIBBLE);
        for (long i = 0; i < m->n2; i++)
            t->pa[m->s1 + i] = SCRIBBLE;
    } else
        for (long i = 0; i < m->n; i++)
            (m->kind == P_PTR ? t->pa : t->A)[m->s0 + i] = SCRIBBLE;
}

static void check_msg(const pmsg *m, int k, int j)
{
    long r0 = m->r0[j];
    double *dst = m->kind == P_PTR ? t->pb : t->B, *sh = m->kind == P_PTR ? shadowPB : shadowB;
    if (m->kind == P_ST) {
        for (long i = 0; i < m->n; i++) {
            struct P w;
            pset(&w, (long long)pval(k, 0, i));
            if (!peq(&t->rp[r0 + i], &w))
                fail("message %d (st from s[%d], %ld + %ld elements): rp[%ld].x = %.17g, not %.17g",
                     k, m->snd, m->n, m->n2, r0 + i, t->rp[r0 + i].x, w.x);
            shadowRP[r0 + i] = w;
        }
        for (long i = 0; i < m->n2; i++) {
            double w = pval(k, 1, i);
            if (t->pb[m->r1[j] + i] != w)
                fail("message %d (st from s[%d]): pb[%ld] = %.17g, not %.17g", k, m->snd,
                     m->r1[j] + i, t->pb[m->r1[j] + i], w);
            shadowPB[m->r1[j] + i] = w;
        }
        nbytes += m->n * (long)sizeof(struct P) + m->n2 * 8;
    } else {
        for (long i = 0; i < m->n; i++) {
            double w = pval(k, 0, i);
            if (dst[r0 + i] != w)
                fail("message %d (%s from s[%d], %ld elements%s): %s[%ld] = %.17g, not %.17g", k,
                     pk_name[m->kind], m->snd, m->n, m->any[j] ? ", MDL_ANY" : "",
                     m->kind == P_PTR ? "pb" : "B", r0 + i, dst[r0 + i], w);
            sh[r0 + i] = w;
        }
        nbytes += m->n * 8;
    }
    nmessages++;
}

static void recv_msg(const pmsg *m, int k, int j)
{
    int rc = -999, f = m->any[j] ? MDL_ANY : m->snd;
    int lo = (int)m->r0[j], hi = (int)(m->r0[j] + m->n - 1);
    switch (m->kind) {
    case P_ONE: rc = MDL_RecvFrom_s_one(t, f, lo, hi); break;
    case P_ALL: rc = MDL_RecvFrom_s_all(t, f, lo, hi); break;
    case P_SOME: rc = MDL_RecvFrom_s_some(t, f, lo, hi); break;
    case P_ST:
        rc = MDL_RecvFrom_s_st(t, f, lo, hi, (int)m->r1[j], (int)(m->r1[j] + m->n2 - 1));
        break;
    case P_PTR: rc = MDL_RecvFrom_s_ptr(t, f, lo, hi); break;
    }
    int want = pk_async_recv[m->kind] && m->any[j] ? MDL_SUCCESS : m->snd;
    if (rc != want)
        fail("message %d (%s from s[%d], %ld elements%s): the receive returned %d, not %d", k,
             pk_name[m->kind], m->snd, m->n, m->any[j] ? ", MDL_ANY" : "", rc, want);
    if (pk_async_recv[m->kind]) {
        rpend[m->kind][nrpend[m->kind]][0] = k;
        rpend[m->kind][nrpend[m->kind]++][1] = j;
    } else
        check_msg(m, k, j);
}

static int test_name(int q)
{
    switch (q) {
    case P_ONE: return MDL_oneTest(t);
    case P_ALL: return MDL_allTest(t);
    case P_SOME: return MDL_someTest(t);
    case P_ST: return MDL_stTest(t);
    default: return MDL_ptrTest(t);
    }
}

static int wait_name(int q)
{
    switch (q) {
    case P_ONE: return MDL_oneWait(t);
    case P_ALL: return MDL_allWait(t);
    case P_SOME: return MDL_someWait(t);
    case P_ST: return MDL_stWait(t);
    default: return MDL_ptrWait(t);
    }
}

static void complete(const round_plan *p, int q)
{
    for (int i = 0; i < nrpend[q]; i++)
        check_msg(&p->m[rpend[q][i][0]], rpend[q][i][0], rpend[q][i][1]);
    for (int i = 0; i < nspend[q]; i++)
        scribble(&p->m[spend[q][i]]);
    nrpend[q] = nspend[q] = 0;
}

static void finish(const round_plan *p, int q, int mode)
{
    int rc = 0;
    switch (mode) {
    case 0:
        rc = wait_name(q);
        break;
    case 1:
    case 2:
        while ((rc = test_name(q)) == 0)
            if (mode == 2)
                usleep(20);
        rc = rc == 1 ? 0 : rc;
        break;
    default:
        for (int i = 0; i < 3 && (rc = test_name(q)) == 0; i++)
            ;
        rc = rc == 1 ? 0 : rc < 0 ? rc : wait_name(q);
        break;
    }
    if (rc != MDL_SUCCESS)
        fail("completing %s (mode %d) returned %d", pk_name[q], mode, rc);
    complete(p, q);
}

static void run_round(const round_plan *p)
{
    double s = sentinel();
    for (long i = 0; i < PN; i++)
        t->B[i] = shadowB[i] = t->pb[i] = shadowPB[i] = s;
    for (long i = 0; i < SPN; i++) {
        pset(&t->rp[i], (long long)s);
        shadowRP[i] = t->rp[i];
    }
    item_now = -1;
    /* 1. sends, and the receives posted early */
    for (int k = 0; k < p->nmsg; k++) {
        const pmsg *m = &p->m[k];
        if (m->snd == me)
            send_msg(m, k);
        for (int j = 0; j < m->nt; j++)
            if (m->tg[j] == me && p->early[me][m->kind])
                recv_msg(m, k, j);
    }
    /* 2. the middle */
    for (int i = 0; i < p->nit; i++) {
        const item *it = &p->it[i];
        item_now = i;
        if (it->type == I_COLL)
            run_call(&it->k);
        else if (it->type == I_RECV) {
            if (p->m[it->m].tg[it->j] == me)
                recv_msg(&p->m[it->m], it->m, it->j);
        } else if (it->inst == me) {
            int rc = test_name(it->name);
            if (rc < 0 || rc > 1)
                fail("MDL_%sTest returned %d", pk_name[it->name], rc);
            if (rc == 1)
                complete(p, it->name);
        }
    }
    /* 3. everything completed */
    item_now = p->nit;
    for (int q = 0; q < NPK; q++)
        finish(p, p->wait_order[me][q], p->wait_mode[me][q]);
    for (long i = 0; i < PN; i++)
        if (t->B[i] != shadowB[i] || t->pb[i] != shadowPB[i])
            fail("end of round: B[%ld] = %.17g (%.17g), pb[%ld] = %.17g (%.17g)", i, t->B[i],
                 shadowB[i], i, t->pb[i], shadowPB[i]);
    for (long i = 0; i < SPN; i++)
        if (!peq(&t->rp[i], &shadowRP[i]))
            fail("end of round: rp[%ld] changed", i);
    /* no message of the next round can meet an MDL_ANY receive of this one */
    int rc = MDL_Barrier(t);
    if (rc != MDL_SUCCESS)
        fail("MDL_Barrier returned %d", rc);
}

int main(int argc, char **argv)
{
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    nfam = MDL_FamilySize(t);
    if (nfam < 2 || nfam > NI) {
        fprintf(stderr, "s: launch with 2 to %d instances\n", NI);
        return 1;
    }
    long first, count, rounds;
    stress_seeds(argc, argv, 4, 6, &first, &count, &rounds);
    int verbose = getenv("MDL_STRESS_VERBOSE") != NULL;
    trace = verbose && atoi(getenv("MDL_STRESS_VERBOSE")) > 1;
    t->px = malloc(N * sizeof(double));
    t->py = malloc(N * sizeof(double));
    t->pc = malloc(NI * sizeof(int));
    t->pd = malloc(NI * sizeof(int));
    t->pa = calloc(PN, sizeof(double));
    t->pb = malloc(PN * sizeof(double));
    shadowB = malloc(PN * sizeof(double));
    shadowPB = malloc(PN * sizeof(double));
    shadowRP = malloc(SPN * sizeof(struct P));
    for (int b = 0; b < NBUF; b++)
        expect_buf[b] = malloc((size_t)buf_cap[b] * esize(buf_ty[b]));
    static round_plan plan;
    if (!t->px || !t->py || !t->pc || !t->pd || !t->pa || !t->pb || !shadowB || !shadowPB ||
        !shadowRP)
        return 1;
    for (long sd = first; sd < first + count; sd++) {
        seed_now = (uint64_t)sd;
        rng = stress_mix((uint64_t)sd, (uint64_t)nfam, 91) | 1;
        for (round_now = 0; round_now < rounds; round_now++) {
            plan_round(&plan);
            run_round(&plan);
        }
        if (verbose && me == 0)
            printf("seed %ld ok\n", sd), fflush(stdout);
    }
    for (int b = 0; b < NBUF; b++)
        free(expect_buf[b]);
    free(shadowB);
    free(shadowPB);
    free(shadowRP);
    double *bufs[] = { t->px, t->py, t->pa, t->pb };
    int *ibufs[] = { t->pc, t->pd };
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    for (int i = 0; i < 4; i++)
        free(bufs[i]);
    free(ibufs[0]);
    free(ibufs[1]);
    printf("s[%d] ok: %ld seeds, %ld rounds, %ld collectives (%ld elements counted), %ld messages "
           "received, %ld bytes\n",
           me, count, count * rounds, ncolls, ncoll_elems, nmessages, nbytes);
    return 0;
}
