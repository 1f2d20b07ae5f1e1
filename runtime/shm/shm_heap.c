/* shm_heap.c — the heap of the job's segment: blocks bumped from a shared
 * pointer, kept on this process's own free lists by size class. */
#include "shm_internal.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int shm_in_seg(const mdl_rt *rt, const void *p)
{
    const char *c = p;
    return (c >= rt->seg && c < rt->seg + rt->segsize) ||
           (rt->alias && c >= rt->alias && c < rt->alias + rt->alias_size);
}

static int size_class(size_t bytes)
{
    int c = 0;
    while (((size_t)64 << c) < bytes)
        c++;
    return c;
}

/* Blocks come from the shared bump pointer and go back to this process's
 * free lists only: no other process frees them, so no locking.  Bumped
 * bytes are a never-used part of the memfd: zero. */
uint64_t shm_bump(mdl_rt *rt, uint64_t size)
{
    size = (size + 63) & ~(uint64_t)63;
    uint64_t at = __atomic_fetch_add(&rt->lib->bump, size, __ATOMIC_RELAXED);
    if (rt->heap_off + at + size > rt->heap_end)
        return 0;
    return rt->heap_off + at;
}

uint64_t shm_bump_pages(mdl_rt *rt, uint64_t size, uint64_t page)
{
    uint64_t off = shm_bump(rt, size + page);
    return off ? (off + page - 1) / page * page : 0;
}

uint64_t shm_alloc(mdl_rt *rt, size_t bytes)
{
    int c = size_class(bytes ? bytes : 1);
    if (c >= SHM_NCLASS)
        return 0;
    uint64_t off = rt->freelist[c];
    if (off) {
        rt->freelist[c] = *(uint64_t *)shm_ptr(rt, off);
        return off;
    }
    return shm_bump(rt, (uint64_t)64 << c);
}

void shm_free(mdl_rt *rt, uint64_t off, size_t bytes)
{
    if (!off)
        return;
    int c = size_class(bytes ? bytes : 1);
    *(uint64_t *)shm_ptr(rt, off) = rt->freelist[c];
    rt->freelist[c] = off;
}

/* A run-time-sized variable's storage: whole pages of the heap, so that
 * peers copy straight from and into it as from a task struct.  The bump
 * pointer moves only when the pages fit (a refused request leaves the
 * heap as it was).  Given back, its pages are released to the system;
 * their addresses are not used again (the segment is 64 GiB of address
 * space, reserved, not committed). */
void *be_sized_alloc(mdl_rt *rt, size_t bytes, char *why, size_t whylen)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t need = ((uint64_t)bytes + page - 1) / page * page + page;
    uint64_t room = rt->heap_end - rt->heap_off;
    uint64_t at = __atomic_load_n(&rt->lib->bump, __ATOMIC_RELAXED);
    do {
        if (at > room || need > room - at) {
            snprintf(why, whylen, "the job's shared segment has %llu bytes left",
                     (unsigned long long)(at > room ? 0 : room - at));
            return NULL;
        }
    } while (!__atomic_compare_exchange_n(&rt->lib->bump, &at, at + need, 1, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    return shm_ptr(rt, (rt->heap_off + at + page - 1) / page * page);
}

void be_sized_free(mdl_rt *rt, void *p, size_t bytes)
{
    (void)rt;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    madvise(p, (bytes + page - 1) / page * page, MADV_REMOVE);
}
