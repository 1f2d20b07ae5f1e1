/* stress_grid: what g.c, h.c (grid_body.h) and m.c share — the seeds, the
 * values and the plan of the messages between families, which every
 * program of the job draws alike from the seed and the family sizes
 * (given on the command line: first count ng nh nm; see grid_body.h). */
#define _DEFAULT_SOURCE /* usleep */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../stress_common.h"

#define MAXF 4                  /* instances of a family, at most */

static uint64_t seed_now;
static int round_now;
static const char *who_task = "?";
static int who_inst = -1;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s[%d]: seed %llu round %d: ", who_task, who_inst,
            (unsigned long long)seed_now, round_now);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* One random stream per purpose: X (between families) is drawn by every
 * program, a grid family's own stream only by that family. */
typedef struct { uint64_t s; } stream;

static int below(stream *r, long n)
{
    uint64_t x = stress_next(&r->s);
    return n <= 1 ? 0 : (int)(x % (uint64_t)n);
}

static long draw_count(stream *r, long most)
{
    if (most <= 0)
        return 0;
    int x = below(r, 100);
    long n;
    if (x < 8)
        n = 0;
    else if (x < 14)
        n = 1;
    else if (x < 22)
        n = most;
    else if (x < 45)
        n = 1 + below(r, 30);
    else if (x < 55)
        n = 1020 + below(r, 9);
    else {
        int lg = below(r, 14);
        n = (1L << lg) + below(r, 1L << lg);
    }
    return n > most ? most : n;
}

static void shuffle(stream *r, int *v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = below(r, i + 1), x = v[i];
        v[i] = v[j];
        v[j] = x;
    }
}

/* Element idx of message (kind, sender) of this round: exact in a double. */
static double mval(int kind, int sender, long idx)
{
    uint64_t h = stress_mix(seed_now, (uint64_t)round_now * 64 + (uint64_t)kind, (uint64_t)sender) &
                 0xFFFFF;
    return (double)((h + 1) << 20) + (double)idx;
}

static void qset(struct Q *q, double v)
{
    long long x = (long long)v;
    q->tag = (char)(1 + (x & 0x3F));
    q->v[0] = v;
    q->v[1] = -v;
    q->v[2] = v * 0.5;
    q->id = (int)(x & 0x3FFFFFFF);
}

static int qeq(const struct Q *a, const struct Q *b)
{
    return a->tag == b->tag && a->v[0] == b->v[0] && a->v[1] == b->v[1] && a->v[2] == b->v[2] &&
           a->id == b->id;
}

static double sentinel(void)
{
    return -1.0 - (double)(round_now % 997) - (double)(seed_now % 1000) * 1000.0;
}

/* message kinds (values) */
enum { K_UPG, K_UPH, K_DOWN, K_HDOWN, K_FAR, K_FARP, K_DIR0 };
#define QIDX 100000             /* struct items: index offset of their values */

/* The plan between families, one round. */
typedef struct {
    int ng, nh, nm;
    int up_tgt[2][MAXF];        /* [g or h][instance]: the m instance it sends to */
    long up_na[2], up_nq[2];
    int any[2][MAXF];           /* [channel][m instance]: receives with MDL_ANY */
    long down_na[MAXF], down_nq[MAXF];      /* per m instance, to {g} */
    long hd_na[MAXF], hd_nq[MAXF];          /* per m instance, to [h] */
    int hd_list[MAXF][MAXF], hd_n[MAXF];
    int m_order[MAXF][2 * MAXF];            /* m instance: channel (0 up, 1 hup) of each receive */
    int m_nrecv[MAXF];
    int down_order[MAXF][MAXF];             /* g instance: m instances in receive order */
    int hd_order[MAXF][MAXF], hd_cnt[MAXF]; /* h instance: m instances that listed it */
} cross_plan;

static void plan_cross(stream *r, cross_plan *p, int ng, int nh, int nm)
{
    memset(p, 0, sizeof *p);
    p->ng = ng, p->nh = nh, p->nm = nm;
    int nf[2] = { ng, nh };
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < nf[c]; i++)
            p->up_tgt[c][i] = below(r, nm);
        p->up_na[c] = nf[c] ? draw_count(r, GV / (2 * nf[c])) : 0;
        p->up_nq[c] = nf[c] ? draw_count(r, QN / (2 * nf[c])) : 0;
        for (int j = 0; j < nm; j++)
            p->any[c][j] = below(r, 2);
    }
    for (int j = 0; j < nm; j++) {
        p->down_na[j] = draw_count(r, GV / 2 / nm);
        p->down_nq[j] = draw_count(r, QN / (nm > 2 ? nm : 2));
        p->hd_na[j] = draw_count(r, GV / 2 / nm);
        p->hd_nq[j] = draw_count(r, QN / (nm > 2 ? nm : 2));
        int all[MAXF];
        for (int i = 0; i < nh; i++)
            all[i] = i;
        shuffle(r, all, nh);
        p->hd_n[j] = below(r, nh + 1);
        memcpy(p->hd_list[j], all, sizeof all);
        for (int k = 0; k < p->hd_n[j]; k++) {
            int h = all[k];
            p->hd_order[h][p->hd_cnt[h]++] = j;
        }
    }
    if (!nm)
        return;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < nf[c]; i++) {
            int j = p->up_tgt[c][i];
            p->m_order[j][p->m_nrecv[j]++] = c;
        }
    for (int j = 0; j < nm; j++)
        shuffle(r, p->m_order[j], p->m_nrecv[j]);
    for (int i = 0; i < ng; i++) {
        for (int j = 0; j < nm; j++)
            p->down_order[i][j] = j;
        shuffle(r, p->down_order[i], nm);
    }
    for (int i = 0; i < nh; i++)
        shuffle(r, p->hd_order[i], p->hd_cnt[i]);
}

/* "first count ng nh nm" from argv, and the rounds (stress_seeds: the
 * environment overrides seeds and rounds). */
static void args(int argc, char **argv, long *first, long *count, long *rounds, int *ng, int *nh,
                 int *nm)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s first count ng nh nm\n", argv[0]);
        exit(1);
    }
    stress_seeds(argc, argv, 0, 6, first, count, rounds);
    *ng = atoi(argv[3]);
    *nh = atoi(argv[4]);
    *nm = atoi(argv[5]);
}
