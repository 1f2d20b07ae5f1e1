/* shm_core.c — start-up, identification, waiting, the segment heap and
 * barriers of the shared-memory runtime. */
#include "shm_internal.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define WAIT_TIMEOUT_NS 100000000L  /* re-check peers this often while asleep */

static mdl_rt *the_rt;          /* for the abort path: one runtime per process */
static int initialised;         /* MDL_Init seen (even after MDL_End) */

/* ---------------------------------------------------------------- futex */

static void futex_wait(uint32_t *word, uint32_t val, long ns)
{
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    /* Shared futex: no FUTEX_PRIVATE_FLAG, the word is in a MAP_SHARED segment. */
    syscall(SYS_futex, word, FUTEX_WAIT, val, &ts, NULL, 0);
}

static void futex_wake(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* ---------------------------------------------------------------- errors */

/* Fatal errors: tell the peers (they fail with MDL_ERR_PEER instead of
 * hanging) and exit, so that mdlrun tears the job down. */
static void shm_abort(int code)
{
    (void)code;
    mdl_rt *rt = the_rt;
    if (rt && rt->hdr) {
        __atomic_store_n(&rt->hdr->aborting, 1, __ATOMIC_SEQ_CST);
        for (int s = 0; s < rt->nslots; s++) {
            __atomic_fetch_add(&rt->hdr->slots[s].doorbell, 1, __ATOMIC_SEQ_CST);
            futex_wake(&rt->hdr->slots[s].doorbell);
        }
        futex_wake(&rt->lib->go);
    }
    fflush(stdout);
    _exit(1);
}

int shm_fail(mdl_rt *rt, const char *fn, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = mdl_vfail(rt ? rt->who : (mdl_who){"?", -1}, fn, code,
                       shm_abort, fmt, ap);
    va_end(ap);
    return rc;
}

/* Who this process was, kept by MDL_End: a later call still names the
 * task and instance in its report. */
static mdl_who ended_who = {"?", -1};

int shm_dead(const mdl_rt *rt, const char *func)
{
    if (rt && rt == the_rt)
        return 0;
    /* the public name of the entry point (func is the library's) */
    static const char *const names[][2] = {
        {"mdl_end", "MDL_End"}, {"mdl_my_rank", "MDL_MyRank"},
        {"mdl_task_size", "MDL_FamilySize"}, {"mdl_barrier", "MDL_Barrier"},
        {"mdl_sbarrier", "MDL_Sbarrier"}, {"mdl_send", "MDL_SendTo"},
        {"mdl_recv", "MDL_RecvFrom"}, {"mdl_test", "MDL_Test"}, {"mdl_wait", "MDL_Wait"},
        {"mdl_collective", "collective"}, {"mdl_grid_create", "MDL_Grid_Create"},
        {"mdl_grid_rank", "MDL_Grid_Rank"}, {"mdl_grid_coords", "MDL_Grid_Coords"},
        {"mdl_grid_mycoords", "MDL_Grid_Mycoords"}, {"mdl_get_neighbors", "MDL_Get_Neighbors"},
        {"mdl_grid_neighbor", "neighbour exchange"},
    };
    const char *fn = func;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(func, names[i][0]) == 0)
            fn = names[i][1];
    if (initialised && !the_rt)
        return mdl_fail(ended_who, fn, MDL_ERR_STATE, shm_abort, "called after MDL_End");
    return mdl_fail(ended_who, fn, MDL_ERR_STATE, shm_abort,
                    initialised ? "not the runtime handle of this process"
                                : "called before MDL_Init");
}

/* ---------------------------------------------------------------- waiting */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void shm_notify(mdl_rt *rt, int slot)
{
    /* The sleeper sets `sleeping` before reading the doorbell and
     * re-checking; we changed its condition before this load (both
     * seq_cst), so either it sees the change or we see it sleeping. */
    if (__atomic_load_n(&rt->info[slot].sleeping, __ATOMIC_SEQ_CST)) {
        __atomic_fetch_add(&rt->hdr->slots[slot].doorbell, 1, __ATOMIC_SEQ_CST);
        futex_wake(&rt->hdr->slots[slot].doorbell);
    }
}

/* A peer that exited without MDL_End, or a job being torn down. */
static int job_broken(mdl_rt *rt, int check_pids)
{
    if (__atomic_load_n(&rt->hdr->aborting, __ATOMIC_SEQ_CST))
        return 1;
    if (!check_pids)
        return 0;
    for (int s = 0; s < rt->nslots; s++) {
        if (s == rt->me)
            continue;
        int st = __atomic_load_n(&rt->hdr->slots[s].state, __ATOMIC_SEQ_CST);
        pid_t pid = __atomic_load_n(&rt->hdr->slots[s].pid, __ATOMIC_SEQ_CST);
        if (st != MDL_SLOT_ENDED && pid > 0 && kill(pid, 0) < 0 && errno == ESRCH)
            return 1;
    }
    return 0;
}

#define MIN_POLLS 16

int shm_wait(mdl_rt *rt, int (*cond)(mdl_rt *, void *), void *arg, const char *fn)
{
    uint32_t *bell = &rt->hdr->slots[rt->me].doorbell;
    uint32_t *sleeping = &rt->info[rt->me].sleeping;
    uint64_t checked = now_ns();    /* peers' pids looked at */
    for (;;) {
        /* Poll for spin_ns (at least MIN_POLLS times): a pause costs from
         * a few to 150 cycles depending on the CPU, so count time. */
        uint64_t t0 = now_ns();
        for (int i = 0;; i++) {
            shm_progress(rt);
            if (cond(rt, arg))
                return 0;
            cpu_relax();
            if (i >= MIN_POLLS && (i & 31) == 0 && now_ns() - t0 >= rt->spin_ns)
                break;
        }
        /* The peer may be waiting for this very CPU (a loaded machine):
         * offer it before paying for a sleep and a wake-up. */
        for (int i = 0; i < rt->yields; i++) {
            sched_yield();
            shm_progress(rt);
            if (cond(rt, arg))
                return 0;
        }
        if (job_broken(rt, 0))
            break;
        __atomic_store_n(sleeping, 1, __ATOMIC_SEQ_CST);
        uint32_t v = __atomic_load_n(bell, __ATOMIC_SEQ_CST);
        shm_progress(rt);
        if (cond(rt, arg)) {
            __atomic_store_n(sleeping, 0, __ATOMIC_SEQ_CST);
            return 0;
        }
        futex_wait(bell, v, WAIT_TIMEOUT_NS);
        __atomic_store_n(sleeping, 0, __ATOMIC_SEQ_CST);
        shm_progress(rt);
        if (cond(rt, arg))
            return 0;
        /* Peers' liveness every WAIT_TIMEOUT_NS, even when other
         * wake-ups keep coming. */
        int pids = now_ns() - checked >= (uint64_t)WAIT_TIMEOUT_NS;
        if (pids)
            checked = now_ns();
        if (job_broken(rt, pids))
            break;
    }
    return shm_fail(rt, fn, MDL_ERR_PEER,
                    "another instance of the job died or failed");
}

/* ---------------------------------------------------------------- heap */

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
 * free lists only: no other process frees them, so no locking. */
/* Fresh, zeroed (never used) bytes of the heap, 64-byte aligned. */
static uint64_t shm_bump(mdl_rt *rt, uint64_t size)
{
    size = (size + 63) & ~(uint64_t)63;
    uint64_t at = __atomic_fetch_add(&rt->lib->bump, size, __ATOMIC_RELAXED);
    if (rt->heap_off + at + size > rt->heap_end)
        return 0;
    return rt->heap_off + at;
}

/* Whole pages of the heap (the segment's mapping is page-aligned). */
static uint64_t shm_bump_pages(mdl_rt *rt, uint64_t size, uint64_t page)
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

/* ---------------------------------------------------------------- barriers */

static int sense_reached(mdl_rt *rt, void *arg)
{
    uint32_t *word = arg;
    return __atomic_load_n(word, __ATOMIC_ACQUIRE) == rt->sense;
}

/* Sense-reversing barrier over the own family; its counter lives in the
 * family's first slot.  The last arriver flips the sense and rings every
 * member's doorbell. */
int shm_family_barrier(mdl_rt *rt, const char *fn)
{
    int task = rt->d->self;
    int n = rt->fam_n[task];
    shm_info *lead = &rt->info[shm_slot_of(rt, task, 0)];
    rt->sense ^= 1u;
    if (__atomic_add_fetch(&lead->bar_count, 1, __ATOMIC_ACQ_REL) == (uint32_t)n) {
        __atomic_store_n(&lead->bar_count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&lead->bar_sense, rt->sense, __ATOMIC_SEQ_CST);
        for (int i = 0; i < n; i++)
            if (i != rt->rank)
                shm_notify(rt, shm_slot_of(rt, task, i));
        return 0;
    }
    return shm_wait(rt, sense_reached, &lead->bar_sense, fn);
}

struct subset_arg {
    const int *slots;
    int n;
};

static int subset_reached(mdl_rt *rt, void *arg)
{
    struct subset_arg *a = arg;
    for (int i = 0; i < a->n; i++) {
        int s = a->slots[i];
        if (s == rt->me)
            continue;
        uint32_t their = __atomic_load_n(&rt->arrive[(size_t)s * rt->nslots + rt->me],
                                         __ATOMIC_ACQUIRE);
        if ((int32_t)(their - rt->sbar[s]) < 0)
            return 0;
    }
    return 1;
}

/* Barrier over any subset: one counter per ordered pair counts the subset
 * barriers the two have entered together, so overlapping subsets in any
 * order work and instances outside the subset are never touched. */
int shm_subset_barrier(mdl_rt *rt, const int *slots, int n, const char *fn)
{
    for (int i = 0; i < n; i++) {
        int s = slots[i];
        if (s == rt->me)
            continue;
        rt->sbar[s]++;
        __atomic_store_n(&rt->arrive[(size_t)rt->me * rt->nslots + s], rt->sbar[s],
                         __ATOMIC_SEQ_CST);
        shm_notify(rt, s);
    }
    struct subset_arg a = {slots, n};
    return shm_wait(rt, subset_reached, &a, fn);
}

/* ---------------------------------------------------------------- init */

/* Start-up barrier number `phase` (1, 2): a counter of arrivals over all
 * phases and a futex word holding the last phase completed.  No doorbells
 * yet: an instance may not have published anything. */
static int startup_barrier(mdl_rt *rt, uint32_t phase)
{
    uint32_t n = (uint32_t)rt->nslots;
    if (__atomic_add_fetch(&rt->lib->ninit, 1, __ATOMIC_ACQ_REL) == n * phase) {
        __atomic_store_n(&rt->lib->go, phase, __ATOMIC_SEQ_CST);
        futex_wake(&rt->lib->go);
        return 0;
    }
    for (;;) {
        uint32_t go = __atomic_load_n(&rt->lib->go, __ATOMIC_ACQUIRE);
        if (go >= phase)
            return 0;
        if (job_broken(rt, 1))
            return MDL_ERR_PEER;
        futex_wait(&rt->lib->go, go, WAIT_TIMEOUT_NS);
    }
}

/* Can instances read each other's memory (process_vm_readv: same user,
 * no seccomp or Yama restriction)?  Each reads a word of the next slot;
 * pointer items of large messages then travel in one copy. */
static volatile uint64_t cma_probe = 0x4d444c434d41ull;

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

static void rt_free(mdl_rt *rt)
{
    if (!rt)
        return;
    shm_p2p_free(rt);
    free(rt->fam_first);
    free(rt->fam_n);
    free(rt->fam_slots);
    free(rt->slot_rank);
    free(rt->sends);
    free(rt->recvs);
    free(rt->sbar);
    free(rt->ov_out);
    free(rt->ov_last);
    if (rt->seg)
        munmap(rt->seg, rt->segsize);
    free(rt);
}

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

/* A failure once the runtime exists: report, then undo everything (when
 * errors are returned, the process goes on without the runtime). */
#define INIT_FAIL(...)                                   \
    do {                                                 \
        int rc_ = shm_fail(rt, fn, __VA_ARGS__);         \
        the_rt = NULL;                                   \
        rt_free(rt);                                     \
        return rc_;                                      \
    } while (0)

#define ALIGN_PAGE(x) (((x) + 4095) & ~(uint64_t)4095)

/* A caller's task object (a C++ object) lies outside the segment, where
 * peers cannot copy from or into it directly.  When it is made of whole
 * pages (the class is page-aligned, TMDL.h), those pages are replaced by a
 * block of the segment holding the same bytes: the object keeps its
 * address, and peers reach it at alias_off like any task struct, so large
 * messages keep their single copy.  Otherwise (or MDL_SHM_ALIAS=0) it
 * stays where it is, and the paths for memory outside the segment serve
 * (process_vm_readv or packing; scratch blocks in collectives). */
/* Copies the pages of src that are not all zero (dst is zero): a large
 * task object the program has not touched yet (in .bss) stays uncommitted
 * memory on both sides, as the C API's struct does. */
static void copy_nonzero_pages(char *dst, const char *src, size_t size, uint64_t page)
{
    for (size_t o = 0; o < size; o += page) {
        const uint64_t *w = (const uint64_t *)(const void *)(src + o);
        size_t n = page / sizeof *w, i = 0;
        while (i < n && w[i] == 0)
            i++;
        if (i < n)
            memcpy(dst + o, src + o, page);
    }
}

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
    copy_nonzero_pages(blk, obj, size, page);
    /* old_size 0 on a shared mapping: a second mapping of the same pages */
    if (mremap(blk, 0, size, MREMAP_MAYMOVE | MREMAP_FIXED, obj) == MAP_FAILED)
        return;
    rt->alias = obj;
    rt->alias_size = size;
    rt->alias_off = off;
}

/* At MDL_End the object gets private pages again, with its bytes: its
 * addresses may be reused (a stack frame) and must not stay shared. */
static void unalias_object(mdl_rt *rt)
{
    if (!rt->alias)
        return;
    if (mmap(rt->alias, rt->alias_size, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
        copy_nonzero_pages(rt->alias, shm_ptr(rt, rt->alias_off), rt->alias_size,
                           (uint64_t)sysconf(_SC_PAGESIZE));
    rt->alias = NULL;
}

/* mdl_init and mdl_init_at: `user` is the caller's task struct (user_size
 * bytes), or NULL to allocate it in the segment. */
static int start(const mdl_task_desc *d, int *argc, char ***argv, void *user,
                 size_t user_size, void **task, mdl_rt **out)
{
    static const char fn[] = "MDL_Init";
    (void)argc;
    (void)argv;
    const char *name = d && d->tasks && d->self >= 0 && d->self < d->ntasks
                           ? d->tasks[d->self] : "?";
    mdl_who who0 = {name, -1};
    if (!d || !task || !out)
        return mdl_fail(who0, fn, MDL_ERR_ARG, shm_abort, "NULL argument");
    if (initialised)
        return mdl_fail(the_rt ? the_rt->who : ended_who, fn, MDL_ERR_STATE, shm_abort,
                        the_rt ? "MDL_Init called twice in one process"
                               : "called after MDL_End: the runtime cannot restart");
    const char *efd = getenv("MDL_SHM_FD"), *eslot = getenv("MDL_SHM_SLOT");
    long fd, slot;
    if (!efd || !eslot) {
        int mpi = getenv("PMI_RANK") || getenv("PMI_FD") || getenv("OMPI_COMM_WORLD_RANK");
        return mdl_fail(who0, fn, MDL_ERR_LAUNCH, shm_abort,
                        "program built for the shared-memory runtime must be started "
                        "with mdlrun%s", mpi ? " (it was started by an MPI launcher)" : "");
    }
    if (parse_int(efd, &fd) || parse_int(eslot, &slot))
        return mdl_fail(who0, fn, MDL_ERR_LAUNCH, shm_abort,
                        "bad MDL_SHM_FD/MDL_SHM_SLOT in the environment");
    struct stat st;
    if (fstat((int)fd, &st) < 0 || (uint64_t)st.st_size < sizeof(mdl_shm_header))
        return mdl_fail(who0, fn, MDL_ERR_LAUNCH, shm_abort,
                        "MDL_SHM_FD=%ld is not the job's shared segment", fd);

    mdl_rt *rt = calloc(1, sizeof *rt);
    if (!rt)
        return mdl_fail(who0, fn, MDL_ERR_INTERN, shm_abort, "out of memory");
    rt->d = d;
    rt->who = who0;
    /* The whole (sparse) segment if the address space allows; tools such
     * as valgrind do not take 64 GiB, so settle for less: the heap then
     * ends at the smallest mapping of the job. */
    rt->segsize = (uint64_t)st.st_size;
    void *seg;
    while ((seg = mmap(NULL, rt->segsize, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_NORESERVE, (int)fd, 0)) == MAP_FAILED &&
           rt->segsize > ((uint64_t)1 << 28))
        rt->segsize /= 2;
    if (seg == MAP_FAILED) {
        rt->segsize = 0;
        rt_free(rt);
        return mdl_fail(who0, fn, MDL_ERR_INTERN, shm_abort,
                        "cannot map the job's segment: %s", strerror(errno));
    }
    close((int)fd);             /* the mapping keeps it; children must not inherit it */
    rt->seg = seg;
    rt->hdr = seg;
    mdl_shm_header *h = rt->hdr;
    if (h->magic != MDL_SHM_MAGIC || h->abi != MDL_SHM_ABI) {
        int abi = h->magic == MDL_SHM_MAGIC ? (int)h->abi : -1;
        rt->hdr = NULL;
        rt_free(rt);
        if (abi < 0)
            return mdl_fail(who0, fn, MDL_ERR_LAUNCH, shm_abort,
                            "MDL_SHM_FD is not an mdlrun segment");
        return mdl_fail(who0, fn, MDL_ERR_LAUNCH, shm_abort,
                        "mdlrun is from another build (segment ABI %d, library ABI %u)",
                        abi, MDL_SHM_ABI);
    }
    rt->nslots = (int)h->nslots;
    if (slot >= rt->nslots || h->lib_offset != mdl_shm_lib_offset(h->nslots)) {
        rt->hdr = NULL;
        rt_free(rt);
        return mdl_fail(who0, fn, MDL_ERR_LAUNCH, shm_abort,
                        "MDL_SHM_SLOT=%ld does not fit the segment", slot);
    }
    the_rt = rt;
    rt->me = (int)slot;
    int n = rt->nslots;
    uint64_t off = h->lib_offset;
    rt->lib = shm_ptr(rt, off);
    off = ALIGN_PAGE(off + sizeof(shm_lib));
    rt->info = shm_ptr(rt, off);
    off = ALIGN_PAGE(off + (uint64_t)n * sizeof(shm_info));
    rt->arrive = shm_ptr(rt, off);
    off = ALIGN_PAGE(off + (uint64_t)n * n * sizeof(uint32_t));
    rt->rings = shm_ptr(rt, off);
    off = ALIGN_PAGE(off + (uint64_t)n * n * sizeof(shm_ring));
    rt->heap_off = off;
    if (off >= rt->segsize)
        INIT_FAIL(MDL_ERR_INTERN,
                        "the segment is too small for %d instances", n);
    uint64_t lim = __atomic_load_n(&rt->lib->maplimit, __ATOMIC_ACQUIRE);
    while ((lim == 0 || lim > rt->segsize) &&
           !__atomic_compare_exchange_n(&rt->lib->maplimit, &lim, rt->segsize, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;

    uint64_t layout = 0;
    if (!__atomic_compare_exchange_n(&rt->lib->layout, &layout, SHM_LAYOUT, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) &&
        layout != SHM_LAYOUT)
        INIT_FAIL(MDL_ERR_LAUNCH, "the instances of this job were linked with different "
                                  "builds of libmdl_shm");

    /* Publish who we are, then wait for everybody. */
    shm_info *mine = &rt->info[rt->me];
    mine->spec_hash = d->spec_hash;
    __atomic_store_n(&mine->task, d->self, __ATOMIC_RELEASE);
    h->slots[rt->me].task = d->self;
    __atomic_store_n(&h->slots[rt->me].state, MDL_SLOT_INIT, __ATOMIC_SEQ_CST);
    /* The CPUs this job may use (taskset, cgroups), not those online. */
    cpu_set_t allowed;
    long ncpu = sched_getaffinity(0, sizeof allowed, &allowed) == 0
                    ? CPU_COUNT(&allowed)
                    : sysconf(_SC_NPROCESSORS_ONLN);
    bind_cpu(rt, n);
    /* Oversubscribed: spinning only steals the core from the peer we wait for. */
    /* 100 us: a peer computing a little between two exchanges (an
     * advection step between collectives) is waited for without a sleep
     * and a wake-up, measured in docs/runtime-shm.md. */
    rt->spin_ns = ncpu > 0 && n > ncpu ? 0 : 100000;
    rt->yields = ncpu > 0 && n > ncpu ? 0 : 20;
    const char *es = getenv("MDL_SHM_SPIN_US");
    if (es && *es)
        rt->spin_ns = atoi(es) > 0 ? (uint64_t)atoi(es) * 1000 : 0;
    es = getenv("MDL_SHM_YIELD");
    if (es && *es)
        rt->yields = atoi(es) > 0 ? atoi(es) : 0;
    mine->pid = (int32_t)getpid();
    mine->probe = (uint64_t)(uintptr_t)&cma_probe;
    if (startup_barrier(rt, 1) < 0)
        INIT_FAIL(MDL_ERR_PEER, "another instance died before MDL_Init");
    mine->cma = cma_works(rt);
    if (startup_barrier(rt, 2) < 0)
        INIT_FAIL(MDL_ERR_PEER, "another instance died before MDL_Init");
    if (__atomic_load_n(&h->aborting, __ATOMIC_SEQ_CST))
        INIT_FAIL(MDL_ERR_PEER, "the job is being torn down");
    rt->cma = 1;
    for (int s = 0; s < n; s++)
        rt->cma &= rt->info[s].cma;

    /* Families: slots grouped by task index, in slot order. */
    int nt = d->ntasks;
    rt->fam_first = calloc((size_t)nt + 1, sizeof(int));
    rt->fam_n = calloc((size_t)nt + 1, sizeof(int));
    rt->fam_slots = calloc((size_t)n, sizeof(int));
    rt->slot_rank = calloc((size_t)n, sizeof(int));
    rt->sends = calloc((size_t)d->nmsgs + 1, sizeof *rt->sends);
    rt->recvs = calloc((size_t)d->nmsgs + 1, sizeof *rt->recvs);
    rt->sbar = calloc((size_t)n, sizeof(uint32_t));
    rt->ov_out = calloc((size_t)n, sizeof *rt->ov_out);
    rt->ov_last = calloc((size_t)n, sizeof *rt->ov_last);
    if (!rt->fam_first || !rt->fam_n || !rt->fam_slots || !rt->slot_rank ||
        !rt->sends || !rt->recvs || !rt->sbar || !rt->ov_out || !rt->ov_last)
        INIT_FAIL(MDL_ERR_INTERN, "out of memory");
    for (int s = 0; s < n; s++) {
        const shm_info *in = &rt->info[s];
        int t = __atomic_load_n(&in->task, __ATOMIC_ACQUIRE);
        if (in->spec_hash != d->spec_hash)
            INIT_FAIL(MDL_ERR_LAUNCH,
                            "instance %d of the job was built from a different spec "
                            "than this program (%s)", s, d->spec);
        if (t < 0 || t >= nt)
            INIT_FAIL(MDL_ERR_LAUNCH, "instance %d declares task %d of %d",
                            s, t, nt);
        rt->slot_rank[s] = rt->fam_n[t]++;
    }
    for (int t = 1; t <= nt; t++)
        rt->fam_first[t] = rt->fam_first[t - 1] + rt->fam_n[t - 1];
    {
        int fill[nt > 0 ? nt : 1];
        memset(fill, 0, sizeof fill);
        for (int s = 0; s < n; s++) {
            int t = rt->info[s].task;
            rt->fam_slots[rt->fam_first[t] + fill[t]++] = s;
        }
    }
    rt->heap_end = __atomic_load_n(&rt->lib->maplimit, __ATOMIC_ACQUIRE);
    rt->rank = rt->slot_rank[rt->me];
    rt->who.inst = rt->rank;
    if (d->single && rt->fam_n[d->self] > 1)
        INIT_FAIL(MDL_ERR_LAUNCH,
                  "task %s is declared without (i) in %s: it runs as one instance, "
                  "but %d were launched", rt->who.task, d->spec, rt->fam_n[d->self]);
    rt->posted_tail = &rt->posted;
    rt->unexp_tail = &rt->unexp;

    /* The task struct, in the segment so peers can copy straight from and
     * to its variables. */
    /* Exactly its size (not a size class: it may be most of the segment),
     * and already zero: a fresh part of a new memfd, whose pages appear
     * only when the program touches them.  A caller's own struct (a C++
     * object) stays where it is: every path that reads or writes a peer's
     * data already handles memory outside the segment (process_vm_readv,
     * packing, scratch blocks). */
    /* Whole pages: a C++ program sees the struct as its class, aligned to
     * a page (TMDL.h). */
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    if (user) {
        rt->task = user;
        alias_object(rt, user, user_size, page);
    } else {
        size_t sz = d->struct_size ? d->struct_size : 1;
        uint64_t toff = shm_bump_pages(rt, sz, page);
        if (!toff)
            INIT_FAIL(MDL_ERR_INTERN,
                      "the task struct (%zu bytes) does not fit in the segment", sz);
        rt->task = shm_ptr(rt, toff);
    }
    initialised = 1;
    *task = rt->task;
    *out = rt;
    return MDL_SUCCESS;
}

int mdl_init(const mdl_task_desc *d, int *argc, char ***argv, void **task, mdl_rt **out)
{
    return start(d, argc, argv, NULL, 0, task, out);
}

int mdl_init_at(const mdl_task_desc *d, int *argc, char ***argv, void *task, size_t size,
                mdl_rt **out)
{
    void *same;
    if (!task)
        return mdl_fail((mdl_who){d && d->tasks && d->self >= 0 && d->self < d->ntasks
                                      ? d->tasks[d->self] : "?", -1},
                        "MDL_Init", MDL_ERR_ARG, shm_abort, "NULL task object");
    if (d && size < d->struct_size)
        return mdl_fail((mdl_who){d->tasks && d->self >= 0 && d->self < d->ntasks
                                      ? d->tasks[d->self] : "?", -1},
                        "MDL_Init", MDL_ERR_ARG, shm_abort,
                        "task object of %zu bytes, the task struct needs %zu", size,
                        d->struct_size);
    return start(d, argc, argv, task, size, &same, out);
}

int mdl_end(mdl_rt *rt, void *task)
{
    SHM_LIVE(rt);
    if (task != rt->task)
        return shm_fail(rt, "MDL_End", MDL_ERR_ARG, "not the task struct of MDL_Init");
    /* The task struct and heap blocks stay in the segment, which mdlrun
     * frees with the job: a peer may still be copying from them. */
    unalias_object(rt);
    __atomic_store_n(&rt->hdr->slots[rt->me].state, MDL_SLOT_ENDED, __ATOMIC_SEQ_CST);
    ended_who = rt->who;
    the_rt = NULL;
    rt_free(rt);
    return MDL_SUCCESS;
}

int mdl_my_rank(mdl_rt *rt)
{
    SHM_LIVE(rt);
    return rt->rank;
}

int mdl_task_size(mdl_rt *rt, int task_index)
{
    SHM_LIVE(rt);
    if (task_index < 0 || task_index >= rt->d->ntasks)
        return shm_fail(rt, "MDL_Size", MDL_ERR_ARG, "no task %d", task_index);
    return rt->fam_n[task_index];
}

int mdl_barrier(mdl_rt *rt)
{
    SHM_LIVE(rt);
    return shm_family_barrier(rt, "MDL_Barrier");
}

int mdl_sbarrier(mdl_rt *rt, const int *ranks, int n)
{
    static const char fn[] = "MDL_Sbarrier";
    SHM_LIVE(rt);
    if (n < 0 || (n > 0 && !ranks))
        return shm_fail(rt, fn, MDL_ERR_ARG, "invalid instance list");
    int task = rt->d->self, size = rt->fam_n[task];
    /* At most `size` entries can be valid: a longer list fails in the loop
     * below before index `size`, so the array is never sized by n alone
     * (a huge wrong n would overflow the stack). */
    int slots[n > 0 && n < size ? n : size];
    int self = 0;
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= size)
            return shm_fail(rt, fn, MDL_ERR_RANK,
                            "instance %d is not in 0..%d", ranks[i], size - 1);
        for (int k = 0; k < i; k++)
            if (ranks[k] == ranks[i])
                return shm_fail(rt, fn, MDL_ERR_RANK,
                                "instance %d is listed twice", ranks[i]);
        self |= ranks[i] == rt->rank;
        slots[i] = shm_slot_of(rt, task, ranks[i]);
    }
    if (!self)
        return MDL_SUCCESS;     /* not involved */
    return shm_subset_barrier(rt, slots, n, fn);
}
