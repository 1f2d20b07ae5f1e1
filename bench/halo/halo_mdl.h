/* The halo exchange on the generated stubs, as a Poisson solver writes it:
 * four async sends, four sync receives, wait for the sends.  Used by
 * noeud.c alone and by side.c beside the hand-written exchange. */
#include "noeudMDL.h"

static inline void halo_mdl_exchange(struct noeud *t)
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

/* The instance's grid made and its interior filled; MDL_SUCCESS or the
 * error. */
static inline int halo_mdl_init(struct noeud *t)
{
    int me = MDL_MyRank(t), dims[2] = { 0, 0 }, rc = MDL_Grid_Create(t, dims);
    if (rc != MDL_SUCCESS)
        return rc;
    t->INFi = t->INFj = 1;
    t->SUPi = t->SUPj = N;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            t->U[i][j] = halo_val(me, i, j);
    return MDL_SUCCESS;
}

/* Whether a halo cell differs from its neighbour's edge. */
static inline int halo_mdl_bad(const struct noeud *t)
{
    int bad = 0;
    for (int k = 1; k <= N; k++)
        bad |= t->U[k][N + 1] != halo_val(t->North_Neighbor, k, 1) ||
               t->U[k][0] != halo_val(t->South_Neighbor, k, N) ||
               t->U[N + 1][k] != halo_val(t->East_Neighbor, 1, k) ||
               t->U[0][k] != halo_val(t->West_Neighbor, N, k);
    return bad;
}
