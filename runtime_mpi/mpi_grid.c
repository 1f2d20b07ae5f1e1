/* mpi_grid.c — cartesian grids: an MPI cartesian communicator over the
 * family (reorder = 0, so grid ranks are instance numbers), shapes from
 * mdl_dims_fill so that both runtimes choose the same grid. */
#include <string.h>

#include "mpi_rt.h"

static int need_grid(mdl_rt *rt, const char *fn)
{
    int rc = rt_check(rt, fn);
    if (rc)
        return rc;
    if (rt->grid_ndims == 0)
        return rt_fail(rt, fn, MDL_ERR_GRID,
                       rt->d->grid_ndims ? "no grid yet: call MDL_Grid_Create first"
                                         : "task is not a grid task");
    return 0;
}

MDL_API int mdl_grid_create(mdl_rt *rt, int *dims, int screate)
{
    const char *fn = screate ? "MDL_Grid_Screate" : "MDL_Grid_Create";
    int rc = rt_check(rt, fn);
    if (rc)
        return rc;
    int nd = rt->d->grid_ndims;
    if (nd < 1 || nd > 3)
        return rt_fail(rt, fn, MDL_ERR_GRID, "task is not a grid task");
    if (rt->grid_ndims)
        return rt_fail(rt, fn, MDL_ERR_GRID, "the grid already exists");
    if (!dims)
        return rt_fail(rt, fn, MDL_ERR_ARG, "dims is NULL");
    int d[3] = { 0, 0, 0 };
    for (int i = 0; i < nd; i++) {
        if (screate && dims[i] != 0)
            return rt_fail(rt, fn, MDL_ERR_GRID,
                           "dims[%d] = %d: MDL_Grid_Screate needs every entry zero", i, dims[i]);
        d[i] = dims[i];
    }
    char why[200];
    rc = mdl_dims_fill(rt->nfamily, nd, d, why, sizeof why);
    if (rc)
        return rt_fail(rt, fn, rc, "%s", why);
    int periodic[3];
    for (int i = 0; i < 3; i++)
        periodic[i] = i < nd && rt->d->periodic[i] != 0;
    int mpirc = MPI_Cart_create(rt->family, nd, d, periodic, 0, &rt->cart);
    if (mpirc != MPI_SUCCESS)
        return rt_mpi_fail(rt, fn, mpirc, "MPI_Cart_create");
    MPI_Comm_set_errhandler(rt->cart, MPI_ERRORS_RETURN);
    mpirc = MPI_Cart_coords(rt->cart, rt->inst, nd, rt->coords);
    if (mpirc != MPI_SUCCESS)
        return rt_mpi_fail(rt, fn, mpirc, "MPI_Cart_coords");
    memcpy(rt->dims, d, sizeof d);
    memcpy(rt->periodic, periodic, sizeof periodic);
    rt->grid_ndims = nd;
    for (int i = 0; i < nd; i++)
        dims[i] = d[i];
    return MDL_SUCCESS;
}

MDL_API int mdl_grid_rank(mdl_rt *rt, const int *coords, int *rank)
{
    static const char fn[] = "MDL_Grid_Rank";
    int rc = need_grid(rt, fn);
    if (rc)
        return rc;
    if (!coords || !rank)
        return rt_fail(rt, fn, MDL_ERR_ARG, "NULL argument");
    int i = mdl_grid_wrap_rank(rt->grid_ndims, rt->dims, rt->periodic, coords, rank);
    if (i >= 0)
        return rt_fail(rt, fn, MDL_ERR_ARG,
                       "coordinate %d in dimension %d is outside 0..%d", coords[i], i,
                       rt->dims[i] - 1);
    return MDL_SUCCESS;
}

MDL_API int mdl_grid_coords(mdl_rt *rt, int rank, int *coords)
{
    static const char fn[] = "MDL_Grid_Coords";
    int rc = need_grid(rt, fn);
    if (rc)
        return rc;
    if (!coords)
        return rt_fail(rt, fn, MDL_ERR_ARG, "coords is NULL");
    if (rank < 0 || rank >= rt->nfamily)
        return rt_fail(rt, fn, MDL_ERR_RANK, "instance %d does not exist (%d instances)", rank,
                       rt->nfamily);
    mdl_rank_to_coords(rt->grid_ndims, rt->dims, rank, coords);
    return MDL_SUCCESS;
}

MDL_API int mdl_grid_mycoords(mdl_rt *rt, int *coords)
{
    static const char fn[] = "MDL_Grid_Mycoords";
    int rc = need_grid(rt, fn);
    if (rc)
        return rc;
    if (!coords)
        return rt_fail(rt, fn, MDL_ERR_ARG, "coords is NULL");
    memcpy(coords, rt->coords, sizeof(int) * (size_t)rt->grid_ndims);
    return MDL_SUCCESS;
}

MDL_API int mdl_get_neighbors(mdl_rt *rt, int direction, int disp, int *source, int *dest)
{
    static const char fn[] = "MDL_Get_Neighbors";
    int rc = need_grid(rt, fn);
    if (rc)
        return rc;
    if (!source || !dest)
        return rt_fail(rt, fn, MDL_ERR_ARG, "NULL argument");
    if (direction < 0 || direction >= rt->grid_ndims)
        return rt_fail(rt, fn, MDL_ERR_ARG, "direction %d: the grid has %d dimensions",
                       direction, rt->grid_ndims);
    int src = 0, dst = 0;
    int mpirc = MPI_Cart_shift(rt->cart, direction, disp, &src, &dst);
    if (mpirc != MPI_SUCCESS)
        return rt_mpi_fail(rt, fn, mpirc, "MPI_Cart_shift");
    *source = src == MPI_PROC_NULL ? MDL_PROC_NULL : src;
    *dest = dst == MPI_PROC_NULL ? MDL_PROC_NULL : dst;
    return MDL_SUCCESS;
}

int rt_neighbor(mdl_rt *rt, const char *fn, const int offset[3])
{
    int rc = need_grid(rt, fn);
    if (rc)
        return rc;
    return mdl_grid_shift(rt->grid_ndims, rt->dims, rt->periodic, rt->coords, offset);
}

MDL_API int mdl_grid_neighbor(mdl_rt *rt, const int offset[3])
{
    static const char fn[] = "MDL_Grid_Create";
    if (!offset)
        return rt_fail(rt, fn, MDL_ERR_ARG, "offset is NULL");
    return rt_neighbor(rt, fn, offset);
}
