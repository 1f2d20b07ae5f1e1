/* rt_grid.c — cartesian grids, for both runtimes: pure arithmetic on the
 * family (every instance computes the same shape from the same dims, with
 * MPI_Dims_create's rules and MPI's row-major order), no communication.
 * Neighbour messages get their peer instance here, once, when the grid is
 * created. */
#include "rt_layer.h"
#include "trace/rt_trace.h"

#include <string.h>

int rt_need_grid(mdl_rt *rt, const char *fn)
{
    const mdl_rt_common *c = rt_c(rt);
    if (c->grid_ndims)
        return 0;
    if (c->d->grid_ndims == 0)
        return rt_fail(rt, fn, MDL_ERR_GRID, "task %s is not a grid task", c->who.task);
    return rt_fail(rt, fn, MDL_ERR_GRID, "no grid yet: call MDL_Grid_Create first");
}

/* A live runtime with a grid, and pointer arguments (args: all non-NULL). */
static int grid_ready(mdl_rt *rt, const char *fn, int args)
{
    if (rt != rt_live)
        return rt_dead(fn);
    int rc = rt_need_grid(rt, fn);
    if (rc)
        return rc;
    return args ? 0 : rt_fail(rt, fn, MDL_ERR_ARG, "NULL argument");
}

static int grid_create(mdl_rt *rt, int *dims, int screate)
{
    const char *fn = screate ? MDL_FN_NAME(GRID_SCREATE) : MDL_FN_NAME(GRID_CREATE);
    mdl_rt_common *c = rt_c(rt);
    const mdl_task_desc *d = c->d;
    int nd = d->grid_ndims;
    if (nd == 0)
        return rt_fail(rt, fn, MDL_ERR_GRID, "task %s is not a grid task", c->who.task);
    if (c->grid_ndims)
        return rt_fail(rt, fn, MDL_ERR_GRID, "the grid already exists");
    if (!dims)
        return rt_fail(rt, fn, MDL_ERR_ARG, "dims is NULL");
    int dd[3] = { 0, 0, 0 };
    for (int i = 0; i < nd; i++) {
        if (screate && dims[i] != 0)
            return rt_fail(rt, fn, MDL_ERR_GRID,
                           "dims[%d] = %d: MDL_Grid_Screate needs every entry zero", i, dims[i]);
        dd[i] = dims[i];
    }
    char why[200];
    if (mdl_dims_fill(c->fam_size[d->self], nd, dd, why, sizeof why) < 0)
        return rt_fail(rt, fn, MDL_ERR_GRID, "%s", why);
    for (int i = 0; i < nd; i++) {
        dims[i] = c->dims[i] = dd[i];
        c->periodic[i] = d->periodic[i] != 0;
    }
    mdl_rank_to_coords(nd, c->dims, c->inst, c->coords);
    for (int i = 0; i < d->nmsgs; i++)
        if (d->msgs[i]->peer_kind == MDL_PEER_NEIGHBOR)
            c->nb[i] = mdl_grid_shift(nd, c->dims, c->periodic, c->coords, d->msgs[i]->offset);
    c->grid_ndims = nd;
    return MDL_SUCCESS;
}

MDL_API int mdl_grid_create(mdl_rt *rt, int *dims, int screate)
{
    if (rt != rt_live)
        return rt_dead(screate ? MDL_FN_NAME(GRID_SCREATE) : MDL_FN_NAME(GRID_CREATE));
    rt_tracer *t = rt_c(rt)->tr;
    if (t) {
        rt_trace_begin(t, rt_fn_sync(t, screate ? RT_SYNC_GRID_SCREATE : RT_SYNC_GRID_CREATE));
        return rt_trace_end_rc(t, grid_create(rt, dims, screate));
    }
    return grid_create(rt, dims, screate);
}

MDL_API int mdl_grid_rank(mdl_rt *rt, const int *coords, int *rank)
{
    const char *const fn = MDL_FN_NAME(GRID_RANK);
    int rc = grid_ready(rt, fn, coords && rank);
    if (rc)
        return rc;
    const mdl_rt_common *c = rt_c(rt);
    int i = mdl_grid_wrap_rank(c->grid_ndims, c->dims, c->periodic, coords, rank);
    if (i >= 0)
        return rt_fail(rt, fn, MDL_ERR_ARG, "coordinate %d in dimension %d is outside 0..%d",
                       coords[i], i, c->dims[i] - 1);
    return MDL_SUCCESS;
}

MDL_API int mdl_grid_coords(mdl_rt *rt, int rank, int *coords)
{
    const char *const fn = MDL_FN_NAME(GRID_COORDS);
    int rc = grid_ready(rt, fn, coords != NULL);
    if (rc)
        return rc;
    const mdl_rt_common *c = rt_c(rt);
    if (rank < 0 || rank >= c->fam_size[c->d->self])
        return rt_fail_instance(rt, fn, c->d->self, rank, -1);
    mdl_rank_to_coords(c->grid_ndims, c->dims, rank, coords);
    return MDL_SUCCESS;
}

MDL_API int mdl_grid_mycoords(mdl_rt *rt, int *coords)
{
    const char *const fn = MDL_FN_NAME(GRID_MYCOORDS);
    int rc = grid_ready(rt, fn, coords != NULL);
    if (rc)
        return rc;
    const mdl_rt_common *c = rt_c(rt);
    memcpy(coords, c->coords, sizeof(int) * (size_t)c->grid_ndims);
    return MDL_SUCCESS;
}

/* MPI_Cart_shift: the instances at -disp and +disp along `direction`. */
MDL_API int mdl_get_neighbors(mdl_rt *rt, int direction, int disp, int *source, int *dest)
{
    const char *const fn = MDL_FN_NAME(GET_NEIGHBORS);
    int rc = grid_ready(rt, fn, source && dest);
    if (rc)
        return rc;
    const mdl_rt_common *c = rt_c(rt);
    if (direction < 0 || direction >= c->grid_ndims)
        return rt_fail(rt, fn, MDL_ERR_ARG, "direction %d: the grid has %d dimensions",
                       direction, c->grid_ndims);
    int off[3] = { 0, 0, 0 };
    off[direction] = -disp;
    *source = mdl_grid_shift(c->grid_ndims, c->dims, c->periodic, c->coords, off);
    off[direction] = disp;
    *dest = mdl_grid_shift(c->grid_ndims, c->dims, c->periodic, c->coords, off);
    return MDL_SUCCESS;
}

/* Named neighbours, set by the generated MDL_Grid_Create. */
MDL_API int mdl_grid_neighbor(mdl_rt *rt, const int offset[3])
{
    const char *const fn = MDL_FN_NAME(GRID_CREATE);
    int rc = grid_ready(rt, fn, offset != NULL);
    if (rc)
        return rc;
    const mdl_rt_common *c = rt_c(rt);
    return mdl_grid_shift(c->grid_ndims, c->dims, c->periodic, c->coords, offset);
}
