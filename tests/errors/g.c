/* g.c — grid misuse (errors returned), two instances of the grid task of
 * spec.mdl; the lines are compared across the runtimes by
 * tests/suite-errors.sh. */
#include <stdio.h>

#include "gMDL.h"

static int me, bad;

static void want(int got, int code, const char *what)
{
    if (got != code) {
        fprintf(stdout, "g %d: %s returned %d, expected %d\n", me, what, got, code);
        bad = 1;
    }
}

int main(int argc, char **argv)
{
    struct g *t = NULL;
    int dims0[2] = { 0, 0 };
    /* through a NULL task pointer: before MDL_Init */
    want(MDL_Grid_Create(t, dims0), MDL_ERR_STATE, "MDL_Grid_Create before MDL_Init");
    want(MDL_SendTo_g_x(t), MDL_ERR_STATE, "neighbour send before MDL_Init");
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int c[2], r, src, dst;
    want(MDL_Grid_Mycoords(t, c), MDL_ERR_GRID, "coordinates before MDL_Grid_Create");
    want(MDL_SendTo_g_x(t), MDL_ERR_GRID, "neighbour send before MDL_Grid_Create");
    want(MDL_RecvFrom_g_x(t), MDL_ERR_GRID, "neighbour receive before MDL_Grid_Create");
    int d1[2] = { 1, 0 };
    want(MDL_Grid_Screate(t, d1), MDL_ERR_GRID, "Screate with a fixed dimension");
    int d3[2] = { 3, 0 };
    want(MDL_Grid_Create(t, d3), MDL_ERR_GRID, "3 x ? for 2 instances");
    int dn[2] = { -1, 0 };
    want(MDL_Grid_Create(t, dn), MDL_ERR_GRID, "negative dimension");
    int dims[2] = { 0, 0 };
    want(MDL_Grid_Create(t, dims), MDL_SUCCESS, "MDL_Grid_Create");
    want(MDL_Grid_Create(t, dims), MDL_ERR_GRID, "MDL_Grid_Create twice");
    /* a 2 x 1 grid: North and South are MDL_PROC_NULL on both instances,
     * and the calls toward them check their sections all the same
     * (dimensions counted from 0, as the compiler counts them) */
    want(MDL_SendTo_g_edge(t, 0, 2, 0, 3), MDL_SUCCESS, "whole M toward MDL_PROC_NULL");
    want(MDL_RecvFrom_g_edge(t, 1, 1, 0, -1), MDL_SUCCESS, "empty row from MDL_PROC_NULL");
    want(MDL_SendTo_g_edge(t, 0, 3, 0, 3), MDL_ERR_BOUNDS, "row 3 of 3 toward MDL_PROC_NULL");
    want(MDL_RecvFrom_g_edge(t, 0, 2, 1, 4), MDL_ERR_BOUNDS, "column 4 of 4 from MDL_PROC_NULL");
    want(MDL_Grid_Coords(t, 7, c), MDL_ERR_RANK, "coordinates of instance 7");
    const int outside[2] = { 5, 0 };
    want(MDL_Grid_Rank(t, outside, &r), MDL_ERR_ARG, "coordinates outside the grid");
    want(MDL_Get_Neighbors(t, 5, 1, &src, &dst), MDL_ERR_ARG, "direction 5 of 2");
    want(MDL_Get_Neighbors(t, 0, 1, NULL, &dst), MDL_ERR_ARG, "NULL source");
    want(MDL_End(t), MDL_SUCCESS, "MDL_End");
    if (bad)
        return 1;
    printf("g %d: OK\n", me);
    return 0;
}
