/* bench.h — timing and output shared by every benchmark program (generated
 * stubs and hand-written MPI alike, so both measure the same way).
 *
 * A program prints one line per measurement on stdout, from instance 0:
 *     <bench> <case> <bytes> <seconds>
 * where seconds is the median over BENCH_BATCHES timed batches of the time
 * of one operation (one-way message, one exchange, one collective …).
 * The harness (bench/run.sh) adds the variant and round and takes medians
 * again over rounds. */
#ifndef MEDLEY_BENCH_H
#define MEDLEY_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BENCH_MAXBATCH 64

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* BENCH_QUICK=1 in the environment: fewer batches and iterations. */
static inline int bench_quick(void)
{
    const char *q = getenv("BENCH_QUICK");
    return q && *q && *q != '0';
}

static inline int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static inline void bench_emit(const char *bench, const char *kase, long bytes, double *t,
                              int n)
{
    printf("%s %s %ld %.9e\n", bench, kase, bytes, bench_median(t, n));
    fflush(stdout);
}

/* The time of each timed iteration of a program, for the figure of
 * bench/hosts.sh: the median of these is what one preempted iteration does
 * not move, where a batch's mean above carries every preemption of the
 * batch (docs/performance.md "Across hosts", "The figure"). */
#define BENCH_MAXEACH 8192

struct bench_each {
    double t[BENCH_MAXEACH], last;
    int n;
};

/* The start of an iteration: the end of the one before, if any. */
static inline void bench_each_mark(struct bench_each *e, int timed)
{
    double t = bench_now();
    if (timed && e->n < BENCH_MAXEACH)
        e->t[e->n++] = t - e->last;
    e->last = t;
}

/* The median and the 10th percentile of the iterations' times (sorts
 * them; at least one). */
static inline void bench_each_figures(struct bench_each *e, double *median, double *p10)
{
    *median = bench_median(e->t, e->n);
    *p10 = e->t[e->n / 10];
}

/* "<bench> <case>-each <bytes> <median> <p10>" (seconds): five fields, so
 * that bench/run.sh, which reads the four of bench_emit, skips it. */
static inline void bench_emit_each(const char *bench, const char *kase, long bytes,
                                   struct bench_each *e)
{
    double median, p10;
    bench_each_figures(e, &median, &p10);
    printf("%s %s-each %ld %.9e %.9e\n", bench, kase, bytes, median, p10);
    fflush(stdout);
}

/* The end of a kernel's run (bench/stencil, bench/transpose): `bad`
 * elements wrong on instance `me` are reported; instance 0 prints the
 * slowest instance's time per iteration, with the case `iteration`.
 * Returns the exit status. */
static inline int bench_kernel_end(const char *bench, const char *what, int me, long size,
                                   double slowest, int iters, long bad)
{
    if (bad)
        fprintf(stderr, "%s: instance %d: %ld wrong %s\n", bench, me, bad, what);
    if (me == 0)
        printf("%s iteration %ld %.9e\n", bench, size, slowest / iters);
    fflush(stdout);
    return bad != 0;
}

#endif
