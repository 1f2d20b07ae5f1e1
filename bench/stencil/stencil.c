/* The radius-2 star stencil on the generated stubs (either runtime):
 *     stencil [grid size] [iterations]
 * One untimed iteration, then `iterations` timed; instance 0 prints the
 * slowest instance's time per iteration.  Each exchange posts the four
 * receives, sends the four edges straight from the array (strided columns
 * East/West, rows North/South) and waits for each direction; a neighbour
 * outside the grid makes its send and receive no-ops.  Exit status 1
 * when a point is wrong (stencil.h) or the tile does not fit the spec's
 * TX x TY (the program is built for one tile size: -D TX, TY). */
#include "stencilMDL.h"
#include "../bench.h"
#include "stencil.h"
#include "exchange.h"

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
    if (s.tx > TX || s.ty > TY) {
        fprintf(stderr, "stencil: tiles of %d x %d, but built for %d x %d (medleyc -D TX=%d -D TY=%d)\n",
                s.tx, s.ty, TX, TY, s.tx, s.ty);
        return 1;
    }
    s.ld = TX + 2 * RADIUS;     /* the spec's row: padded when the tile is narrower */
    return st_mdl_run(t, &s, &t->in[0][0], "stencil");
}
