/* rt_launcher.c — what an MPI launcher told the process it started: that
 * it did, and how many processes it started.  Read from the environment,
 * so it works before MPI_Init and whatever MPI the program is built with
 * (a program of one MPI started by another's launcher). */
#include <stdlib.h>

#include "rt_common.h"

/* The variables launchers set in every process they start, the innermost
 * launcher first: hydra's proxies started by Slurm's srun pass srun's
 * variables on to the processes, where they count the proxies. */
static const struct launcher_var {
    const char *size;           /* the processes started, or NULL: not said */
    const char *rank;           /* set in each of them, or NULL */
} launcher_vars[] = {
    { "PMI_SIZE", "PMI_RANK" },                     /* MPICH's hydra, Intel MPI, srun's PMI-2 */
    { NULL, "PMI_FD" },                             /* hydra's PMI-1 */
    { "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK" }, /* Open MPI's mpirun */
    { NULL, "PMIX_RANK" },                          /* PMIx: Open MPI's, srun --mpi=pmix */
    /* srun's step; not SLURM_NTASKS, the allocation's, set in a batch
     * script around a process started alone too */
    { "SLURM_STEP_NUM_TASKS", NULL },
};
#define NVARS (sizeof launcher_vars / sizeof launcher_vars[0])

long rt_launcher_size(void)
{
    for (size_t i = 0; i < NVARS; i++) {
        const char *v = launcher_vars[i].size ? getenv(launcher_vars[i].size) : NULL;
        if (v && atol(v) > 0)
            return atol(v);
    }
    return 0;
}

int rt_launched(void)
{
    for (size_t i = 0; i < NVARS; i++)
        if ((launcher_vars[i].size && getenv(launcher_vars[i].size)) ||
            (launcher_vars[i].rank && getenv(launcher_vars[i].rank)))
            return 1;
    return 0;
}
