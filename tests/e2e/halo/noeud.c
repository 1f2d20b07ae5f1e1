/* halo: every instance fills its interior with values naming it, exchanges
 * halos with its four neighbours and its south-west diagonal, and checks
 * every halo cell (MDL_PROC_NULL outside the grid: the cell stays -1). */
#include <stdio.h>
#include "noeudMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "noeud %d: %s\n", me, what);
    return 1;
}

static double val(int rank, int i, int j)
{
    return 1000.0 * rank + 10 * i + j;
}

/* rank of the instance at my coords + (dx, dy), MDL_PROC_NULL outside */
static int at(struct noeud *t, const int *dims, const int *c, int dx, int dy)
{
    int nc[2] = { c[0] + dx, c[1] + dy }, r;
    if (nc[0] < 0 || nc[0] >= dims[0] || nc[1] < 0 || nc[1] >= dims[1])
        return MDL_PROC_NULL;
    if (MDL_Grid_Rank(t, nc, &r) != MDL_SUCCESS)
        return -100;
    return r;
}

static int bad(int got)
{
    if (got != MDL_SUCCESS)
        fprintf(stderr, "noeud %d: receive returned %d, expected MDL_SUCCESS\n", me, got);
    return got != MDL_SUCCESS;
}

int main(int argc, char **argv)
{
    struct noeud *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t);
    int dims[2] = { 0, 0 }, c[2];
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS)
        return fail("Grid_Create");
    if (dims[0] * dims[1] != n || dims[0] < dims[1])
        return fail("dims");
    if (MDL_Grid_Mycoords(t, c) != MDL_SUCCESS)
        return fail("Mycoords");
    int back[2];
    if (MDL_Grid_Coords(t, me, back) != MDL_SUCCESS || back[0] != c[0] || back[1] != c[1])
        return fail("Coords");
    int north = at(t, dims, c, 0, 1), south = at(t, dims, c, 0, -1);
    int east = at(t, dims, c, 1, 0), west = at(t, dims, c, -1, 0);
    int sw = at(t, dims, c, -1, -1);
    if (t->North_Neighbor != north || t->South_Neighbor != south ||
        t->East_Neighbor != east || t->West_Neighbor != west)
        return fail("neighbour members");
    int src, dst;
    if (MDL_Get_Neighbors(t, 1, 1, &src, &dst) != MDL_SUCCESS || src != south || dst != north)
        return fail("Get_Neighbors");

    t->INFi = t->INFj = 1;
    t->SUPi = t->SUPj = N;
    for (int i = 0; i < N + 2; i++)
        for (int j = 0; j < N + 2; j++)
            t->U[i][j] = (i >= 1 && i <= N && j >= 1 && j <= N) ? val(me, i, j) : -1;

    if (MDL_SendTo_noeud_m1(t) < 0 || MDL_SendTo_noeud_m2(t) < 0 ||
        MDL_SendTo_noeud_m3(t) < 0 || MDL_SendTo_noeud_m4(t) < 0 ||
        MDL_SendTo_noeud_d1(t) < 0)
        return fail("sends");
    /* a neighbour receive succeeds, also from MDL_PROC_NULL outside the grid */
    if (bad(MDL_RecvFrom_noeud_m5(t)) || bad(MDL_RecvFrom_noeud_m6(t)) ||
        bad(MDL_RecvFrom_noeud_m7(t)) || bad(MDL_RecvFrom_noeud_m8(t)) ||
        bad(MDL_RecvFrom_noeud_d2(t)))
        return fail("receives");
    if (MDL_m1Wait(t) < 0 || MDL_m2Wait(t) < 0 || MDL_m3Wait(t) < 0 || MDL_m4Wait(t) < 0 ||
        MDL_d1Wait(t) < 0)
        return fail("waits");

    for (int k = 1; k <= N; k++) {
        if (t->U[k][N + 1] != (north >= 0 ? val(north, k, 1) : -1))
            return fail("north halo");
        if (t->U[k][0] != (south >= 0 ? val(south, k, N) : -1))
            return fail("south halo");
        if (t->U[N + 1][k] != (east >= 0 ? val(east, 1, k) : -1))
            return fail("east halo");
        if (t->U[0][k] != (west >= 0 ? val(west, N, k) : -1))
            return fail("west halo");
    }
    if (t->U[0][0] != (sw >= 0 ? val(sw, N, N) : -1))
        return fail("diagonal");
    if (t->U[0][N + 1] != -1 || t->U[N + 1][0] != -1 || t->U[N + 1][N + 1] != -1)
        return fail("corner written");

    t->DIF = 1.5;
    if (MDL_Allreduce_m9(t) != MDL_SUCCESS || t->SUM_DIF != 1.5 * n)
        return fail("Allreduce");
    if (me == 0)
        printf("halo ok on %d x %d\n", dims[0], dims[1]);
    MDL_End(t);
    return 0;
}
