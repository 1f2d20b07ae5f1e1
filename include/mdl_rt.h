/* mdl_rt.h — the interface between generated code and a runtime.
 *
 * Generated task sources include only this header (never mpi.h): the same
 * TMDL.c links with libmdl_mpi or libmdl_shm, which both implement every
 * function declared here.  User programs do not call these directly.
 *
 * Descriptions are static tables emitted by medleyc, one per message and
 * collective.  A runtime may build whatever it needs from them (MPI derived
 * datatypes, copy plans) once, in mdl_init, and keep it per message index. */
#ifndef MDL_RT_H
#define MDL_RT_H

#include <stddef.h>
#include <stdint.h>
#include "mdl.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MDL_MAX_DIMS 8          /* dims of a `uses` variable */

/* Version of this interface (the descriptor tables below and the calls):
 * medleyc writes the version it generates for into every task descriptor
 * (mdl_task_desc.abi = MDL_ABI_MAGIC | version) and MDL_Init refuses code
 * generated for another one.  It is also the major number of the
 * libraries' sonames (libmdl_mpi.so.N, libmdl_shm.so.N).  Change it with
 * any incompatible change of this file. */
#define MDL_ABI_VERSION 5
#define MDL_ABI_MAGIC   0x4d444c4142490000ULL   /* "MDLABI" in the high bytes */
#define MDL_ABI         (MDL_ABI_MAGIC | MDL_ABI_VERSION)

/* Element types. */
enum mdl_base {
    MDL_T_CHAR, MDL_T_SCHAR, MDL_T_UCHAR,
    MDL_T_SHORT, MDL_T_USHORT,
    MDL_T_INT, MDL_T_UINT,
    MDL_T_LONG, MDL_T_ULONG,
    MDL_T_LLONG, MDL_T_ULLONG,
    MDL_T_FLOAT, MDL_T_DOUBLE,
    MDL_T_STRUCT,               /* described by fields */
    MDL_T_NBASE
};

struct mdl_type_desc;

/* One member of a struct type: `count` consecutive elements of `base`
 * (or of the struct type `sub` when base == MDL_T_STRUCT) at `offset`. */
typedef struct mdl_field_desc {
    int base;
    const struct mdl_type_desc *sub;
    long count;                 /* 1 for a scalar member; product of dims for an array */
    size_t offset;              /* offsetof(struct S, member) */
} mdl_field_desc;

typedef struct mdl_type_desc {
    const char *name;           /* "double", "Particle" */
    int base;                   /* enum mdl_base */
    size_t size;                /* sizeof */
    int nfields;                /* MDL_T_STRUCT only */
    const mdl_field_desc *fields;
} mdl_type_desc;

/* An integer scalar variable that sizes of run-time-sized variables
 * name: the runtime reads it at MDL_Allocate and at each call on such a
 * variable (a changed value without a new MDL_Allocate is an error). */
typedef struct mdl_extvar_desc {
    const char *var;            /* its name, for error messages */
    size_t offset;              /* offsetof(struct T, var) */
    int base;                   /* MDL_T_CHAR … MDL_T_ULLONG */
} mdl_extvar_desc;

/* A run-time-sized variable (docs/language.md §5): its member is a
 * pointer to its first element, row-major, set by mdl_allocate. */
typedef struct mdl_rtvar_desc {
    const char *var;
    size_t offset;              /* offsetof(struct T, var): the pointer */
    const mdl_type_desc *type;  /* element type */
    int ndims;
    long extent[MDL_MAX_DIMS];  /* constant extents; -1: the next entry of
                                   mdl_allocate's extents (in the order of
                                   the table, outermost first) */
    int ndeps;                  /* the variables its sizes name: */
    const int *deps;            /* indices in mdl_task_desc.extvars */
} mdl_rtvar_desc;

/* One item of a message's sequence: a variable of the task struct, or a
 * section of it.  Its (lo,hi) bounds per dimension come from the bounds
 * array at the call (see mdl_msg_desc). */
typedef struct mdl_item_desc {
    const char *var;            /* variable name, for error messages */
    size_t offset;              /* offsetof(struct T, var) */
    int is_pointer;             /* the member is a pointer to the data:
                                   user-allocated (rtvar -1: ndims == 1,
                                   extent -1) or the runtime's (rtvar >= 0) */
    const mdl_type_desc *type;  /* element type */
    int ndims;                  /* 0 for a scalar (no bounds pairs) */
    long extent[MDL_MAX_DIMS];  /* declared extents, outermost first;
                                   -1 = unknown (pointer) or set at
                                   MDL_Allocate (rtvar's) */
    int first_pair;             /* index of this item's first (lo,hi) pair in
                                   the bounds array; it has ndims pairs */
    int rtvar;                  /* index in mdl_task_desc.rtvars of a
                                   run-time-sized variable, else -1 */
} mdl_item_desc;

enum mdl_peer {
    MDL_PEER_ONE,               /* one instance chosen at the call (also the
                                   own family for messages with no peer) */
    MDL_PEER_ALL,               /* `to {A}`: every instance of A */
    MDL_PEER_SUBSET,            /* `to [A]`: instances listed at the call */
    MDL_PEER_NEIGHBOR           /* grid neighbour at `offset` */
};

/* A point-to-point message definition, as seen from the task that owns it. */
typedef struct mdl_msg_desc {
    const char *name;           /* message name in the spec */
    const char *fn;             /* public function: "MDL_SendTo_son_m" */
    int index;                  /* slot for per-message state, 0..nmsgs-1 */
    int is_send;
    int async;                  /* send: Isend; receive: posted, completed by Test/Wait */
    int channel;                /* unique per send/receive pair, same value on
                                   both sides (an MPI tag), 0..nchannels-1 */
    int peer_task;              /* index of the peer in mdl_task_desc.tasks */
    int peer_kind;              /* enum mdl_peer */
    int offset[3];              /* MDL_PEER_NEIGHBOR */
    int nitems;
    const mdl_item_desc *items;
    int npairs;                 /* total (lo,hi) pairs over all items */
    const long *fixed_bounds;   /* non-NULL when every bound is a compile-time
                                   constant: then these are the pairs and the
                                   bounds argument of the call is NULL */
} mdl_msg_desc;

/* The collective operations (not to be confused with a reduction's
 * operator, mdl_coll_desc.op). */
enum mdl_coll_kind {
    MDL_COLL_BCAST, MDL_COLL_MCAST, MDL_COLL_SCATTER, MDL_COLL_SCATTERV,
    MDL_COLL_GATHER, MDL_COLL_GATHERV, MDL_COLL_ALLGATHER, MDL_COLL_ALLGATHERV,
    MDL_COLL_ALLTOALL, MDL_COLL_REDUCE, MDL_COLL_ALLREDUCE
};

/* A collective message.  Buffers are contiguous runs of `type` elements
 * starting at the address the generated code passes. */
typedef struct mdl_coll_desc {
    const char *name;
    const char *fn;             /* "MDL_Gather_m1" */
    int index;                  /* 0..ncolls-1 */
    int kind;                   /* enum mdl_coll_kind */
    int root;
    int op;                     /* MDL_SUM … for reductions, else 0 */
    const mdl_type_desc *type;  /* element type of both buffers */
    long send_cap, recv_cap;    /* elements from the buffer start to the end of
                                   its variable; -1 = unknown (pointer, or
                                   run-time sized: then see below) */
    int in_place;               /* send and recv are the same variable */
    int send_rtvar, recv_rtvar; /* index in mdl_task_desc.rtvars of a
                                   run-time-sized buffer's variable (its
                                   capacity is taken at the call from its
                                   extents), else -1 */
} mdl_coll_desc;

/* The whole task, as compiled from one spec. */
typedef struct mdl_task_desc {
    unsigned long long abi;     /* MDL_ABI of the generating medleyc.  First,
                                   so that a runtime can read it whatever the
                                   layout of the rest: in code generated
                                   before it existed this word is the `spec`
                                   pointer, which never has the magic's high
                                   bytes (and is 0 in older generated source
                                   compiled against this header) */
    const char *spec;           /* spec file name, for messages */
    unsigned long long spec_hash; /* instances of one job must all agree */
    int ntasks;
    const char *const *tasks;   /* [ntasks], by spec index: the names of this
                                   task and of the tasks it is connected
                                   with (the only ones a runtime names);
                                   the others may be NULL */
    int self;                   /* this task's index in tasks */
    int grid_ndims;             /* 0: not a grid task */
    int periodic[3];
    int nchannels;              /* number of send/receive pairs in the spec */
    int nmsgs;
    const mdl_msg_desc *const *msgs;
    int ncolls;
    const mdl_coll_desc *const *colls;
    size_t struct_size;         /* sizeof(struct T) */
    int single;                 /* declared without `(i)`, not a grid and not
                                   connected with itself: exactly one instance */
    int nrtvars;                /* run-time-sized variables */
    const mdl_rtvar_desc *rtvars;
    int nextvars;               /* the variables their sizes name */
    const mdl_extvar_desc *extvars;
} mdl_task_desc;

typedef struct mdl_rt mdl_rt;   /* one per instance, opaque */

/* Start the runtime, identify this instance, allocate the task struct
 * (zeroed, struct_size bytes rounded up to whole pages, page-aligned; the
 * shared-memory runtime places it in the job's segment).  On success *task and *rt are set. */
int mdl_init(const mdl_task_desc *d, int *argc, char ***argv,
             void **task, mdl_rt **rt);
/* The same with a task struct the caller owns (a C++ task object, TMDL.hh):
 * `task`, `size` bytes (at least struct_size, aligned for the struct), is
 * used at its address and as it is: not zeroed, never freed by mdl_end.
 * The shared-memory runtime makes an object of whole pages part of the
 * job's segment (its pages are replaced by segment pages with the same
 * bytes, until mdl_end), so peers copy straight from and into it; other
 * objects are reached with process_vm_readv or packing
 * (docs/generated-code.md, C++). */
int mdl_init_at(const mdl_task_desc *d, int *argc, char ***argv, void *task, size_t size,
                mdl_rt **rt);
/* Finish: every async send still in flight is delivered first (waiting
 * for its receiver if it must), async receives not completed are
 * cancelled; then the task struct is freed (unless it came from
 * mdl_init_at: then it is the caller's again, with its own pages). */
int mdl_end(mdl_rt *rt, void *task);
/* A generated function called with a NULL task pointer (the generated
 * code tests it first): reports `fn` called before MDL_Init (MDL_ERR_STATE;
 * after MDL_End the same, once MDL_Init has run MDL_ERR_ARG) and returns
 * the code.  d: the generated code's own descriptor, for the task name. */
int mdl_no_task(const mdl_task_desc *d, const char *fn)
#if defined(__GNUC__)
    __attribute__((cold))
#endif
    ;

/* MDL_Allocate: `extents` holds the run-time extents of every
 * run-time-sized variable (the -1 entries of d->rtvars, in order), as the
 * generated code computed them from the task's variables.  Each variable
 * whose extents differ from those of the last call (or that has none yet)
 * gets new storage, zeroed, page-aligned, where the runtime's peers reach
 * it; its member is set.  The others are untouched.  Every change numbers
 * new layouts for the messages that use them. */
int mdl_allocate(mdl_rt *rt, void *task, const long *extents);

/* For a binding other than C's (the Fortran modules of medleyc --fortran).
 *
 * mdl_check_layout, after MDL_Init: the binding's task type against the C
 * struct, task_object the object MDL_Init gave (not its runtime handle,
 * which the binding finds where its own layout says).  spec_hash: the one the binding was generated with, in 16
 * lowercase hexadecimal digits (as %016llx prints it).  n entries,
 * names[] (n NUL-terminated strings, one after the other), addr[] and
 * size[]: a type (the task first, then the struct types it uses: the
 * address of an object of it and its size) followed by its fields, named
 * "type%field" (the address of the field's first element in that object,
 * the size of one element).  Compared with the C code's tables: the size
 * of the struct, the offset and element size of every variable a message
 * carries, the size and field offsets of every struct type in a message.
 * A difference is MDL_ERR_LAUNCH (the data would be corrupted).
 *
 * mdl_fail_unchecked: a call whose caller does not take the error code
 * (a Fortran call without ierr) returned `code` because errors are
 * returned (MDL_ERRORS): ends the job as the default policy would have,
 * with the call's line if it was not printed.  Does not return.
 *
 * mdl_sized_extents: the extents (outermost first, into extents[ndims])
 * the storage of run-time-sized variable `rtvar` (its index in the task's
 * rtvars) has since the last MDL_Allocate, the ones the runtime checks
 * sections against: the binding's view of it has that shape whatever the
 * size variables say now.  Returns ndims, or 0 when it has no storage yet
 * (or task_object is not this process's task). */
int mdl_check_layout(const void *task_object, const char *spec_hash, int n,
                     const char *names, void *const *addr, const size_t *size);
int mdl_sized_extents(const void *task_object, int rtvar, long *extents);
void mdl_fail_unchecked(int code)
#if defined(__GNUC__)
    __attribute__((noreturn, cold))
#endif
    ;

int mdl_my_rank(mdl_rt *rt);
int mdl_task_size(mdl_rt *rt, int task_index);     /* instances of a task */
int mdl_barrier(mdl_rt *rt);
int mdl_sbarrier(mdl_rt *rt, const int *ranks, int n);

/* Point to point.  `task` is the task struct (item offsets are relative to
 * it).  `bounds` holds npairs (lo,hi) pairs, or is NULL if fixed_bounds.
 * send: `inst` for ONE; `insts`/`n` for SUBSET; neither for ALL/NEIGHBOR.
 * recv: `inst` or MDL_ANY for ONE; ignored for NEIGHBOR.  Returns the
 * sender's instance number (>= 0), MDL_PROC_NULL for a no-op neighbour
 * receive, or a negative error. */
int mdl_send(mdl_rt *rt, const mdl_msg_desc *m, void *task, int inst,
             const int *insts, int n, const long *bounds);
/* A call site's note: one per generated function of a message to one
 * instance (static, all but m zero at first).  Only the runtime writes it.
 *
 * Its plan, first: what the transport found it can repeat, for the task
 * struct plan_task (NULL: no plan) and the bounds lo, hi (fixed bounds or
 * none: 0, 0), from a few words of its own (plan) with plan_call, as long
 * as the runtime lives (MDL_End clears every plan).  A call with that
 * task struct, those bounds and the instance plan_inst (MDL_SITE_PLANNED,
 * in the generated function after its test of the task struct) calls
 * plan_call directly: every check of the call was made when it was
 * planned, and what they depend on is fixed until then.  Then the
 * runtime's note of the site's message — for one runtime (gen: each
 * MDL_Init is a new one) and one task struct — so that a call not planned
 * skips the descriptor's look-up; peers and self (its own instance when
 * the peer task is its own, else -1) say which instances the plan serves
 * besides plan_inst (mdl_send_site, mdl_recv_site). */
typedef struct mdl_site {
    const mdl_msg_desc *m;
    const void *plan_task;
    long lo, hi;
    int plan_inst;
    int self;
    int (*plan_call)(struct mdl_site *site, int inst);
    const void *task;
    unsigned long gen;
    void *layout;
    unsigned peers;
    struct mdl_site *next_planned;
    uintptr_t plan[9];
} mdl_site;
/* A site as the generated code declares it, every field named (C and C++
 * with -Wextra want no field left out). */
#define MDL_SITE_INIT(m) { (m), NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL, 0, NULL, { 0 } }
/* Whether a call of the site's message from task struct t (not NULL) to
 * instance inst with bounds lo, hi may call (s)->plan_call(s, inst). */
#define MDL_SITE_PLANNED(s, t, inst, lo_, hi_)                                 \
    ((s)->plan_task == (const void *)(t) && (s)->plan_inst == (inst) &&      \
     (s)->lo == (long)(lo_) && (s)->hi == (long)(hi_))
/* mdl_send, mdl_recv of site->m, a message to or from one instance (ONE)
 * with one pair of bounds (lo, hi) or fixed bounds or none (lo, hi: 0):
 * the bounds by value, what the generated functions of such messages
 * call when their site's plan does not serve. */
int mdl_send_site(mdl_rt *rt, mdl_site *site, void *task, int inst, long lo, long hi);
int mdl_recv_site(mdl_rt *rt, mdl_site *site, void *task, int inst, long lo, long hi);
int mdl_recv(mdl_rt *rt, const mdl_msg_desc *m, void *task, int inst,
             const long *bounds);
/* Async completion: 1 complete, 0 not yet (test); MDL_SUCCESS (wait).
 * Nothing pending counts as complete.  For an async receive, completion
 * also checks the size of what arrived. */
int mdl_test(mdl_rt *rt, const mdl_msg_desc *m);
int mdl_wait(mdl_rt *rt, const mdl_msg_desc *m);
/* The same for a name that is both an async send (m) and an async
 * receive (m2) of the task: one call, one traced event.  Test is 1 when
 * both are complete; Wait waits for both. */
int mdl_test2(mdl_rt *rt, const mdl_msg_desc *m, const mdl_msg_desc *m2);
int mdl_wait2(mdl_rt *rt, const mdl_msg_desc *m, const mdl_msg_desc *m2);

/* Collectives.  count: elements per instance/block, or -1 when the
 * operation has none in the spec (Scatter, Allgather: derived from the
 * caps, see docs/language.md).  counts/displs: V variants.  insts/n:
 * Mcast members (the root need not be listed). */
int mdl_collective(mdl_rt *rt, const mdl_coll_desc *c, void *send, void *recv,
                   long count, const int *counts, const int *displs,
                   const int *insts, int n);

/* Grids. */
int mdl_grid_create(mdl_rt *rt, int *dims, int screate);
int mdl_grid_rank(mdl_rt *rt, const int *coords, int *rank);
int mdl_grid_coords(mdl_rt *rt, int rank, int *coords);
int mdl_grid_mycoords(mdl_rt *rt, int *coords);
int mdl_get_neighbors(mdl_rt *rt, int direction, int disp, int *source, int *dest);
/* Instance at `offset` from this one, MDL_PROC_NULL outside a non-periodic
 * grid, or a negative error (no grid yet). */
int mdl_grid_neighbor(mdl_rt *rt, const int offset[3]);

#ifdef __cplusplus
}
#endif

#endif
