/* Vlasov–Poisson 1D-1V, linear Landau damping, on the instances of `vlasov`.
 *
 *   ∂f/∂t + v ∂f/∂x + E ∂f/∂v = 0,   ∂E/∂x = ρ − 1,   ρ = ∫ f dv
 *   f(x, v, 0) = (1 + α cos kx) exp(−v²/2) / √(2π),  x ∈ [0, 2π/k), periodic
 *
 * Semi-Lagrangian, Strang splitting: half a step in x, the field, a step
 * in v, half a step in x; periodic cubic-spline interpolation in both
 * directions (f is negligible at |v| = VMAX, so v is treated as periodic).
 * The x-advection works on slabs of velocities (fx: NV/n rows of NX), the
 * v-advection on slabs of positions (fv: NX/n rows of NV); Alltoall
 * transposes between them.  The density is reduced at 0, which solves for
 * E spectrally and broadcasts it.
 *
 * The electric energy W(t) = ½∫E² dx oscillates at 2ω and decays as e^{2γt};
 * its peaks are fitted: γ from the slope of ln W, ω from their spacing.
 * Instance 0 also runs the whole computation serially and compares W at
 * every step.
 *
 *   vlasov [TMAX [ALPHA]]    default 40 and 0.01; dt = 0.1
 *
 * Exit status 0 when the parallel run equals the serial one (W within
 * 1e-10 of the largest W) and, if TMAX ≥ 20, γ is within 5% of −0.1533.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "vlasovMDL.h"

#define PI 3.14159265358979323846
#define K 0.5                   /* wave number of the perturbation */
#define VMAX 6.0
#define DT 0.1
#define GAMMA_REF (-0.1533)     /* linear theory, k = 0.5 */
#define OMEGA_REF 1.4156

static const double L = 2 * PI / K, DX = 2 * PI / K / NX, DV = 2 * VMAX / NV;

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        perror("malloc");
        exit(1);
    }
    return p;
}

/* ---------------------------------------------------------------- splines */

/* Replaces f[0..n-1] (periodic samples) by its cubic B-spline coefficients:
 * solves (c[i-1] + 4 c[i] + c[i+1]) / 6 = f[i] with the two first-order
 * recursive filters of the factorisation 4 + S + S⁻¹ = (1 + rS)(1 + rS⁻¹)/r,
 * r = 2 − √3; the periodic start of each filter sums the wrapped history
 * until r^k is below double precision. */
static void spline_coefficients(double *f, int n)
{
    const double r = 2 - sqrt(3.0);
    const int depth = 30;                       /* r^30 < 1e-17 */
    double s = 0, p = 1;
    for (int k = 0; k < depth; k++, p *= -r)
        s += p * f[((-k) % n + n) % n];
    double prev = s;
    f[0] = s;
    for (int i = 1; i < n; i++)
        prev = f[i] = f[i] - r * prev;
    s = 0;
    p = 1;
    for (int k = 0; k < depth; k++, p *= -r)
        s += p * f[(n - 1 + k) % n];
    f[n - 1] = s;
    for (int i = n - 2; i >= 0; i--)
        f[i] = f[i] - r * f[i + 1];
    for (int i = 0; i < n; i++)
        f[i] *= 6 * r;
}

/* row[i] ← value of the periodic spline through row at i − shift (in grid
 * units): the same shift for the whole row, so the four weights are too. */
static void shift_row(double *row, int n, double shift, double *tmp)
{
    memcpy(tmp, row, (size_t)n * sizeof *tmp);
    spline_coefficients(tmp, n);
    double pos = -shift, m = floor(pos), t = pos - m;
    double w0 = (1 - t) * (1 - t) * (1 - t) / 6;
    double w1 = (3 * t * t * t - 6 * t * t + 4) / 6;
    double w2 = (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6;
    double w3 = t * t * t / 6;
    int base = (int)(((long)m % n + n) % n);
    for (int i = 0; i < n; i++) {
        int j = i + base;
        row[i] = w0 * tmp[(j - 1 + n) % n] + w1 * tmp[j % n] + w2 * tmp[(j + 1) % n] +
                 w3 * tmp[(j + 2) % n];
    }
}

/* ---------------------------------------------------------------- physics */

static double vel(int j) { return -VMAX + j * DV; }

/* x-advection by tau of `rows` velocity rows of NX values, the first being
 * global velocity index v0 */
static void advect_x(double *fx, int rows, int v0, double tau, double *tmp)
{
    for (int r = 0; r < rows; r++)
        shift_row(fx + (size_t)r * NX, NX, vel(v0 + r) * tau / DX, tmp);
}

/* v-advection by tau of `rows` position rows of NV values, the first being
 * global position index x0, in the field E */
static void advect_v(double *fv, int rows, int x0, const double *E, double tau, double *tmp)
{
    for (int c = 0; c < rows; c++)
        shift_row(fv + (size_t)c * NV, NV, E[x0 + c] * tau / DV, tmp);
}

/* The own rows' share of ρ(x) and of the kinetic energy ½∫∫v²f. */
static double moments(const double *fx, int rows, int v0, double *rho)
{
    double kin = 0;
    for (int i = 0; i < NX; i++)
        rho[i] = 0;
    for (int r = 0; r < rows; r++) {
        double v = vel(v0 + r), s = 0;
        for (int i = 0; i < NX; i++) {
            rho[i] += fx[(size_t)r * NX + i] * DV;
            s += fx[(size_t)r * NX + i];
        }
        kin += 0.5 * v * v * s * DX * DV;
    }
    return kin;
}

/* ∂E/∂x = ρ − 1, mean of E zero, spectrally (NX is small: a direct DFT);
 * returns the electric energy ½∫E². */
static double solve_field(const double *rho, double *E)
{
    double re[NX / 2 + 1], im[NX / 2 + 1];
    for (int m = 1; m <= NX / 2; m++) {
        re[m] = im[m] = 0;
        for (int i = 0; i < NX; i++) {
            double a = 2 * PI * m * i / NX;
            re[m] += (rho[i] - 1) * cos(a);
            im[m] -= (rho[i] - 1) * sin(a);
        }
    }
    double w = 0;
    for (int i = 0; i < NX; i++) {
        double e = 0;
        for (int m = 1; m <= NX / 2; m++) {
            /* Ê_m = ρ̂_m / (i k_m); the Nyquist mode has no derivative */
            if (2 * m == NX)
                continue;
            double km = 2 * PI * m / L, a = 2 * PI * m * i / NX;
            double er = im[m] / km, ei = -re[m] / km;
            e += 2 * (er * cos(a) - ei * sin(a)) / NX;
        }
        E[i] = e;
        w += 0.5 * e * e * DX;
    }
    return w;
}

static void initial(double *fx, int rows, int v0, double alpha)
{
    for (int r = 0; r < rows; r++) {
        double v = vel(v0 + r), g = exp(-0.5 * v * v) / sqrt(2 * PI);
        for (int i = 0; i < NX; i++)
            fx[(size_t)r * NX + i] = (1 + alpha * cos(K * i * DX)) * g;
    }
}

/* ---------------------------------------------------------------- runs */

/* The parallel run; W[s] is the electric energy of step s (instance 0).
 * Returns the time this instance spent in the collectives. */
static double run_parallel(struct vlasov *t, int steps, double alpha, double *W, double *Etot)
{
    int np = MDL_FamilySize(t), me = MDL_MyRank(t);
    int lv = NV / np, lx = NX / np;
    double *fx = xmalloc((size_t)lv * NX * sizeof *fx);
    double *fv = xmalloc((size_t)lx * NV * sizeof *fv);
    double tmp[NV > NX ? NV : NX];
    double t_comm = 0, c0;
    t->block = lv * lx;
    initial(fx, lv, me * lv, alpha);
    for (int s = 0; s < steps; s++) {
        advect_x(fx, lv, me * lv, DT / 2, tmp);

        t->energy = moments(fx, lv, me * lv, t->rho);
        c0 = now();
        MDL_Reduce_density(t);
        MDL_Reduce_energy_sum(t);
        t_comm += now() - c0;
        if (me == 0) {
            W[s] = solve_field(t->rho_total, t->efield);
            Etot[s] = t->total_energy + W[s];
        }
        c0 = now();
        MDL_Bcast_field(t);
        t_comm += now() - c0;

        /* x-slabs → v-slabs: block q holds my rows' part of q's positions */
        for (int q = 0; q < np; q++)
            for (int r = 0; r < lv; r++)
                for (int c = 0; c < lx; c++)
                    t->sendbuf[q * t->block + c * lv + r] = fx[(size_t)r * NX + q * lx + c];
        c0 = now();
        MDL_Alltoall_transpose(t);
        t_comm += now() - c0;
        for (int q = 0; q < np; q++)
            for (int c = 0; c < lx; c++)
                memcpy(fv + (size_t)c * NV + q * lv, &t->recvbuf[q * t->block + c * lv],
                       (size_t)lv * sizeof *fv);

        advect_v(fv, lx, me * lx, t->efield, DT, tmp);

        /* v-slabs → x-slabs */
        for (int q = 0; q < np; q++)
            for (int c = 0; c < lx; c++)
                for (int r = 0; r < lv; r++)
                    t->sendbuf[q * t->block + r * lx + c] = fv[(size_t)c * NV + q * lv + r];
        c0 = now();
        MDL_Alltoall_transpose(t);
        t_comm += now() - c0;
        for (int q = 0; q < np; q++)
            for (int r = 0; r < lv; r++)
                memcpy(fx + (size_t)r * NX + q * lx, &t->recvbuf[q * t->block + r * lx],
                       (size_t)lx * sizeof *fx);

        advect_x(fx, lv, me * lv, DT / 2, tmp);
    }
    free(fx);
    free(fv);
    return t_comm;
}

/* The same computation on one process, for instance 0's comparison. */
static void run_serial(int steps, double alpha, double *W)
{
    double *fx = xmalloc((size_t)NV * NX * sizeof *fx);
    double *fv = xmalloc((size_t)NX * NV * sizeof *fv);
    double rho[NX], E[NX], tmp[NV > NX ? NV : NX];
    initial(fx, NV, 0, alpha);
    for (int s = 0; s < steps; s++) {
        advect_x(fx, NV, 0, DT / 2, tmp);
        moments(fx, NV, 0, rho);
        W[s] = solve_field(rho, E);
        for (int c = 0; c < NX; c++)
            for (int r = 0; r < NV; r++)
                fv[(size_t)c * NV + r] = fx[(size_t)r * NX + c];
        advect_v(fv, NX, 0, E, DT, tmp);
        for (int r = 0; r < NV; r++)
            for (int c = 0; c < NX; c++)
                fx[(size_t)r * NX + c] = fv[(size_t)c * NV + r];
        advect_x(fx, NV, 0, DT / 2, tmp);
    }
    free(fx);
    free(fv);
}

/* Least-squares slope of y against x. */
static double slope(const double *x, const double *y, int n)
{
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    for (int i = 0; i < n; i++) {
        mx += x[i] / n;
        my += y[i] / n;
    }
    for (int i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
    }
    return sxy / sxx;
}

/* Peaks of W (the field energy at t = (s + ½) dt), refined by a parabola
 * through ln W at the three samples around each; returns their number. */
static int peaks(const double *W, int steps, double *tp, double *lnp)
{
    int n = 0;
    for (int s = 1; s + 1 < steps; s++) {
        if (!(W[s] > W[s - 1] && W[s] >= W[s + 1]))
            continue;
        double a = log(W[s - 1]), b = log(W[s]), c = log(W[s + 1]);
        double d = 0.5 * (a - c) / (a - 2 * b + c);     /* offset in steps */
        tp[n] = (s + 0.5 + d) * DT;
        lnp[n] = b - 0.25 * (a - c) * d;
        n++;
    }
    return n;
}

int main(int argc, char **argv)
{
    struct vlasov *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), np = MDL_FamilySize(t);
    double tmax = argc > 1 ? atof(argv[1]) : 40;
    double alpha = argc > 2 ? atof(argv[2]) : 0.01;
    int steps = (int)(tmax / DT + 0.5);
    if (NX % np || NV % np || steps < 3) {
        if (me == 0)
            fprintf(stderr, "vlasov: %d instances must divide NX=%d and NV=%d; TMAX >= %g\n",
                    np, NX, NV, 3 * DT);
        MDL_Barrier(t);                 /* let 0 print before anyone exits */
        MDL_End(t);
        return 2;
    }
    double *W = xmalloc((size_t)steps * sizeof *W), *Etot = xmalloc((size_t)steps * sizeof *Etot);
    double t0 = now();
    double t_comm = run_parallel(t, steps, alpha, W, Etot);
    double t_par = now() - t0;
    int ok = 1;
    if (me == 0) {
        double *Ws = xmalloc((size_t)steps * sizeof *Ws);
        t0 = now();
        run_serial(steps, alpha, Ws);
        /* Relative to the largest W: the density's rounding differs
         * (partial sums, then the reduction), and late W are ~1e-6 of W(0). */
        double t_ser = now() - t0, dev = 0, wmax = 0;
        for (int s = 0; s < steps; s++) {
            dev = fmax(dev, fabs(W[s] - Ws[s]));
            wmax = fmax(wmax, Ws[s]);
        }
        dev /= wmax;
        free(Ws);
        double drift = fabs(Etot[steps - 1] - Etot[0]) / Etot[0];
        printf("vlasov: %d x %d mesh, %d instances, dt = %g, t = 0..%g, alpha = %g\n",
               NX, NV, np, DT, steps * DT, alpha);
        printf("time: parallel %.2f s (%.2f s of it in collectives at instance 0), "
               "serial %.2f s\n", t_par, t_comm, t_ser);
        printf("parallel vs serial: max |W - W_serial| / max W = %.1e\n", dev);
        printf("total energy drift: %.1e\n", drift);
        ok = dev <= 1e-10;

        double tp[1024], lnp[1024];
        int n = peaks(W, steps, tp, lnp);
        if (n > 1024)
            n = 1024;
        if (tmax >= 20 && n >= 4) {
            double gamma = 0.5 * slope(tp, lnp, n);
            double idx[1024];
            for (int i = 0; i < n; i++)
                idx[i] = i;
            double omega = PI / slope(idx, tp, n);      /* W peaks twice a period */
            printf("%d peaks of the field energy between t = %.2f and %.2f\n", n, tp[0],
                   tp[n - 1]);
            printf("gamma = %.4f (theory %.4f, %+.1f%%)\n", gamma, GAMMA_REF,
                   100 * (gamma - GAMMA_REF) / fabs(GAMMA_REF));
            printf("omega = %.4f (theory %.4f, %+.1f%%)\n", omega, OMEGA_REF,
                   100 * (omega - OMEGA_REF) / OMEGA_REF);
            ok = ok && fabs(gamma - GAMMA_REF) <= 0.05 * fabs(GAMMA_REF);
        } else if (tmax >= 20) {
            printf("only %d peaks: no fit\n", n);
            ok = 0;
        } else {
            printf("TMAX < 20: no fit of gamma and omega\n");
        }
        printf("vlasov: %s\n", ok ? "ok" : "FAILED");
    }
    free(W);
    free(Etot);
    MDL_End(t);
    return ok ? 0 : 1;
}
