/* vlasov_numerics.h — the numerical kernels of the Vlasov–Poisson code,
 * shared by the MeDLey program (vlasov.c) and the hand-written MPI version
 * of the benchmark (bench/vlasov/mpi.c), so that both compute exactly the
 * same thing and only their data movement differs.
 *
 *   ∂f/∂t + v ∂f/∂x + E ∂f/∂v = 0,   ∂E/∂x = ρ − 1,   ρ = ∫ f dv
 *   f(x, v, 0) = (1 + α cos kx) exp(−v²/2) / √(2π),  x ∈ [0, 2π/k), periodic
 *
 * The distribution is one array f[nv][nx] (row v, column x), the mesh
 * given at run time (mesh_new).  The advection in x shifts whole rows, the
 * one in v whole columns; both are periodic cubic-spline interpolations (f
 * is negligible at |v| = VMAX, so v is treated as periodic).  The caller
 * owns a slab of rows (x phase) or of columns (v phase); every kernel
 * works on a given range of them, and a row or column gives the same
 * result whichever range it is computed in.
 *
 * nx is a power of two (the field is solved by FFT).  Also here: the
 * program's usage and the mesh arguments both programs take, and the
 * report of a timed run, which both print alike for bench/vlasov/run.sh. */
#ifndef VLASOV_NUMERICS_H
#define VLASOV_NUMERICS_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define K 0.5                   /* wave number of the perturbation */
#define VMAX 6.0
#define DT 0.1
#define L (2 * PI / K)
#define NX_DEFAULT 64           /* the mesh without --mesh */
#define NV_DEFAULT 128

/* Columns advected together: the spline recursions run along v for TILE
 * neighbouring columns at once, on contiguous row pieces (vectorised, and
 * no strided walk through f). */
#define TILE 16

/* A mesh of nx positions by nv velocities and the kernels' workspace on
 * it: a spline row with its ghost cells, a tile of columns with theirs,
 * the FFT's twiddles and its complex vector.  One per run (the kernels
 * write it). */
typedef struct vlasov_mesh {
    int nx, nv;
    double dx, dv;
    double *workspace;          /* the allocation of the following */
    double *row;                /* nmax + 4 */
    double *tile;               /* (nv + 4) * TILE */
    double *twr, *twi;          /* nx / 2 each: cos, sin of 2πk/nx */
    double *re, *im;            /* nx each */
} vlasov_mesh;

/* Why nx, nv cannot be a mesh, or NULL. */
static inline const char *mesh_invalid(int nx, int nv)
{
    if (nx < 4 || (nx & (nx - 1)) != 0)
        return "NX must be a power of two, at least 4 (FFT field solver)";
    if (nv < 4)
        return "NV must be at least 4";
    return NULL;
}

/* The mesh nx × nv (mesh_invalid(nx, nv) == NULL) with its workspace, or
 * NULL when memory is short.  The row's first sample (row[1]) and the
 * tile's (tile[TILE]) start cache lines, as f's rows do: the row copies
 * and the tile's vector loads and stores then never straddle two lines
 * (misaligned, the kernels ran 5–10 % slower). */
static inline vlasov_mesh *mesh_new(int nx, int nv)
{
    enum { LINE = 8 };                          /* doubles in a cache line */
    size_t nmax = (size_t)(nx > nv ? nx : nv);
    size_t row = LINE - 1, tile = (row + nmax + 4 + LINE - 1) / LINE * LINE,
           twr = tile + ((size_t)nv + 4) * TILE, end = twr + 3 * (size_t)nx;
    vlasov_mesh *m = malloc(sizeof *m);
    double *w = aligned_alloc(LINE * sizeof *w, (end + LINE - 1) / LINE * LINE * sizeof *w);
    if (!m || !w) {
        free(m);
        free(w);
        return NULL;
    }
    m->nx = nx;
    m->nv = nv;
    m->dx = 2 * PI / K / nx;
    m->dv = 2 * VMAX / nv;
    m->workspace = w;
    m->row = w + row;
    m->tile = w + tile;
    m->twr = w + twr;
    m->twi = m->twr + nx / 2;
    m->re = m->twi + nx / 2;
    m->im = m->re + nx;
    for (int k = 0; k < nx / 2; k++)
        m->twr[k] = cos(2 * PI * k / nx), m->twi[k] = sin(2 * PI * k / nx);
    return m;
}

static inline void mesh_free(vlasov_mesh *m)
{
    if (m)
        free(m->workspace);
    free(m);
}

/* ---------------------------------------------------------------- splines */

/* Cubic B-spline coefficients of `w` periodic sequences of n samples,
 * interleaved: sample i of sequence k is c[i * w + k].  Solves
 * (c[i-1] + 4 c[i] + c[i+1]) / 6 = f[i] with the two first-order recursive
 * filters of the factorisation 4 + S + S⁻¹ = (1 + rS)(1 + rS⁻¹)/r,
 * r = 2 − √3; the periodic start of each filter sums the wrapped history
 * until r^k is below double precision.  Every sequence sees the same
 * operations in the same order whatever w is. */
static inline void spline_coefficients(double *c, int n, int w)
{
    const double r = 2 - sqrt(3.0);
    enum { DEPTH = 30 };                        /* r^30 < 1e-17 */
    double s[TILE];
    double p = 1;
    for (int k = 0; k < w; k++)
        s[k] = 0;
    /* The history's index walks back from 0, wrapped by hand: a division
     * by a run-time n per term made the x-advection ~15 % slower. */
    for (int j = 0, i = 0; j < DEPTH; j++, p *= -r, i = i == 0 ? n - 1 : i - 1) {
        const double *src = c + (size_t)i * w;
        for (int k = 0; k < w; k++)
            s[k] += p * src[k];
    }
    for (int k = 0; k < w; k++)
        c[k] = s[k];
    for (int i = 1; i < n; i++)
        for (int k = 0; k < w; k++)
            c[(size_t)i * w + k] -= r * c[(size_t)(i - 1) * w + k];
    p = 1;
    for (int k = 0; k < w; k++)
        s[k] = 0;
    for (int j = 0, i = n - 1; j < DEPTH; j++, p *= -r, i = i == n - 1 ? 0 : i + 1) {
        const double *src = c + (size_t)i * w;
        for (int k = 0; k < w; k++)
            s[k] += p * src[k];
    }
    for (int k = 0; k < w; k++)
        c[(size_t)(n - 1) * w + k] = s[k];
    for (int i = n - 2; i >= 0; i--)
        for (int k = 0; k < w; k++)
            c[(size_t)i * w + k] -= r * c[(size_t)(i + 1) * w + k];
    for (size_t i = 0; i < (size_t)n * w; i++)
        c[i] *= 6 * r;
}

/* The interpolation of a shift by `shift` grid units (value at i − shift):
 * four weights and the index of the first coefficient. */
typedef struct shift_stencil {
    double w0, w1, w2, w3;
    int base;                   /* in 0..n-1 */
} shift_stencil;

static inline shift_stencil stencil(double shift, int n)
{
    double pos = -shift, m = floor(pos), t = pos - m;
    shift_stencil s;
    s.w0 = (1 - t) * (1 - t) * (1 - t) / 6;
    s.w1 = (3 * t * t * t - 6 * t * t + 4) / 6;
    s.w2 = (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6;
    s.w3 = t * t * t / 6;
    s.base = (int)(((long)m % n + n) % n);
    return s;
}

/* Ghost samples of w interleaved periodic sequences stored from c[0]:
 * index -1 and n, n+1, n+2 (the stencil reads j-1 .. j+2, j in 0..n-1). */
static inline void periodic_ghosts(double *c, int n, int w)
{
    memcpy(c - w, c + (size_t)(n - 1) * w, (size_t)w * sizeof *c);
    memcpy(c + (size_t)n * w, c, (size_t)(3 * w) * sizeof *c);
}

/* ---------------------------------------------------------------- advection */

static inline double vel(const vlasov_mesh *m, int j) { return -VMAX + j * m->dv; }

/* x-advection by tau of rows v0..v1 (velocities) of f: each row is shifted
 * by v tau / dx cells. */
static inline void advect_x(vlasov_mesh *m, double (*f)[m->nx], int v0, int v1, double tau)
{
    const int nx = m->nx;
    double *c = m->row + 1;
    for (int v = v0; v <= v1; v++) {
        double *row = f[v];
        memcpy(c, row, (size_t)nx * sizeof *c);
        spline_coefficients(c, nx, 1);
        periodic_ghosts(c, nx, 1);
        shift_stencil st = stencil(vel(m, v) * tau / m->dx, nx);
        int i = 0, j = st.base;
        for (; j < nx; i++, j++)
            row[i] = st.w0 * c[j - 1] + st.w1 * c[j] + st.w2 * c[j + 1] + st.w3 * c[j + 2];
        for (j = 0; i < nx; i++, j++)
            row[i] = st.w0 * c[j - 1] + st.w1 * c[j] + st.w2 * c[j + 1] + st.w3 * c[j + 2];
    }
}

/* v-advection by tau of columns x0..x1 (positions) of f in the field E:
 * column x is shifted by E[x] tau / dv cells; TILE columns at a time. */
static inline void advect_v(vlasov_mesh *m, double (*f)[m->nx], int x0, int x1, const double *E,
                            double tau)
{
    const int nv = m->nv;
    double *c = m->tile + TILE;
    for (int xt = x0; xt <= x1; xt += TILE) {
        int w = x1 - xt + 1 < TILE ? x1 - xt + 1 : TILE;
        for (int v = 0; v < nv; v++)
            memcpy(c + (size_t)v * w, &f[v][xt], (size_t)w * sizeof *c);
        spline_coefficients(c, nv, w);
        periodic_ghosts(c, nv, w);
        shift_stencil st[TILE];
        for (int k = 0; k < w; k++)
            st[k] = stencil(E[xt + k] * tau / m->dv, nv);
        for (int v = 0; v < nv; v++) {
            double *out = &f[v][xt];
            for (int k = 0; k < w; k++) {
                int j = v + st[k].base;
                j -= j >= nv ? nv : 0;
                const double *cj = c + (ptrdiff_t)j * w + k;
                out[k] = st[k].w0 * cj[-w] + st[k].w1 * cj[0] + st[k].w2 * cj[w] +
                         st[k].w3 * cj[2 * w];
            }
        }
    }
}

/* ---------------------------------------------------------------- moments */

/* The share of rows v0..v1 in ρ(x) (into rho) and in the kinetic energy
 * ½∫∫v²f (returned). */
static inline double moments(const vlasov_mesh *m, double (*f)[m->nx], int v0, int v1,
                             double *rho)
{
    const int nx = m->nx;
    const double dv = m->dv;
    double kin = 0;
    for (int i = 0; i < nx; i++)
        rho[i] = 0;
    for (int v = v0; v <= v1; v++) {
        double u = vel(m, v), sum = 0;
        for (int i = 0; i < nx; i++) {
            rho[i] += f[v][i] * dv;
            sum += f[v][i];
        }
        kin += 0.5 * u * u * sum * m->dx * dv;
    }
    return kin;
}

/* ---------------------------------------------------------------- field */

/* In-place radix-2 FFT of the mesh's nx complex values (m->re, m->im);
 * sign -1 forward, +1 backward (unnormalised). */
static inline void fft(vlasov_mesh *m, int sign)
{
    const int nx = m->nx;
    double *re = m->re, *im = m->im;
    for (int i = 1, j = 0; i < nx; i++) {
        int bit = nx >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
        if (i < j) {
            double tr = re[i], ti = im[i];
            re[i] = re[j], im[i] = im[j];
            re[j] = tr, im[j] = ti;
        }
    }
    for (int len = 2; len <= nx; len <<= 1) {
        for (int k = 0; k < len / 2; k++) {
            double wr = m->twr[k * (nx / len)], wi = sign * m->twi[k * (nx / len)];
            for (int i = k; i < nx; i += len) {
                int j = i + len / 2;
                double xr = re[j] * wr - im[j] * wi, xi = re[j] * wi + im[j] * wr;
                re[j] = re[i] - xr, im[j] = im[i] - xi;
                re[i] += xr, im[i] += xi;
            }
        }
    }
}

/* ∂E/∂x = ρ − 1, mean of E zero, spectrally: Ê_m = ρ̂_m / (i k_m), the
 * Nyquist mode (no derivative) dropped.  Returns the electric energy ½∫E². */
static inline double solve_field(vlasov_mesh *m, const double *rho, double *E)
{
    const int nx = m->nx;
    double *re = m->re, *im = m->im;
    for (int i = 0; i < nx; i++)
        re[i] = rho[i] - 1, im[i] = 0;
    fft(m, -1);
    re[0] = im[0] = re[nx / 2] = im[nx / 2] = 0;
    for (int n = 1; n < nx / 2; n++) {
        double kn = 2 * PI * n / L, er = im[n] / kn, ei = -re[n] / kn;
        re[n] = er, im[n] = ei;
        re[nx - n] = er, im[nx - n] = -ei;
    }
    fft(m, +1);
    double w = 0;
    for (int i = 0; i < nx; i++) {
        E[i] = re[i] / nx;
        w += 0.5 * E[i] * E[i] * m->dx;
    }
    return w;
}

/* ---------------------------------------------------------------- start */

/* Rows v0..v1 of the initial distribution. */
static inline void initial(const vlasov_mesh *m, double (*f)[m->nx], int v0, int v1,
                           double alpha)
{
    for (int v = v0; v <= v1; v++) {
        double u = vel(m, v), g = exp(-0.5 * u * u) / sqrt(2 * PI);
        for (int i = 0; i < m->nx; i++)
            f[v][i] = (1 + alpha * cos(K * i * m->dx)) * g;
    }
}

/* ---------------------------------------------------------------- arguments */

/* "--mesh NX NV" as the first arguments (both programs take it so): the
 * mesh into *nx, *nv and the arguments shifted past it, else the default
 * mesh.  Returns NULL, or why the arguments are no mesh. */
static inline const char *mesh_args(int *argc, char **argv, int *nx, int *nv)
{
    *nx = NX_DEFAULT;
    *nv = NV_DEFAULT;
    if (*argc < 2 || strcmp(argv[1], "--mesh") != 0)
        return mesh_invalid(*nx, *nv);
    char *end[2];
    long size[2] = { 0, 0 };
    int ok = *argc >= 4;
    for (int k = 0; ok && k < 2; k++) {
        size[k] = strtol(argv[k + 2], &end[k], 10);
        ok = end[k] != argv[k + 2] && !*end[k] && size[k] >= -(1L << 30) && size[k] <= 1L << 30;
    }
    if (!ok)
        return "--mesh takes two numbers, NX and NV";
    *nx = (int)size[0];
    *nv = (int)size[1];
    *argc -= 3;
    memmove(argv + 1, argv + 4, (size_t)(*argc) * sizeof *argv);   /* with argv[argc] */
    return mesh_invalid(*nx, *nv);
}

/* ---------------------------------------------------------------- output */

static inline int vlasov_by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The `bench:` line of a timed run (times in seconds: total and compute
 * the slowest instance's; step_median and step_p10 those of the time of
 * one step on this instance, from step[], which is sorted: figures one
 * preempted step does not move, for bench/hosts.sh) and, if path is not
 * NULL, W of every step into path, one "step W" line each, in full
 * precision so that runs can be compared.  Returns 0, or -1 when the file
 * could not be written (said on stderr). */
static inline int bench_report(const vlasov_mesh *m, int instances, int steps, double total,
                               double compute, double *step, const double *W, const char *path)
{
    qsort(step, (size_t)steps, sizeof *step, vlasov_by_value);
    printf("bench: NX=%d NV=%d instances=%d steps=%d total=%.6f compute=%.6f "
           "step_median=%.6e step_p10=%.6e\n", m->nx, m->nv, instances, steps, total, compute,
           steps % 2 ? step[steps / 2] : 0.5 * (step[steps / 2 - 1] + step[steps / 2]),
           step[steps / 10]);
    if (!path)
        return 0;
    FILE *out = fopen(path, "w");
    if (!out) {
        perror(path);
        return -1;
    }
    for (int k = 0; k < steps; k++)
        fprintf(out, "%d %.17e\n", k, W[k]);
    if (fclose(out) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

#endif
