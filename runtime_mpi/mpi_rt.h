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

#include "rt_common.h"

/* The functions of mdl_rt.h are the library's interface; everything else
 * is hidden (-fvisibility=hidden). */
#define MDL_API __attribute__((visibility("default")))

/* Per point-to-point message: its datatype (cached for the last bounds
 * and pointer values) and its in-flight async requests. */
typedef struct mdl_msg_state {
    MPI_Datatype dt;            /* MPI_DATATYPE_NULL until first built */
    int absolute;               /* has pointer items: displacements are
                                   absolute addresses, buffer MPI_BOTTOM */
    int nkey;                   /* bounds + pointer values identifying dt */
    long *key;                  /* the values dt was built for */
    size_t bytes;               /* payload size of dt */
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
    /* neighbour messages: the peer instance, once the grid exists */
    int has_nb, nb;
} mdl_msg_state;

/* A struct element type built once, found by its descriptor. */
typedef struct mdl_struct_type {
    const mdl_type_desc *desc;
    MPI_Datatype dt;
} mdl_struct_type;

enum { RT_NONE, RT_ACTIVE, RT_ENDED };

struct mdl_rt {
    int state;
    const mdl_task_desc *d;
    mdl_who who;
    int mpi_ours;               /* we called MPI_Init, so we finalize */
    MPI_Comm world;             /* dup of MPI_COMM_WORLD: p2p traffic */
    MPI_Comm family;            /* this task's instances, ranked by instance */
    int world_rank, world_size;
    int *task_of;               /* [world_size] family of each world rank */
    int *inst_of;               /* [world_size] instance number of each */
    int *task_size;             /* [ntasks] instances per task */
    int **rank_of;              /* [ntasks][task_size] world rank of (task, inst) */
    int self, inst, nfamily;
    void *task;
    int task_users;             /* task is the caller's (mdl_init_at): not freed */

    mdl_msg_state *msgs;        /* [nmsgs] */
    int nstructs;
    mdl_struct_type *structs;

    /* scratch sized for the largest family, used by blocking multi-target
       sends, Mcast and Sbarrier: no allocation on those paths */
    MPI_Request *scratch_reqs;
    MPI_Status *scratch_sts;
    char *seen;                 /* duplicate detection in instance lists */
    int *targets;

    int status_fast;            /* receive counts read from MPICH's status:
                                   0 not probed yet, 1 yes, -1 no (mpi_p2p.c) */
    int tag_mcast;              /* + collective index */
    int tag_sb_gather, tag_sb_release;

    /* grid */
    int grid_ndims;             /* 0 until MDL_Grid_Create */
    MPI_Comm cart;
    int dims[3], periodic[3], coords[3];
};

MDL_HIDDEN extern struct mdl_rt mdl_the_rt;

/* Error report through mdl_fail with this instance's identity; aborts with
 * MPI_Abort unless MDL_ERRORS=return.  Returns code. */
MDL_HIDDEN int rt_fail(mdl_rt *rt, const char *fn, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Maps a failed MPI call: MPI_ERR_TRUNCATE -> MDL_ERR_TRUNCATE, anything
 * else MDL_ERR_INTERN, with MPI's text.  what: the call that failed. */
MDL_HIDDEN int rt_mpi_fail(mdl_rt *rt, const char *fn, int mpirc, const char *what);
/* MDL_ERR_STATE unless rt is the active runtime. */
MDL_HIDDEN int rt_check(mdl_rt *rt, const char *fn);
/* Checks a list of instances of `task`: in range, no duplicates.
 * Leaves rt->seen clear. */
MDL_HIDDEN int rt_check_list(mdl_rt *rt, const char *fn, int task,
                             const int *insts, int n, int code);

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

/* The cached datatype of m if it needs no work for these bounds (buffer:
 * the task struct), else MPI_DATATYPE_NULL: then call rt_msg_type.  Inline
 * for the fast paths of mdl_send/mdl_recv. */
static inline MPI_Datatype rt_msg_type_cached(const mdl_msg_desc *m, const mdl_msg_state *s,
                                              const long *bounds)
{
    if (s->dt == MPI_DATATYPE_NULL || s->absolute)
        return MPI_DATATYPE_NULL;
    if (m->fixed_bounds || m->npairs == 0)
        return s->dt;
    if (!bounds)
        return MPI_DATATYPE_NULL;
    for (int i = 0; i < 2 * m->npairs; i++)
        if (s->key[i] != bounds[i])
            return MPI_DATATYPE_NULL;
    return s->dt;
}

/* Grid neighbour lookups (mpi_grid.c); fn names the caller. */
MDL_HIDDEN int rt_neighbor(mdl_rt *rt, const char *fn, const int offset[3]);

#endif
