/* The radius-2 star stencil on the generated stubs, its tile sized at run
 * time (spec.mdl): as ../stencil/stencil.c, but any grid size and
 * instance count with one build, the rows exactly the tile's.
 *     stencil [grid size] [iterations] */
#include "stencilMDL.h"
#include "../bench.h"
#include "../stencil/stencil.h"
#include "../stencil/exchange.h"

int main(int argc, char **argv)
{
    struct stencil *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int dims[2] = { 0, 0 }, coords[2];
    st_run s;
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS || MDL_Grid_Mycoords(t, coords) != MDL_SUCCESS ||
        !st_setup(&s, argc, argv, dims, coords))
        return 1;
    t->tx = s.tx;
    t->ty = s.ty;
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return 1;
    s.ld = s.tx + 2 * RADIUS;
    return st_mdl_run(t, &s, t->in, "stencil_rt");
}
