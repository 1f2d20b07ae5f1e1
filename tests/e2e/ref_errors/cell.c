#include <stdio.h>
#include <string.h>
#include "cellMDL.h"

static int bad;
#define EXPECT(call, code) do { int rc_ = (call); if (rc_ != (code)) { \
    printf("%d: %s returned %d (%s), expected %d\n", me, #call, rc_, MDL_Error_string(rc_), code); bad = 1; } } while (0)

int main(int argc, char **argv)
{
    struct cell *t;
    MDL_Init(&t, &argc, &argv);
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), c[3], dims[3], s, d;
    /* texts */
    for (int code = MDL_ERR_LAST; code <= MDL_ERR_FIRST; code++) {
        const char *txt = MDL_Error_string(code);
        if (!txt || !*txt) { printf("no text for %d\n", code); bad = 1; }
    }
    if (!MDL_Error_string(MDL_SUCCESS) || !MDL_Error_string(-12345)) { printf("NULL text\n"); bad = 1; }
    if (me == 0) printf("%s\n", MDL_Error_string(MDL_ERR_GRID));
    /* grid calls before the grid exists */
    EXPECT(MDL_Grid_Mycoords(t, c), MDL_ERR_GRID);
    EXPECT(MDL_Get_Neighbors(t, 0, 1, &s, &d), MDL_ERR_GRID);
    EXPECT(MDL_SendTo_cell_east(t), MDL_ERR_GRID);
    /* wrong instance numbers */
    EXPECT(MDL_SendTo_cell_sec(t, n), MDL_ERR_RANK);
    EXPECT(MDL_SendTo_cell_sec(t, -5), MDL_ERR_RANK);
    EXPECT(MDL_RecvFrom_cell_rsec(t, n + 3, 0, 1), MDL_ERR_RANK);
    /* bounds outside the variable, evaluated at the call */
    t->lo = 5; t->hi = 10;
    EXPECT(MDL_SendTo_cell_sec(t, 0), MDL_ERR_BOUNDS);
    EXPECT(MDL_RecvFrom_cell_rsec(t, 0, -1, 3), MDL_ERR_BOUNDS);
    /* impossible grid shapes */
    int neg[3] = {-1, 0, 0};
    EXPECT(MDL_Grid_Create(t, neg), MDL_ERR_GRID);
    if (n == 6) {
        int d7[3] = {0, 4, 0};
        EXPECT(MDL_Grid_Create(t, d7), MDL_ERR_GRID);
        int d3[3] = {0, 3, 0};
        EXPECT(MDL_Grid_Create(t, d3), MDL_SUCCESS);
        if (d3[0] != 2 || d3[1] != 3 || d3[2] != 1) { printf("(0,3,0) with 6 -> (%d,%d,%d)\n", d3[0], d3[1], d3[2]); bad = 1; }
        memcpy(dims, d3, sizeof dims);
    } else {
        memset(dims, 0, sizeof dims);
        EXPECT(MDL_Grid_Screate(t, dims), MDL_SUCCESS);
        if (dims[0] < dims[1] || dims[1] < dims[2] || dims[0] * dims[1] * dims[2] != n) { printf("Screate (%d,%d,%d)\n", dims[0], dims[1], dims[2]); bad = 1; }
    }
    EXPECT(MDL_Grid_Mycoords(t, c), MDL_SUCCESS);
    int r;
    EXPECT(MDL_Grid_Rank(t, c, &r), MDL_SUCCESS);
    if (r != me) { printf("%d: Grid_Rank gives %d\n", me, r); bad = 1; }
    int outside[3] = {dims[0], 0, 0};
    if (MDL_Grid_Rank(t, outside, &r) >= 0) { printf("%d: rank of a point outside: %d\n", me, r); bad = 1; }
    EXPECT(MDL_Grid_Coords(t, n, c), MDL_ERR_RANK);
    /* the grid exchange now works, the instance is still usable */
    for (int k = 0; k < 10; k++) t->v[k] = me * 10 + k;
    EXPECT(MDL_SendTo_cell_east(t), MDL_SUCCESS);
    EXPECT(MDL_RecvFrom_cell_west(t), MDL_SUCCESS);
    MDL_eastWait(t);
    if (t->West_Neighbor != MDL_PROC_NULL && t->v[3] != t->West_Neighbor * 10 + 3) { printf("%d: west data %d\n", me, t->v[3]); bad = 1; }
    /* a message bigger than the receive: truncation is reported */
    MDL_Barrier(t);
    int to = (me + 1) % n, from = (me + n - 1) % n;
    EXPECT(MDL_SendTo_cell_big(t, to), MDL_SUCCESS);
    EXPECT(MDL_RecvFrom_cell_rbig(t, from, 0, 1), MDL_ERR_TRUNCATE);
    MDL_bigWait(t);
    MDL_Barrier(t);
    printf("errors %d %s\n", me, bad ? "FAILED" : "ok");
    MDL_End(t);
    return bad;
}
