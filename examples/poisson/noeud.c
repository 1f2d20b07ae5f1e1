/* Poisson: -Δu = f on the unit square, u = 0 on the boundary, by Jacobi
 * iterations on a 2-D grid of instances.
 *
 * Manufactured solution u = sin(πx) sin(πy), f = 2π² u.  u is an
 * eigenfunction of the 5-point Laplacian too, so the exact discrete solution
 * is known: u_h = 2π²/λ_h · u with λ_h = 8 sin²(πh/2)/h², and the
 * discretisation error |u_h − u| = (π²h²/12 + O(h⁴))·max u is predicted and
 * checked.  Every instance also runs the serial Jacobi on the whole mesh for
 * the same number of iterations and compares its block: the parallel
 * iterate must be the serial one (same arithmetic, so the deviation is 0).
 *
 *   noeud [G [PX PY [TOL [MAXIT]]]]
 *       G×G interior points (default 24), a PX×PY process grid (default 0 0:
 *       chosen by MDL_Grid_Create), stop when the l2 norm of an update is
 *       below TOL (default 1e-9) or after MAXIT iterations (default 200000).
 *       U is sized at run time to the instance's block (SUPi+2 by SUPj+2,
 *       poisson.mdl), so G has no upper bound but memory.
 *       A run stopped by MAXIT checks only parallel = serial, not the error
 *       (short runs for oversubscribed MPI, where each iteration is slow).
 *
 * noeud.f90 is this program in Fortran: with -ffp-contract=off on both,
 * its "bits:" line is this one's (tests/suite-examples.sh compares them).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "noeudMDL.h"

#define PI 3.14159265358979323846

static int me;

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The bits of x, for the "bits:" line noeud.f90 prints too. */
static unsigned long long bits(double x)
{
    unsigned long long b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* First index and size of part c of n points cut into p parts (the first
 * n % p parts get one more). */
static void cut(int n, int p, int c, int *first, int *size)
{
    *size = n / p + (c < n % p);
    *first = c * (n / p) + (c < n % p ? c : n % p);
}

/* h² f at global interior point (gi, gj), 1-based. */
static double h2f(int gi, int gj, double h)
{
    return h * h * 2 * PI * PI * sin(PI * gi * h) * sin(PI * gj * h);
}

/* One Jacobi sweep of the serial mesh u[(G+2)²] into v; the operands are
 * added in the same order as in the parallel sweep below. */
static void serial_sweep(const double *u, double *v, int G, double h)
{
    int w = G + 2;
    for (int i = 1; i <= G; i++)
        for (int j = 1; j <= G; j++)
            v[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] +
                                   u[i * w + j - 1] + u[i * w + j + 1] + h2f(i, j, h));
}

static int halo_exchange(struct noeud *t)
{
    if (MDL_SendTo_noeud_m1(t) < 0 || MDL_SendTo_noeud_m2(t) < 0 ||
        MDL_SendTo_noeud_m3(t) < 0 || MDL_SendTo_noeud_m4(t) < 0)
        return -1;
    if (MDL_RecvFrom_noeud_m5(t) != MDL_SUCCESS || MDL_RecvFrom_noeud_m6(t) != MDL_SUCCESS ||
        MDL_RecvFrom_noeud_m7(t) != MDL_SUCCESS || MDL_RecvFrom_noeud_m8(t) != MDL_SUCCESS)
        return -1;
    /* the sends read U: it must not change before they are complete */
    if (MDL_m1Wait(t) < 0 || MDL_m2Wait(t) < 0 || MDL_m3Wait(t) < 0 || MDL_m4Wait(t) < 0)
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    struct noeud *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int G = argc > 1 ? atoi(argv[1]) : 24;
    int dims[2] = { argc > 3 ? atoi(argv[2]) : 0, argc > 3 ? atoi(argv[3]) : 0 };
    double tol = argc > 4 ? atof(argv[4]) : 1e-9;
    int max_iter = argc > 5 ? atoi(argv[5]) : 200000;
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS)
        return 1;
    int c[2];
    MDL_Grid_Mycoords(t, c);
    int oi, oj, ni, nj;                         /* global offset and size of my block */
    cut(G, dims[0], c[0], &oi, &ni);
    cut(G, dims[1], c[1], &oj, &nj);
    if (G < 1 || ni < 1 || nj < 1) {
        if (me == 0)
            fprintf(stderr, "noeud: G=%d on %d x %d instances: every block needs a point\n",
                    G, dims[0], dims[1]);
        MDL_Barrier(t);                 /* let 0 print before anyone exits */
        MDL_End(t);
        return 2;
    }
    double h = 1.0 / (G + 1), t0 = now();
    t->INFi = t->INFj = 1;
    t->SUPi = ni;
    t->SUPj = nj;
    /* U, (ni+2) x (nj+2), starts at 0 (MDL_Allocate zeroes it), which is
     * also the boundary value: halo cells facing the boundary
     * (MDL_PROC_NULL neighbours) are never written. */
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return 1;
    double (*U)[nj + 2] = noeud_MDL_View_U(t);    /* U[i][j], noeudMDL.h */
    double (*V)[nj + 2] = calloc((size_t)(ni + 2), sizeof *V);
    if (!V) {
        perror("calloc");
        return 1;
    }

    int iter = 0;
    do {
        if (halo_exchange(t) < 0)
            return 1;
        double dif = 0;
        for (int i = 1; i <= ni; i++)
            for (int j = 1; j <= nj; j++) {
                V[i][j] = 0.25 * (U[i - 1][j] + U[i + 1][j] +
                                  U[i][j - 1] + U[i][j + 1] + h2f(oi + i, oj + j, h));
                dif += (V[i][j] - U[i][j]) * (V[i][j] - U[i][j]);
            }
        for (int i = 1; i <= ni; i++)
            for (int j = 1; j <= nj; j++)
                U[i][j] = V[i][j];
        t->DIF = dif;
        MDL_Allreduce_m9(t);
        iter++;
    } while (sqrt(t->SUM_DIF) >= tol && iter < max_iter);
    double t_par = now() - t0;
    free(V);

    /* The serial run, the same number of iterations. */
    int w = G + 2;
    double *u = calloc((size_t)w * w, sizeof *u), *v = calloc((size_t)w * w, sizeof *v);
    if (!u || !v) {
        perror("calloc");
        return 1;
    }
    for (int k = 0; k < iter; k++) {
        serial_sweep(u, v, G, h);
        double *s = u;
        u = v;
        v = s;
    }
    double dev = 0, err = 0;
    for (int i = 1; i <= ni; i++)
        for (int j = 1; j <= nj; j++) {
            double exact = sin(PI * (oi + i) * h) * sin(PI * (oj + j) * h);
            dev = fmax(dev, fabs(U[i][j] - u[(oi + i) * w + oj + j]));
            err = fmax(err, fabs(U[i][j] - exact));
        }
    free(u);
    free(v);
    t->DEV = dev;
    MDL_Allreduce_m10(t);
    double max_dev = t->MAX_DEV;
    t->DEV = err;
    MDL_Allreduce_m10(t);
    double max_err = t->MAX_DEV;

    /* predicted: (2π²/λ_h − 1) · max over the mesh of u */
    double s = sin(PI * h / 2), lambda = 8 * s * s / (h * h), umax = 0;
    for (int i = 1; i <= G; i++)
        umax = fmax(umax, sin(PI * i * h));
    double predicted = (2 * PI * PI / lambda - 1) * umax * umax;
    int converged = sqrt(t->SUM_DIF) < tol;
    int err_ok = fabs(max_err - predicted) <= 1e-2 * predicted;
    int ok = max_dev <= 1e-14 && (!converged || err_ok);
    if (me == 0) {
        printf("poisson: %d x %d interior points, h = %.6f, %d x %d instances\n",
               G, G, h, dims[0], dims[1]);
        printf("jacobi: %d iterations, last update %.2e (tol %.0e), %.3f s\n",
               iter, sqrt(t->SUM_DIF), tol, t_par);
        if (converged)
            printf("error max|U - u| = %.6e, predicted %.6e, error/h^2 = %.4f (pi^2/12 = %.4f)\n",
                   max_err, predicted, max_err / (h * h), PI * PI / 12);
        else
            printf("stopped after %d iterations (MAXIT), not converged: error not checked\n",
                   iter);
        printf("parallel vs serial: max|U - U_serial| = %.1e\n", max_dev);
        printf("bits: update %016llX error %016llX deviation %016llX\n", bits(t->SUM_DIF),
               bits(max_err), bits(max_dev));
        printf("poisson: %s\n", ok ? "ok" : "FAILED");
    }
    MDL_End(t);
    return ok ? 0 : 1;
}
