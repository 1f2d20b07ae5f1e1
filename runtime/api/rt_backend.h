/* rt_backend.h — the two halves of a runtime.
 *
 * Above: the validation layer (rt_api.c, rt_coll.c, rt_grid.c in
 * runtime/api) implements every function of mdl_rt.h once, for both
 * runtimes.  It checks the runtime's state, the descriptors, instance
 * numbers and lists, roots, Mcast members, collective counts, counts/displs
 * against the capacities and the grid arguments — each check O(n), each
 * fault with one message text — and resolves peers (a neighbour to an
 * instance, `to {A}` to a list) before anything moves.  The grid is pure
 * arithmetic and lives entirely here.
 *
 * The layer also lays each message out (rt_layout.c): section bounds are
 * checked there, once per call that changes them, and a transport is
 * handed the checked layout (rt_layout below).
 *
 * Below: a backend (runtime/mpi/, runtime/shm/) implements the be_*
 * functions — transport only.  It may take its arguments as valid, caches
 * only what is its own (MPI: datatypes, keyed by the layout's numbers) and
 * reports only what the transport itself finds (the sizes of the two sides
 * disagree, a peer died, MPI or the system failed), through rt_fail and
 * the shared texts declared here, so that one fault reads the same on both
 * runtimes after the `task[inst]:` prefix.  (MPICH's ch4 is split the same
 * way: argument checks above the device, an eager/rendezvous contract below.)
 *
 * Where later work hooks in: every public call passes through one function
 * of rt_api.c/rt_coll.c, which knows the generated function (m->fn, c->fn),
 * the message and the resolved peers before it calls the backend and the
 * result after — the place for per-call trace records and for publishing
 * "which call, which message, which peer" of a call that may block.  Each
 * backend blocks in one place: shm_wait (runtime/shm/shm_wait.c) for the
 * shared-memory runtime; blocking MPI calls inside be_* for MPI. */
#ifndef MDL_RT_BACKEND_H
#define MDL_RT_BACKEND_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "core/rt_common.h"
#include "mdl_api.h"            /* the public functions' names: MDL_FN_NAME */
#include "mdl_clock.h"          /* mdl_mono_ns, mdl_mono_seconds */

/* ---------------------------------------------------------------- state */

/* What both runtimes know about the instance: the first member of each
 * backend's struct mdl_rt, so that rt_c() reaches it from the handle. */
typedef struct mdl_rt_common {
    const mdl_task_desc *d;
    mdl_who who;                /* task name; instance once identified */
    int inst;                   /* this instance's number in its family */
    int *fam_size;              /* [ntasks] instances of each task (the
                                   backend counts them between
                                   rt_common_start and rt_common_identified,
                                   then fixed until MDL_End: the caches made
                                   of it, rt_msg_layout.peers and
                                   rt_again.ranks, follow it) */
    void *task;                 /* the task struct handed to the program */
    int maxfam;                 /* the largest family, at least 1 */
    int *seen;                  /* [maxfam] list checks: entry + 1 of each
                                   instance listed; all 0 between checks */
    int *list;                  /* [maxfam + 1] lists built for the backend */
    /* grid, once MDL_Grid_Create has run */
    int grid_ndims;             /* 0: no grid (yet) */
    int dims[3], periodic[3], coords[3];
    int *nb;                    /* [nmsgs] the instance a neighbour message
                                   goes to or comes from, or MDL_PROC_NULL */
    struct rt_msg_layout **layouts;     /* [nmsgs] each message's checked
                                   layout, cached (rt_layout.c) */
    struct rt_sizes *sizes;     /* the run-time-sized variables (rt_sizes.c),
                                   NULL when the task has none */
    struct rt_tracer *tr;       /* MDL_TRACE: the call recorder (rt_trace.h) */
} mdl_rt_common;

static inline mdl_rt_common *rt_c(mdl_rt *rt)
{
    return (mdl_rt_common *)(void *)rt;
}

/* ---------------------------------------------------------------- the current call */

/* The call this process is in (one instance per process), for the reports
 * of a hang (docs/debugging.md): the layer writes which call, message and
 * peer at the entry of every call that may block (rt_enter: three plain
 * stores), the backend marks where it blocks (rt_block_begin/_end: the MPI
 * runtime around its blocking MPI calls, the shm runtime when a wait goes
 * to sleep), both in rt_call.c.  Read by the hang watchdog's thread
 * (rt_watch.c), by the shm runtime when it publishes what it sleeps in,
 * and by the trace for where a send went or a receive was posted
 * (rt_api.c); relaxed atomics, so that the thread's reads are not data
 * races, compile to plain moves. */
enum {
    RT_PEER_NONE = -10,         /* no peer to name (MDL_End) */
    RT_PEER_ALL = -11,          /* the whole family (barriers, collectives),
                                   every instance of the peer task (to {A}) */
    RT_PEER_LIST = -12,         /* list[0..nlist-1] (to [A], Sbarrier, Mcast) */
    RT_PEER_PENDING = -13       /* Wait: the message's operations in flight */
};

typedef struct rt_call {
    const char *fn;             /* the generated function; NULL: the Wait of `wait` */
    const mdl_msg_desc *m;      /* the message of the last call that had one
                                   (point to point), else NULL */
    int peer;                   /* instance of m's peer task (the own family
                                   without m), MDL_ANY, or an RT_PEER_* */
    int nlist;
    const int *list;            /* RT_PEER_LIST: the call's argument;
                                   RT_PEER_ALL of a send: its targets */
    const mdl_msg_desc *wait;   /* fn NULL: the message waited for; m and peer
                                   are still those of the last send or receive,
                                   its peer if it is of the same pair */
    unsigned long blocked;      /* non-zero while blocked: numbers the block */
} rt_call;

MDL_HIDDEN extern rt_call rt_now;

#define RT_SET(field, v) __atomic_store_n(&rt_now.field, (v), __ATOMIC_RELAXED)
#define RT_GET(field) __atomic_load_n(&rt_now.field, __ATOMIC_RELAXED)

static inline void rt_enter(const char *fn, const mdl_msg_desc *m, int peer)
{
    RT_SET(fn, fn);
    RT_SET(m, m);
    RT_SET(peer, peer);
}

/* A Wait: two stores, m and peer left as the last send or receive set them. */
static inline void rt_enter_wait(const mdl_msg_desc *m)
{
    RT_SET(fn, NULL);
    RT_SET(wait, m);
}

static inline void rt_enter_n(const char *fn, const mdl_msg_desc *m, int peer, const int *list,
                              int n)
{
    RT_SET(list, list);
    RT_SET(nlist, n);
    rt_enter(fn, m, peer);
}

static inline void rt_enter_list(const char *fn, const mdl_msg_desc *m, const int *list, int n)
{
    rt_enter_n(fn, m, RT_PEER_LIST, list, n);
}

/* A send to {A}: reported as the whole family, its targets kept. */
static inline void rt_enter_all(const char *fn, const mdl_msg_desc *m, const int *list, int n)
{
    rt_enter_n(fn, m, RT_PEER_ALL, list, n);
}

MDL_HIDDEN extern unsigned long rt_nblocks;

/* A copy of rt_now.blocked that the other processes of the host read (the
 * MPI runtime's large messages, mpi_direct.c), or, while nothing is shared
 * (rt_block_unshare), a word nobody reads: never NULL, so that the marks
 * cost no test on the path of a blocking call. */
MDL_HIDDEN extern unsigned long *rt_block_shared;
MDL_HIDDEN void rt_block_unshare(void);

static inline void rt_block_begin(void)
{
    unsigned long b = ++rt_nblocks;
    RT_SET(blocked, b);
    __atomic_store_n(rt_block_shared, b, __ATOMIC_RELAXED);
}

static inline void rt_block_end(void)
{
    RT_SET(blocked, 0);
    __atomic_store_n(rt_block_shared, 0, __ATOMIC_RELAXED);
}

/* MDL_End about to wait for async sends of m in flight to the instances
 * insts[0..n-1] of m's peer task (distinct): its hang report names them
 * and the message.  n 0: nothing left to name (MPI_Finalize, the traces).
 * The instances are copied (up to the number a report shows). */
MDL_HIDDEN void rt_enter_end(const mdl_msg_desc *m, const int *insts, int n);

/* Name of the Test/Wait function of m ("MDL_mWait"), for error lines,
 * hang reports and traces only (formatting costs more than a completion). */
MDL_HIDDEN const char *rt_completion_fn(const mdl_msg_desc *m, int wait, char *buf,
                                       size_t len);

/* The name of the current call ("MDL_RecvFrom_d_r", "MDL_rWait") and whom
 * it waits for ("d[1]", "d[any]", "d[all]", "d[0,2]", "d"; "" for none),
 * as the hang reports print them; MDL_ANY from a family of one instance
 * (fam_size, NULL: not known) is "d[0]". */
MDL_HIDDEN const char *rt_call_fn(const rt_call *k, char *buf, size_t len);
MDL_HIDDEN const char *rt_call_peer(const rt_call *k, const mdl_task_desc *d,
                                   const int *fam_size, char *buf, size_t len);

/* The line of a process stopped by SIGTERM (rt_stop.c), for a transport
 * whose launcher signals the survivors of a lost host.  rt_stop_hosts: the
 * host of every process (world rank r is instance inst_of[r] of task
 * task_of[r]; its host name the first line of ids + r * stride, at most
 * RT_HOST_NAME_BYTES - 1 characters kept), copied.
 * rt_stop_task_names, where the job spans hosts (the line then names
 * lost instances of tasks this one is not connected with, which its
 * descriptor does not name): the task name of every world rank, at
 * names + r * stride, at most RT_TASK_NAME_BYTES - 1 characters kept,
 * copied.  rt_stop_start: the handler installed, once MDL_Init has
 * succeeded (not over an ignored SIGTERM; chained to a handler found).
 * rt_stop_end: removed (a handler the program set since stays) and the
 * copies freed. */
enum { RT_HOST_NAME_BYTES = 64 };   /* a host name as kept, with its NUL */
enum { RT_TASK_NAME_BYTES = 64 };   /* a task name as the lost list keeps it */
MDL_HIDDEN void rt_stop_hosts(const mdl_task_desc *d, const int *fam_size, int n,
                              const int *task_of, const int *inst_of, const char *ids,
                              size_t stride);
MDL_HIDDEN void rt_stop_task_names(int n, const char *names, size_t stride);
/* Where the processes of this host share memory (the MPI transport's
 * control pages): this process's word `said`, set once its line is
 * written, and the same word of each of its n host peers, which a process
 * waits for before it dies (rt_stop.c, on_term); copied.  (NULL, NULL, 0)
 * before that memory goes: then the fixed pause alone. */
MDL_HIDDEN void rt_stop_share(unsigned *said, unsigned *const *peers_said, int n);
MDL_HIDDEN void rt_stop_start(const mdl_task_desc *d, mdl_who who);
MDL_HIDDEN void rt_stop_end(void);

/* The liveness probe that lets the SIGTERM line name the processes of the
 * other hosts that are gone (rt_probe.c), for a transport whose job spans
 * hosts, after rt_stop_hosts; world rank r is on another host than this
 * process when apart[r].  rt_probe_listen: this process's listening
 * socket, in a job of n processes; its port, 0 when there is none
 * (MDL_LOST_PROBE=0, too many processes).  rt_probe_resolve, by one
 * process of each host: the IPv4 address (network order, 0: none) of the
 * host of each rank apart, from its host name (the first line of names +
 * r * stride), each name looked up once; none when a process does not
 * listen (port[r] 0).  rt_probe_peers: with every
 * process's port and those addresses, one probe to another host tried
 * (none when a process does not listen).  rt_stop_end closes the socket. */
MDL_HIDDEN int rt_probe_listen(int n);
MDL_HIDDEN void rt_probe_resolve(int n, const int *apart, const int *port, const char *names,
                                 size_t stride, uint32_t *ipv4);
MDL_HIDDEN void rt_probe_peers(int n, int me, const int *apart, const int *port,
                               const uint32_t *ipv4);

/* For be_init.  rt_common_start: d and the task name, fam_size zeroed
 * (an error is reported).  rt_common_identified: fam_size is filled and
 * the own instance known; checks what only the layer checks (a task
 * declared without (i) launched several times) and allocates its
 * scratch.  rt_common_free: everything the two allocated. */
MDL_HIDDEN int rt_common_start(mdl_rt *rt, const mdl_task_desc *d);
MDL_HIDDEN int rt_common_identified(mdl_rt *rt, int inst);
MDL_HIDDEN void rt_common_free(mdl_rt *rt);

/* ---------------------------------------------------------------- errors */

/* One line through mdl_vfail with the instance's identity; fatal (be_abort)
 * unless errors are returned.  Returns code. */
MDL_HIDDEN int rt_fail(mdl_rt *rt, const char *fn, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
MDL_HIDDEN int rt_vfail(mdl_rt *rt, const char *fn, int code, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
/* Before a runtime exists (MDL_Init): the task name alone. */
MDL_HIDDEN int rt_fail_who(mdl_who who, const char *fn, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A record a peer wrote into memory the job shares is not one this
 * library writes (an offset or size out of bounds): one line naming the
 * call this instance is in, then the job ends whatever MDL_ERRORS says —
 * nothing shared can be trusted after it (MDL_ERR_INTERN). */
MDL_HIDDEN void rt_fail_corrupt(mdl_rt *rt, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn, cold));

/* The texts of faults a transport finds, shared by both backends. */

/* A message of `got` bytes from task[inst] for a receive of `expect`
 * (MDL_ERR_TRUNCATE).  RT_SIZE_LARGER: larger, size unknown (MPI says only
 * that it was truncated), and the text never shows the message's size. */
#define RT_SIZE_LARGER ((size_t)-1)
MDL_HIDDEN int rt_fail_size(mdl_rt *rt, const char *fn, int task, int inst, size_t got,
                            size_t expect);
/* A collective block larger than its place on the receiving side: the
 * instances passed different counts (MDL_ERR_TRUNCATE). */
MDL_HIDDEN int rt_fail_coll_size(mdl_rt *rt, const char *fn);
/* MDL_End: n messages sent to this instance that it never received, the
 * first by instance `inst` of its sender's task, for receive m. */
MDL_HIDDEN int rt_fail_unreceived(mdl_rt *rt, const mdl_msg_desc *m, int inst, int n);
/* The send (is_send) or receive of this task on `channel` (NULL: none). */
MDL_HIDDEN const mdl_msg_desc *rt_msg_on(mdl_rt *rt, int channel, int is_send);
/* Process `proc` of the job (MPI world rank = mdlrun slot: launch order)
 * runs a program of another spec, or declares a task the spec lacks
 * (MDL_ERR_LAUNCH). */
MDL_HIDDEN int rt_fail_spec(mdl_rt *rt, int proc, unsigned long long hash);
MDL_HIDDEN int rt_fail_task_index(mdl_rt *rt, int proc, long long task);
/* Out of memory (MDL_ERR_INTERN). */
MDL_HIDDEN int rt_fail_oom(mdl_rt *rt, const char *fn);

/* ---------------------------------------------------------------- collectives */

/* One call of a collective, its arguments checked and resolved by
 * rt_coll.c. */
typedef struct mdl_coll_call {
    void *send, *recv;
    long count;                 /* elements per instance or block (derived
                                   for Scatter and Allgather); V forms: 0 */
    const int *counts, *displs; /* V forms */
    /* Mcast: the root first, then the listed instances but the root;
     * otherwise NULL and the whole family takes part. */
    const int *members;
    int nmembers;
    int me;                     /* own position in members (Mcast) */
    int root_listed;            /* Mcast: the root's own recv is written */
    int err;                    /* the arguments of this instance were
                                   refused (reported): the backend returns
                                   err, after telling the others if it can */
} mdl_coll_call;

/* ---------------------------------------------------------------- layouts */

/* How the transport sends a message laid out as its layout is now, kept
 * by the layer in that layout (rt_layout.h) so that mdl_send
 * repeats a call with the same key (bounds, the task struct's pointer and
 * size words) without its checks but the instance's, to whichever
 * instance of the peer task.  The layer clears it (none) whenever the
 * layout changes or is marked stale, so that `none` alone says whether it
 * holds; the transport notes it in be_send_one when a send of this layout
 * to any other process can be made from these words (none last), and
 * be_send_again makes one.  The words are the transport's: what it hands
 * its own send (MPI: buffer, count, datatype, and the peer task's world
 * ranks, so that the instance's is one load). */
typedef struct rt_again {
    long none;                  /* non-zero: nothing noted */
    void *buf;
    uintptr_t type;
    const int *ranks;
    int count;
} rt_again;

/* Where the items of a message lie for one call, as the layer checked
 * them (rt_layout.c: the bounds against the declared extents, by
 * mdl_item_span of runtime/core): spans[m->nitems] and their bytes.  Two
 * numbers tell a transport whether what it built from an earlier layout
 * still serves: `gen` changes whenever the spans change, `shape` only
 * when they change other than by one move of the whole message (the
 * spans relative to spans[0].base: a block sent from another place).
 * Both count up per message from 1 (0: none).  The spans are the
 * layer's, valid until the next call of the same message: a transport
 * that needs them longer (an async receive) copies them. */
typedef struct rt_layout {
    const mdl_span *spans;
    char *base;                 /* the message's first byte: spans[0].base */
    size_t bytes;
    uint64_t gen;
    uint64_t shape;
    rt_again again;             /* how the transport sends it (the layer's
                                   layouts only: rt_msg_layout.out) */
} rt_layout;


/* For a transport that prepares at MDL_Init what a message whose bounds
 * are all constant (or that has none) needs: its layout.  NULL: refused
 * (reported, MDL_ERR_BOUNDS). */
MDL_HIDDEN const rt_layout *rt_layout_fixed(mdl_rt *rt, const mdl_msg_desc *m);

/* ---------------------------------------------------------------- the contract */

/* Everything below is implemented by each backend. */

/* Starts the transport and identifies the instance: calls
 * rt_common_start, counts the families, calls rt_common_identified, and
 * sets the task struct c.task: `user` when the caller supplies it
 * (mdl_init_at: user_size bytes, used as it is and never freed), else one
 * it allocates (zeroed, struct_size bytes rounded up to whole pages,
 * page-aligned: C++ sees the struct as a page-aligned class).  On failure
 * (reported) it undoes everything it did. */
MDL_HIDDEN int be_init(const mdl_task_desc *d, int *argc, char ***argv, void *user,
                       size_t user_size, mdl_rt **out);
/* MDL_End: every async send still in flight is delivered before it returns
 * (docs/language.md, MDL_FN_NAME(END)), async receives not completed are
 * cancelled, and everything is freed (rt_common_free included), also on
 * an error. */
MDL_HIDDEN int be_end(mdl_rt *rt);
/* Whether MDL_Init may run again after MDL_End in this process (MPI: the
 * program initialised MPI itself and has not finalised it). */
MDL_HIDDEN int be_restartable(void);
/* The fatal path of an error: ends the whole job; never returns. */
MDL_HIDDEN void be_abort(int code) __attribute__((noreturn));
/* Tracing, on the fatal path, just before be_abort: the instance's trace
 * (rt_trace_stop has closed it) goes where the job's file is written. */
MDL_HIDDEN void be_trace_fatal(mdl_rt *rt);
MDL_HIDDEN int be_barrier(mdl_rt *rt);
/* insts: n >= 2 distinct instances of the own family, this one among them. */
MDL_HIDDEN int be_sbarrier(mdl_rt *rt, const int *insts, int n);

/* Message m, laid out as `lay` says, to the instances to[0..n-1] of
 * m->peer_task (valid, distinct, n >= 0; the sender only if the program
 * listed itself); be_send_one: to instance `to`, the path of nearly
 * every send, and `again` (NULL: none) the layer's record of the layout,
 * where the transport may note how it sends it (rt_again);
 * be_send_again: a send of lay as noted in lay->again, to instance `to`. */
MDL_HIDDEN int be_send(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, const int *to,
                       int n);
MDL_HIDDEN int be_send_one(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int to,
                           rt_again *again);
MDL_HIDDEN int be_send_again(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int to,
                             mdl_site *site);
/* be_send_again's and be_recv's site (not NULL: the layer's
 * mdl_send_site or mdl_recv_site, which has noted the call's task struct
 * and set the site's key to its bounds; the instance is not the caller's
 * own) may get a plan: a transport that can repeat this call to instance
 * `to` (and, with a look-up of its own, to any instance of the peer task
 * but itself) from a few words, as long as the runtime lives, writes them
 * in site->plan and calls rt_site_plan with the function that makes the
 * call from them, plan_call, which does what the layer would have done
 * after its checks (rt_enter included).  The generated function calls it
 * directly when the next call has the same key (MDL_SITE_PLANNED).  A
 * transport that plans nothing never does. */
MDL_HIDDEN void rt_site_plan(mdl_site *site, int (*plan_call)(mdl_site *site, int inst), int to);
/* The runtime ends (rt_live_set): every site's plan is cleared. */
MDL_HIDDEN void rt_sites_forget(void);
/* Receive of m into `lay` from instance `from` of m->peer_task, or
 * MDL_ANY (the task has instances); site: see rt_site_plan.  Returns the
 * sender's instance (async: the instance posted for, MDL_SUCCESS for
 * MDL_ANY) or a negative error. */
MDL_HIDDEN int be_recv(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int from,
                       mdl_site *site);
/* Completion of m's async operations: 1 / 0 (test), MDL_SUCCESS (wait),
 * or the first error of a completed receive. */
MDL_HIDDEN int be_test(mdl_rt *rt, const mdl_msg_desc *m);
MDL_HIDDEN int be_wait(mdl_rt *rt, const mdl_msg_desc *m);

MDL_HIDDEN int be_collective(mdl_rt *rt, const mdl_coll_desc *c, const mdl_coll_call *a);

/* Storage for a run-time-sized variable (MDL_Allocate): `bytes` (> 0)
 * zeroed, page-aligned, where the transport moves data from and to at
 * full speed (shm: the job's segment).  NULL when there is no room, with
 * what there is in why. */
MDL_HIDDEN void *be_sized_alloc(mdl_rt *rt, size_t bytes, char *why, size_t whylen);
/* Storage of be_sized_alloc given back (a reallocated variable, MDL_End). */
MDL_HIDDEN void be_sized_free(mdl_rt *rt, void *p, size_t bytes);

#endif
