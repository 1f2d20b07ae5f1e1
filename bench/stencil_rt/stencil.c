/* The radius-2 star stencil on the generated stubs, its tile sized at run
 * time (spec.mdl): as ../stencil/stencil.c, but any grid size and
 * instance count with one build, the rows exactly the tile's.
 *     stencil [grid size] [iterations] */
#include "stencilMDL.h"
#include "../bench.h"
#include "../stencil/stencil.h"

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
    t->tx = s.tx;
    t->ty = s.ty;
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return 1;
    s.ld = s.tx + 2 * RADIUS;
    t->X0 = t->Y0 = RADIUS;
    t->X1 = RADIUS + s.tx - 1;
    t->Y1 = RADIUS + s.ty - 1;
    double *in = t->in, *out = malloc(sizeof *out * (size_t)s.tx * (size_t)s.ty);
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
    int rc = bench_kernel_end("stencil_rt", "points", MDL_MyRank(t), s.n, t->tmax, s.iters,
                              st_check(&s, out, s.iters + 1));
    free(out);
    MDL_End(t);
    return rc;
}
