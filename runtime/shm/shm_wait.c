/* shm_wait.c — waiting, the one place the shared-memory runtime blocks:
 * poll, yield, then sleep on the doorbell (shm_bell.c), taking what
 * arrives meanwhile (shm_progress), and publish what a sleeping wait
 * waits for, for mdlrun's deadlock detector; a peer's death or the job's
 * teardown ends a wait. */
#include "shm_internal.h"
#include "trace/rt_trace.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
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
        uint64_t t0 = mdl_mono_ns();
        for (int i = 0; i < 500; i++)
            cpu_relax();
        uint64_t d = mdl_mono_ns() - t0;
        if (d < best)
            best = d;
    }
    uint64_t per = best / 500 ? best / 500 : 1;  /* ns per pause */
    uint64_t n = (RELAX_NS + per / 2) / per;
    return n < 1 ? 1 : n > 8 ? 8 : (int)n;
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
                t0 = mdl_mono_ns();
                if (!checked)
                    checked = t0;
            } else if (i > MIN_POLLS && (i & 31) == 0 && mdl_mono_ns() - t0 >= rt->spin_ns) {
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
        int pids = mdl_mono_ns() - checked >= (uint64_t)SHM_WAIT_TIMEOUT_NS;
        if (pids)
            checked = mdl_mono_ns();
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
