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

#include "rt_backend.h"

/* Per point-to-point message: its datatype (cached for the last bounds
 * and pointer values) and its in-flight async requests. */
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
    size_t *expect;             /* receive: bytes the request must get */
} mdl_msg_state;

/* A sync send to the sending instance itself, packed into a buffer of its
 * own and in flight from there (mpi_p2p.c, send_self). */
typedef struct mdl_self_send {
    struct mdl_self_send *next;
    MPI_Request req;
    int tag;
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

    mdl_msg_state *msgs;        /* [nmsgs] */
    int nstructs;
    mdl_struct_type *structs;

    /* scratch sized for the largest family, used by blocking multi-target
       sends, Mcast and Sbarrier: no allocation on those paths */
    MPI_Request *scratch_reqs;
    MPI_Status *scratch_sts;
    int *targets;

    MPI_Errhandler world_eh;    /* MPI_COMM_WORLD's handler (mpi_p2p.c) */
    int status_fast;            /* receive counts read from MPICH's status:
                                   0 not probed yet, 1 yes, -1 no (mpi_p2p.c) */
    mdl_self_send *self_sends;  /* oldest first */
    int tag_mcast;              /* + collective index */
    int tag_sb_gather, tag_sb_release;
    int tag_trace;              /* MDL_End: the traces to rank 0 */

    /* MDL_TRACE (mpi_trace.c) */
    int trace_on;               /* every process traces */
    struct rt_trace_img *trace_img;
    char *trace_path;           /* absolute */
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
