#include <stdio.h>
#include <string.h>
#include "vlasovMDL.h"

static double S[NX][NV];

int main(int argc, char **argv)
{
    struct vlasov *t;
    MDL_Init(&t, &argc, &argv);
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0;
    int nxl = NX / n, nvl = NV / n, x0 = me * nxl, v0 = me * nvl;
    int rightn = (me + 1) % n, leftn = (me + n - 1) % n;
    for (int x = 0; x < NX; x++)
        for (int v = 0; v < NV; v++) S[x][v] = 10.0 * x + v + 0.5;
    for (int i = 0; i < nxl; i++)
        for (int v = 0; v < NV; v++) t->fx[i][v] = S[x0 + i][v];
    t->blk = nxl * nvl;
    t->last = nxl - 1;

    /* a strided column with run-time bounds */
    MDL_SendTo_vlasov_ranged(t, rightn, 0, nxl - 1);
    int from = MDL_RecvFrom_vlasov_colrecv(t, MDL_ANY, 0, nxl - 1);
    MDL_rangedWait(t);
    if (from != leftn) { printf("%d: colrecv from %d\n", me, from); bad = 1; }
    for (int i = 0; i < nxl; i++)
        if (t->ghost[i] != S[leftn * nxl + i][0]) { printf("%d: column %d\n", me, i); bad = 1; }

    for (int step = 0; step < 3; step++) {
        /* x advection: needs the last row of the left instance */
        MDL_SendTo_vlasov_right(t, rightn);
        from = MDL_RecvFrom_vlasov_fromleft(t, leftn);
        MDL_rightWait(t);
        if (from != leftn) { printf("%d: fromleft returned %d\n", me, from); bad = 1; }
        for (int i = nxl - 1; i >= 0; i--)
            for (int v = 0; v < NV; v++)
                t->fx[i][v] = 0.5 * (t->fx[i][v] + (i ? t->fx[i - 1][v] : t->ghost[v]));
        /* transpose: block j = my rows x v-range of instance j */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < nxl; i++)
                for (int vl = 0; vl < nvl; vl++)
                    t->sbuf[j * t->blk + i * nvl + vl] = t->fx[i][j * nvl + vl];
        MDL_Alltoall_tr(t);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < nxl; i++)
                for (int vl = 0; vl < nvl; vl++)
                    t->fv[vl][j * nxl + i] = t->rbuf[j * t->blk + i * nvl + vl];
        /* v phase */
        for (int vl = 0; vl < nvl; vl++)
            for (int x = 0; x < NX; x++) t->fv[vl][x] *= 1.0 + 0.01 * (v0 + vl);
        /* transpose back */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < nxl; i++)
                for (int vl = 0; vl < nvl; vl++)
                    t->rbuf[j * t->blk + i * nvl + vl] = t->fv[vl][j * nxl + i];
        MDL_Alltoall_trback(t);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < nxl; i++)
                for (int vl = 0; vl < nvl; vl++)
                    t->fx[i][j * nvl + vl] = t->sbuf[j * t->blk + i * nvl + vl];
        /* density */
        memset(t->rho_part, 0, sizeof t->rho_part);
        for (int i = 0; i < nxl; i++)
            for (int v = 0; v < NV; v++) t->rho_part[x0 + i] += t->fx[i][v];
        MDL_Allreduce_dens(t);
        (void)step;
    }
    /* serial reference (periodic in x) */
    for (int x = 0; x < NX; x++)
        for (int v = 0; v < NV; v++) S[x][v] = 10.0 * x + v + 0.5;
    double rho[NX];
    for (int step = 0; step < 3; step++) {
        double lastrow[NV];
        memcpy(lastrow, S[NX - 1], sizeof lastrow);
        for (int x = NX - 1; x >= 0; x--)
            for (int v = 0; v < NV; v++) S[x][v] = 0.5 * (S[x][v] + (x ? S[x - 1][v] : lastrow[v]));
        for (int x = 0; x < NX; x++)
            for (int v = 0; v < NV; v++) S[x][v] *= 1.0 + 0.01 * v;
        for (int x = 0; x < NX; x++) { rho[x] = 0; for (int v = 0; v < NV; v++) rho[x] += S[x][v]; }
    }
    for (int i = 0; i < nxl; i++)
        for (int v = 0; v < NV; v++)
            if (t->fx[i][v] != S[x0 + i][v]) { printf("%d: f[%d][%d] %g vs %g\n", me, x0 + i, v, t->fx[i][v], S[x0 + i][v]); bad = 1; }
    for (int x = 0; x < NX; x++)
        if (t->rho[x] != rho[x]) { printf("%d: rho[%d] %g vs %g\n", me, x, t->rho[x], rho[x]); bad = 1; }
    MDL_Barrier(t);
    printf("vlasov %d/%d %s\n", me, n, bad ? "FAILED" : "ok");
    MDL_End(t);
    return bad;
}
