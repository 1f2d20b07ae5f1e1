/* shm_internal.h — the shared-memory runtime's own layout and state.
 *
 * Segment (all offsets from the segment start, so every process may map it
 * at a different address):
 *   header + slots            written by mdlrun (shm_job.h)
 *   shm_lib                   bump pointer, startup barrier
 *   shm_info[nslots]          per instance: identity, sleeping flag,
 *                             family barrier (in the family's first slot),
 *                             collective publication
 *   arrive[nslots][nslots]    pairwise counters of subset barriers
 *   shm_ring[nslots][nslots]  one SPSC ring per ordered pair (sender, receiver)
 *   heap                      bump-allocated: task structs, rendezvous
 *                             records, scratch buffers
 */
#ifndef MDL_SHM_INTERNAL_H
#define MDL_SHM_INTERNAL_H

#include <stdint.h>

/* The library is built with -fvisibility=hidden: export the interface. */
#pragma GCC visibility push(default)
#include "mdl_rt.h"
#pragma GCC visibility pop
#include "rt_common.h"
#include "shm_job.h"

/* Payload bytes of one ring cell: messages up to this size are copied
 * through the ring (eager), larger ones are copied once, straight from the
 * sender's variables (rendezvous).  Chosen by measurement, see
 * docs/runtime-shm.md. */
#ifndef SHM_EAGER
#define SHM_EAGER 8192
#endif
#define SHM_NCELLS 8            /* cells per ring: in-flight eager messages per pair */
#define SHM_OVERFLOW 1024       /* overflow nodes per pair before a sender waits */

enum { CELL_EAGER = 1, CELL_RDV = 2 };

typedef struct shm_cell {
    uint32_t channel;
    uint32_t kind;              /* CELL_EAGER or CELL_RDV */
    uint64_t bytes;             /* message size */
    uint64_t rdv;               /* CELL_RDV: segment offset of the shm_rdv */
    uint64_t pad_[5];
    char data[SHM_EAGER];       /* CELL_EAGER: the packed message */
} shm_cell;

/* When the ring is full, messages go to an overflow list of nodes in the
 * sender's heap (a send never waits for room); the sender uses the ring
 * again only once the receiver has consumed every node, so order holds. */
typedef struct shm_ring {
    uint64_t tail;              /* written by the sender only */
    uint64_t ov_sent;           /* sender: overflow nodes appended */
    uint64_t ov_first;          /* sender, once: offset of the first node */
    uint64_t pad0_[5];
    uint64_t head;              /* written by the receiver only */
    uint64_t ov_done;           /* receiver: overflow nodes consumed */
    uint64_t pad1_[6];
    shm_cell cells[SHM_NCELLS];
} shm_ring;

typedef struct shm_node {
    uint64_t next;              /* offset of the next node, 0 until linked */
    uint64_t size;              /* allocated bytes, for the sender's free */
    uint32_t channel;
    uint32_t kind;
    uint64_t bytes;
    uint64_t rdv;
    uint64_t pad_[3];
    char data[];                /* CELL_EAGER: the packed message */
} shm_node;

/* The sender's own view of its overflow list towards one receiver. */
typedef struct shm_ovs {
    uint64_t sent;              /* nodes appended */
    uint64_t last;              /* newest node (kept: the receiver reads its next) */
    uint64_t oldest;            /* oldest node not yet freed */
    uint64_t oldest_idx;
} shm_ovs;

/* One span of a rendezvous record: base is a segment offset, or with
 * `remote` an address in the sender's own space (read with
 * process_vm_readv). */
typedef struct shm_rspan {
    mdl_span s;
    uint64_t remote;
} shm_rspan;

/* A large message waiting to be pulled: where the sender's data lies.
 * Lives in the sender's heap until every receiver has copied it. */
typedef struct shm_rdv {
    uint32_t remaining;         /* receivers that have not copied yet */
    uint32_t nspans;
    uint64_t bytes;
    int32_t pid;                /* the sender, for remote spans */
    int32_t pad_;
    shm_rspan spans[];
} shm_rdv;

/* Version of everything below the header (this file's structures and
 * their use): two programs of one job linked with different builds of the
 * library (static linking) are refused.  Change it with the layout. */
#ifndef SHM_LAYOUT
#define SHM_LAYOUT 0x4d444c0000000002ull
#endif

typedef struct shm_lib {
    uint64_t layout;            /* SHM_LAYOUT of the first instance; stays first */
    uint64_t bump;              /* bytes handed out from the heap */
    uint32_t ninit;             /* instances through the startup barrier */
    uint32_t go;                /* futex word: start-up phases completed */
    uint64_t maplimit;          /* smallest mapping of any instance: heap end */
} shm_lib;

typedef struct shm_info {
    uint64_t spec_hash;
    int32_t task;               /* task index, -1 until published */
    uint32_t sleeping;          /* 1 while the instance may sleep on its doorbell */
    uint32_t bar_count;         /* family barrier (used in the family's first slot) */
    uint32_t bar_sense;
    int32_t pid;                /* getpid() of the instance */
    int32_t cma;                /* 1: it could read its neighbour's memory */
    uint64_t probe;             /* address (in its own space) of a word to read */
    uint32_t pad0_[6];
    /* Collective publication, valid between a collective's barriers. */
    int32_t c_err;              /* this instance hit an argument error */
    int32_t pad1_;
    int64_t c_count;            /* elements this instance sends */
    uint64_t c_src;             /* segment offsets */
    uint64_t c_dst;
    uint64_t c_counts;
    uint64_t c_displs;
    uint64_t pad2_[2];
} shm_info;

/* Process-local request records. */
typedef struct shm_rreq {
    struct shm_rreq *next;      /* posted list */
    struct shm_rreq *mnext;     /* per-message list of async receives */
    int channel;
    int want;                   /* sender slot, or -1 for any */
    int nspans;
    mdl_span *spans;
    size_t total;
    int done;
    int err;                    /* MDL_ERR_TRUNCATE */
    int sender;                 /* sender slot once done */
    uint64_t got;               /* bytes that arrived */
    mdl_span inl[4];
} shm_rreq;

typedef struct shm_sreq {
    struct shm_sreq *next;
    uint64_t rdv;               /* offset of the shm_rdv */
    uint64_t scratch;           /* offset of a packed copy, 0 if none */
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
    const mdl_task_desc *d;
    mdl_who who;
    char *seg;
    uint64_t segsize;           /* bytes mapped here */
    uint64_t heap_end;          /* no instance can see beyond this */
    mdl_shm_header *hdr;
    shm_lib *lib;
    shm_info *info;
    uint32_t *arrive;
    shm_ring *rings;
    uint64_t heap_off;          /* first heap byte */
    int nslots, me, rank;
    uint64_t spin_ns;           /* polling time before sleeping */
    int yields;                 /* then polls with sched_yield */
    int cma;                    /* every instance can read every other's memory */

    int *fam_first;             /* per task: index into fam_slots */
    int *fam_n;                 /* per task: instances */
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

    /* grid */
    int grid, ndims, dims[3], periodic[3], coords[3];
    void *task;

    /* A caller's task object (mdl_init_at) whose pages were replaced by a
     * block of the segment: its addresses are in the segment too, at
     * alias_off (NULL when the object could not be aliased). */
    char *alias;
    uint64_t alias_size, alias_off;
};

/* shm_core.c */
/* 0 when rt is the live runtime, else MDL_ERR_STATE (reported). */
MDL_HIDDEN int shm_dead(const mdl_rt *rt, const char *func);
#define SHM_LIVE(rt)                        \
    do {                                    \
        int dead_ = shm_dead(rt, __func__); \
        if (dead_)                          \
            return dead_;                   \
    } while (0)
MDL_HIDDEN int shm_fail(mdl_rt *rt, const char *fn, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
MDL_HIDDEN void shm_notify(mdl_rt *rt, int slot);
/* Poll-and-sleep until cond(rt, arg) is true; runs progress meanwhile.
 * Returns 0, or MDL_ERR_PEER (already reported) when the job is torn down. */
MDL_HIDDEN int shm_wait(mdl_rt *rt, int (*cond)(mdl_rt *, void *), void *arg,
                        const char *fn);
MDL_HIDDEN uint64_t shm_alloc(mdl_rt *rt, size_t bytes);
MDL_HIDDEN void shm_free(mdl_rt *rt, uint64_t off, size_t bytes);
/* Whether peers can reach p through the segment: in the segment, or in
 * an aliased task object (shm_off translates both). */
MDL_HIDDEN int shm_in_seg(const mdl_rt *rt, const void *p);
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
MDL_HIDDEN int shm_family_barrier(mdl_rt *rt, const char *fn);
MDL_HIDDEN int shm_subset_barrier(mdl_rt *rt, const int *slots, int n, const char *fn);

/* shm_p2p.c */
MDL_HIDDEN void shm_progress(mdl_rt *rt);
MDL_HIDDEN void shm_p2p_free(mdl_rt *rt);

#endif
