/* Halo exchange on the generated stubs, as a Poisson solver writes it:
 * four async sends, four sync receives, wait for the sends. */
#include "noeudMDL.h"
#include "../bench.h"
#include "halo.h"

static void exchange(struct noeud *t)
{
    MDL_SendTo_noeud_m1(t);
    MDL_SendTo_noeud_m2(t);
    MDL_SendTo_noeud_m3(t);
    MDL_SendTo_noeud_m4(t);
    MDL_RecvFrom_noeud_m5(t);
    MDL_RecvFrom_noeud_m6(t);
    MDL_RecvFrom_noeud_m7(t);
    MDL_RecvFrom_noeud_m8(t);
    MDL_m1Wait(t);
    MDL_m2Wait(t);
    MDL_m3Wait(t);
    MDL_m4Wait(t);
}

int main(int argc, char **argv)
{
    struct noeud *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), np = MDL_FamilySize(t), dims[2] = { 0, 0 };
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS)
        return 1;
    t->INFi = t->INFj = 1;
    t->SUPi = t->SUPj = N;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            t->U[i][j] = halo_val(me, i, j);
    int quick = bench_quick(), nb = quick ? HALO_QUICK_BATCHES : HALO_BATCHES;
    int iters = halo_iters(N, np, quick);
    double tb[BENCH_MAXBATCH];
    for (int b = -1; b < nb; b++) {
        MDL_Barrier(t);
        double t0 = bench_now();
        for (int k = 0; k < iters; k++)
            exchange(t);
        if (b >= 0)
            tb[b] = (bench_now() - t0) / iters;
    }
    int bad = 0;
    for (int k = 1; k <= N; k++)
        bad |= t->U[k][N + 1] != halo_val(t->North_Neighbor, k, 1) ||
               t->U[k][0] != halo_val(t->South_Neighbor, k, N) ||
               t->U[N + 1][k] != halo_val(t->East_Neighbor, 1, k) ||
               t->U[0][k] != halo_val(t->West_Neighbor, N, k);
    if (bad)
        fprintf(stderr, "halo: instance %d: wrong halo\n", me);
    if (me == 0)
        bench_emit("halo", "exchange", N, tb, nb);
    MDL_End(t);
    return bad;
}
