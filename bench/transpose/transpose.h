/* The blocked transpose B = A^T (after the Parallel Research Kernels'
 * Transpose), shared by the hand-written MPI program and the MeDLey one so
 * that both compute with the same machine code.
 *
 * The order x order matrices are cut into nb x nb square blocks of bs =
 * order / nb; each of the np instances owns nb / np block rows of A and of
 * B (rows = order / np rows of each, stored row by row with a row length
 * ld >= order).  Block (I, J) of A goes to block (J, I) of B, transposed:
 * its owner sends it, as it lies in its rows of A (a strided section), to
 * the owner of block row J, which receives it where it goes in B (a
 * strided section too) and transposes it there, in place (the MeDLey
 * program; the hand-written one packs each block transposed into a
 * buffer, as the PRK do, and copies what it receives into place).
 * Blocks an instance owns on both sides are transposed locally.
 *
 * Each iteration makes B = A^T then adds 1 to A, which starts as
 * A(i, j) = order i + j: after k iterations B(i, j) = order j + i + k - 1,
 * checked element by element.  Nothing here depends on how the arrays are
 * sized: a program whose extents are set at run time uses these functions
 * as they are, with its own ld. */
#ifndef MEDLEY_BENCH_TRANSPOSE_H
#define MEDLEY_BENCH_TRANSPOSE_H

#include <stdio.h>
#include <stdlib.h>

#define TR_TILE 32              /* local transpositions go by tiles: caches, TLB */

typedef struct tr_run {
    int order, nb, iters;       /* from the command line */
    int np, me;
    int bs;                     /* a block's order */
    int own;                    /* block rows per instance, nb / np */
    int rows;                   /* rows per instance, order / np */
    long ld;                    /* row length of the arrays, >= order */
} tr_run;

/* order, blocks and timed iterations from argv (a smoke run's defaults
 * without); 0 and a message when they do not split evenly. */
static inline int tr_setup(tr_run *s, int argc, char **argv, int np, int me)
{
    s->order = argc > 1 ? atoi(argv[1]) : 256;
    s->nb = argc > 2 ? atoi(argv[2]) : np;
    s->iters = argc > 3 ? atoi(argv[3]) : 5;
    s->np = np;
    s->me = me;
    if (s->order <= 0 || s->nb <= 0 || s->iters <= 0 || s->order % s->nb || s->nb % np) {
        fprintf(stderr, "transpose: order %d, %d blocks, %d instances, %d iterations: the order "
                "must split into the blocks, the blocks among the instances\n",
                s->order, s->nb, np, s->iters);
        return 0;
    }
    s->bs = s->order / s->nb;
    s->own = s->nb / np;
    s->rows = s->order / np;
    s->ld = s->order;
    return 1;
}

/* The first block row instance q owns. */
static inline int tr_first(const tr_run *s, int q)
{
    return q * s->own;
}

/* Where block (I, J) of A starts in the rows of its owner, and block
 * (J, I) of B in the rows of its owner. */
static inline double *tr_a_block(const tr_run *s, double *a, int I, int J)
{
    return a + (long)(I - tr_first(s, I / s->own)) * s->bs * s->ld + (long)J * s->bs;
}

static inline double *tr_b_block(const tr_run *s, double *b, int I, int J)
{
    return tr_a_block(s, b, J, I);
}

/* A(i, j) = order i + j on this instance's rows; B 0. */
static __attribute__((noinline)) void tr_fill(const tr_run *s, double *a, double *b)
{
    long i0 = (long)s->me * s->rows;
    for (long i = 0; i < s->rows; i++)
        for (long j = 0; j < s->order; j++) {
            a[i * s->ld + j] = (double)(s->order * (i0 + i) + j);
            b[i * s->ld + j] = 0.0;
        }
}

/* to = from^T, bs x bs blocks whose rows are ldto and ldfrom elements
 * apart (noinline: both programs run this very code). */
static __attribute__((noinline)) void tr_copy(const tr_run *s, double *to, long ldto,
                                              const double *from, long ldfrom)
{
    const long bs = s->bs;
    for (long i = 0; i < bs; i += TR_TILE)
        for (long j = 0; j < bs; j += TR_TILE)
            for (long ii = i; ii < i + TR_TILE && ii < bs; ii++)
                for (long jj = j; jj < j + TR_TILE && jj < bs; jj++)
                    to[jj * ldto + ii] = from[ii * ldfrom + jj];
}

/* A bs x bs block of row length ld transposed where it is. */
static __attribute__((noinline)) void tr_in_place(const tr_run *s, double *m)
{
    const long ld = s->ld, bs = s->bs;
    for (long i = 0; i < bs; i += TR_TILE)
        for (long j = i; j < bs; j += TR_TILE)
            for (long ii = i; ii < i + TR_TILE && ii < bs; ii++)
                for (long jj = j == i ? ii + 1 : j; jj < j + TR_TILE && jj < bs; jj++) {
                    double x = m[ii * ld + jj];
                    m[ii * ld + jj] = m[jj * ld + ii];
                    m[jj * ld + ii] = x;
                }
}

/* The blocks this instance owns on both sides, transposed locally. */
static inline void tr_local(const tr_run *s, double *a, double *b)
{
    int f = tr_first(s, s->me);
    for (int I = f; I < f + s->own; I++)
        for (int J = f; J < f + s->own; J++)
            tr_copy(s, tr_b_block(s, b, I, J), s->ld, tr_a_block(s, a, I, J), s->ld);
}

/* The blocks received from the others, transposed where they landed. */
static inline void tr_received(const tr_run *s, double *b)
{
    int f = tr_first(s, s->me);
    for (int I = 0; I < s->nb; I++)
        if (I < f || I >= f + s->own)
            for (int J = f; J < f + s->own; J++)
                tr_in_place(s, tr_b_block(s, b, I, J));
}

static __attribute__((noinline)) void tr_bump(const tr_run *s, double *a)
{
    for (long i = 0; i < s->rows; i++)
        for (long j = 0; j < s->order; j++)
            a[i * s->ld + j] += 1.0;
}

/* After `steps` iterations B(i, j) = order j + i + steps - 1: the number of
 * elements that differ (0: the run is right). */
static __attribute__((noinline)) long tr_check(const tr_run *s, const double *b, int steps)
{
    long i0 = (long)s->me * s->rows, bad = 0;
    for (long i = 0; i < s->rows; i++)
        for (long j = 0; j < s->order; j++)
            bad += b[i * s->ld + j] != (double)(s->order * j + i0 + i + steps - 1);
    return bad;
}

#endif
