#include <stdio.h>
#include "cubeMDL.h"

static int dims[3];

/* rank of the instance at my coordinates + d, or MDL_PROC_NULL */
static int at(struct cube *t, const int *me, int dx, int dy, int dz)
{
    int c[3] = {me[0] + dx, me[1] + dy, me[2] + dz}, r;
    for (int k = 0; k < 3; k++)
        if (c[k] < 0 || c[k] >= dims[k]) return MDL_PROC_NULL;
    if (MDL_Grid_Rank(t, c, &r) != MDL_SUCCESS) return -99;
    return r;
}

static int check(const char *what, int me, const Stamp *s, int expect)
{
    if (expect == MDL_PROC_NULL) {
        if (s->rank != -1) { printf("%d: %s got %d from nowhere\n", me, what, s->rank); return 1; }
        return 0;
    }
    if (s->rank != expect) { printf("%d: %s from %d, expected %d\n", me, what, s->rank, expect); return 1; }
    return 0;
}

int main(int argc, char **argv)
{
    struct cube *t;
    MDL_Init(&t, &argc, &argv);
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0, c[3], c2[3];
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS) return 1;
    MDL_Grid_Mycoords(t, c);
    MDL_Grid_Coords(t, me, c2);
    if (c[0] != c2[0] || c[1] != c2[1] || c[2] != c2[2]) { printf("%d: coords differ\n", me); bad = 1; }
    if (dims[0] * dims[1] * dims[2] != n) { printf("bad dims\n"); bad = 1; }
    t->mine.rank = me; t->mine.cx = c[0]; t->mine.cy = c[1]; t->mine.cz = c[2];
    Stamp none = {-1, -1, -1, -1};
    t->got_corner = t->got_diag = t->got_up = t->got_far = t->got_edge = none;
    if (t->West_South_Down_Neighbor != at(t, c, -1, -1, -1)) { printf("%d: WSD member\n", me); bad = 1; }
    if (t->East_North_Neighbor != at(t, c, 1, 1, 0)) { printf("%d: EN member\n", me); bad = 1; }
    if (t->Up_Neighbor != at(t, c, 0, 0, 1)) { printf("%d: Up member\n", me); bad = 1; }
    int s, d;
    MDL_Get_Neighbors(t, 2, 1, &s, &d);
    if (s != t->Down_Neighbor || d != t->Up_Neighbor) { printf("%d: Get_Neighbors z\n", me); bad = 1; }
    MDL_Get_Neighbors(t, 0, 2, &s, &d);
    if (s != at(t, c, -2, 0, 0) || d != at(t, c, 2, 0, 0)) { printf("%d: Get_Neighbors x by 2\n", me); bad = 1; }

    MDL_SendTo_cube_corner(t); MDL_SendTo_cube_diag(t); MDL_SendTo_cube_up(t);
    MDL_SendTo_cube_far(t); MDL_SendTo_cube_edge(t);
    MDL_RecvFrom_cube_rcorner(t); MDL_RecvFrom_cube_rdiag(t); MDL_RecvFrom_cube_up(t);
    MDL_RecvFrom_cube_rfar(t); MDL_RecvFrom_cube_redge(t);
    MDL_cornerWait(t); MDL_diagWait(t); MDL_upWait(t); MDL_farWait(t); MDL_edgeWait(t);
    bad |= check("corner", me, &t->got_corner, at(t, c, 1, 1, 1));
    bad |= check("diag", me, &t->got_diag, at(t, c, -1, -1, -1));
    bad |= check("up", me, &t->got_up, at(t, c, 0, 0, -1));
    bad |= check("far", me, &t->got_far, at(t, c, 2, 0, 0));
    bad |= check("edge", me, &t->got_edge, at(t, c, -1, -1, 0));
    if (t->got_corner.rank >= 0 && (t->got_corner.cx != c[0] + 1 || t->got_corner.cz != c[2] + 1)) { printf("%d: corner coords\n", me); bad = 1; }
    MDL_Barrier(t);
    if (me == 0) printf("grid %dx%dx%d\n", dims[0], dims[1], dims[2]);
    printf("cube %d %s\n", me, bad ? "FAILED" : "ok");
    MDL_End(t);
    return bad;
}
