/* shm_init.c — start and end of the shared-memory runtime: the job's
 * segment, identification of the instance, the task struct, MDL_End (the
 * fatal path: shm_abort.c).  be_init runs the steps below in order; each reports its
 * own failure, and be_init then undoes everything. */
#include "shm_internal.h"
#include "trace/rt_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* ---------------------------------------------------------------- a caller's task object */

/* A caller's task object (a C++ object, mdl_init_at) lies outside the
 * segment, where peers cannot copy from or into it directly.  When it is
 * made of whole pages (the class is page-aligned, TMDL.h), those pages are
 * replaced by a block of the segment holding the same bytes: the object
 * keeps its address, and peers reach it at alias_off like any task struct
 * (shm_in_seg, shm_off), so large messages keep their single copy.
 * Otherwise (or MDL_SHM_ALIAS=0) it stays where it is, and the paths for
 * memory outside the segment serve (process_vm_readv or packing; scratch
 * blocks in collectives). */

static void alias_object(mdl_rt *rt, void *obj, size_t size, uint64_t page)
{
    const char *e = getenv("MDL_SHM_ALIAS");
    if ((e && strcmp(e, "0") == 0) || page == 0 || size == 0 ||
        (uintptr_t)obj % page != 0 || size % page != 0)
        return;
    uint64_t off = shm_bump_pages(rt, size, page);
    if (!off)
        return;
    void *blk = shm_ptr(rt, off);
    mdl_copy_nonzero_pages(blk, obj, size, page);
    /* old_size 0 on a shared mapping: a second mapping of the same pages */
    if (mremap(blk, 0, size, MREMAP_MAYMOVE | MREMAP_FIXED, obj) == MAP_FAILED)
        return;
    rt->alias = obj;
    rt->alias_size = size;
    rt->alias_off = off;
}

/* When the runtime ends (after MDL_End has delivered its sends) the object
 * gets private pages again, with its bytes: its addresses may be reused (a
 * stack frame) and must not stay shared.  The segment block stays, as
 * every task struct does. */
static void unalias_object(mdl_rt *rt)
{
    if (!rt->alias)
        return;
    if (mmap(rt->alias, rt->alias_size, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
        mdl_copy_file_data(rt->seg_fd, (off_t)rt->alias_off, rt->alias,
                           shm_ptr(rt, rt->alias_off), rt->alias_size,
                           (size_t)sysconf(_SC_PAGESIZE));
    rt->alias = NULL;
}

static void rt_free(mdl_rt *rt)
{
    if (!rt)
        return;
    shm_p2p_free(rt);
    rt_common_free(rt);
    free(rt->fam_first);
    free(rt->fam_slots);
    free(rt->slot_rank);
    free(rt->sends);
    free(rt->recvs);
    free(rt->sbar);
    free(rt->ov_out);
    free(rt->ov_last);
    unalias_object(rt);
    if (rt->seg_fd >= 0)
        close(rt->seg_fd);
    if (rt->seg)
        munmap(rt->seg, rt->segsize);
    free(rt);
}

/* ---------------------------------------------------------------- steps */

static int parse_int(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 0)
        return -1;
    *out = v;
    return 0;
}

/* The segment's descriptor and this instance's slot, from mdlrun. */
static int launch_env(mdl_rt *rt, long *fd, long *slot)
{
    const char *const fn = MDL_FN_NAME(INIT);
    const char *efd = getenv("MDL_SHM_FD"), *eslot = getenv("MDL_SHM_SLOT");
    if (!efd || !eslot) {
        return rt_fail(rt, fn, MDL_ERR_LAUNCH,
                       "program built for the shared-memory runtime must be started "
                       "with mdlrun%s", rt_launched() ? " (it was started by an MPI launcher)" : "");
    }
    if (parse_int(efd, fd) || parse_int(eslot, slot))
        return rt_fail(rt, fn, MDL_ERR_LAUNCH, "bad MDL_SHM_FD/MDL_SHM_SLOT in the environment");
    return 0;
}

/* The whole (sparse) segment if the address space allows; tools such as
 * valgrind do not take 64 GiB, so settle for less: the heap then ends at
 * the smallest mapping of the job. */
static int seg_map(mdl_rt *rt, long fd)
{
    const char *const fn = MDL_FN_NAME(INIT);
    struct stat st;
    if (fstat((int)fd, &st) < 0 || (uint64_t)st.st_size < sizeof(mdl_shm_header))
        return rt_fail(rt, fn, MDL_ERR_LAUNCH, "MDL_SHM_FD=%ld is not the job's shared segment",
                       fd);
    rt->segsize = (uint64_t)st.st_size;
    void *seg;
    while ((seg = mmap(NULL, rt->segsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
                       (int)fd, 0)) == MAP_FAILED &&
           rt->segsize > ((uint64_t)1 << 28))
        rt->segsize /= 2;
    if (seg == MAP_FAILED) {
        rt->segsize = 0;
        return rt_fail(rt, fn, MDL_ERR_INTERN, "cannot map the job's segment: %s",
                       strerror(errno));
    }
    /* the mapping keeps it; children must not inherit it (the copy, for
     * unalias_object, is close-on-exec) */
    rt->seg_fd = fcntl((int)fd, F_DUPFD_CLOEXEC, 0);
    close((int)fd);
    rt->seg = seg;
    return 0;
}

/* mdlrun's header: ours, of this build, and the slot in it. */
static int seg_check_header(mdl_rt *rt, long slot)
{
    const char *const fn = MDL_FN_NAME(INIT);
    const mdl_shm_header *h = (const mdl_shm_header *)rt->seg;
    if (h->magic != MDL_SHM_MAGIC)
        return rt_fail(rt, fn, MDL_ERR_LAUNCH, "MDL_SHM_FD is not an mdlrun segment");
    if (h->abi != MDL_SHM_ABI)
        return rt_fail(rt, fn, MDL_ERR_LAUNCH,
                       "mdlrun is from another build (segment ABI %u, library ABI %u)", h->abi,
                       MDL_SHM_ABI);
    if (slot >= (long)h->nslots || h->lib_offset != mdl_shm_lib_offset(h->nslots))
        return rt_fail(rt, fn, MDL_ERR_LAUNCH, "MDL_SHM_SLOT=%ld does not fit the segment", slot);
    rt->hdr = (mdl_shm_header *)rt->seg;
    rt->nslots = (int)h->nslots;
    rt->me = (int)slot;
    rt->wait = (mdl_shm_wait *)(rt->seg + mdl_shm_waits_offset(h->nslots)) + slot;
    rt->wait_list = (int32_t *)(rt->seg + mdl_shm_lists_offset(h->nslots)) + (size_t)slot * h->nslots;
    return 0;
}

/* The library's areas (shm_segment.h), each on its own pages, and the
 * heap's end: the smallest mapping of any instance. */
static int seg_carve(mdl_rt *rt)
{
    shm_areas a = shm_carve((uint32_t)rt->nslots);
    rt->lib = shm_ptr(rt, a.lib);
    rt->info = shm_ptr(rt, a.info);
    rt->arrive = shm_ptr(rt, a.arrive);
    rt->rings = shm_ptr(rt, a.rings);
    rt->heap_off = a.heap;
    if (a.heap >= rt->segsize)
        return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_INTERN,
                       "the segment is too small for %d instances", rt->nslots);
    uint64_t lim = __atomic_load_n(&rt->lib->maplimit, __ATOMIC_ACQUIRE);
    while ((lim == 0 || lim > rt->segsize) &&
           !__atomic_compare_exchange_n(&rt->lib->maplimit, &lim, rt->segsize, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
    return 0;
}

/* Every instance of the job uses this very layout. */
static int check_layout(mdl_rt *rt)
{
    uint64_t layout = 0;
    if (!__atomic_compare_exchange_n(&rt->lib->layout, &layout, SHM_LAYOUT, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE) &&
        layout != SHM_LAYOUT)
        return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_LAUNCH,
                       "the instances of this job were linked with different builds of "
                       "libmdl_shm");
    return 0;
}

/* A word the next instance reads to see whether process_vm_readv works. */
static volatile uint64_t cma_probe = 0x4d444c434d41ull;

static void publish_self(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    shm_info *mine = &rt->info[rt->me];
    mine->spec_hash = d->spec_hash;
    mine->pid = (int32_t)getpid();
    mine->probe = (uint64_t)(uintptr_t)&cma_probe;
    __atomic_store_n(&mine->task, d->self, __ATOMIC_RELEASE);
    rt->hdr->slots[rt->me].task = d->self;
    __atomic_store_n(&rt->hdr->slots[rt->me].state, MDL_SLOT_INIT, __ATOMIC_SEQ_CST);
}

/* One CPU per instance when there are enough (MDL_SHM_BIND=0: never).
 * Without it, the scheduler's wake-affine placement tends to put two
 * instances that wake each other on one CPU, where every wait spins in
 * vain until the other gets the CPU. */
static void bind_cpu(const mdl_rt *rt, int n)
{
    const char *e = getenv("MDL_SHM_BIND");
    if (e && strcmp(e, "0") == 0)
        return;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) < 0 || CPU_COUNT(&allowed) < n)
        return;
    for (int cpu = 0, k = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &allowed))
            continue;
        if (k++ == rt->me) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            sched_setaffinity(0, sizeof one, &one);
            return;
        }
    }
}

/* CPU binding, and how long a wait polls and yields before it sleeps. */
static void tune_waiting(mdl_rt *rt)
{
    int n = rt->nslots;
    /* The CPUs this job may use (taskset, cgroups), not those online. */
    cpu_set_t allowed;
    long ncpu = sched_getaffinity(0, sizeof allowed, &allowed) == 0
                    ? CPU_COUNT(&allowed)
                    : sysconf(_SC_NPROCESSORS_ONLN);
    bind_cpu(rt, n);
    /* Oversubscribed: spinning only steals the core from the peer we wait
     * for.  Otherwise 100 us: a peer computing a little between two
     * exchanges (an advection step between collectives) is waited for
     * without a sleep and a wake-up, measured in docs/runtime-shm.md. */
    rt->spin_ns = ncpu > 0 && n > ncpu ? 0 : 100000;
    rt->yields = ncpu > 0 && n > ncpu ? 0 : 20;
    rt->relax_pauses = shm_relax_pauses();
    const char *es = getenv("MDL_SHM_SPIN_US");
    if (es && *es)
        rt->spin_ns = atoi(es) > 0 ? (uint64_t)atoi(es) * 1000 : 0;
    es = getenv("MDL_SHM_YIELD");
    if (es && *es)
        rt->yields = atoi(es) > 0 ? atoi(es) : 0;
}

/* Start-up barrier number `phase` (1, 2): a counter of arrivals over all
 * phases and a futex word holding the last phase completed.  No doorbells
 * yet: an instance may not have published anything. */
static int startup_barrier(mdl_rt *rt, uint32_t phase)
{
    uint32_t n = (uint32_t)rt->nslots;
    if (__atomic_add_fetch(&rt->lib->ninit, 1, __ATOMIC_ACQ_REL) == n * phase) {
        __atomic_store_n(&rt->lib->go, phase, __ATOMIC_SEQ_CST);
        shm_futex_wake(&rt->lib->go);
        return 0;
    }
    for (;;) {
        uint32_t go = __atomic_load_n(&rt->lib->go, __ATOMIC_ACQUIRE);
        if (go >= phase)
            return 0;
        if (shm_job_broken(rt, 1))
            return MDL_ERR_PEER;
        shm_futex_wait(&rt->lib->go, go, SHM_WAIT_TIMEOUT_NS);
    }
}

/* Can instances read each other's memory (process_vm_readv: same user,
 * no seccomp or Yama restriction)?  Each reads a word of the next slot;
 * pointer items of large messages then travel in one copy. */
static int cma_works(mdl_rt *rt)
{
    const char *e = getenv("MDL_SHM_CMA");
    if (e && strcmp(e, "0") == 0)
        return 0;
    const shm_info *peer = &rt->info[(rt->me + 1) % rt->nslots];
    uint64_t got = 0;
    struct iovec l = {&got, sizeof got}, r = {(void *)(uintptr_t)peer->probe, sizeof got};
    return process_vm_readv(peer->pid, &l, 1, &r, 1, 0) == (ssize_t)sizeof got &&
           got == cma_probe;
}

/* Everybody has published (barrier 1), probed cross-memory reads
 * (barrier 2), and the job is not being torn down. */
static int meet_the_job(mdl_rt *rt)
{
    const char *const fn = MDL_FN_NAME(INIT);
    if (startup_barrier(rt, 1) < 0)
        return shm_fail_peer(rt, fn, "another instance died before MDL_Init");
    rt->info[rt->me].cma = cma_works(rt);
    if (startup_barrier(rt, 2) < 0)
        return shm_fail_peer(rt, fn, "another instance died before MDL_Init");
    if (__atomic_load_n(&rt->hdr->aborting, __ATOMIC_SEQ_CST))
        return shm_fail_peer(rt, fn, "the job is being torn down");
    rt->cma = 1;
    for (int s = 0; s < rt->nslots; s++)
        rt->cma &= rt->info[s].cma;
    return 0;
}

/* Families: slots grouped by task index, in slot order (= instance order),
 * checked against this program's spec. */
static int build_families(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    int n = rt->nslots, nt = d->ntasks;
    int *size = rt->c.fam_size;
    rt->fam_first = calloc((size_t)nt + 1, sizeof(int));
    rt->fam_slots = calloc((size_t)n, sizeof(int));
    rt->slot_rank = calloc((size_t)n, sizeof(int));
    int *fill = calloc((size_t)nt, sizeof(int));
    if (!rt->fam_first || !rt->fam_slots || !rt->slot_rank || !fill) {
        free(fill);
        return rt_fail_oom(rt, MDL_FN_NAME(INIT));
    }
    int rc = 0;
    for (int s = 0; s < n && !rc; s++) {
        const shm_info *in = &rt->info[s];
        int t = __atomic_load_n(&in->task, __ATOMIC_ACQUIRE);
        if (in->spec_hash != d->spec_hash)
            rc = rt_fail_spec(rt, s, in->spec_hash);
        else if (t < 0 || t >= nt)
            rc = rt_fail_task_index(rt, s, t);
        else
            rt->slot_rank[s] = size[t]++;
    }
    if (!rc) {
        for (int t = 1; t <= nt; t++)
            rt->fam_first[t] = rt->fam_first[t - 1] + size[t - 1];
        for (int s = 0; s < n; s++) {
            int t = rt->info[s].task;
            rt->fam_slots[rt->fam_first[t] + fill[t]++] = s;
        }
    }
    free(fill);
    return rc;
}

/* Who this slot is, for mdlrun's reports (the name first, the instance
 * number last: mdlrun reads the name once the number is set). */
static void publish_identity(mdl_rt *rt)
{
    snprintf(rt->wait->task_name, sizeof rt->wait->task_name, "%s", rt->c.who.task);
    __atomic_store_n(&rt->wait->inst, rt->c.inst, __ATOMIC_RELEASE);
}

/* Process-local tables of point to point and barriers. */
static int alloc_tables(mdl_rt *rt)
{
    size_t n = (size_t)rt->nslots, nm = (size_t)rt->c.d->nmsgs + 1;
    rt->sends = calloc(nm, sizeof *rt->sends);
    rt->recvs = calloc(nm, sizeof *rt->recvs);
    rt->sbar = calloc(n, sizeof(uint32_t));
    rt->ov_out = calloc(n, sizeof *rt->ov_out);
    rt->ov_last = calloc(n, sizeof *rt->ov_last);
    if (!rt->sends || !rt->recvs || !rt->sbar || !rt->ov_out || !rt->ov_last)
        return rt_fail_oom(rt, MDL_FN_NAME(INIT));
    rt->posted_tail = &rt->posted;
    rt->unexp_tail = &rt->unexp;
    rt->heap_end = __atomic_load_n(&rt->lib->maplimit, __ATOMIC_ACQUIRE);
    return 0;
}

/* The task struct, in the segment so peers can copy straight from and to
 * its variables: exactly its size in whole pages (not a size class: it may
 * be most of the segment; page-aligned, as C++ sees it: TMDL.h), and
 * already zero — a fresh part of a new memfd, whose pages appear only when
 * the program touches them.  A caller's own struct (mdl_init_at) stays at
 * its address, made part of the segment if it can be. */
static int alloc_task_struct(mdl_rt *rt, void *user, size_t user_size)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    if (user) {
        rt->c.task = user;
        alias_object(rt, user, user_size, page);
        return 0;
    }
    size_t sz = rt->c.d->struct_size ? rt->c.d->struct_size : 1;
    uint64_t toff = shm_bump_pages(rt, sz, page);
    if (!toff)
        return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_INTERN,
                       "the task struct (%zu bytes) does not fit in the segment", sz);
    rt->c.task = shm_ptr(rt, toff);
    return 0;
}

/* MDL_TRACE (mdlrun says so in the header): the trace image in the heap,
 * published in the slot for mdlrun. */
static void *trace_alloc(mdl_rt *rt, size_t size, void *arg, char *why, size_t len)
{
    (void)why;
    (void)len;
    uint64_t *off = arg;
    *off = shm_bump(rt, size);
    return *off ? shm_ptr(rt, *off) : NULL;
}

static int start_trace(mdl_rt *rt)
{
    uint64_t slots = rt->hdr->trace_slots, off = 0;
    if (!slots)
        return 0;
    /* waits poll memory and tell the tracer: small messages are recorded
     * off their path */
    char why[512];
    int rc = rt_trace_attach(rt, slots, rt->me, (int)rt->hdr->trace_clock, 1, trace_alloc, &off,
                             why, sizeof why);
    if (rc)
        return rt_fail(rt, MDL_FN_NAME(INIT), rc, "%s", why);
    __atomic_store_n(&rt->hdr->slots[rt->me].trace, off, __ATOMIC_RELEASE);
    return 0;
}

int be_init(const mdl_task_desc *d, int *argc, char ***argv, void *user, size_t user_size,
            mdl_rt **out)
{
    (void)argc;
    (void)argv;
    mdl_rt *rt = calloc(1, sizeof *rt);
    if (!rt)
        return rt_fail_who((mdl_who){ d->tasks[d->self], -1 }, MDL_FN_NAME(INIT), MDL_ERR_INTERN,
                           "out of memory");
    rt->seg_fd = -1;
    long fd = -1, slot = -1;
    int rc = rt_common_start(rt, d);
    if (!rc)
        rc = launch_env(rt, &fd, &slot);
    if (!rc)
        rc = seg_map(rt, fd);
    if (!rc)
        rc = seg_check_header(rt, slot);
    if (!rc) {
        shm_the_rt = rt;        /* from here a fatal error tears the job down */
        rc = seg_carve(rt);
    }
    if (!rc)
        rc = check_layout(rt);
    if (!rc) {
        publish_self(rt);
        tune_waiting(rt);
        rc = meet_the_job(rt);
    }
    if (!rc)
        rc = build_families(rt);
    if (!rc)
        rc = rt_common_identified(rt, rt->slot_rank[rt->me]);
    if (!rc) {
        publish_identity(rt);
        rc = alloc_tables(rt);
    }
    if (!rc)
        rc = alloc_task_struct(rt, user, user_size);
    if (!rc)
        rc = start_trace(rt);
    if (rc < 0) {
        /* errors returned: the process goes on without the runtime */
        shm_the_rt = NULL;
        rt_free(rt);
        return rc;
    }
    *out = rt;
    return MDL_SUCCESS;
}

/* The segment's descriptor is closed once mapped. */
int be_restartable(void)
{
    return 0;
}

int be_end(mdl_rt *rt)
{
    /* Nothing this instance receives from now on: its async receives are
     * cancelled and it counts as ended for its senders (mdlrun looks at
     * the state only once the process has exited).  Its own sends are
     * then delivered; the task struct and heap blocks stay in the segment,
     * which mdlrun frees with the job (a C++ task object gets its private
     * pages back, rt_free).  Then what was sent to it and never received
     * is reported. */
    unsigned char *left = calloc((size_t)rt->c.d->nmsgs + 1, 1);
    shm_p2p_cancel_recvs(rt, left);
    __atomic_store_n(&rt->hdr->slots[rt->me].state, MDL_SLOT_ENDED, __ATOMIC_SEQ_CST);
    shm_notify_all(rt);         /* a sender waiting in its own MDL_End sees it */
    int rc = shm_p2p_flush_sends(rt);
    if (!rc && left)            /* out of memory: not looked at */
        rc = shm_p2p_unreceived(rt, left);
    free(left);
    __atomic_store_n(&rt->wait->left, 1, __ATOMIC_RELEASE);
    shm_the_rt = NULL;
    rt_free(rt);
    return rc;
}
