/* The star stencil of radius 2 of the Parallel Research Kernels' Stencil,
 * shared by the hand-written MPI program and the MeDLey one, so that both
 * compute with the same machine code and only the exchange differs.
 *
 * The n x n grid is cut into px x py tiles (grid dimension 0 is x, as
 * MPI_Dims_create and MDL_Grid_Create order it; not periodic); a tile of
 * tx x ty points is stored row by row, in[y][x], with a halo of RADIUS
 * cells on every side: point (x, y) of the tile is
 * in[(RADIUS + y) * ld + RADIUS + x], ld >= tx + 2 RADIUS being the
 * array's row length.  So West/East (x, dimension 0) are columns of the
 * array, strided, and South/North (y) are rows.
 *
 * The input is the linear field in(x, y) = x + y in global coordinates,
 * and every iteration adds 1 to the tile (so a halo not refreshed shows);
 * the weights are those of a discrete divergence, whose value on that
 * field is exactly 2 (PRK's COEFX + COEFY).  After k iterations every
 * point at least RADIUS from the grid's edge holds 2k: PRK's check, here
 * point by point.  Nothing here depends on how the array is sized: a
 * program whose extents are set at run time uses these functions as they
 * are, with its own ld. */
#ifndef MEDLEY_BENCH_STENCIL_H
#define MEDLEY_BENCH_STENCIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef RADIUS                 /* the spec's constant, when the generated header came first */
#define RADIUS (2)
#endif
_Static_assert(RADIUS == 2, "st_step is written for a radius of 2");

/* One run of one instance: grid size and timed iterations from the
 * command line, the tile of instance (cx, cy) among px x py. */
typedef struct st_run {
    int n, iters;
    int px, py, cx, cy;
    int tx, ty;                 /* the tile's points in x and y */
    int x0, y0;                 /* its first point, global */
    long ld;                    /* row length of the array, >= tx + 2 RADIUS */
} st_run;

/* n and iterations from argv (a smoke run's defaults without), the
 * instance's tile; 0 and a message when the grid does not split into
 * px x py tiles that hold a halo. */
static inline int st_setup(st_run *s, int argc, char **argv, const int dims[2],
                           const int coords[2])
{
    s->n = argc > 1 ? atoi(argv[1]) : 256;
    s->iters = argc > 2 ? atoi(argv[2]) : 10;
    s->px = dims[0];
    s->py = dims[1];
    s->cx = coords[0];
    s->cy = coords[1];
    if (s->n <= 0 || s->iters <= 0 || s->n % s->px || s->n % s->py) {
        fprintf(stderr, "stencil: a grid of %d does not split into %d x %d tiles, or %d iterations\n",
                s->n, s->px, s->py, s->iters);
        return 0;
    }
    s->tx = s->n / s->px;
    s->ty = s->n / s->py;
    s->x0 = s->cx * s->tx;
    s->y0 = s->cy * s->ty;
    s->ld = s->tx + 2 * RADIUS;
    if (s->tx < RADIUS || s->ty < RADIUS) {
        fprintf(stderr, "stencil: tiles of %d x %d are narrower than the halo\n", s->tx, s->ty);
        return 0;
    }
    return 1;
}

/* The tile's points hold the linear field, its halo 0, out 0 (tx x ty). */
static __attribute__((noinline)) void st_fill(const st_run *s, double *in, double *out)
{
    for (long y = 0; y < s->ty + 2 * RADIUS; y++)
        for (long x = 0; x < s->ld; x++)
            in[y * s->ld + x] = 0.0;
    for (long y = 0; y < s->ty; y++)
        for (long x = 0; x < s->tx; x++) {
            in[(RADIUS + y) * s->ld + RADIUS + x] = (double)(s->x0 + x) + (double)(s->y0 + y);
            out[y * s->tx + x] = 0.0;
        }
}

/* First and last tile coordinate (x or y) of the points at least RADIUS
 * from the grid's edge. */
static inline void st_active(int n, int first, int len, int *lo, int *hi)
{
    *lo = first < RADIUS ? RADIUS - first : 0;
    *hi = first + len > n - RADIUS ? n - RADIUS - 1 - first : len - 1;
}

/* out += the stencil of in on the active points, then in += 1 on the tile
 * (not its halo).  noinline: both programs run this very code, whatever
 * constant row length one of them could have passed. */
static __attribute__((noinline)) void st_step(const st_run *s, double *in, double *out)
{
    const double w1 = 1.0 / (2.0 * 1 * RADIUS), w2 = 1.0 / (2.0 * 2 * RADIUS);
    const long ld = s->ld;
    int xlo, xhi, ylo, yhi;
    st_active(s->n, s->x0, s->tx, &xlo, &xhi);
    st_active(s->n, s->y0, s->ty, &ylo, &yhi);
    for (long y = ylo; y <= yhi; y++) {
        const double *c = in + (RADIUS + y) * ld + RADIUS;
        double *o = out + y * s->tx;
        for (long x = xlo; x <= xhi; x++)
            o[x] += w1 * (c[x + 1] - c[x - 1]) + w2 * (c[x + 2] - c[x - 2]) +
                    w1 * (c[x + ld] - c[x - ld]) + w2 * (c[x + 2 * ld] - c[x - 2 * ld]);
    }
    for (long y = 0; y < s->ty; y++) {
        double *c = in + (RADIUS + y) * ld + RADIUS;
        for (long x = 0; x < s->tx; x++)
            c[x] += 1.0;
    }
}

/* After `steps` iterations every active point holds 2 * steps: the
 * number of points that do not (0: the run is right). */
static __attribute__((noinline)) long st_check(const st_run *s, const double *out, int steps)
{
    int xlo, xhi, ylo, yhi;
    st_active(s->n, s->x0, s->tx, &xlo, &xhi);
    st_active(s->n, s->y0, s->ty, &ylo, &yhi);
    double want = 2.0 * steps;
    long bad = 0;
    for (long y = ylo; y <= yhi; y++)
        for (long x = xlo; x <= xhi; x++)
            bad += !(fabs(out[y * s->tx + x] - want) <= 1e-9 * want);
    return bad;
}

#endif
