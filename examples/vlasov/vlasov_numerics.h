/* vlasov_numerics.h — the numerical kernels of the Vlasov–Poisson code,
 * shared by the MeDLey program (vlasov.c) and the hand-written MPI version
 * of the benchmark (bench/vlasov/mpi.c), so that both compute exactly the
 * same thing and only their data movement differs.
 *
 *   ∂f/∂t + v ∂f/∂x + E ∂f/∂v = 0,   ∂E/∂x = ρ − 1,   ρ = ∫ f dv
 *   f(x, v, 0) = (1 + α cos kx) exp(−v²/2) / √(2π),  x ∈ [0, 2π/k), periodic
 *
 * The distribution is one array f[NV][NX] (row v, column x).  The
 * advection in x shifts whole rows, the one in v whole columns; both are
 * periodic cubic-spline interpolations (f is negligible at |v| = VMAX, so
 * v is treated as periodic).  The caller owns a slab of rows (x phase) or
 * of columns (v phase); every kernel works on a given range of them, and a
 * row or column gives the same result whichever range it is computed in.
 *
 * NX and NV must be defined before inclusion; NX a power of two (the field
 * is solved by FFT).  Also here: the report of a timed run, which both
 * programs print alike for bench/vlasov/run.sh. */
#ifndef VLASOV_NUMERICS_H
#define VLASOV_NUMERICS_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846
#define K 0.5                   /* wave number of the perturbation */
#define VMAX 6.0
#define DT 0.1

_Static_assert(NX >= 4 && (NX & (NX - 1)) == 0, "NX must be a power of two (FFT field solver)");
_Static_assert(NV >= 4, "NV must be at least 4");

static const double L = 2 * PI / K, DX = 2 * PI / K / NX, DV = 2 * VMAX / NV;

/* Columns advected together: the spline recursions run along v for TILE
 * neighbouring columns at once, on contiguous row pieces (vectorised, and
 * no strided walk through f). */
#define TILE 16
#define NMAX (NX > NV ? NX : NV)

/* Scratch of one instance: a spline row with its ghost cells, and a tile
 * of columns with theirs. */
typedef struct vlasov_scratch {
    double row[NMAX + 4];
    double tile[(NV + 4) * TILE];
} vlasov_scratch;

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
    for (int j = 0; j < DEPTH; j++, p *= -r) {
        const double *src = c + (size_t)((n - j % n) % n) * w;
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
    for (int j = 0; j < DEPTH; j++, p *= -r) {
        const double *src = c + (size_t)((n - 1 + j) % n) * w;
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

static inline double vel(int j) { return -VMAX + j * DV; }

/* x-advection by tau of rows v0..v1 (velocities) of f: each row is shifted
 * by v tau / dx cells. */
static inline void advect_x(double (*f)[NX], int v0, int v1, double tau, vlasov_scratch *s)
{
    double *c = s->row + 1;
    for (int v = v0; v <= v1; v++) {
        double *row = f[v];
        memcpy(c, row, sizeof f[v]);
        spline_coefficients(c, NX, 1);
        periodic_ghosts(c, NX, 1);
        shift_stencil st = stencil(vel(v) * tau / DX, NX);
        int i = 0, j = st.base;
        for (; j < NX; i++, j++)
            row[i] = st.w0 * c[j - 1] + st.w1 * c[j] + st.w2 * c[j + 1] + st.w3 * c[j + 2];
        for (j = 0; i < NX; i++, j++)
            row[i] = st.w0 * c[j - 1] + st.w1 * c[j] + st.w2 * c[j + 1] + st.w3 * c[j + 2];
    }
}

/* v-advection by tau of columns x0..x1 (positions) of f in the field E:
 * column x is shifted by E[x] tau / dv cells; TILE columns at a time. */
static inline void advect_v(double (*f)[NX], int x0, int x1, const double *E, double tau,
                            vlasov_scratch *s)
{
    double *c = s->tile + TILE;
    for (int xt = x0; xt <= x1; xt += TILE) {
        int w = x1 - xt + 1 < TILE ? x1 - xt + 1 : TILE;
        for (int v = 0; v < NV; v++)
            memcpy(c + (size_t)v * w, &f[v][xt], (size_t)w * sizeof *c);
        spline_coefficients(c, NV, w);
        periodic_ghosts(c, NV, w);
        shift_stencil st[TILE];
        for (int k = 0; k < w; k++)
            st[k] = stencil(E[xt + k] * tau / DV, NV);
        for (int v = 0; v < NV; v++) {
            double *out = &f[v][xt];
            for (int k = 0; k < w; k++) {
                int j = v + st[k].base;
                j -= j >= NV ? NV : 0;
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
static inline double moments(double (*f)[NX], int v0, int v1, double *rho)
{
    double kin = 0;
    for (int i = 0; i < NX; i++)
        rho[i] = 0;
    for (int v = v0; v <= v1; v++) {
        double u = vel(v), sum = 0;
        for (int i = 0; i < NX; i++) {
            rho[i] += f[v][i] * DV;
            sum += f[v][i];
        }
        kin += 0.5 * u * u * sum * DX * DV;
    }
    return kin;
}

/* ---------------------------------------------------------------- field */

/* In-place radix-2 FFT of NX complex values (re, im); sign -1 forward,
 * +1 backward (unnormalised).  The twiddles are tabulated on first use. */
static inline void fft(double *re, double *im, int sign)
{
    static double twr[NX / 2], twi[NX / 2];
    static int ready;
    if (!ready) {
        for (int k = 0; k < NX / 2; k++)
            twr[k] = cos(2 * PI * k / NX), twi[k] = sin(2 * PI * k / NX);
        ready = 1;
    }
    for (int i = 1, j = 0; i < NX; i++) {
        int bit = NX >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
        if (i < j) {
            double tr = re[i], ti = im[i];
            re[i] = re[j], im[i] = im[j];
            re[j] = tr, im[j] = ti;
        }
    }
    for (int len = 2; len <= NX; len <<= 1) {
        for (int k = 0; k < len / 2; k++) {
            double wr = twr[k * (NX / len)], wi = sign * twi[k * (NX / len)];
            for (int i = k; i < NX; i += len) {
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
static inline double solve_field(const double *rho, double *E)
{
    double re[NX], im[NX];
    for (int i = 0; i < NX; i++)
        re[i] = rho[i] - 1, im[i] = 0;
    fft(re, im, -1);
    re[0] = im[0] = re[NX / 2] = im[NX / 2] = 0;
    for (int m = 1; m < NX / 2; m++) {
        double km = 2 * PI * m / L, er = im[m] / km, ei = -re[m] / km;
        re[m] = er, im[m] = ei;
        re[NX - m] = er, im[NX - m] = -ei;
    }
    fft(re, im, +1);
    double w = 0;
    for (int i = 0; i < NX; i++) {
        E[i] = re[i] / NX;
        w += 0.5 * E[i] * E[i] * DX;
    }
    return w;
}

/* ---------------------------------------------------------------- start */

/* Rows v0..v1 of the initial distribution. */
static inline void initial(double (*f)[NX], int v0, int v1, double alpha)
{
    for (int v = v0; v <= v1; v++) {
        double u = vel(v), g = exp(-0.5 * u * u) / sqrt(2 * PI);
        for (int i = 0; i < NX; i++)
            f[v][i] = (1 + alpha * cos(K * i * DX)) * g;
    }
}

/* ---------------------------------------------------------------- output */

/* The `bench:` line of a timed run (times in seconds, the slowest
 * instance's) and, if path is not NULL, W of every step into path, one
 * "step W" line each, in full precision so that runs can be compared.
 * Returns 0, or -1 when the file could not be written (said on stderr). */
static inline int bench_report(int instances, int steps, double total, double compute,
                               const double *W, const char *path)
{
    printf("bench: NX=%d NV=%d instances=%d steps=%d total=%.6f compute=%.6f\n", NX, NV,
           instances, steps, total, compute);
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
