/* Jacobi for -laplace(u) = 1 on the unit square, u = 0 on the boundary.
 * Global indexing: every instance holds the whole (N+2)x(N+2) array but
 * only updates its block INFi..SUPi x INFj..SUPj; the result is compared
 * with a serial run done by every instance. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "noeudMDL.h"

#define ITERS 150
static double S[N + 2][N + 2], Snew[N + 2][N + 2], Unew[N + 2][N + 2];

static void split(int n, int parts, int k, int *lo, int *hi)
{
    int base = n / parts, rem = n % parts;
    *lo = 1 + k * base + (k < rem ? k : rem);
    *hi = *lo + base + (k < rem) - 1;
}

int main(int argc, char **argv)
{
    struct noeud *t;
    MDL_Init(&t, &argc, &argv);
    int dims[2] = {0, 0}, c[2];
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS) return 1;
    MDL_Grid_Mycoords(t, c);
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0;
    if (dims[0] * dims[1] != n) { printf("dims %d x %d for %d\n", dims[0], dims[1], n); return 1; }
    split(N, dims[0], c[0], &t->INFi, &t->SUPi);
    split(N, dims[1], c[1], &t->INFj, &t->SUPj);
    int src, dst;
    MDL_Get_Neighbors(t, 0, 1, &src, &dst);
    if (src != t->West_Neighbor || dst != t->East_Neighbor) { printf("%d: x neighbours differ\n", me); bad = 1; }
    MDL_Get_Neighbors(t, 1, 1, &src, &dst);
    if (src != t->South_Neighbor || dst != t->North_Neighbor) { printf("%d: y neighbours differ\n", me); bad = 1; }
    if ((c[1] == dims[1] - 1) != (t->North_Neighbor == MDL_PROC_NULL)) { printf("%d: north\n", me); bad = 1; }
    double h2 = 1.0 / ((N + 1) * (N + 1));
    double serial_dif = 0;
    for (int it = 0; it < ITERS; it++) {
        MDL_SendTo_noeud_m1(t); MDL_SendTo_noeud_m2(t);
        MDL_SendTo_noeud_m3(t); MDL_SendTo_noeud_m4(t);
        MDL_RecvFrom_noeud_m5(t); MDL_RecvFrom_noeud_m6(t);
        MDL_RecvFrom_noeud_m7(t); MDL_RecvFrom_noeud_m8(t);
        MDL_m1Wait(t); MDL_m2Wait(t); MDL_m3Wait(t); MDL_m4Wait(t);
        t->DIF = 0;
        for (int i = t->INFi; i <= t->SUPi; i++)
            for (int j = t->INFj; j <= t->SUPj; j++) {
                Unew[i][j] = 0.25 * (t->U[i - 1][j] + t->U[i + 1][j] + t->U[i][j - 1] + t->U[i][j + 1] + h2);
                t->DIF += (Unew[i][j] - t->U[i][j]) * (Unew[i][j] - t->U[i][j]);
            }
        for (int i = t->INFi; i <= t->SUPi; i++)
            for (int j = t->INFj; j <= t->SUPj; j++) t->U[i][j] = Unew[i][j];
        MDL_Allreduce_m9(t);
        /* serial reference */
        serial_dif = 0;
        for (int i = 1; i <= N; i++)
            for (int j = 1; j <= N; j++) {
                Snew[i][j] = 0.25 * (S[i - 1][j] + S[i + 1][j] + S[i][j - 1] + S[i][j + 1] + h2);
                serial_dif += (Snew[i][j] - S[i][j]) * (Snew[i][j] - S[i][j]);
            }
        for (int i = 1; i <= N; i++)
            for (int j = 1; j <= N; j++) S[i][j] = Snew[i][j];
        if (fabs(t->SUM_DIF - serial_dif) > 1e-12 * (serial_dif + 1e-300)) {
            printf("%d: iter %d residual %g vs serial %g\n", me, it, t->SUM_DIF, serial_dif); bad = 1; break;
        }
    }
    for (int i = t->INFi; i <= t->SUPi; i++)
        for (int j = t->INFj; j <= t->SUPj; j++)
            if (t->U[i][j] != S[i][j]) { printf("%d: U[%d][%d]=%g serial %g\n", me, i, j, t->U[i][j], S[i][j]); bad = 1; i = N; break; }
    int ok = !bad;
    MDL_Barrier(t);
    if (me == 0) printf("poisson %dx%d %s residual %.3e center %.6f\n", dims[0], dims[1], ok ? "ok" : "FAILED", t->SUM_DIF, S[(N + 1) / 2][(N + 1) / 2]);
    MDL_End(t);
    return bad;
}
