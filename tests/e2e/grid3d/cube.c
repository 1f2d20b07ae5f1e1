/* grid3d: every instance sends to its Up, West-North and (+2, 0, -1)
 * neighbours and receives from the opposite ones; the expected sender of
 * each receive is computed from the coordinates (periodic in x and z). */
#include <stdio.h>
#include "cubeMDL.h"

static int me;
static const int periodic[3] = { 1, 0, 1 };

static int fail(const char *what)
{
    fprintf(stderr, "cube %d: %s\n", me, what);
    return 1;
}

static int rank_at(struct cube *t, const int *dims, const int *c, int dx, int dy, int dz)
{
    int nc[3] = { c[0] + dx, c[1] + dy, c[2] + dz }, r;
    for (int d = 0; d < 3; d++) {
        if (periodic[d])
            nc[d] = ((nc[d] % dims[d]) + dims[d]) % dims[d];
        else if (nc[d] < 0 || nc[d] >= dims[d])
            return MDL_PROC_NULL;
    }
    if (MDL_Grid_Rank(t, nc, &r) != MDL_SUCCESS)
        return -1000;
    return r;
}

int main(int argc, char **argv)
{
    struct cube *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int dims[3] = { 0, 0, 1 }, c[3];
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS || MDL_Grid_Mycoords(t, c) != MDL_SUCCESS)
        return fail("grid");
    if (dims[0] * dims[1] * dims[2] != MDL_FamilySize(t) || dims[2] != 1)
        return fail("dims");
    int down = rank_at(t, dims, c, 0, 0, -1), es = rank_at(t, dims, c, 1, -1, 0);
    int farr = rank_at(t, dims, c, -2, 0, 1);
    if (t->Up_Neighbor != rank_at(t, dims, c, 0, 0, 1) || t->Down_Neighbor != down ||
        t->West_North_Neighbor != rank_at(t, dims, c, -1, 1, 0) || t->East_South_Neighbor != es)
        return fail("neighbour members");

    for (int i = 0; i < L; i++) {
        for (int j = 0; j < L; j++)
            t->face[i][j] = (float)(100 * me + 10 * i + j);
        t->edge[i] = 1000.0 * me + i;
    }
    t->corner = (float)me + 0.5f;
    if (MDL_SendTo_cube_up(t) < 0 || MDL_SendTo_cube_wn(t) < 0 || MDL_SendTo_cube_far(t) < 0)
        return fail("sends");
    /* the receives overwrite what was sent: wait for the sends first (a
       neighbour may be this very instance; the messages are small enough to
       complete before their receives are posted) */
    if (MDL_upWait(t) < 0 || MDL_wnWait(t) < 0 || MDL_farWait(t) < 0)
        return fail("waits");
    float corner_before = t->corner;
    if (MDL_RecvFrom_cube_up(t) != MDL_SUCCESS || MDL_RecvFrom_cube_wn(t) != MDL_SUCCESS ||
        MDL_RecvFrom_cube_far(t) != MDL_SUCCESS)
        return fail("receives");
    for (int i = 0; i < L; i++) {
        for (int j = 0; j < L; j++)
            if (t->face[i][j] != (float)(100 * down + 10 * i + j))
                return fail("face values");
        if (t->edge[i] != 1000.0 * farr + i)
            return fail("edge values");
    }
    if (t->corner != (es >= 0 ? (float)es + 0.5f : corner_before))
        return fail("corner value");
    if (me == 0)
        printf("grid3d ok on %d x %d x %d\n", dims[0], dims[1], dims[2]);
    MDL_End(t);
    return 0;
}
