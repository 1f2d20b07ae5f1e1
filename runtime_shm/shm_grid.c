/* shm_grid.c — cartesian grids: pure arithmetic on the family, no
 * communication (every instance computes the same shape from the same dims). */
#include "shm_internal.h"

#include <string.h>

int mdl_grid_create(mdl_rt *rt, int *dims, int screate)
{
    const char *fn = screate ? "MDL_Grid_Screate" : "MDL_Grid_Create";
    SHM_LIVE(rt);
    int nd = rt->d->grid_ndims;
    if (nd < 1 || nd > 3)
        return shm_fail(rt, fn, MDL_ERR_GRID, "task %s is not a grid task", rt->who.task);
    if (rt->grid)
        return shm_fail(rt, fn, MDL_ERR_GRID, "the grid already exists");
    if (!dims)
        return shm_fail(rt, fn, MDL_ERR_ARG, "dims is NULL");
    int dd[3] = {0, 0, 0};
    for (int i = 0; i < nd; i++) {
        if (screate && dims[i] != 0)
            return shm_fail(rt, fn, MDL_ERR_GRID,
                            "dims[%d] = %d: MDL_Grid_Screate needs every entry zero", i, dims[i]);
        dd[i] = dims[i];
    }
    char why[200];
    if (mdl_dims_fill(rt->fam_n[rt->d->self], nd, dd, why, sizeof why) < 0)
        return shm_fail(rt, fn, MDL_ERR_GRID, "%s", why);
    for (int i = 0; i < nd; i++) {
        dims[i] = dd[i];
        rt->dims[i] = dd[i];
        rt->periodic[i] = rt->d->periodic[i];
    }
    rt->ndims = nd;
    mdl_rank_to_coords(nd, rt->dims, rt->rank, rt->coords);
    rt->grid = 1;
    return MDL_SUCCESS;
}

static int no_grid(mdl_rt *rt, const char *fn)
{
    return shm_fail(rt, fn, MDL_ERR_GRID, "no grid: call MDL_Grid_Create first");
}

int mdl_grid_rank(mdl_rt *rt, const int *coords, int *rank)
{
    static const char fn[] = "MDL_Grid_Rank";
    SHM_LIVE(rt);
    if (!rt->grid)
        return no_grid(rt, fn);
    if (!coords || !rank)
        return shm_fail(rt, fn, MDL_ERR_ARG, "NULL argument");
    int i = mdl_grid_wrap_rank(rt->ndims, rt->dims, rt->periodic, coords, rank);
    if (i >= 0)
        return shm_fail(rt, fn, MDL_ERR_ARG,
                        "coordinate %d in dimension %d is outside 0..%d", coords[i], i,
                        rt->dims[i] - 1);
    return MDL_SUCCESS;
}

int mdl_grid_coords(mdl_rt *rt, int rank, int *coords)
{
    static const char fn[] = "MDL_Grid_Coords";
    SHM_LIVE(rt);
    if (!rt->grid)
        return no_grid(rt, fn);
    if (!coords)
        return shm_fail(rt, fn, MDL_ERR_ARG, "NULL argument");
    int n = rt->fam_n[rt->d->self];
    if (rank < 0 || rank >= n)
        return shm_fail(rt, fn, MDL_ERR_RANK, "instance %d is not in 0..%d", rank, n - 1);
    mdl_rank_to_coords(rt->ndims, rt->dims, rank, coords);
    return MDL_SUCCESS;
}

int mdl_grid_mycoords(mdl_rt *rt, int *coords)
{
    SHM_LIVE(rt);
    if (!rt->grid)
        return no_grid(rt, "MDL_Grid_Mycoords");
    if (!coords)
        return shm_fail(rt, "MDL_Grid_Mycoords", MDL_ERR_ARG, "NULL argument");
    memcpy(coords, rt->coords, (size_t)rt->ndims * sizeof(int));
    return MDL_SUCCESS;
}

int mdl_get_neighbors(mdl_rt *rt, int direction, int disp, int *source, int *dest)
{
    static const char fn[] = "MDL_Get_Neighbors";
    SHM_LIVE(rt);
    if (!rt->grid)
        return no_grid(rt, fn);
    if (direction < 0 || direction >= rt->ndims || !source || !dest)
        return shm_fail(rt, fn, MDL_ERR_ARG, "direction %d is not in 0..%d", direction,
                        rt->ndims - 1);
    int off[3] = {0, 0, 0};
    off[direction] = -disp;
    *source = mdl_grid_shift(rt->ndims, rt->dims, rt->periodic, rt->coords, off);
    off[direction] = disp;
    *dest = mdl_grid_shift(rt->ndims, rt->dims, rt->periodic, rt->coords, off);
    return MDL_SUCCESS;
}

/* Silent on "no grid": callers (sends, receives, Grid_Create) report it
 * under their own name. */
int mdl_grid_neighbor(mdl_rt *rt, const int offset[3])
{
    SHM_LIVE(rt);
    if (!rt->grid)
        return MDL_ERR_GRID;
    return mdl_grid_shift(rt->ndims, rt->dims, rt->periodic, rt->coords, offset);
}
