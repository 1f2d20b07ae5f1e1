/* fault_grid: every grid call before MDL_Grid_Create returns MDL_ERR_GRID
 * and leaves its outputs alone; then the grid is built and used. */
#include <stdio.h>
#include "gMDL.h"

static int bad;

static void want(int got, int code, const char *what)
{
    if (got != code) {
        printf("fault_grid: %s returned %d, expected %d\n", what, got, code);
        bad = 1;
    }
}

int main(int argc, char **argv)
{
    struct g *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int c[2] = { -9, -9 }, r = -9, s = -9, d = -9;
    const int zero[2] = { 0, 0 };
    want(MDL_Grid_Mycoords(t, c), MDL_ERR_GRID, "Mycoords");
    want(MDL_Grid_Coords(t, 0, c), MDL_ERR_GRID, "Coords");
    want(MDL_Grid_Rank(t, zero, &r), MDL_ERR_GRID, "Rank");
    want(MDL_Get_Neighbors(t, 0, 1, &s, &d), MDL_ERR_GRID, "Get_Neighbors");
    want(MDL_SendTo_g_x(t), MDL_ERR_GRID, "neighbour send");
    want(MDL_RecvFrom_g_x(t), MDL_ERR_GRID, "neighbour receive");
    if (c[0] != -9 || c[1] != -9 || r != -9 || s != -9 || d != -9) {
        printf("fault_grid: a failing call wrote its output\n");
        bad = 1;
    }
    int dims[2] = { 0, 0 };
    want(MDL_Grid_Create(t, dims), MDL_SUCCESS, "Grid_Create");
    want(MDL_Grid_Mycoords(t, c), MDL_SUCCESS, "Mycoords after Grid_Create");
    want(MDL_Grid_Rank(t, c, &r), MDL_SUCCESS, "Rank after Grid_Create");
    want(r, MDL_MyRank(t), "own rank from own coordinates");
    want(MDL_Barrier(t), MDL_SUCCESS, "barrier");
    int me = MDL_MyRank(t);
    if (MDL_End(t) != MDL_SUCCESS || bad)
        return 1;
    if (me == 0)
        printf("fault_grid: OK\n");
    return 0;
}
