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

static void exchange(struct stencil *t)
{
    MDL_RecvFrom_stencil_east(t);
    MDL_RecvFrom_stencil_west(t);
    MDL_RecvFrom_stencil_north(t);
    MDL_RecvFrom_stencil_south(t);
    MDL_SendTo_stencil_east(t);
    MDL_SendTo_stencil_west(t);
    MDL_SendTo_stencil_north(t);
    MDL_SendTo_stencil_south(t);
    MDL_eastWait(t);
    MDL_westWait(t);
    MDL_northWait(t);
    MDL_southWait(t);
}

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
    t->X0 = t->Y0 = RADIUS;
    t->X1 = RADIUS + s.tx - 1;
    t->Y1 = RADIUS + s.ty - 1;
    double *in = &t->in[0][0], *out = malloc(sizeof *out * (size_t)s.tx * (size_t)s.ty);
    if (!out)
        return 1;
    st_fill(&s, in, out);
    for (int k = 0; k <= s.iters; k++) {
        if (k == 1) {
            MDL_Barrier(t);
            t->t = bench_now();
        }
        exchange(t);
        st_step(&s, in, out);
    }
    t->t = bench_now() - t->t;
    MDL_Reduce_slowest(t);
    int rc = bench_kernel_end("stencil", "points", MDL_MyRank(t), s.n, t->tmax, s.iters,
                              st_check(&s, out, s.iters + 1));
    free(out);
    MDL_End(t);
    return rc;
}
