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

/* Per point-to-point message: its datatype (cached for the last bounds
 * and pointer values) and its in-flight async requests. */
/* Large messages on one host (mpi_direct.c).  Messages of at least
 * MPI_DIRECT_MIN bytes take it: the size above which MPICH's shared-memory
 * path is a rendezvous anyway, so a sync send waits for its receiver as it
 * did.  MPI_DIRECT_SLOTS sends may be announced at once (more go through
 * MPI); a sender withdraws an announcement when its receiver has been
 * blocked in another call for MPI_DIRECT_STUCK_US, or has not taken it
 * for MPI_DIRECT_PATIENCE_US. */
#define MPI_DIRECT_MIN (64 * 1024)
#define MPI_DIRECT_SLOTS 500
#define MPI_DIRECT_STUCK_US 100
#define MPI_DIRECT_PATIENCE_US 10000

typedef struct mdl_msg_state {
    MPI_Datatype dt;            /* MPI_DATATYPE_NULL until first built */
    int absolute;               /* has pointer items: displacements are
                                   absolute addresses, buffer MPI_BOTTOM */
    /* One section of a declared variable with run-time bounds: dt depends
     * only on the section's shape (hi - lo per dimension), so it is built
     * relative to the section's first byte, keyed by the shape, and the
     * position is added at each call.  A loop that sends equal blocks from
     * different places (a transposition, a sliding window) builds it once
     * instead of once per call (~8,000 instructions). */
    int by_shape;
    size_t row_bytes[MDL_MAX_DIMS];     /* by_shape: bytes per index step */
    /* by_shape: the bounds of the last call checked against dt and where
     * they put the section, so that a loop sending from the same place
     * compares its bounds instead of checking them again (last_ok: 0 after
     * any rebuild of dt) */
    int last_ok;
    long last[2 * MDL_MAX_DIMS];
    size_t last_off;
    int nkey;                   /* bounds + pointer values identifying dt */
    long *key;                  /* the values dt was built for (by_shape:
                                   hi - lo per dimension) */
    size_t bytes;               /* payload size of dt (struct padding does
                                   not travel) */
    size_t layout_bytes;        /* the same sections in memory, padding
                                   included: the size errors speak of */
    /* scratch for building dt, sized nitems */
    mdl_span *spans;
    int *blens;
    MPI_Aint *disps;
    MPI_Datatype *types;
    /* async requests: several may be in flight (a loop over instances) */
    int nreq, capreq;
    MPI_Request *reqs;
    MPI_Status *sts;
    size_t *expect;             /* receive: bytes the request must get;
                                   send: its destination's world rank */
    /* one host, large messages (mpi_direct.c): per request, a send's
     * announcement (else NULL) and a receive's bounds (2 * npairs) */
    struct mpi_direct_out **notes;
    int ndirect;                /* announced sends in flight (notes[k] set) */
    long *rbounds;
    /* per async receive: its announcement was copied already, while this
     * process waited for a send of its own (mpi_p2p_progress) */
    unsigned char *early;
    int nlarge;                 /* of the requests, receives that may get an
                                   announcement (more than its bytes) */
    /* a receive on a channel where a host peer may announce a large
     * message (mpi_direct_receives): one smaller than an announcement
     * goes through a buffer of MPI_DIRECT_NOTE_BYTES, so that an
     * announcement is never cut short and its sender never left waiting
     * (own: one per async request, allocated when first used) */
    int small_notes;
    unsigned char **own;
} mdl_msg_state;

/* A message packed into a buffer of its own and in flight from there: a
 * sync send to the sending instance itself (mpi_p2p.c, send_self), or a
 * withdrawn large message (mpi_direct.c). */
typedef struct mdl_self_send {
    struct mdl_self_send *next;
    MPI_Request req;
    int tag;
    const mdl_msg_desc *m;      /* withdrawn: the message and its receiver's */
    int dest;                   /* world rank, for MDL_End's hang report */
    char data[];
} mdl_self_send;

/* A struct element type built once, found by its descriptor. */
typedef struct mdl_struct_type {
    const mdl_type_desc *desc;
    MPI_Datatype dt;
} mdl_struct_type;

struct mdl_rt {
    mdl_rt_common c;            /* first: the validation layer's part */
    int mpi_ours;               /* we called MPI_Init, so we finalize */
    MPI_Comm world;             /* dup of MPI_COMM_WORLD: p2p traffic */
    MPI_Comm family;            /* this task's instances, ranked by instance */
    int world_rank, world_size;
    int *task_of;               /* [world_size] family of each world rank */
    int *inst_of;               /* [world_size] instance number of each */
    int **rank_of;              /* [ntasks][fam_size] world rank of (task, inst) */
    int task_users;             /* c.task is the caller's (mdl_init_at): not freed */
    size_t user_size;           /* its bytes */

    mdl_msg_state *msgs;        /* [nmsgs] */
    int nstructs;
    mdl_struct_type *structs;

    /* scratch sized for the largest family, used by blocking multi-target
       sends, Mcast and Sbarrier: no allocation on those paths */
    MPI_Request *scratch_reqs;
    MPI_Status *scratch_sts;
    int *targets;

    MPI_Op unsigned_ops[2];     /* MIN, MAX of unsigned types (mpi_coll.c) */
    int unsigned_ops_made;
    MPI_Errhandler world_eh;    /* MPI_COMM_WORLD's handler (mpi_p2p.c) */
    int status_fast;            /* receive counts read from MPICH's status:
                                   0 not probed yet, 1 yes, -1 no (mpi_p2p.c) */
    mdl_self_send *self_sends;  /* oldest first */
    int tag_mcast;              /* + collective index */
    int tag_sb_gather, tag_sb_release;
    int tag_trace;              /* MDL_End: the traces to rank 0 */
    int tag_withdrawn;          /* + channel: a withdrawn direct message */

    /* Large messages on one host (mpi_direct.c): the task struct is a
     * memfd (task_size bytes, then the control page, own_ctl: task_mapped
     * bytes mapped at c.task; task_fd open during MDL_Init only) — or a
     * caller's object whose pages are those of the memfd (alias: the
     * whole file mapped at alias, alias_size bytes) or, one that cannot
     * be, a memfd of the control page alone (task_size 0) — and
     * peer_base[world rank] maps the struct and control page of each
     * other process of the host (NULL: through MPI; peer_base NULL: none
     * of them). */
    int task_fd;
    size_t task_size, task_mapped;
    struct mpi_direct_ctl *own_ctl;
    char *alias;
    size_t alias_size;
    int alias_fd;               /* the memfd, for its extents at the end */
    char *ctl_only;             /* a caller's object not aliased: its control page alone */
    int announces;              /* the struct is shared: large sends may be announced */
    char **peer_base;
    size_t *peer_size;          /* struct bytes, the control page after */
    int nfree_slots;
    int free_slots[MPI_DIRECT_SLOTS];
    uint64_t slot_gen[MPI_DIRECT_SLOTS];
    mdl_self_send *withdrawn;   /* oldest first */
    int nlarge;                 /* the msgs' nlarge together: none, and a
                                   process waiting or polling has no copy
                                   to make (mpi_p2p_progress) */
    unsigned char *note_channels;       /* MDL_Init: [nchannels] announcing */

    /* MDL_TRACE (mpi_trace.c) */
    int trace_on;               /* every process traces */
    struct rt_trace_img *trace_img;     /* its mapping (the recorder writes it) */
    char *trace_path;           /* absolute */
    uint64_t trace_job;         /* the job's id, in its parts' names */
    uint64_t trace_slots;
    size_t trace_size;          /* bytes of the image's mapping */
    char trace_why[512];        /* why this process cannot trace */
};

/* Maps a failed MPI call: MPI_ERR_TRUNCATE -> MDL_ERR_TRUNCATE, anything
 * else MDL_ERR_INTERN, with MPI's text.  what: the call that failed. */
MDL_HIDDEN int rt_mpi_fail(mdl_rt *rt, const char *fn, int mpirc, const char *what);

/* Datatypes (mpi_types.c). */
MDL_HIDDEN int rt_types_init(mdl_rt *rt);
MDL_HIDDEN void rt_types_free(mdl_rt *rt);
/* MPI type of one element of t (basic or struct built at init). */
MDL_HIDDEN MPI_Datatype rt_elem_type(mdl_rt *rt, const mdl_type_desc *t);
MDL_HIDDEN void mpi_coll_free(mdl_rt *rt);
/* The datatype of message m for these bounds, rebuilt only when bounds or
 * pointer values changed since the last call; *buf is the buffer to pass
 * with it (the task struct, or MPI_BOTTOM). */
MDL_HIDDEN int rt_msg_type(mdl_rt *rt, const mdl_msg_desc *m, void *task,
                           const long *bounds, void **buf, MPI_Datatype *dt);
/* `payload` bytes received for m, as the bytes they fill in memory
 * (struct padding counted), so that a size error reads as on the other
 * runtime. */
MDL_HIDDEN size_t rt_layout_bytes(const mdl_msg_desc *m, const mdl_msg_state *s,
                                  size_t payload);

/* The cached datatype of m if it needs no work for these bounds, and in
 * *buf the buffer to pass with it; else MPI_DATATYPE_NULL: then call
 * rt_msg_type.  Inline for the fast paths of be_send_one/be_recv (forced:
 * GCC left it out of line once the last-bounds compare was added, at ~15
 * instructions a call more). */
static inline __attribute__((always_inline)) MPI_Datatype
rt_msg_type_cached(const mdl_msg_desc *m, mdl_msg_state *s, void *task, const long *bounds,
                   void **buf)
{
    if (s->dt == MPI_DATATYPE_NULL || s->absolute)
        return MPI_DATATYPE_NULL;
    *buf = task;
    if (m->fixed_bounds || m->npairs == 0)
        return s->dt;
    if (!bounds)
        return MPI_DATATYPE_NULL;
    if (s->by_shape) {
        int n = 2 * m->npairs;
        long diff = !s->last_ok;    /* one test for all: no branch per bound */
        for (int i = 0; i < n; i += 2)
            diff |= (bounds[i] ^ s->last[i]) | (bounds[i + 1] ^ s->last[i + 1]);
        if (!diff) {
            *buf = (char *)task + s->last_off;
            return s->dt;
        }
        const mdl_item_desc *it = &m->items[0];
        size_t off = it->offset;
        for (int d = 0; d < m->npairs; d++) {
            long lo = bounds[2 * d], hi = bounds[2 * d + 1];
            /* the checks of mdl_item_span, in this order so that nothing
             * overflows; a failing one is reported by the general path */
            if (lo < 0 || hi >= it->extent[d] || hi < lo - 1 || hi - lo != s->key[d])
                return MPI_DATATYPE_NULL;
            off += (size_t)lo * s->row_bytes[d];
        }
        for (int i = 0; i < n; i++)
            s->last[i] = bounds[i];
        s->last_off = off;
        s->last_ok = 1;
        *buf = (char *)task + off;
        return s->dt;
    }
    for (int i = 0; i < 2 * m->npairs; i++)
        if (s->key[i] != bounds[i])
            return MPI_DATATYPE_NULL;
    return s->dt;
}

/* The task struct as a memfd (NULL: allocate it privately). */
MDL_HIDDEN void *mpi_direct_alloc(mdl_rt *rt, size_t size);
/* A caller's task object (mdl_init_at) of `size` bytes given the pages of
 * a memfd, when it is whole pages (else it stays as it is, and the host's
 * large messages go through MPI). */
MDL_HIDDEN void mpi_direct_alias(mdl_rt *rt, void *obj, size_t size);
/* Collective: the host's processes map each other's structs, or none. */
MDL_HIDDEN int mpi_direct_start(mdl_rt *rt, const char *fn);
MDL_HIDDEN void mpi_direct_unmap_peers(mdl_rt *rt);
MDL_HIDDEN void mpi_direct_free(mdl_rt *rt);
/* A send of m to world rank dest, a host peer: 1 when m cannot take the
 * direct path (then it goes through MPI), else 0 or an error.  Sync: it
 * returns once the receiver has copied it or it was withdrawn; async: one
 * request (the announcement), room reserved by the caller, completed by
 * mpi_direct_sends_done. */
MDL_HIDDEN int mpi_direct_send(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s,
                               void *task, const long *bounds, int dest);
/* A receive that got MPI_DIRECT_NOTE_BYTES, with host peers (peer_base):
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
/* The same for a receive smaller than an announcement, which got `got`
 * (MPI_DIRECT_NOTE_BYTES of it) in a buffer of its own (small_notes);
 * total: the receive's bytes.  Nothing is copied: an announced message
 * is always larger than such a receive (MDL_ERR_TRUNCATE with copy). */
MDL_HIDDEN int mpi_direct_recv_small(mdl_rt *rt, const char *fn, const mdl_msg_desc *m,
                                     const MPI_Status *st, const void *got, size_t total,
                                     int copy);
/* After rt_types_init: small_notes of the receives. */
MDL_HIDDEN void mpi_direct_receives(mdl_rt *rt);
/* The announced sends among s's requests (their MPI requests complete):
 * 1 when all are complete, 0 when not yet (only if !block), or an error
 * (of the Wait, wait 1, or Test of m). */
MDL_HIDDEN int mpi_direct_sends_done(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s,
                                     int wait, int block);
/* Buffered sends (mdl_self_send): x appended to *list; those complete
 * freed. */
MDL_HIDDEN void mpi_buffered_append(mdl_self_send **list, mdl_self_send *x);
MDL_HIDDEN void mpi_buffered_reap(mdl_self_send **list);
/* Frees the announcements of the first n requests of s. */
MDL_HIDDEN void mpi_direct_release(mdl_msg_state *s, int n);
/* While a sender waits (mpi_p2p.c): the async receives posted by this
 * process that have completed are completed now, so that an announcement
 * among them is copied and its sender, which may be waiting for this
 * one's copy in turn, released. */
MDL_HIDDEN void mpi_p2p_progress(mdl_rt *rt);
/* MDL_End: every withdrawn message received. */
MDL_HIDDEN void mpi_direct_flush(mdl_rt *rt);
/* MDL_End before its barrier: the hang line names the receiver of the
 * first withdrawn copy still in flight, which the barrier then waits for. */
MDL_HIDDEN void mpi_direct_name_pending(mdl_rt *rt);
/* Size of an announcement: a receive of exactly this many bytes is looked
 * at twice (was it the message, or an announcement of a larger one?). */
#define MPI_DIRECT_NOTE_BYTES (64 + 16 * MDL_MAX_DIMS)

/* MDL_End: every async send completed, every async receive cancelled,
 * sends to itself not received cancelled. */
MDL_HIDDEN int rt_complete_all(mdl_rt *rt);

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

#endif
