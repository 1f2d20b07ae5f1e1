/* mpi_sized.c — storage of the run-time-sized variables (MDL_Allocate).
 * Whole pages of the heap that follows the task struct and its control
 * page in the process's memfd (mpi_direct.c), which the other processes
 * of the host map at MDL_Init: their large messages take the one-copy
 * path as the struct's do.  Bumped, never reused: a page given back is
 * released to the system (MADV_REMOVE) and its address space stays
 * reserved (64 GiB of it).  Without that heap (a caller's object, the
 * path off, the heap used up), anonymous pages of the process, reached
 * through MPI like pointer variables.  Both zeroed, page-aligned,
 * reserved rather than committed. */
#include "mpi_rt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int in_heap(const mdl_rt *rt, const void *p)
{
    return rt->mem.heap && (uintptr_t)p >= rt->mem.heap_lo &&
           (uintptr_t)p - rt->mem.heap_lo < rt->mem.heap;
}

void *be_sized_alloc(mdl_rt *rt, size_t bytes, char *why, size_t whylen)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t need = (bytes + page - 1) / page * page;
    if (rt->mem.heap && rt->mem.mapped && need <= rt->mem.heap - rt->mem.heap_used) {
        void *p = (void *)(rt->mem.heap_lo + rt->mem.heap_used);
        rt->mem.heap_used += need;
        return p;
    }
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p != MAP_FAILED)
        return p;
    snprintf(why, whylen, "this process cannot map them (mmap: %s)", strerror(errno));
    return NULL;
}

void be_sized_free(mdl_rt *rt, void *p, size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (!in_heap(rt, p))
        munmap(p, bytes);
    else if (rt->mem.mapped)    /* else gone with the file's mapping */
        madvise(p, (bytes + page - 1) / page * page, MADV_REMOVE);
}
