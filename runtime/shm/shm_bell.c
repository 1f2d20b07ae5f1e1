/* shm_bell.c — each instance's doorbell: a futex word in the job's
 * header that a waiter sleeps on (shm_wait.c) and that is rung when its
 * condition may have changed (shm_notify), only if it sleeps. */
#include "shm_internal.h"
#include "trace/rt_trace.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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
