/* grid_shapes, 2-D: the shape asked on the command line, coordinates and
 * ranks, the neighbour members, and every halo cell after exchanging with
 * all eight neighbours, checked against neighbours computed here from the
 * coordinates (not by the runtime). */
#include <stdio.h>
#include <stdlib.h>
#include "planeMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "plane %d: %s\n", me, what);
    return 1;
}

static double val(int rank, int i, int j)
{
    return 1000.0 * rank + 10 * i + j;
}

static int dims[2], c[2];

/* row-major rank at my coords + (dx, dy), MDL_PROC_NULL outside */
static int at(int dx, int dy)
{
    int x = c[0] + dx, y = c[1] + dy;
    if (x < 0 || x >= dims[0] || y < 0 || y >= dims[1])
        return MDL_PROC_NULL;
    return x * dims[1] + y;
}

int main(int argc, char **argv)
{
    struct plane *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t);
    if (argc != 5)
        return fail("usage: plane d0 d1 want0 want1");
    dims[0] = atoi(argv[1]);
    dims[1] = atoi(argv[2]);
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS)
        return fail("Grid_Create");
    if (dims[0] != atoi(argv[3]) || dims[1] != atoi(argv[4]) || dims[0] * dims[1] != n)
        return fail("dims");
    if (MDL_Grid_Mycoords(t, c) != MDL_SUCCESS || c[0] * dims[1] + c[1] != me)
        return fail("Mycoords (row-major)");
    for (int r = 0; r < n; r++) {
        int rc[2], back = -1;
        if (MDL_Grid_Coords(t, r, rc) != MDL_SUCCESS || MDL_Grid_Rank(t, rc, &back) != MDL_SUCCESS ||
            back != r)
            return fail("Coords/Rank round trip");
    }
    if (t->North_Neighbor != at(0, 1) || t->South_Neighbor != at(0, -1) ||
        t->East_Neighbor != at(1, 0) || t->West_Neighbor != at(-1, 0) ||
        t->East_North_Neighbor != at(1, 1) || t->West_South_Neighbor != at(-1, -1))
        return fail("neighbour members");
    int src, dst;
    if (MDL_Get_Neighbors(t, 0, 1, &src, &dst) != MDL_SUCCESS || src != at(-1, 0) ||
        dst != at(1, 0))
        return fail("Get_Neighbors(0, 1)");
    if (MDL_Get_Neighbors(t, 1, 1, &src, &dst) != MDL_SUCCESS || src != at(0, -1) ||
        dst != at(0, 1))
        return fail("Get_Neighbors(1, 1)");

    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            t->U[i][j] = i >= 1 && i <= 2 && j >= 1 && j <= 2 ? val(me, i, j) : -1;
    if (MDL_SendTo_plane_n(t) < 0 || MDL_SendTo_plane_s(t) < 0 || MDL_SendTo_plane_e(t) < 0 ||
        MDL_SendTo_plane_w(t) < 0 || MDL_SendTo_plane_ne(t) < 0 || MDL_SendTo_plane_sw(t) < 0 ||
        MDL_SendTo_plane_nw(t) < 0 || MDL_SendTo_plane_se(t) < 0)
        return fail("sends");
    if (MDL_RecvFrom_plane_n(t) != MDL_SUCCESS || MDL_RecvFrom_plane_s(t) != MDL_SUCCESS ||
        MDL_RecvFrom_plane_e(t) != MDL_SUCCESS || MDL_RecvFrom_plane_w(t) != MDL_SUCCESS ||
        MDL_RecvFrom_plane_ne(t) != MDL_SUCCESS || MDL_RecvFrom_plane_sw(t) != MDL_SUCCESS ||
        MDL_RecvFrom_plane_nw(t) != MDL_SUCCESS || MDL_RecvFrom_plane_se(t) != MDL_SUCCESS)
        return fail("receives");
    if (MDL_nWait(t) < 0 || MDL_sWait(t) < 0 || MDL_eWait(t) < 0 || MDL_wWait(t) < 0 ||
        MDL_neWait(t) < 0 || MDL_swWait(t) < 0 || MDL_nwWait(t) < 0 || MDL_seWait(t) < 0)
        return fail("Wait");

    /* halo cell (i, j) comes from the neighbour at (dx, dy), which sent its
       interior cell (i - 2dx, j - 2dy) */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int dx = i == 0 ? -1 : i == 3 ? 1 : 0, dy = j == 0 ? -1 : j == 3 ? 1 : 0;
            double want;
            if (dx == 0 && dy == 0)
                want = val(me, i, j);
            else {
                int from = at(dx, dy);
                want = from == MDL_PROC_NULL ? -1 : val(from, i - 2 * dx, j - 2 * dy);
            }
            if (t->U[i][j] != want) {
                fprintf(stderr, "plane %d: U[%d][%d] = %g, expected %g\n", me, i, j,
                        t->U[i][j], want);
                return 1;
            }
        }
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    if (me == 0)
        printf("grid_shapes: OK\n");
    return 0;
}
