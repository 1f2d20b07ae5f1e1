/* mpi_sized.c — storage of the run-time-sized variables (MDL_Allocate):
 * anonymous pages of this process, zeroed and page-aligned, reserved
 * rather than committed (MAP_NORESERVE: pages cost memory once touched).
 * MPI reaches them as it reaches pointer variables (absolute datatypes);
 * they are not in the memory host peers map (mpi_direct.c), so their
 * large messages go through MPI, not the one-copy path. */
#include "mpi_rt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

void *be_sized_alloc(mdl_rt *rt, size_t bytes, char *why, size_t whylen)
{
    (void)rt;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p != MAP_FAILED)
        return p;
    snprintf(why, whylen, "this process cannot map them (mmap: %s)", strerror(errno));
    return NULL;
}

void be_sized_free(mdl_rt *rt, void *p, size_t bytes)
{
    (void)rt;
    munmap(p, bytes);
}
