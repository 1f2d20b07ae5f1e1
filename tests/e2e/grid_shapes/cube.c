/* grid_shapes, 3-D: MDL_Grid_Create with the dims given, or MDL_Grid_Screate
 * ("s"); coordinates, Up/Down and a corner neighbour. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cubeMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "cube %d: %s\n", me, what);
    return 1;
}

static int dims[3], c[3];

static int at(int dx, int dy, int dz)
{
    int x = c[0] + dx, y = c[1] + dy, z = c[2] + dz;
    if (x < 0 || x >= dims[0] || y < 0 || y >= dims[1] || z < 0 || z >= dims[2])
        return MDL_PROC_NULL;
    return (x * dims[1] + y) * dims[2] + z;
}

int main(int argc, char **argv)
{
    struct cube *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t), k = 1, rc;
    if (argc > 1 && strcmp(argv[1], "s") == 0) {
        rc = MDL_Grid_Screate(t, dims);
        k = 2;
    } else {
        for (int i = 0; i < 3; i++)
            dims[i] = atoi(argv[k++]);
        rc = MDL_Grid_Create(t, dims);
    }
    if (rc != MDL_SUCCESS || argc != k + 3)
        return fail("Grid_Create");
    for (int i = 0; i < 3; i++)
        if (dims[i] != atoi(argv[k + i]))
            return fail("dims");
    if (dims[0] * dims[1] * dims[2] != n)
        return fail("dims product");
    if (MDL_Grid_Mycoords(t, c) != MDL_SUCCESS || at(0, 0, 0) != me)
        return fail("Mycoords (row-major)");
    if (t->Up_Neighbor != at(0, 0, 1) || t->Down_Neighbor != at(0, 0, -1))
        return fail("neighbour members");
    int src, dst;
    if (MDL_Get_Neighbors(t, 2, 1, &src, &dst) != MDL_SUCCESS || src != at(0, 0, -1) ||
        dst != at(0, 0, 1))
        return fail("Get_Neighbors(2, 1)");
    t->up = 100 + me;
    t->far = 200 + me;
    t->down = -1;
    if (MDL_SendTo_cube_u(t) < 0 || MDL_SendTo_cube_c(t) < 0)
        return fail("sends");
    t->far = -1;
    if (MDL_RecvFrom_cube_u(t) != MDL_SUCCESS || MDL_RecvFrom_cube_c(t) != MDL_SUCCESS)
        return fail("receives");
    if (MDL_uWait(t) < 0 || MDL_cWait(t) < 0)
        return fail("Wait");
    int down = at(0, 0, -1), corner = at(-1, -1, -1);
    if (t->down != (down < 0 ? -1 : 100 + down) || t->far != (corner < 0 ? -1 : 200 + corner))
        return fail("values");
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    if (me == 0)
        printf("grid_shapes: OK\n");
    return 0;
}
