/* mpi_rt.h — internal state of the MPI runtime (one per process).
 *
 * Layout of the job: every world rank runs one instance; its family is the
 * task index it declared, its instance number is its position among the
 * world ranks of that family.  Point-to-point messages travel on a private
 * duplicate of MPI_COMM_WORLD with the channel number as tag; collectives
 * run on the family communicator.  See docs/runtime-mpi.md. */
#ifndef MDL_MPI_RT_H
#define MDL_MPI_RT_H

#include <mpi.h>

#include "api/rt_backend.h"

/* Large messages on one host (mpi_direct.c).  A contiguous message of at
 * least MPI_DIRECT_MIN bytes takes it: the size above which MPICH's
 * shared-memory path is a rendezvous anyway, so a sync send waits for its
 * receiver as it did.  A strided one from rt->host.direct_min_strided
 * (mpi_direct_min.c), where the MPI would send it by a rendezvous that
 * needs its sender to run again after the receiver's match, slower than
 * the receiver's one copy: on MPICH from MPI_DIRECT_MIN_STRIDED (its
 * derived datatypes; measured, docs/performance.md, defect 2), on Open
 * MPI from its shared-memory BTL's eager limit (MPI_T: btl_vader_eager_limit,
 * Open MPI 5's btl_sm_eager_limit; MPI_DIRECT_MIN_STRIDED_OMPI, its default,
 * when not read) less MPI_DIRECT_OMPI_HEADERS (the limit counts ob1's and
 * the BTL's headers: at 4096, 4040 strided bytes went eagerly, 4056 not):
 * above it ob1 sends a strided message by a rendezvous whose data the
 * sender pushes once acknowledged, where a contiguous one is pulled by the
 * receiver (single copy) — a halo's second receive from one peer waited
 * for that peer to be scheduled again (docs/performance.md, "Across
 * hosts").  MPI_DIRECT_SLOTS sends may be
 * announced at once (more go through MPI).  A sender withdraws an
 * announcement when its receiver has been blocked in another call for
 * MPI_DIRECT_STUCK_US of its own time on a CPU, or, whatever it does, has
 * not taken it for MPI_DIRECT_LAST_RESORT_US (a receiver inside an MPI
 * call of the program's own shows nothing).  MPI_DIRECT_SPARES buffers of
 * withdrawn messages are kept for the next ones (mpi_buffered_pool). */
#define MPI_DIRECT_MIN (64 * 1024)
#define MPI_DIRECT_MIN_STRIDED (16 * 1024)
#define MPI_DIRECT_MIN_STRIDED_OMPI (4 * 1024)
#define MPI_DIRECT_OMPI_HEADERS 64
/* The address space after the control page of a task with run-time-sized
 * variables, for their storage (mpi_sized.c): reserved, not committed. */
#define MPI_SIZED_HEAP ((size_t)64 << 30)
#define MPI_DIRECT_SLOTS 500
#define MPI_DIRECT_STUCK_US 100
#define MPI_DIRECT_LAST_RESORT_US 1000000
#define MPI_DIRECT_SPARES 4

/* Per point-to-point message, three concerns (mpi_msg below): its
 * datatype, its requests in flight, its part in the one-copy path. */

/* The datatype (mpi_types.c), built from the layer's layout (rt_layout)
 * and kept while the layout's numbers say it serves.  It is relative to
 * the message's first byte (spans[0].base, the buffer passed with it) and
 * keyed by the layout's shape, so that a loop that sends equal blocks
 * from different places (a transposition, a sliding window) builds it
 * once instead of once per call (~8,000 instructions) — or, for a
 * message with pointer items, made of absolute addresses (buffer
 * MPI_BOTTOM) and keyed by the layout's gen. */
typedef struct mpi_msg_types {
    /* first, what the fast paths read */
    uint64_t shape;             /* relative: the layout shape dt is built
                                   for; 0: none (or absolute) */
    MPI_Datatype dt;            /* MPI_DATATYPE_NULL until first built */
    size_t bytes;               /* payload of dt (struct padding does not
                                   travel) */
    /* What the fast paths hand MPI for 1 of dt, the same type signature:
     * contiguous elements of a basic type as call_count of it (MPICH's
     * send of a derived datatype costs ≈ 15 instructions more: callgrind,
     * 8 B ping-pong), anything else 1 of dt. */
    MPI_Datatype call_dt;
    int call_count;
    int basic;                  /* call_dt is MPI's own, not dt */
    int absolute;               /* has user-allocated pointer items */
    uint64_t gen;               /* absolute: the layout dt is built for */
    int contiguous;             /* relative, one item, one block */
    size_t layout_bytes;        /* the sections in memory, padding
                                   included: the size errors speak of */
    size_t *item_bytes;         /* [nitems] the same, per item */
    /* scratch for building dt, sized nitems */
    int *blens;
    MPI_Aint *disps;
    MPI_Datatype *types;
} mpi_msg_types;

/* The async requests in flight (mpi_p2p.c): several may be (a loop over
 * instances). */
typedef struct mpi_msg_reqs {
    int n, cap;
    MPI_Request *reqs;
    MPI_Status *sts;
    size_t *recv_bytes;         /* receive: the payload each must get */
    int *send_dest;             /* send: each one's destination (world rank) */
    /* receive: how many a Test completed before the others, to report one
     * that failed at once (Open MPI's MPI_Testall says "not done" until all
     * are): their requests MPI_REQUEST_NULL, their statuses kept in sts;
     * while non-zero, Test and Wait complete request by request. */
    int completed_first;
} mpi_msg_reqs;

/* The one-copy path between processes of a host (mpi_direct.c), per
 * request of the message. */
typedef struct mpi_msg_direct {
    /* send: each request's announcement, else NULL */
    struct mpi_direct_out **notes;
    int nnotes;                 /* announced sends in flight */
    /* wire: the bytes of an announcement on the message's channel, agreed
     * by the host at MDL_Init (0: no host peer announces on it).  A
     * receive on such a channel is noted (mpi_direct_receives): one of at
     * most `wire` bytes goes through a buffer of MPI_DIRECT_WIRE_MAX, so
     * that an announcement is never cut short or taken for the message
     * and its sender never left waiting, as does an async one of fewer
     * than MPI_DIRECT_OWN_BYTES (mpi_recv_own_bytes; own: one per async
     * request, allocated when first used); and an async one keeps its layout
     * (posted) until its announcement is copied, at its Wait or Test or
     * early, while this process waits for a send of its own (mpi_p2p.c,
     * progress: early). */
    int wire;
    int noted;
    int cap;                    /* requests the arrays below hold */
    unsigned char **own;
    rt_layout *posted;          /* [cap] each async receive's layout, its */
    mdl_span *posted_spans;     /* [cap * nitems] spans copied here */
    unsigned char *early;
    int nlarge;                 /* of the requests, receives that may get an
                                   announcement (more than their bytes) */
} mpi_msg_direct;

/* One record per message (one index for the three: the fast paths touch
 * the first two). */
typedef struct mpi_msg {
    mpi_msg_types types;
    mpi_msg_reqs reqs;
    mpi_msg_direct direct;
} mpi_msg;

/* A message packed into a buffer of its own and in flight from there: a
 * send to the sending instance itself (mpi_self.c), or a
 * withdrawn large message (mpi_direct.c). */
typedef struct mpi_buffered {
    struct mpi_buffered *next;
    MPI_Request req;
    int tag;
    const mdl_msg_desc *m;      /* withdrawn: the message and its receiver's */
    int dest;                   /* world rank, for MDL_End's hang report */
    size_t cap;                 /* bytes data holds */
    char data[];
} mpi_buffered;

/* Buffers of completed buffered sends kept for the next ones, so that a
 * withdrawn message costs no allocation (and no page faults) per message:
 * at most MPI_DIRECT_SPARES, the largest kept. */
typedef struct mpi_buffered_pool {
    int n;
    mpi_buffered *spare[MPI_DIRECT_SPARES];
} mpi_buffered_pool;

/* A send to this instance itself kept by the runtime, not in MPI
 * (mpi_self.c): its buffer, its message, its bytes (a later call of m
 * may have other bounds); its spans (to_self.spans from spans_at,
 * nspans of them: an async one's, until packed) or, packed, the data in
 * x. */
typedef struct mpi_self_kept {
    mpi_buffered *x;
    const mdl_msg_desc *m;
    size_t bytes;
    size_t spans_at;
    int nspans;                 /* 0: packed into x */
} mpi_self_kept;

/* Sends to this instance itself (mpi_self.c). */
typedef struct mpi_to_self {
    mpi_buffered *sends;        /* in MPI, oldest first */
    int n;                      /* of them */
    int reap_at;                /* reaped when n reaches it */
    mpi_buffered_pool spares;
    mpi_self_kept *kept;        /* kept, oldest first */
    int nkept;
    size_t kept_cap;
    mdl_span *spans;            /* theirs */
    size_t nspans, spans_cap;
    int mpi_only;               /* one went through MPI_Isend: none kept since */
    /* The task's receives from its own task, by channel (made at
     * MDL_Init, mpi_self_init): those of channel c are the messages
     * recvs[recv_at[c] .. recv_at[c + 1]) */
    int *recv_at;               /* [nchannels + 1] */
    int *recvs;
} mpi_to_self;

/* A struct element type built once, found by its descriptor. */
typedef struct mpi_struct_type {
    const mdl_type_desc *desc;
    MPI_Datatype dt;
} mpi_struct_type;

/* MPI and where the job's instances run (mpi_init.c). */
typedef struct mpi_job {
    int mpi_ours;               /* we called MPI_Init, so we finalize */
    MPI_Comm world;             /* dup of MPI_COMM_WORLD: p2p traffic */
    MPI_Comm family;            /* this task's instances, ranked by instance */
    /* where MPI raises a completion's error, and the program's handlers
     * there (mpi_errhandlers.c) */
    int raised;
    MPI_Errhandler world_eh, self_eh;
    int world_rank, world_size;
    int host_leader;            /* the lowest world rank of this host (mpi_host.c) */
    int *task_of;               /* [world_size] family of each world rank */
    int *inst_of;               /* [world_size] instance number of each */
    int **rank_of;              /* [ntasks][fam_size] world rank of (task, inst) */
    int status_fast;            /* receive counts read from the MPI's status
                                   (MPICH, Open MPI): 0 not probed yet,
                                   1 yes, -1 no (mpi_p2p.c) */
} mpi_job;

/* What MDL_End's check of messages never received counts on (mpi_p2p.c,
 * unreceived): the messages this process sent on the channels, per
 * destination, and those it took off them — received (an async receive
 * when posted, until MDL_End cancels it), or dropped by MDL_End.  MPI
 * does not say when a message sent has arrived: these counts do. */
typedef struct mpi_tally {
    long long *sent;            /* [world_size] */
    long long taken;
    long long owed;             /* MDL_End: what the job sent this process */
    MPI_Request sum;            /* MDL_End: owed on its way */
} mpi_tally;

/* The tags above the channels (mpi_init.c, start). */
typedef struct mpi_tags {
    int mcast;                  /* + collective index (family communicator) */
    int sb_gather, sb_release;  /* Sbarrier (family communicator) */
    int trace;                  /* MDL_End: the traces to rank 0 */
    int withdrawn;              /* + channel: a withdrawn direct message */
} mpi_tags;

/* Where the task struct lives (mpi_init.c, mpi_direct.c): a memfd (size
 * bytes, then the control page ctl: `mapped` bytes mapped at c.task; fd
 * open during MDL_Init only) — or a caller's object (mdl_init_at: users)
 * whose pages are those of the memfd (alias: the whole file mapped at
 * alias, alias_size bytes) or, one that cannot be, a memfd of the control
 * page alone (size 0, ctl_only) — or, when none can be had, private
 * memory. */
typedef struct mpi_task_mem {
    int users;                  /* c.task is the caller's: not freed */
    size_t user_size;           /* its bytes */
    int fd;
    size_t size, mapped;
    size_t heap;                /* bytes after the control page for the
                                   run-time-sized variables (mpi_sized.c),
                                   0: none (their storage is private then) */
    size_t heap_used;
    uintptr_t heap_lo;          /* its addresses, kept after the unmapping */
    struct mpi_direct_ctl *ctl;
    char *alias;
    size_t alias_size;
    int alias_fd;               /* the memfd, for its extents at the end */
    char *ctl_only;
} mpi_task_mem;

/* The other processes of the host (mpi_direct.c): peer_base[world rank]
 * maps the struct and control page of each (NULL: through MPI;
 * peer_base NULL: none of them), and this process's announced sends. */
typedef struct mpi_host {
    int announces;              /* the struct is shared: large sends may be announced */
    size_t direct_min_strided;  /* MDL_Init: mpi_direct_min_strided() */
    char **peer_base;
    size_t *peer_size;          /* struct bytes, the control page after */
    size_t *peer_span;          /* bytes an announcement may point into: the
                                   struct, or (with a heap) the whole file */
    int nfree_slots;
    int free_slots[MPI_DIRECT_SLOTS];
    /* withdrawn, until their receiver has read the announcement (DONE) */
    int nheld_slots;
    int held_slots[MPI_DIRECT_SLOTS];
    uint64_t slot_gen[MPI_DIRECT_SLOTS];
    int *peer_sched;            /* [world_size] /proc/<pid>/schedstat of each
                                   peer, open (-1: unreadable, the wall
                                   clock counts instead) */
    mpi_buffered *withdrawn;    /* oldest first */
    mpi_buffered_pool spares;   /* of withdrawn messages sent */
    char *unpack;               /* a withdrawn message received, before it is */
    size_t unpack_cap;          /* unpacked: grown, kept until MDL_End */
    int nlarge;                 /* the msgs' direct.nlarge together: none, and a
                                   process waiting or polling has no copy
                                   to make (mpi_p2p.c, progress) */
    unsigned char *wire_bytes;  /* MDL_Init: [nchannels] each channel's
                                   announcement bytes (0: none on it) */
} mpi_host;

/* MDL_TRACE (mpi_trace.c). */
typedef struct mpi_trace_state {
    int on;                     /* every process traces */
    struct rt_trace_img *img;   /* its mapping (the recorder writes it) */
    char *path;                 /* absolute */
    uint64_t job;               /* the job's id, in its parts' names */
    uint64_t slots;
    size_t size;                /* bytes of the image's mapping */
    char why[512];              /* why this process cannot trace */
    /* rank 0, on a job that spans hosts: each host's clock (mpi_clock.c) */
    struct mpi_clock_host *hosts;
    int nhosts;
    int *host_of;               /* [world_size] index in hosts, -1: rank 0's host */
    int spans_hosts;            /* every process: whether the job spans hosts */
} mpi_trace_state;

struct mdl_rt {
    mdl_rt_common c;            /* first: the validation layer's part */
    mpi_job job;
    mpi_tags tags;
    mpi_msg *msgs;              /* [nmsgs] point to point */
    mpi_tally tally;
    struct {                    /* element types of structs (mpi_types.c) */
        int n;
        mpi_struct_type *all;
    } structs;
    mpi_to_self to_self;
    /* sized for the largest family, used by blocking multi-target sends,
     * Mcast and Sbarrier: no allocation on those paths */
    struct {
        MPI_Request *reqs;
        MPI_Status *sts;
        int *targets;
    } scratch;
    struct {                    /* collectives (mpi_coll.c) */
        MPI_Op unsigned_ops[2]; /* MIN, MAX of unsigned types */
        int unsigned_ops_made;
    } coll;
    mpi_task_mem mem;
    mpi_host host;
    mpi_trace_state trace;
};

/* The fatal path (mpi_abort.c).  mpi_exit_armed: between MDL_Init and
 * MDL_End, when an exit is reported (mpi_init.c, exit_hook);
 * mpi_unusable: set by MDL_Init when MPI must not be started, even to
 * end the job (the program was started by mdlrun, or MPI_Init itself
 * failed). */
MDL_HIDDEN extern int mpi_exit_armed;
MDL_HIDDEN extern int mpi_unusable;

/* Where MPI raises the error a request's completion finds (mpi_errhandlers.c):
 * mpi_errhandlers_probe at MDL_Init (the program's handlers kept; the
 * probe itself at the first MDL_Init of the process only), and
 * mpi_completion_errors_returned(rt, 1) before the runtime completes
 * async receives, (rt, 0) after: errors returned there, then the
 * program's handlers back. */
MDL_HIDDEN int mpi_errhandlers_probe(mdl_rt *rt, const char *fn);
MDL_HIDDEN void mpi_errhandlers_free(mdl_rt *rt);
MDL_HIDDEN void mpi_completion_errors_returned(mdl_rt *rt, int on);

/* MPI's errors as MeDLey's (mpi_fail.c): MPI_ERR_TRUNCATE ->
 * MDL_ERR_TRUNCATE, anything else MDL_ERR_INTERN, with MPI's text.
 * what: the call that failed. */
MDL_HIDDEN int mpi_fail(mdl_rt *rt, const char *fn, int mpirc, const char *what);

/* The sync receive a process is blocked in, for its host peers' senders
 * (mpi_direct.c): `block` is its rt_block_begin number while `from`
 * (source << 32 | channel; MPI_ANY_SOURCE as source) is valid.  While
 * nothing is shared, mpi_recv_shared points at a word nobody reads, as
 * rt_block_shared does. */
typedef struct mpi_recv_blocked {
    uint64_t block;
    uint64_t from;
} mpi_recv_blocked;
MDL_HIDDEN extern mpi_recv_blocked *mpi_recv_shared;

static inline uint64_t mpi_recv_word(int src, int channel)
{
    return (uint64_t)(uint32_t)src << 32 | (uint32_t)channel;
}

/* Whether a receive published as `from` matches a message of `rank` on
 * `channel`. */
static inline int mpi_recv_awaits(uint64_t from, int rank, int channel)
{
    return from == mpi_recv_word(rank, channel) || from == mpi_recv_word(MPI_ANY_SOURCE, channel);
}

/* A sync receive of a message, from src on channel of the runtime's
 * communicator, marked blocked (rt_block_begin/_end) and published to
 * the host's peers: an announcement of theirs that it matches is waited
 * for, not withdrawn (two stores).  Every sync receive of a message goes
 * through it. */
static inline __attribute__((always_inline)) int mpi_recv_sync(mdl_rt *rt, void *buf, int count,
                                                               MPI_Datatype dt, int src,
                                                               int channel, MPI_Status *st)
{
    __atomic_store_n(&mpi_recv_shared->from, mpi_recv_word(src, channel), __ATOMIC_RELAXED);
    __atomic_store_n(&mpi_recv_shared->block, rt_nblocks + 1, __ATOMIC_RELEASE);
    rt_block_begin();
    int mpirc = MPI_Recv(buf, count, dt, src, channel, rt->job.world, st);
    rt_block_end();
    return mpirc;
}

/* Datatypes (mpi_types.c): the element types of structs, and per message
 * its datatype (rt->msgs, allocated by be_init).  mpi_types_init: the
 * elements, and the datatype of each message with constant bounds;
 * mpi_types_free: all of them. */
MDL_HIDDEN int mpi_types_init(mdl_rt *rt);
MDL_HIDDEN void mpi_types_free(mdl_rt *rt);
/* MPI type of one element of t (basic or struct built at init). */
MDL_HIDDEN MPI_Datatype mpi_elem_type(mdl_rt *rt, const mdl_type_desc *t);
MDL_HIDDEN void mpi_coll_free(mdl_rt *rt);
/* The datatype of message m for the layout lay, built unless the one
 * cached serves; *buf is the buffer to pass with it (the message's first
 * byte, or MPI_BOTTOM). */
MDL_HIDDEN int mpi_msg_type(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, void **buf,
                            MPI_Datatype *dt);
/* Whether the cached datatype serves lay with its first byte as buffer:
 * the fast paths of be_send_one/be_recv (one compare). */
static inline int mpi_type_serves(const mpi_msg_types *ty, const rt_layout *lay)
{
    return ty->shape == lay->shape;
}
/* `payload` bytes received for m, as the bytes they fill in memory
 * (struct padding counted), so that a size error reads as on the other
 * runtime. */
MDL_HIDDEN size_t mpi_types_memory_bytes(const mdl_msg_desc *m, const mpi_msg_types *ty,
                                         size_t payload);

/* Requests (mpi_p2p.c): every message's requests, freed (MDL_End has
 * completed or cancelled them). */
MDL_HIDDEN void mpi_reqs_free(mdl_rt *rt);

/* The task struct as a memfd (NULL: allocate it privately). */
MDL_HIDDEN void *mpi_direct_alloc(mdl_rt *rt, size_t size);
/* A caller's task object (mdl_init_at) of `size` bytes given the pages of
 * a memfd, when it is whole pages (else it stays as it is, and the host's
 * large messages go through MPI). */
MDL_HIDDEN void mpi_direct_alias(mdl_rt *rt, void *obj, size_t size);
/* Collective over the job: in *host the processes that share this
 * process's host (mpi_host.c), else an error (reported). */
MDL_HIDDEN int mpi_host_comm(mdl_rt *rt, const char *fn, MPI_Comm *host);
/* Collective: the host's processes map each other's structs, or none. */
MDL_HIDDEN int mpi_direct_start(mdl_rt *rt, const char *fn);
/* The smallest strided message that takes the one-copy path (after
 * MPI_Init), above MPI_DIRECT_WIRE_MAX and at most MPI_DIRECT_MIN. */
MDL_HIDDEN size_t mpi_direct_min_strided(void);
MDL_HIDDEN void mpi_direct_unmap_peers(mdl_rt *rt);
MDL_HIDDEN void mpi_direct_free(mdl_rt *rt);
/* What a sender waiting for its receiver runs meanwhile: the copies this
 * process owes (its async receives that got an announcement, mpi_p2p.c),
 * since its receiver may be waiting for one of them.  Passed down by
 * point to point, so that the one-copy path does not call back into it. */
typedef void mpi_progress_fn(mdl_rt *rt);
/* A send of m, laid out as lay, to world rank dest, a host peer: 1 when
 * m cannot take the direct path (then it goes through MPI), else 0 or an
 * error.  Sync: it returns once the receiver has copied it or it was
 * withdrawn; async: one request (the announcement), room reserved by the
 * caller, completed by mpi_direct_sends_done. */
MDL_HIDDEN int mpi_direct_send(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay,
                               int dest, mpi_progress_fn *progress);
/* A receive that got its message's wire bytes, with host peers (peer_base):
 * 1 when it is not an announcement, else the message copied from the
 * sender (0) or an error.  spans: the receive's layout (m->nitems).  copy:
 * MPI_DIRECT_COPY; MPI_DIRECT_RELEASE: the sender is only released
 * (MDL_End, a failed Wait); MPI_DIRECT_EARLY: copied now if it fits and
 * its slot is still posted, else 1 and nothing done, never an error (a
 * receive completed while this process waits for its own send, for its
 * Wait or Test to report). */
enum { MPI_DIRECT_RELEASE, MPI_DIRECT_COPY, MPI_DIRECT_EARLY };
MDL_HIDDEN int mpi_direct_recv(mdl_rt *rt, const char *fn, const mdl_msg_desc *m,
                               const MPI_Status *st, const mdl_span *spans, int copy);
/* An announcement in a sender's control page (mpi_direct.c): where the
 * sender's section lies, its span, base as an offset into the sender's
 * struct; whom and which channel it is for (a receiver checks the wire's
 * slot against them); its slot and generation. */
typedef struct mpi_direct_note {
    uint64_t bytes;             /* the section's bytes (its span's total) */
    uint64_t offset;            /* of the span's base in the sender's struct */
    uint64_t block;
    int64_t nloops;
    int64_t count[MDL_MAX_DIMS];
    int64_t stride[MDL_MAX_DIMS];
    int64_t dest;               /* world rank */
    int64_t channel;
    uint64_t slot;
    uint64_t gen;
} mpi_direct_note;
/* What mpi_direct_is_note found, handed to mpi_direct_recv_small so that
 * the slot is looked up once: the slot's word (0: no announcement, or
 * none looked for) and the announcement read there. */
typedef struct mpi_direct_found {
    uint64_t slot_word;
    mpi_direct_note note;
} mpi_direct_found;
/* Whether what a receive through a buffer of its own (noted) got, its
 * message's wire bytes, is an announcement to this process, not the
 * message: what was found in *found. */
MDL_HIDDEN int mpi_direct_is_note(mdl_rt *rt, const mdl_msg_desc *m, const MPI_Status *st,
                                  const void *got, mpi_direct_found *found);
/* mpi_direct_recv for such a receive, which got `got` (its message's
 * wire bytes); total: the receive's bytes; found: what mpi_direct_is_note
 * found for it (NULL or slot_word 0: looked up here).  Nothing is copied:
 * an announced message is always larger than such a receive
 * (MDL_ERR_TRUNCATE with copy). */
MDL_HIDDEN int mpi_direct_recv_small(mdl_rt *rt, const char *fn, const mdl_msg_desc *m,
                                     const MPI_Status *st, const void *got, size_t total,
                                     int copy, const mpi_direct_found *found);
/* After mpi_types_init: which receives are noted (mpi_msg_direct). */
MDL_HIDDEN void mpi_direct_receives(mdl_rt *rt);
/* The announced sends among m's requests (their MPI requests complete):
 * 1 when all are complete, 0 when not yet (only if !block), or an error
 * (of the Wait, wait 1, or Test of m). */
MDL_HIDDEN int mpi_direct_sends_done(mdl_rt *rt, const mdl_msg_desc *m, int wait, int block,
                                     mpi_progress_fn *progress);
/* Buffered sends (mpi_buffered.c): x appended to *list; those complete
 * kept in pool (NULL: freed), how many; one kept (a buffer not in
 * flight); a buffer of at least `bytes` from pool, else allocated (NULL:
 * out of memory); the pool emptied.  Reaping tests MPI_BUFFERED_BATCH
 * requests a call (on the stack). */
#define MPI_BUFFERED_BATCH 64
MDL_HIDDEN void mpi_buffered_append(mpi_buffered **list, mpi_buffered *x);
MDL_HIDDEN int mpi_buffered_reap(mpi_buffered **list, mpi_buffered_pool *pool);
MDL_HIDDEN void mpi_buffered_keep(mpi_buffered_pool *pool, mpi_buffered *x);
MDL_HIDDEN mpi_buffered *mpi_buffered_get(mpi_buffered_pool *pool, size_t bytes);
MDL_HIDDEN void mpi_buffered_pool_free(mpi_buffered_pool *pool);
/* Frees the announcements of the first n requests of a send. */
MDL_HIDDEN void mpi_direct_release(mpi_msg_direct *dx, int n);
/* Room for `cap` requests of m in its one-copy arrays (grown with its
 * requests, mpi_p2p.c): a send's announcements, with host peers; a noted
 * receive's layout, early flag and own buffer.  0: out of memory. */
MDL_HIDDEN int mpi_direct_reserve(mdl_rt *rt, const mdl_msg_desc *m, int cap);
/* MDL_End: every withdrawn message received. */
MDL_HIDDEN void mpi_direct_flush(mdl_rt *rt);
/* MDL_End before its barrier: the hang line names the receiver of the
 * first withdrawn copy still in flight, which the barrier then waits for. */
MDL_HIDDEN void mpi_direct_name_pending(mdl_rt *rt);
/* An announcement on the wire is a slot of its sender's control page
 * (where the rest of it is) in MPI_DIRECT_WIRE_MIN bytes, padded to the
 * largest element of its channel's messages on the host (a strided
 * receive takes no part of an element: MPICH fails it), so that
 * receives of more than that many bytes receive in place: one of
 * exactly that many is looked at twice (the message, or an
 * announcement of a larger one?).  MPI_DIRECT_WIRE_MAX: the largest
 * element of a basic type (structs are never announced). */
#define MPI_DIRECT_WIRE_MIN 4
#define MPI_DIRECT_WIRE_MAX 8
/* An async receive of fewer bytes on a noted channel goes through a
 * buffer of its own this size: its announcement is read at its Wait or
 * Test, or at MDL_End, by when a program may have written where it
 * landed (a receive never waited for, its variable used again). */
#define MPI_DIRECT_OWN_BYTES 192

/* The buffer of its own a receive of m of `bytes` goes through, its size
 * (0: it receives in place): on a noted channel, a sync one of at most
 * the wire's bytes, MPI_DIRECT_WIRE_MAX; an async one of fewer than
 * MPI_DIRECT_OWN_BYTES, that many.  The one rule for point to point
 * (mpi_p2p.c) and for a send to itself taken (mpi_self.c). */
static inline size_t mpi_recv_own_bytes(const mdl_rt *rt, const mdl_msg_desc *m, size_t bytes)
{
    const mpi_msg_direct *dx = &rt->msgs[m->index].direct;
    if (!dx->noted)
        return 0;
    if (m->async)
        return bytes < MPI_DIRECT_OWN_BYTES ? MPI_DIRECT_OWN_BYTES : 0;
    return bytes <= (size_t)dx->wire ? MPI_DIRECT_WIRE_MAX : 0;
}

/* A message sent on a channel to world rank dest (mpi_tally). */
static inline void mpi_count_sent(mdl_rt *rt, int dest)
{
    rt->tally.sent[dest]++;
}

/* MDL_End: every async send completed, every async receive cancelled,
 * sends to itself not received cancelled. */
MDL_HIDDEN int mpi_p2p_end(mdl_rt *rt);

/* Sends to this instance itself (mpi_self.c): the index of the task's
 * receives from itself made (MDL_Init; 0, or out of memory reported); one sent (buf, dt: the
 * call's, for a layout only MPI_Pack packs), kept or in MPI; a sync
 * receive from itself (or MDL_ANY) taking the first kept one of its
 * channel (1: not taken, go through MPI); the kept ones posted to MPI, in
 * order (0, or the first error, under its send's name); the async ones of
 * m packed (its Test or Wait: their data may change after); the list
 * and the index freed at MDL_End (or a failed MDL_Init). */
MDL_HIDDEN int mpi_self_init(mdl_rt *rt);
MDL_HIDDEN int mpi_self_send(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, void *buf,
                             MPI_Datatype dt);
MDL_HIDDEN int mpi_self_recv(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int from);
#define MPI_SELF_NONE INT_MIN   /* mpi_self_recv: none taken, through MPI */
MDL_HIDDEN int mpi_self_flush(mdl_rt *rt);
MDL_HIDDEN void mpi_self_pack(mdl_rt *rt, const mdl_msg_desc *m);
MDL_HIDDEN void mpi_self_free(mdl_rt *rt);

/* First thing in every call of the process that needs the kept sends to
 * itself in MPI (collectives, barriers, MDL_End, sends to itself through
 * MPI): a test when there is none. */
static inline int mpi_self_flushed(mdl_rt *rt)
{
    return __builtin_expect(rt->to_self.nkept != 0, 0) ? mpi_self_flush(rt) : 0;
}

/* First thing in a Test or Wait of m: a test when none is kept. */
static inline void mpi_self_packed(mdl_rt *rt, const mdl_msg_desc *m)
{
    if (__builtin_expect(rt->to_self.nkept != 0, 0))
        mpi_self_pack(rt, m);
}

/* Tracing (mpi_trace.c).  mpi_trace_wanted: this process's MDL_TRACE, sent
 * to all with the identification (MPI_TRACE_*); mpi_trace_agree: all
 * processes trace or none (else MDL_ERR_LAUNCH); mpi_trace_start: the image
 * and the common clock moment; mpi_trace_collect: at MDL_End, rank 0
 * writes the file; mpi_trace_free. */
enum { MPI_TRACE_OFF, MPI_TRACE_ON, MPI_TRACE_BAD };
MDL_HIDDEN int mpi_trace_wanted(mdl_rt *rt);
MDL_HIDDEN int mpi_trace_agree(mdl_rt *rt, const unsigned long long *all, int stride);
MDL_HIDDEN int mpi_trace_start(mdl_rt *rt);
MDL_HIDDEN int mpi_trace_collect(mdl_rt *rt);
MDL_HIDDEN void mpi_trace_free(mdl_rt *rt);
/* Each host's clock against world rank 0's (mpi_clock.c), when the job
 * spans hosts: collective, at MDL_Init (end = 0) and MDL_End (end = 1);
 * rank 0 keeps the offsets.  0, or an error (reported). */
MDL_HIDDEN int mpi_clock_measure(mdl_rt *rt, int end);
/* Rank 0: the images' clocks moved onto its own (heads[world rank]);
 * 1 when they were (the job spans hosts), 0 when the barrier of MDL_Init
 * aligns them.  *text: what was measured, for otherData (malloc'd, or
 * NULL). */
MDL_HIDDEN int mpi_clock_apply(mdl_rt *rt, struct rt_trace_img **heads, char **text);
MDL_HIDDEN void mpi_clock_free(mdl_rt *rt);
/* The job as the trace file describes it (mpi_trace_job.c): insts, one per
 * world rank, with no image yet. */
struct rt_trace_job;
struct rt_trace_inst;
MDL_HIDDEN void mpi_trace_job(mdl_rt *rt, struct rt_trace_job *job, struct rt_trace_inst *insts);
/* This process's image, from the recorder's own counts (never read back
 * from its part, which others may write), checked; NULL with the reason
 * in why (mpi_trace_job.c). */
MDL_HIDDEN struct rt_trace_img *mpi_trace_own_image(mdl_rt *rt, char *why, size_t len);

#endif
