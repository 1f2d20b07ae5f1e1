/* mpi_direct_min.c — from which size a strided message between processes
 * of one host takes the one-copy path (mpi_rt.h says why each figure):
 * read from the MPI where it says its shared-memory eager limit, else
 * the figure measured for it. */
#include "mpi_rt.h"

#ifdef OPEN_MPI
/* The value of Open MPI's control variable `name` (an MCA parameter of
 * its shared-memory BTL, registered once MPI_Init opened it), 0 when it
 * cannot be read.  MPI_T is initialised once a process and never
 * finalised: Open MPI 4.1's MPI_T_init_thread registers its frameworks
 * again each time, and MPI_T_finalize loses them (valgrind: 204 blocks
 * definitely lost over rt_grid's nine MDL_Init/MDL_End, against one of 34
 * bytes so, tests/rt/openmpi.supp); the program's own MPI_T_init_thread
 * and MPI_T_finalize pairs still count from there. */
static size_t ompi_cvar(const char *name)
{
    static int mpit_up;
    int provided, index;
    size_t value = 0;
    if (!mpit_up && MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS)
        mpit_up = 1;
    if (!mpit_up)
        return 0;
    MPI_Datatype dt;
    int no_name = 0, no_desc = 0, verbosity, bind, scope, count;
    MPI_T_enum values;
    if (MPI_T_cvar_get_index(name, &index) == MPI_SUCCESS &&
        MPI_T_cvar_get_info(index, NULL, &no_name, &verbosity, &dt, &values, NULL, &no_desc,
                            &bind, &scope) == MPI_SUCCESS) {
        MPI_T_cvar_handle h;
        if (MPI_T_cvar_handle_alloc(index, NULL, &h, &count) == MPI_SUCCESS) {
            if (count == 1 && dt == MPI_UNSIGNED_LONG) {
                unsigned long v = 0;
                if (MPI_T_cvar_read(h, &v) == MPI_SUCCESS)
                    value = v;
            } else if (count == 1 && dt == MPI_INT) {
                int v = 0;
                if (MPI_T_cvar_read(h, &v) == MPI_SUCCESS && v > 0)
                    value = (size_t)v;
            }
            MPI_T_cvar_handle_free(&h);
        }
    }
    return value;
}
#endif

size_t mpi_direct_min_strided(void)
{
    size_t min = MPI_DIRECT_MIN_STRIDED;
#ifdef OPEN_MPI
    size_t eager = ompi_cvar("btl_vader_eager_limit");
    if (!eager)
        eager = ompi_cvar("btl_sm_eager_limit");        /* Open MPI 5 */
    if (!eager)
        eager = MPI_DIRECT_MIN_STRIDED_OMPI;
    min = eager > MPI_DIRECT_OMPI_HEADERS ? eager - MPI_DIRECT_OMPI_HEADERS : 0;
#endif
    /* an announcement must stay smaller than any message announced */
    if (min <= MPI_DIRECT_WIRE_MAX)
        min = MPI_DIRECT_WIRE_MAX + 1;
    return min < MPI_DIRECT_MIN ? min : MPI_DIRECT_MIN;
}
