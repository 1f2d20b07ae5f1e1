// cxx_grid: every cell fills its interior with values that name it, swaps
// halos with its four neighbours and checks what arrived.
#include <cstdio>
#include "cellMDL.hh"
#include "../cxx_check.hh"

static double value(int rank, int i, int j) { return rank * 1000.0 + i * 10 + j; }

int main(int argc, char **argv)
{
    cell t;
    CHECK(t.MDL_Init(&argc, &argv) == MDL_SUCCESS);
    const int me = t.MDL_MyRank(), n = t.MDL_FamilySize();
    int dims[2] = { 0, 0 };
    CHECK(t.MDL_Grid_Create(dims) == MDL_SUCCESS && dims[0] * dims[1] == n);
    int c[2], back = -1;
    CHECK(t.MDL_Grid_Mycoords(c) == MDL_SUCCESS && t.MDL_Grid_Rank(c, &back) == MDL_SUCCESS);
    CHECK(back == me);
    int src, dst;
    CHECK(t.MDL_Get_Neighbors(1, 1, &src, &dst) == MDL_SUCCESS);
    CHECK(src == t.South_Neighbor && dst == t.North_Neighbor);
    CHECK(t.MDL_Get_Neighbors(0, 1, &src, &dst) == MDL_SUCCESS);
    CHECK(src == t.West_Neighbor && dst == t.East_Neighbor);
    CHECK((c[1] == dims[1] - 1) == (t.North_Neighbor == MDL_PROC_NULL));
    CHECK((c[0] == 0) == (t.West_Neighbor == MDL_PROC_NULL));

    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            t.U[i][j] = value(me, i, j);
    CHECK(t.MDL_SendTo_cell_up() == MDL_SUCCESS && t.MDL_SendTo_cell_down() == MDL_SUCCESS);
    CHECK(t.MDL_SendTo_cell_east() == MDL_SUCCESS && t.MDL_SendTo_cell_west() == MDL_SUCCESS);
    CHECK(t.MDL_RecvFrom_cell_fromS() == MDL_SUCCESS && t.MDL_RecvFrom_cell_fromN() == MDL_SUCCESS);
    CHECK(t.MDL_RecvFrom_cell_fromW() == MDL_SUCCESS && t.MDL_RecvFrom_cell_fromE() == MDL_SUCCESS);
    CHECK(t.MDL_upWait() == MDL_SUCCESS && t.MDL_downWait() == MDL_SUCCESS);
    CHECK(t.MDL_eastWait() == MDL_SUCCESS && t.MDL_westWait() == MDL_SUCCESS);

    for (int k = 1; k <= N; k++) {
        // a missing neighbour leaves the halo at zero
        int s = t.South_Neighbor, no = t.North_Neighbor, w = t.West_Neighbor, e = t.East_Neighbor;
        CHECK(t.U[k][0] == (s == MDL_PROC_NULL ? 0.0 : value(s, k, N)));
        CHECK(t.U[k][N + 1] == (no == MDL_PROC_NULL ? 0.0 : value(no, k, 1)));
        CHECK(t.U[0][k] == (w == MDL_PROC_NULL ? 0.0 : value(w, N, k)));
        CHECK(t.U[N + 1][k] == (e == MDL_PROC_NULL ? 0.0 : value(e, 1, k)));
    }
    t.mine = me;
    CHECK(t.MDL_Allreduce_mx() == MDL_SUCCESS && t.top == n - 1);
    if (me == 0)
        std::printf("cxx_grid: ok (%dx%d)\n", dims[0], dims[1]);
    return t.MDL_End() == MDL_SUCCESS ? 0 : 1;
}
