/* shm_heap.c — the heap of the job's segment: blocks bumped from a shared
 * pointer, kept on this process's own free lists by size class. */
#include "shm_internal.h"

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
