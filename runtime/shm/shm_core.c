/* shm_core.c — waiting (poll, yield, futex sleep, and publishing what a
 * sleeping wait waits for), the segment heap and the barriers of the
 * shared-memory runtime. */
#include "shm_internal.h"
#include "trace/rt_trace.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- futex */

void shm_futex_wait(uint32_t *word, uint32_t val, long ns)
{
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    /* Shared futex: no FUTEX_PRIVATE_FLAG, the word is in a MAP_SHARED segment. */
    syscall(SYS_futex, word, FUTEX_WAIT, val, &ts, NULL, 0);
}

void shm_futex_wake(uint32_t *word)
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

/* ---------------------------------------------------------------- waiting */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Time a spinning wait leaves between two polls.  Polling more often
 * takes the line the sender is writing away from it: on the machine of
 * docs/performance.md, 8-256-byte ping-pongs took 12-15 % less time with
 * 2 pauses (19 ns) than with 1, and 4 were no better. */
#define RELAX_NS 20

int shm_relax_pauses(void)
{
    uint64_t best = UINT64_MAX;
    for (int trial = 0; trial < 3; trial++) {   /* the least disturbed */
        uint64_t t0 = now_ns();
        for (int i = 0; i < 500; i++)
            cpu_relax();
        uint64_t d = now_ns() - t0;
        if (d < best)
            best = d;
    }
    uint64_t per = best / 500 ? best / 500 : 1;  /* ns per pause */
    uint64_t n = (RELAX_NS + per / 2) / per;
    return n < 1 ? 1 : n > 8 ? 8 : (int)n;
}

void shm_notify_all(mdl_rt *rt)
{
    for (int s = 0; s < rt->nslots; s++)
        if (s != rt->me)
            shm_notify(rt, s);
}

void shm_notify(mdl_rt *rt, int slot)
{
    /* The sleeper sets `sleeping`, then a seq_cst fence, then reads the
     * doorbell and re-checks; we changed its condition before this fence
     * (tail and ov_sent with release stores, the other conditions with
     * seq_cst stores or RMWs), so either it sees the change or we see it
     * sleeping (shm_wait).  A fence here, not a seq_cst store of `tail`:
     * on x86 that store is an xchg on the line the receiver polls, which
     * made a bare two-process ping-pong of an index and a data line 3
     * times slower than a release store and this fence (docs/performance.md). */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&rt->info[slot].sleeping, __ATOMIC_SEQ_CST)) {
        /* the wake-up (a system call) is the call's work, and the peer
         * may see the message before it returns */
        rt_trace_start(rt->c.tr);
        __atomic_fetch_add(&rt->hdr->slots[slot].doorbell, 1, __ATOMIC_SEQ_CST);
        shm_futex_wake(&rt->hdr->slots[slot].doorbell);
    }
}

int shm_job_broken(mdl_rt *rt, int check_pids)
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

int shm_fail_peer(mdl_rt *rt, const char *fn, const char *why)
{
    /* Whoever failed has said so (the failing instance, or mdlrun for a
     * death): with fatal errors this instance leaves without a word, as
     * under MPI_Abort, so that a job's fault reads as one line. */
    if (!mdl_errors_return()) {
        if (rt->c.tr) {
            rt_trace_errorf(rt, fn, MDL_ERR_PEER, "%s", why);
            rt_trace_stop(rt, MDL_ERR_PEER, 0);
        }
        fflush(stdout);
        _exit(1);
    }
    int rc = rt_fail(rt, fn, MDL_ERR_PEER, "%s", why);
    /* nor when a binding makes the returned error fatal (mdl_fail_unchecked) */
    mdl_forget_kept();
    return rc;
}

/* ---------------------------------------------------------------- what a wait waits for */

/* The wait record (shm_job.h) is written under its sequence lock, by this
 * instance only, and only around a sleep: never on a path that does not
 * sleep. */
static void rec_open(mdl_shm_wait *w)
{
    __atomic_store_n(&w->seq, w->seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void rec_close(mdl_shm_wait *w)
{
    __atomic_store_n(&w->seq, w->seq + 1, __ATOMIC_RELEASE);
}

void shm_await_add(mdl_shm_wait *w, int32_t *list, int slot)
{
    for (uint32_t i = 0; i < w->n; i++)
        if (list[i] == slot)
            return;
    list[w->n++] = slot;
}

void shm_await_task(mdl_rt *rt, mdl_shm_wait *w, int32_t *list, int task)
{
    for (int i = 0; i < rt->c.fam_size[task]; i++) {
        int s = shm_slot_of(rt, task, i);
        if (s != rt->me)
            shm_await_add(w, list, s);
    }
}

/* Appends s to dst (cap bytes, at *len), truncated. */
static void put(char *dst, size_t cap, size_t *len, const char *s)
{
    size_t n = strnlen(s, cap - 1 - *len);
    memcpy(dst + *len, s, n);
    *len += n;
    dst[*len] = 0;
}

/* The current call's name into the record, unless it is there already:
 * a formatted copy at every sleep cost as much as the rest of it. */
static void publish_name(mdl_rt *rt, mdl_shm_wait *w)
{
    const char *fn = RT_GET(fn);
    const mdl_msg_desc *m = RT_GET(wait);
    if (fn == rt->named_fn && (fn || m == rt->named_m) && w->fn[0])
        return;
    rt->named_fn = fn;
    rt->named_m = m;
    size_t len = 0;
    w->fn[0] = 0;
    if (fn) {
        put(w->fn, sizeof w->fn, &len, fn);
    } else {                    /* a Wait (rt_call_fn, MDL_FN_NAME(WAIT)) */
        put(w->fn, sizeof w->fn, &len, MDL_FN_COMPLETION_PREFIX);
        put(w->fn, sizeof w->fn, &len, m && m->name ? m->name : "?");
        put(w->fn, sizeof w->fn, &len, MDL_FN_WAIT_SUFFIX);
    }
}

/* On the way to sleep, after a check that failed with the doorbell at
 * `bell`: what the wait needs.  The first sleep of a wait also names it
 * (the layer's current call) and starts it (a new epoch). */
static void publish_sleep(mdl_rt *rt, const shm_waiting *how, void *arg, uint32_t bell,
                          uint64_t since)
{
    mdl_shm_wait *w = rt->wait;
    rec_open(w);
    if (since) {                /* the first sleep of this wait */
        publish_name(rt, w);
        w->epoch++;
        w->since_ns = since;
        w->active = 1;
    }
    w->kind = MDL_AWAIT_ANY_OF;
    w->task = -1;
    w->n = 0;
    how->awaits(rt, arg, w, rt->wait_list);
    uint64_t consumed = 0;
    for (int s = 0; s < rt->nslots; s++) {
        const shm_ring *r = &rt->rings[(size_t)s * rt->nslots + rt->me];
        consumed += r->head + r->ov_done;
    }
    w->consumed = consumed;
    w->bell = bell;
    w->asleep = 1;
    rec_close(w);
    if (since)
        rt_block_begin();
}

/* Awake again (before it takes anything), then out of the wait: one
 * field each, so a reader's copy is consistent without the lock. */
static void publish_awake(mdl_rt *rt, int done)
{
    mdl_shm_wait *w = rt->wait;
    __atomic_store_n(&w->asleep, 0, __ATOMIC_SEQ_CST);
    if (done) {
        __atomic_store_n(&w->active, 0, __ATOMIC_RELEASE);
        rt_block_end();
    }
}

/* ---------------------------------------------------------------- waiting */

#define MIN_POLLS 16

int shm_wait(mdl_rt *rt, const shm_waiting *how, void *arg, const char *fn)
{
    int rc = shm_wait_for(rt, how, arg);
    return rc ? shm_fail_peer(rt, fn, "another instance of the job died or failed") : 0;
}

/* Polls, yields, then sleeps until cond; *slept: the wait was published. */
static int wait_loop(mdl_rt *rt, const shm_waiting *how, void *arg, int *slept)
{
    int (*cond)(mdl_rt *, void *) = how->cond;
    uint32_t *bell = &rt->hdr->slots[rt->me].doorbell;
    uint32_t *sleeping = &rt->info[rt->me].sleeping;
    uint64_t checked = 0;           /* peers' pids looked at; the wait's start */
    for (;;) {
        /* Poll for spin_ns after MIN_POLLS polls: a pause costs from a few
         * to 150 cycles depending on the CPU, so count time.  The clock is
         * read only once those polls have failed: most waits of small
         * messages end sooner, and need no clock read at all. */
        uint64_t t0 = 0;
        for (int i = 0;; i++) {
            rt_trace_poll(rt->c.tr);
            shm_progress(rt);
            if (cond(rt, arg))
                return 0;
            for (int k = 0; k < rt->relax_pauses; k++)
                cpu_relax();
            if (i == MIN_POLLS) {
                t0 = now_ns();
                if (!checked)
                    checked = t0;
            } else if (i > MIN_POLLS && (i & 31) == 0 && now_ns() - t0 >= rt->spin_ns) {
                break;
            }
        }
        /* The peer may be waiting for this very CPU (a loaded machine):
         * offer it before paying for a sleep and a wake-up. */
        for (int i = 0; i < rt->yields; i++) {
            sched_yield();
            rt_trace_poll(rt->c.tr);
            shm_progress(rt);
            if (cond(rt, arg))
                return 0;
        }
        if (shm_job_broken(rt, 0))
            return MDL_ERR_PEER;
        __atomic_store_n(sleeping, 1, __ATOMIC_SEQ_CST);
        /* The re-check's loads (acquire) must not be satisfied before
         * `sleeping` is visible: C11 orders a seq_cst store before later
         * loads only through seq_cst loads or a seq_cst fence. */
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        uint32_t v = __atomic_load_n(bell, __ATOMIC_SEQ_CST);
        rt_trace_poll(rt->c.tr);
        int more = shm_progress(rt);
        if (cond(rt, arg)) {
            __atomic_store_n(sleeping, 0, __ATOMIC_SEQ_CST);
            return 0;
        }
        /* Messages the pass left behind (PER_PASS) may be the awaited
         * ones, and their wake-up may be spent (notified before v was
         * read): poll on instead of sleeping (found by model/, SPIN).  So
         * a sleeper whose doorbell has not rung since has nothing left to
         * take, which mdlrun's deadlock detector relies on. */
        if (!more) {
            publish_sleep(rt, how, arg, v, *slept ? 0 : checked);
            *slept = 1;
            shm_futex_wait(bell, v, SHM_WAIT_TIMEOUT_NS);
            publish_awake(rt, 0);
        }
        __atomic_store_n(sleeping, 0, __ATOMIC_SEQ_CST);
        rt_trace_poll(rt->c.tr);
        shm_progress(rt);
        if (cond(rt, arg))
            return 0;
        /* Peers' liveness every SHM_WAIT_TIMEOUT_NS, even when other
         * wake-ups keep coming. */
        int pids = now_ns() - checked >= (uint64_t)SHM_WAIT_TIMEOUT_NS;
        if (pids)
            checked = now_ns();
        if (shm_job_broken(rt, pids))
            return MDL_ERR_PEER;
    }
}

int shm_wait_for(mdl_rt *rt, const shm_waiting *how, void *arg)
{
    int slept = 0;
    int rc = wait_loop(rt, how, arg, &slept);
    if (slept)
        publish_awake(rt, 1);
    return rc;
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

/* ---------------------------------------------------------------- barriers */

static int sense_reached(mdl_rt *rt, void *arg)
{
    uint32_t *word = arg;
    return __atomic_load_n(word, __ATOMIC_ACQUIRE) == rt->sense;
}

/* Who has arrived is not recorded (a counter): mdlrun takes the family's
 * instances that are not asleep in the family barrier as the missing ones. */
static void awaits_family(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list)
{
    (void)arg;
    (void)list;
    w->kind = MDL_AWAIT_FAMILY;
    w->task = rt->c.d->self;
}

static const shm_waiting family_barrier = { sense_reached, awaits_family };

/* Sense-reversing barrier over the own family; its counter lives in the
 * family's first slot.  The last arriver flips the sense and rings every
 * member's doorbell. */
int shm_family_barrier(mdl_rt *rt, const char *fn)
{
    int task = rt->c.d->self;
    int n = rt->c.fam_size[task];
    shm_info *lead = &rt->info[shm_slot_of(rt, task, 0)];
    rt->sense ^= 1u;
    if (__atomic_add_fetch(&lead->bar_count, 1, __ATOMIC_ACQ_REL) == (uint32_t)n) {
        __atomic_store_n(&lead->bar_count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&lead->bar_sense, rt->sense, __ATOMIC_SEQ_CST);
        for (int i = 0; i < n; i++)
            if (i != rt->c.inst)
                shm_notify(rt, shm_slot_of(rt, task, i));
        return 0;
    }
    return shm_wait(rt, &family_barrier, &lead->bar_sense, fn);
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

/* Exactly the members that have not arrived. */
static void awaits_subset(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list)
{
    struct subset_arg *a = arg;
    w->kind = MDL_AWAIT_ALL_OF;
    for (int i = 0; i < a->n; i++) {
        int s = a->slots[i];
        uint32_t their = __atomic_load_n(&rt->arrive[(size_t)s * rt->nslots + rt->me],
                                         __ATOMIC_ACQUIRE);
        if (s != rt->me && (int32_t)(their - rt->sbar[s]) < 0)
            shm_await_add(w, list, s);
    }
}

static const shm_waiting subset_barrier = { subset_reached, awaits_subset };

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
    return shm_wait(rt, &subset_barrier, &a, fn);
}

int be_barrier(mdl_rt *rt)
{
    return shm_family_barrier(rt, MDL_FN_NAME(BARRIER));
}

int be_sbarrier(mdl_rt *rt, const int *insts, int n)
{
    int slots[n];               /* n distinct instances: at most the family */
    for (int i = 0; i < n; i++)
        slots[i] = shm_slot_of(rt, rt->c.d->self, insts[i]);
    return shm_subset_barrier(rt, slots, n, MDL_FN_NAME(SBARRIER));
}
