/* shm_internal.h — what one process of the shared-memory runtime keeps for
 * itself: its runtime handle, request records, and the functions the
 * files of the backend share.  The shared layout is in shm_segment.h; the
 * contract with the validation layer above in rt_backend.h. */
#ifndef MDL_SHM_INTERNAL_H
#define MDL_SHM_INTERNAL_H

#include <stdint.h>

#include "api/rt_backend.h"
#include "shm_segment.h"

/* The sender's own view of its ring and overflow list towards one
 * receiver.  head_seen and done_seen are the receiver's counters as last
 * read: they only grow, so a check that the old value passes the current
 * one passes too, and the receiver's line (which it writes at every
 * message) is read only when the old value fails (shm_p2p.c: post_msg). */
typedef struct shm_ovs {
    uint64_t head_seen;         /* the ring's head */
    uint64_t done_seen;         /* ov_done */
    uint64_t sent;              /* nodes appended */
    uint64_t last;              /* newest node (kept: the receiver reads its next) */
    uint64_t oldest;            /* oldest node not yet freed */
    uint64_t oldest_idx;
} shm_ovs;

/* A posted receive. */
typedef struct shm_rreq {
    struct shm_rreq *next;      /* posted list */
    struct shm_rreq *mnext;     /* per-message list of async receives */
    int channel;
    int want;                   /* sender slot, or -1 for any */
    int nspans;
    const mdl_span *spans;      /* inl, malloc'd (async), or the layer's
                                   layout (sync: no other call of m meanwhile) */
    size_t total;
    int done;
    int err;                    /* MDL_ERR_TRUNCATE */
    int sender;                 /* sender slot once done */
    uint64_t got;               /* bytes that arrived */
    mdl_span inl[4];
} shm_rreq;

/* An async rendezvous send in flight: its record, and whom it went to
 * (MDL_End names a receiver that can no longer take it). */
typedef struct shm_sreq {
    struct shm_sreq *next;
    uint64_t rdv;               /* offset of the shm_rdv */
    uint64_t scratch;           /* offset of a packed copy, 0 if none */
    const mdl_msg_desc *m;
    int ntargets;
    int targets[];              /* slots */
} shm_sreq;

typedef struct shm_umsg {       /* arrived before its receive was posted */
    struct shm_umsg *next;
    int channel;
    int slot;
    uint32_t kind;
    uint64_t bytes;
    uint64_t rdv;
    char data[];
} shm_umsg;

#define SHM_NCLASS 48

struct mdl_rt {
    mdl_rt_common c;            /* first: the validation layer's part */
    char *seg;
    uint64_t segsize;           /* bytes mapped here */
    uint64_t heap_end;          /* no instance can see beyond this */
    mdl_shm_header *hdr;
    mdl_shm_wait *wait;         /* this instance's wait record (shm_job.h) */
    int32_t *wait_list;         /* and its list */
    const char *named_fn;       /* the call whose name wait->fn holds */
    const mdl_msg_desc *named_m;
    shm_lib *lib;
    shm_info *info;
    uint32_t *arrive;
    shm_ring *rings;
    uint64_t heap_off;          /* first heap byte */
    int nslots, me;             /* slots of the job, this instance's slot */
    uint64_t spin_ns;           /* polling time before sleeping */
    int yields;                 /* then polls with sched_yield */
    int relax_pauses;           /* pauses between two polls (shm_relax_pauses) */
    int cma;                    /* every instance can read every other's memory */

    int *fam_first;             /* per task: index into fam_slots */
    int *fam_slots;             /* slots grouped by task, in slot order */
    int *slot_rank;             /* slot -> instance number in its family */

    /* point to point */
    shm_rreq *posted, **posted_tail;
    shm_umsg *unexp, **unexp_tail;
    shm_sreq **sends;           /* per message index: async sends in flight */
    shm_rreq **recvs;           /* per message index: async receives posted */
    int rr;                     /* next sender polled first (fairness) */
    shm_ovs *ov_out;            /* per receiver slot */
    uint64_t *ov_last;          /* per sender slot: last overflow node consumed */

    /* barriers */
    uint32_t sense;
    uint32_t *sbar;             /* per slot: subset barriers entered with it */

    /* own heap blocks (size classes 64 << c), linked through their first word */
    uint64_t freelist[SHM_NCLASS];

    /* A caller's task object (mdl_init_at) whose pages were replaced by a
     * block of the segment: its addresses are in the segment too, at
     * alias_off (NULL when the object could not be aliased). */
    char *alias;
    uint64_t alias_size, alias_off;
    int seg_fd;                 /* the segment, for the alias's extents at the end */
};

static inline void *shm_ptr(const mdl_rt *rt, uint64_t off) { return rt->seg + off; }
static inline uint64_t shm_off(const mdl_rt *rt, const void *p)
{
    const char *c = p;
    if (rt->alias && c >= rt->alias && c < rt->alias + rt->alias_size)
        return rt->alias_off + (uint64_t)(c - rt->alias);
    return (uint64_t)(c - rt->seg);
}
static inline int shm_slot_of(const mdl_rt *rt, int task, int inst)
{
    return rt->fam_slots[rt->fam_first[task] + inst];
}

static inline shm_ring *shm_ring_of(mdl_rt *rt, int from, int to)
{
    return &rt->rings[(size_t)from * rt->nslots + to];
}

/* shm_abort.c */
/* The runtime of this process once it has mapped the segment (the fatal
 * path raises the job's abort flag through it). */
MDL_HIDDEN extern mdl_rt *shm_the_rt;

/* shm_bell.c */
MDL_HIDDEN void shm_futex_wait(uint32_t *word, uint32_t val, long ns);
MDL_HIDDEN void shm_futex_wake(uint32_t *word);
/* The instance in `slot` (every other one) may wait for what was just
 * done: rung if it sleeps. */
MDL_HIDDEN void shm_notify(mdl_rt *rt, int slot);
MDL_HIDDEN void shm_notify_all(mdl_rt *rt);

/* shm_wait.c */
/* Pauses a spinning wait leaves between two polls (≈ 20 ns), measured. */
MDL_HIDDEN int shm_relax_pauses(void);
/* A peer that exited without MDL_End (looked for when check_pids), or a
 * job being torn down. */
MDL_HIDDEN int shm_job_broken(mdl_rt *rt, int check_pids);
/* MDL_ERR_PEER: the job is being torn down, or a peer has died. */
MDL_HIDDEN int shm_fail_peer(mdl_rt *rt, const char *fn, const char *why);
/* What a wait waits for: `cond` tells whether it is over; `awaits` says
 * whom it needs, called only when the wait goes to sleep, to publish it
 * for mdlrun's deadlock detector: it sets w->kind (and w->task) and fills
 * list[0..w->n-1] with slots.  Exact for an ALL_OF wait (every listed
 * instance is needed), a superset for ANY_OF (a superset only delays a
 * report, never makes a false one). */
typedef struct shm_waiting {
    int (*cond)(mdl_rt *rt, void *arg);
    void (*awaits)(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list);
} shm_waiting;

/* Poll-and-sleep until the wait's cond(rt, arg) is true; runs progress
 * meanwhile.  Returns 0, or MDL_ERR_PEER (already reported) when the job is
 * torn down. */
MDL_HIDDEN int shm_wait(mdl_rt *rt, const shm_waiting *how, void *arg, const char *fn);
/* The same, the failure not reported (for callers whose name is formatted
 * only when there is something to report). */
MDL_HIDDEN int shm_wait_for(mdl_rt *rt, const shm_waiting *how, void *arg);
#define SHM_WAIT_TIMEOUT_NS 100000000L  /* re-check peers this often while asleep */
/* For `awaits`: slot into the list (once), or every instance of `task`
 * but this one. */
MDL_HIDDEN void shm_await_add(mdl_shm_wait *w, int32_t *list, int slot);
MDL_HIDDEN void shm_await_task(mdl_rt *rt, mdl_shm_wait *w, int32_t *list, int task);

/* shm_heap.c */
/* Fresh, zeroed heap bytes (64-byte aligned); 0 when the heap is full. */
MDL_HIDDEN uint64_t shm_bump(mdl_rt *rt, uint64_t size);
/* The same in whole pages, page-aligned (the segment's mapping is). */
MDL_HIDDEN uint64_t shm_bump_pages(mdl_rt *rt, uint64_t size, uint64_t page);
MDL_HIDDEN uint64_t shm_alloc(mdl_rt *rt, size_t bytes);
MDL_HIDDEN void shm_free(mdl_rt *rt, uint64_t off, size_t bytes);
/* Whether peers can reach p through the segment: in the segment, or in
 * an aliased task object (shm_off translates both). */
MDL_HIDDEN int shm_in_seg(const mdl_rt *rt, const void *p);

/* shm_barrier.c */
MDL_HIDDEN int shm_family_barrier(mdl_rt *rt, const char *fn);
MDL_HIDDEN int shm_subset_barrier(mdl_rt *rt, const int *slots, int n, const char *fn);

/* shm_copy.c */
/* A rendezvous message copied into the receive's spans (dst, ndst): 0 or
 * MDL_ERR_INTERN (its memory could not be read); _timed: the copy's time
 * recorded (MDL_TRACE). */
MDL_HIDDEN int shm_copy_rdv(mdl_rt *rt, const mdl_span *dst, int ndst, const shm_rdv *r);
MDL_HIDDEN int shm_copy_rdv_timed(mdl_rt *rt, const mdl_span *dst, int ndst, const shm_rdv *r);

/* shm_arrive.c */
/* Takes what has arrived; returns 1 when it left messages in a ring (it
 * takes a bounded number per sender and pass, for fairness). */
MDL_HIDDEN int shm_progress(mdl_rt *rt);
/* Receive q completed with a message from `slot` (eager: data; rendezvous:
 * the record at rdvoff). */
MDL_HIDDEN void shm_deliver(mdl_rt *rt, shm_rreq *q, int slot, uint32_t kind, uint64_t bytes,
                            const void *data, uint64_t rdvoff);
/* The first posted receive a message on `channel` from `slot` matches,
 * taken off the list (NULL: none). */
MDL_HIDDEN shm_rreq *shm_take_posted(mdl_rt *rt, int channel, int slot);

/* shm_p2p.c */
/* MDL_End: cancels the async receives, then delivers every async send in
 * flight (MDL_ERR_PEER, reported, if a receiver has ended without it). */
MDL_HIDDEN void shm_p2p_cancel_recvs(mdl_rt *rt, unsigned char *left);
MDL_HIDDEN int shm_p2p_unreceived(mdl_rt *rt, const unsigned char *left);
MDL_HIDDEN int shm_p2p_flush_sends(mdl_rt *rt);
MDL_HIDDEN void shm_p2p_free(mdl_rt *rt);

#endif
