/* shm_trust.c — what a peer wrote into the segment, checked before it is
 * used where a wrong value would make this instance read or write outside
 * its mapping or allocate what a size says: overflow nodes, rendezvous
 * records and their spans, eager sizes, collectives' publications.  The
 * library never writes such a record; one that fails is fatal
 * (rt_fail_corrupt).  The checks sit on the cold paths (an overflow, a
 * large message, a collective's few offsets); the ring's eager messages,
 * the hot path, cost one compare (shm_arrive.c). */
#include "shm_internal.h"

/* The peer in slot s, for the line. */
static const char *task_of(const mdl_rt *rt, int s)
{
    int32_t t = __atomic_load_n(&rt->info[s].task, __ATOMIC_ACQUIRE);
    return t >= 0 && t < rt->c.d->ntasks ? rt->c.d->tasks[t] : "?";
}

static __attribute__((noreturn, cold)) void corrupt(mdl_rt *rt, int s, const char *what,
                                                   uint64_t off, uint64_t len)
{
    rt_fail_corrupt(rt,
                    "%s[%d] wrote %s at offset %#llx (%llu bytes) outside the job's heap "
                    "(offsets %#llx..%#llx): the shared segment was overwritten",
                    task_of(rt, s), rt->slot_rank[s], what, (unsigned long long)off,
                    (unsigned long long)len, (unsigned long long)rt->heap_off,
                    (unsigned long long)rt->segsize);
}

int shm_heap_holds(const mdl_rt *rt, uint64_t off, uint64_t len)
{
    return off >= rt->heap_off && off <= rt->segsize && len <= rt->segsize - off;
}

void shm_fail_eager(mdl_rt *rt, int s, uint64_t bytes)
{
    rt_fail_corrupt(rt, "%s[%d] wrote an eager message of %llu bytes, more than a message "
                        "record holds (%d): the shared segment was overwritten",
                    task_of(rt, s), rt->slot_rank[s], (unsigned long long)bytes, SHM_EAGER);
}

const shm_node *shm_check_node(mdl_rt *rt, int s, uint64_t off)
{
    if (!shm_heap_holds(rt, off, sizeof(shm_node)) || off % 8)
        corrupt(rt, s, "an overflow record", off, sizeof(shm_node));
    const shm_node *nd = shm_ptr(rt, off);
    if (nd->kind == CELL_EAGER &&
        (nd->bytes > SHM_EAGER || !shm_heap_holds(rt, off, sizeof(shm_node) + nd->bytes)))
        corrupt(rt, s, "an overflow record", off, sizeof(shm_node) + nd->bytes);
    return nd;
}

/* The highest byte a span reaches from its base, plus one, and whether
 * its sizes agree (bytes = block × counts); 0: they do not. */
static uint64_t span_reach(const mdl_span *sp)
{
    uint64_t reach = sp->block, bytes = sp->block;
    if (sp->nloops < 0 || sp->nloops > MDL_MAX_DIMS)
        return 0;
    for (int i = 0; i < sp->nloops; i++) {
        uint64_t step;
        if (sp->count[i] < 1 || sp->stride[i] < 0 ||
            __builtin_mul_overflow((uint64_t)(sp->count[i] - 1), (uint64_t)sp->stride[i], &step) ||
            __builtin_add_overflow(reach, step, &reach) ||
            __builtin_mul_overflow(bytes, (uint64_t)sp->count[i], &bytes))
            return 0;
    }
    return bytes == sp->bytes ? reach : 0;
}

shm_rdv *shm_check_rdv(mdl_rt *rt, int s, uint64_t off, uint64_t bytes)
{
    if (!shm_heap_holds(rt, off, sizeof(shm_rdv)) || off % 8)
        corrupt(rt, s, "a rendezvous record", off, sizeof(shm_rdv));
    shm_rdv *r = shm_ptr(rt, off);
    uint32_t ns = r->nspans;
    uint64_t size = sizeof(shm_rdv) + (uint64_t)ns * sizeof(shm_rspan), sum = 0;
    if (ns == 0 || !shm_heap_holds(rt, off, size))
        corrupt(rt, s, "a rendezvous record", off, size);
    for (uint32_t i = 0; i < ns; i++) {
        const mdl_span *sp = &r->spans[i].s;
        uint64_t reach = span_reach(sp), base = (uint64_t)(uintptr_t)sp->base;
        /* a remote span is read with process_vm_readv: the kernel checks it */
        if ((sp->bytes && !reach) ||
            (sp->bytes && !r->spans[i].remote && !shm_heap_holds(rt, base, reach)))
            corrupt(rt, s, "a rendezvous span", base, reach);
        sum += sp->bytes;
    }
    if (sum != bytes || r->bytes != bytes)
        rt_fail_corrupt(rt, "%s[%d] wrote a rendezvous record of %llu bytes for a message of "
                            "%llu: the shared segment was overwritten",
                        task_of(rt, s), rt->slot_rank[s], (unsigned long long)sum,
                        (unsigned long long)bytes);
    return r;
}

char *shm_check_area(mdl_rt *rt, int s, uint64_t off, long first, long count, size_t es)
{
    uint64_t from, len;
    if (count <= 0)
        return shm_ptr(rt, off);
    if (first < 0 || __builtin_mul_overflow((uint64_t)first, (uint64_t)es, &from) ||
        __builtin_mul_overflow((uint64_t)count, (uint64_t)es, &len) ||
        __builtin_add_overflow(off, from, &from) || !shm_heap_holds(rt, from, len))
        corrupt(rt, s, "a collective's buffer", off, (uint64_t)count * es);
    return shm_ptr(rt, from);
}
