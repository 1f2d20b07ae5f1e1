/* transpose: global N x N matrix (N = n*B), element (g, c) = 100g + c;
 * instance r holds rows rB..rB+B-1.  After the transposition it holds rows
 * rB.. of the transpose, whose element (g, c) is 100c + g. */
#include <stdio.h>
#include "vlasovMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "vlasov %d: %s\n", me, what);
    return 1;
}

int main(int argc, char **argv)
{
    struct vlasov *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t), N = n * B;
    if (n > NPMAX)
        return fail("too many instances");
    for (int i = 0; i < B; i++)
        for (int c = 0; c < N; c++)
            t->F[i][c] = 100.0 * (me * B + i) + c;
    /* block k (columns kB..kB+B-1 of my rows) goes to instance k */
    for (int k = 0; k < n; k++)
        for (int i = 0; i < B; i++)
            for (int j = 0; j < B; j++)
                t->S[(k * B + i) * B + j] = t->F[i][k * B + j];
    if (MDL_Alltoall_tr(t) != MDL_SUCCESS)
        return fail("Alltoall");
    for (int k = 0; k < n; k++)
        for (int i = 0; i < B; i++)
            for (int j = 0; j < B; j++)
                t->G[j][k * B + i] = t->R[(k * B + i) * B + j];
    for (int i = 0; i < B; i++)
        for (int c = 0; c < N; c++)
            if (t->G[i][c] != 100.0 * c + (me * B + i))
                return fail("transposed values");
    for (int c = 0; c < NPMAX * B; c++) {
        t->rho[c] = 0;
        for (int i = 0; i < B && c < N; i++)
            t->rho[c] += t->G[i][c];
    }
    if (MDL_Allreduce_dens(t) != MDL_SUCCESS)
        return fail("Allreduce");
    for (int c = 0; c < N; c++)
        if (t->rhot[c] != 100.0 * c * N + N * (N - 1) / 2)
            return fail("densities");
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    if (me == 0)
        printf("transpose: OK\n");
    return 0;
}
