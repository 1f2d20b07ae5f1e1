/* Vlasov–Poisson 1D-1V, linear Landau damping, on the instances of `vlasov`.
 *
 *   ∂f/∂t + v ∂f/∂x + E ∂f/∂v = 0,   ∂E/∂x = ρ − 1,   ρ = ∫ f dv
 *   f(x, v, 0) = (1 + α cos kx) exp(−v²/2) / √(2π),  x ∈ [0, 2π/k), periodic
 *
 * Semi-Lagrangian, Strang splitting: half a step in x, the field, a step
 * in v, half a step in x (the kernels: vlasov_numerics.h).  f[v][x] is
 * indexed alike on every instance; instance p owns rows (velocities)
 * p·nv/n … for the x-advection and columns (positions) p·nx/n … for the
 * v-advection.  The mesh nx × nv is read from the command line: f and the
 * field's vectors are sized at run time (vlasov.mdl) by MDL_Allocate.
 * Between the phases every pair of instances swaps the block where the
 * one's rows cross the other's columns: a strided section of f sent
 * straight from where it is to where it goes (the spec's
 * to_vslab/into_vslab and to_xslab/into_xslab), so the program packs,
 * unpacks and transposes nothing.  The density is reduced at 0, which
 * solves for E and broadcasts it.
 *
 * The electric energy W(t) = ½∫E² dx oscillates at 2ω and decays as e^{2γt};
 * its peaks are fitted: γ from the slope of ln W, ω from their spacing.
 * Instance 0 also runs the whole computation serially and compares W at
 * every step.
 *
 *   vlasov [--mesh NX NV] [TMAX [ALPHA]]
 *                                default 64 × 128, 40 and 0.01; dt = 0.1;
 *                                NX a power of two, n divides NX and NV
 *   vlasov [--mesh NX NV] --bench STEPS [WFILE]
 *                                timing only (α = 0.01): one line with the
 *                                run's time and its computation time, the
 *                                slowest instance's each; W of every step
 *                                into WFILE (bench/vlasov, make bench)
 *   vlasov --help                this usage
 *
 * Exit status 0 when the parallel run equals the serial one (W within
 * 1e-10 of the largest W) and, if TMAX ≥ 20, γ is within 5% of −0.1533.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vlasov_mdl.h"

#define GAMMA_REF (-0.1533)     /* linear theory, k = 0.5 */
#define OMEGA_REF 1.4156

static const char usage[] =
    "usage: vlasov [--mesh NX NV] [TMAX [ALPHA]]         default 64 x 128, 40, 0.01\n"
    "       vlasov [--mesh NX NV] --bench STEPS [WFILE]  a timed run of STEPS steps\n"
    "NX (positions) a power of two >= 4, NV (velocities) >= 4, both multiples of the\n"
    "instance count\n";

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        perror("malloc");
        exit(1);
    }
    return p;
}

/* ---------------------------------------------------------------- runs */

/* The parallel run; W[s] is the electric energy of step s and Etot[s] the
 * total energy (instance 0), step[s] (if not NULL) the time of step s on
 * this instance.  At the end t->slowest holds (at instance 0)
 * the run's time and its computation time — the time spent outside the
 * MDL_* calls — each the largest over the instances. */
static void run_parallel(struct vlasov *t, vlasov_mesh *m, int steps, double alpha, double *W,
                         double *Etot, double *step)
{
    slabs s = slabs_of(m, MDL_FamilySize(t), MDL_MyRank(t));
    double (*f)[m->nx] = vlasov_MDL_View_f(t);
    double t_comm = 0;
    initial(m, f, s.v0, s.v1, alpha);
    MDL_Barrier(t);
    double t0 = vlasov_mdl_now();
    for (int k = 0; k < steps; k++) {
        double s0 = vlasov_mdl_now();
        t_comm += vlasov_mdl_step(t, m, &s, &W[k], &Etot[k]);
        if (step)
            step[k] = vlasov_mdl_now() - s0;
    }
    t->times[0] = vlasov_mdl_now() - t0;
    t->times[1] = t->times[0] - t_comm;
    MDL_Reduce_timing(t);
}

/* The same computation on one process, for instance 0's comparison. */
static void run_serial(vlasov_mesh *m, int steps, double alpha, double *W)
{
    int nx = m->nx, nv = m->nv;
    double (*f)[nx] = xmalloc((size_t)nv * sizeof *f);
    double *rho = xmalloc((size_t)nx * sizeof *rho), *E = xmalloc((size_t)nx * sizeof *E);
    initial(m, f, 0, nv - 1, alpha);
    for (int k = 0; k < steps; k++) {
        advect_x(m, f, 0, nv - 1, DT / 2);
        moments(m, f, 0, nv - 1, rho);
        W[k] = solve_field(m, rho, E);
        advect_v(m, f, 0, nx - 1, E, DT);
        advect_x(m, f, 0, nv - 1, DT / 2);
    }
    free(E);
    free(rho);
    free(f);
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

/* vlasov --bench STEPS [WFILE] */
static int bench(struct vlasov *t, vlasov_mesh *m, int steps, const char *wfile)
{
    int me = MDL_MyRank(t);
    double *W = xmalloc((size_t)steps * sizeof *W), *Etot = xmalloc((size_t)steps * sizeof *Etot);
    double *step = xmalloc((size_t)steps * sizeof *step);
    run_parallel(t, m, steps, 0.01, W, Etot, step);
    int ok = me != 0 || bench_report(m, MDL_FamilySize(t), steps, t->slowest[0], t->slowest[1],
                                     step, W, wfile) == 0;
    free(step);
    free(W);
    free(Etot);
    mesh_free(m);
    MDL_End(t);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    struct vlasov *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), np = MDL_FamilySize(t), nx, nv;
    const char *bad_mesh = mesh_args(&argc, argv, &nx, &nv);
    int bench_mode = argc > 1 && strcmp(argv[1], "--bench") == 0;
    double tmax = argc > 1 && !bench_mode ? atof(argv[1]) : 40;
    double alpha = argc > 2 && !bench_mode ? atof(argv[2]) : 0.01;
    int steps = bench_mode ? (argc > 2 ? atoi(argv[2]) : 0) : (int)(tmax / DT + 0.5);
    if (bad_mesh || nx % np || nv % np || steps < (bench_mode ? 1 : 3)) {
        if (me == 0) {
            if (bad_mesh)
                fprintf(stderr, "vlasov: %s\n", bad_mesh);
            else
                fprintf(stderr, "vlasov: %d instances must divide NX=%d and NV=%d; TMAX >= %g, "
                        "--bench STEPS >= 1\n", np, nx, nv, 3 * DT);
            fputs(usage, stderr);
        }
        MDL_Barrier(t);                 /* let 0 print before anyone exits */
        MDL_End(t);
        return 2;
    }
    t->nx = nx;
    t->nv = nv;
    vlasov_mesh *m = mesh_new(nx, nv);
    if (!m || MDL_Allocate(t) != MDL_SUCCESS) {     /* MDL_Allocate has said why */
        if (!m)
            perror("vlasov: the mesh's workspace");
        mesh_free(m);
        MDL_End(t);
        return 1;
    }
    if (bench_mode)
        return bench(t, m, steps, argc > 3 ? argv[3] : NULL);

    double *W = xmalloc((size_t)steps * sizeof *W), *Etot = xmalloc((size_t)steps * sizeof *Etot);
    run_parallel(t, m, steps, alpha, W, Etot, NULL);
    int ok = 1;
    if (me == 0) {
        double *Ws = xmalloc((size_t)steps * sizeof *Ws);
        double t0 = vlasov_mdl_now();
        run_serial(m, steps, alpha, Ws);
        /* Relative to the largest W: the density's rounding differs
         * (partial sums, then the reduction), and late W are ~1e-6 of W(0). */
        double t_ser = vlasov_mdl_now() - t0, dev = 0, wmax = 0;
        for (int k = 0; k < steps; k++) {
            dev = fmax(dev, fabs(W[k] - Ws[k]));
            wmax = fmax(wmax, Ws[k]);
        }
        dev /= wmax;
        free(Ws);
        double drift = fabs(Etot[steps - 1] - Etot[0]) / Etot[0];
        printf("vlasov: %d x %d mesh, %d instances, dt = %g, t = 0..%g, alpha = %g\n",
               nx, nv, np, DT, steps * DT, alpha);
        printf("time: parallel %.3f s (computation %.3f s, the rest in MDL calls), "
               "serial %.3f s\n", t->slowest[0], t->slowest[1], t_ser);
        printf("parallel vs serial: max |W - W_serial| / max W = %.1e\n", dev);
        printf("total energy drift: %.1e\n", drift);
        /* every step's W, which vlasov.f90 prints alike (tests/suite-examples.sh) */
        unsigned long long wbits = 0, last, b;
        for (int k = 0; k < steps; k++) {
            memcpy(&b, &W[k], sizeof b);
            wbits ^= b;
        }
        memcpy(&last, &W[steps - 1], sizeof last);
        printf("bits: W xor %016llX last W %016llX\n", wbits, last);
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
    mesh_free(m);
    MDL_End(t);
    return ok ? 0 : 1;
}
