/* rt_trace.h — recording the calls of a traced job (MDL_TRACE,
 * docs/tracing.md) into the instance's image (rt_trace_image.h).
 *
 * The validation layer brackets each call that communicates or waits:
 * rt_trace_begin at entry (ticks, which function), one of the
 * rt_trace_end* at exit.  Tracing off, the layer's only cost is one test
 * of mdl_rt_common.tr per call.  On, a call costs two reads of the clock
 * (rdtsc where the TSC is invariant) and one 32-byte record; flow ids,
 * names and JSON are made when the job ends.  Backends call
 * rt_trace_arrived for each async receive a Wait/Test completes (they
 * alone know its sender), and set up / collect the image (rt_backend.h).
 *
 * A flow goes forward by construction: a send is stamped at entry, before
 * its message can be seen, and a receive ends at a clock read after it
 * took its message, whenever the kernel deschedules either (only these two
 * reads are on the message's path).  Point-to-point calls of at most
 * RT_LATE_MAX_BYTES on a backend that polls (`late`, rt_trace_attach) keep
 * the rest of their bookkeeping off that path: between a message seen and
 * the next one published, a ping-pong's critical path, any work of
 * ≈ 25 ns costs a whole poll period, ≈ 90 ns on the machine of
 * docs/performance.md.  Such a send writes its record once its message is
 * published; such a receive is recorded during the next call
 * (rt_trace_flush).  Their payload comes from the backend's layout cache
 * (rt_trace_payload). */
#ifndef MDL_RT_TRACE_H
#define MDL_RT_TRACE_H

#include <stdint.h>
#include <time.h>

#include "api/rt_backend.h"
#include "tracefile/rt_trace_image.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define RT_HAVE_TSC 1
#else
#define RT_HAVE_TSC 0
#endif

#define RT_BYTES_VARY UINT64_MAX

/* What the recorder needs of the image is kept here, in the process's own
 * memory, and only written to the image: the image may be shared with
 * other processes (mdlrun's segment, an MPI part), and whatever they write
 * there must not redirect this process's writes. */
typedef struct rt_tracer {
    rt_trace_img *img;
    rt_trace_rec *rec;          /* the image's records */
    uint64_t used;              /* slots written (published as img->used) */
    uint64_t cap;               /* slots still usable: once a call did not fit,
                                   the used count, so that nothing later is
                                   recorded either */
    rt_trace_stat *stats;       /* the image's dropped-call statistics */
    uint64_t dropped;           /* calls dropped (published as img->dropped) */
    const rt_trace_func *funcs; /* the image's function table */
    char *texts;                /* the image's error texts */
    uint32_t ntexts;            /* texts written (published as img->ntexts) */
    int stopped;                /* rt_trace_stop has run */
    uint64_t ns0;               /* CLOCK_MONOTONIC at the start (rt_trace_clock) */
    /* the call in progress (the fatal path closes it) */
    uint64_t t0;                /* 0: not stamped yet (rt_trace_begin_late) */
    uint64_t seen;              /* the last poll of the call's waits */
    uint64_t wait0;             /* their first poll (0: it has not waited) */
    uint64_t copy;              /* ticks of its timed copies (rt_trace_copy_*) */
    uint64_t copy_w0, copy_w1;  /* `copy` at its first and last polls */
    uint64_t bytes;             /* the payload, when the backend said it
                                   (rt_trace_payload), else RT_BYTES_VARY */
    /* a late receive ended (NULL: none): recorded when the next call
     * starts, or when a late call waits or is done (rt_trace_flush) */
    const mdl_msg_desc *pend_m;
    int32_t pend_peer;
    uint32_t pend_func;
    uint64_t pend_t0, pend_t1, pend_seen, pend_wait0, pend_copy_w, pend_copy, pend_bytes;
    uint32_t func;
    int in_call;
    int late;                   /* the backend waits by polling memory and
                                   says when (rt_trace_poll, rt_trace_payload):
                                   small messages are recorded off their path */
    int nmsgs, ncolls;
    /* message numbers per (message, peer instance): the k of a flow id */
    uint32_t *seq;
    uint32_t *seq_at;           /* [nmsgs] first counter of each message */
    uint64_t *fixed_bytes;      /* [nmsgs] payload when its bounds are fixed */
    uint32_t *seqs;             /* [maxfam] scratch: numbers of a list's messages */
    /* async receives completed in the current Wait/Test */
    rt_trace_pair *done;
    uint32_t ndone, capdone;
    /* the last error reported while tracing, for the call's record */
    int last_err;
    char last_text[RT_TEXT];
} rt_tracer;

/* The clock of this job's ticks: the TSC (1) or CLOCK_MONOTONIC in ns (0). */
MDL_HIDDEN extern int rt_trace_tsc;

static inline uint64_t rt_ticks(void)
{
#if RT_HAVE_TSC
    if (__builtin_expect(rt_trace_tsc, 1))
        return __rdtsc();
#endif
    return mdl_mono_ns();
}

/* ---------------------------------------------------------------- function ids */

static inline uint32_t rt_fn_wait(const rt_tracer *t, const mdl_msg_desc *m, int wait)
{
    return (uint32_t)((wait ? 1 : 2) * t->nmsgs + m->index);
}

static inline uint32_t rt_fn_coll(const rt_tracer *t, const mdl_coll_desc *c)
{
    return (uint32_t)(3 * t->nmsgs + c->index);
}

static inline uint32_t rt_fn_sync(const rt_tracer *t, int which)
{
    return (uint32_t)(3 * t->nmsgs + t->ncolls + which);
}

/* ---------------------------------------------------------------- the calls */

/* Records the late receive that ended last (t->pend_m). */
MDL_HIDDEN void rt_trace_flush(rt_tracer *t);

static inline void rt_trace_begin_at(rt_tracer *t, uint32_t func, uint64_t t0)
{
    if (!t->late) {
        t->img->open_func = func;
        t->img->open_t0 = t0;
    }
    t->func = func;
    t->in_call = 1;
    t->ndone = 0;
    t->wait0 = 0;
    t->copy = 0;
    t->bytes = RT_BYTES_VARY;
    t->t0 = t0;
}

static inline void rt_trace_begin(rt_tracer *t, uint32_t func)
{
    if (t->pend_m)
        rt_trace_flush(t);
    rt_trace_begin_at(t, func, rt_ticks());
}

/* The peer instance (or MDL_ANY) of the send or receive in progress, for
 * whoever reads the image of a process that did not end (MPI; read for
 * those calls only, so other calls leave it as it is). */
static inline void rt_trace_open_peer(rt_tracer *t, int peer)
{
    if (!t->late)
        t->img->open_peer = peer;
}

/* A send: stamped at entry, before its message is published, so that its
 * flow's start precedes any receive of it; the last receive is recorded
 * when it waits or after the body (rt_trace_body_done), off the message's
 * path (MPI never leaves one pending). */
static inline void rt_trace_begin_send(rt_tracer *t, uint32_t func)
{
    rt_trace_begin_at(t, func, rt_ticks());
}

/* A completion: on a backend that stamps late, not stamped at entry (the
 * backend's first poll or a long copy may do it, else
 * rt_trace_body_done), and the last receive is recorded when it waits or
 * after the body. */
static inline void rt_trace_begin_late(rt_tracer *t, uint32_t func)
{
    if (t->late)
        rt_trace_begin_at(t, func, 0);
    else
        rt_trace_begin(t, func);
}

/* The body of a send, or of a call begun with rt_trace_begin_late,
 * returned: its end. */
static inline uint64_t rt_trace_body_done(rt_tracer *t)
{
    uint64_t t1 = rt_ticks();
    if (t->pend_m)
        rt_trace_flush(t);
    if (!t->t0)
        t->t0 = t1;
    return t1;
}

/* Largest payload of a late call: its copy takes well under a microsecond. */
#define RT_LATE_MAX_BYTES 4096

/* Backends that stamp late: the call in progress, if not stamped yet,
 * starts now, before work of its own that takes long (a long copy, a
 * system call to wake a sleeping peer). */
static inline void rt_trace_start(rt_tracer *t)
{
    if (__builtin_expect(t != NULL, 0) && !t->t0)
        t->t0 = rt_ticks();
}

/* A backend knows the payload of the send or receive in progress (its
 * layout cache computed it): the layer need not compute it again. */
static inline void rt_trace_payload(rt_tracer *t, uint64_t bytes)
{
    if (__builtin_expect(t != NULL, 0))
        t->bytes = bytes;
}

/* Backends that stamp late: a copy they time begins (the call's
 * copy_us: only copies long enough to be worth two clock reads; it starts
 * the call if not stamped yet).  Its start, or 0 when tracing is off. */
static inline uint64_t rt_trace_copy_begin(rt_tracer *t)
{
    if (!t)
        return 0;
    uint64_t c0 = rt_ticks();
    if (!t->t0)
        t->t0 = c0;
    return c0;
}

static inline void rt_trace_copy_end(rt_tracer *t, uint64_t c0)
{
    if (__builtin_expect(c0 != 0, 0))
        t->copy += rt_ticks() - c0;
}

/* Backends that stamp late: one poll of a wait, which also times the
 * wait (its first and last polls).  Waiting, the call is off any
 * message's path: the last receive is recorded now, so that a call that
 * never returns (a deadlock torn down) does not lose it. */
static inline void rt_trace_poll(rt_tracer *t)
{
    if (__builtin_expect(t != NULL, 0)) {
        t->seen = rt_ticks();
        t->copy_w1 = t->copy;
        if (!t->wait0) {
            t->wait0 = t->seen;
            t->copy_w0 = t->copy;
            if (!t->t0)
                t->t0 = t->seen;
        }
        if (t->pend_m)
            rt_trace_flush(t);
    }
}

/* The next message number of m with instance `peer`. */
static inline uint32_t rt_trace_seq(rt_tracer *t, const mdl_msg_desc *m, int peer)
{
    return t->seq[t->seq_at[m->index] + (uint32_t)peer]++;
}

/* Payload of one message of m with these bounds (checked by the call). */
static inline uint64_t rt_trace_bytes(const rt_tracer *t, const mdl_msg_desc *m,
                                      const long *bounds)
{
    uint64_t b = t->bytes != RT_BYTES_VARY ? t->bytes : t->fixed_bytes[m->index];
    if (b != RT_BYTES_VARY)
        return b;
    b = 0;
    for (int i = 0; i < m->nitems; i++) {
        const mdl_item_desc *it = &m->items[i];
        const long *p = bounds + 2 * it->first_pair;
        uint64_t n = it->type->size;
        for (int d = 0; d < it->ndims; d++)
            n *= (uint64_t)(p[2 * d + 1] - p[2 * d] + 1);
        b += n;
    }
    return b;
}

MDL_HIDDEN void rt_trace_put(rt_tracer *t, uint64_t t1, int32_t peer, uint32_t seq,
                             uint64_t bytes, uint16_t flags, int err, const int *insts,
                             const uint32_t *seqs, uint32_t npairs);

/* Ticks a call was blocked: from its first poll wait0 (0: none) to its
 * last, `last`, less the ticks copy_w it copied in between. */
static inline uint64_t rt_trace_blocked(uint64_t wait0, uint64_t last, uint64_t copy_w)
{
    uint64_t w = wait0 && last > wait0 ? last - wait0 : 0;
    return w > copy_w ? w - copy_w : 0;
}

/* The same for the call in progress, if it ended at t1 (most calls did
 * not wait: one test). */
static inline uint64_t rt_trace_wait_ticks(const rt_tracer *t, uint64_t t1)
{
    if (__builtin_expect(!t->wait0, 1))
        return 0;
    return rt_trace_blocked(t->wait0, t->seen < t1 ? t->seen : t1, t->copy_w1 - t->copy_w0);
}

/* Writes one call's record when it takes the common form — it fits, no
 * error, one peer at most; a second slot only for its wait and copy
 * times — and says whether it did (else: rt_trace_put).  The fields come
 * as arguments so that a late receive's record (rt_trace_flush) is
 * written from its saved ones as directly as a call's own. */
static inline int rt_trace_rec_put(rt_tracer *t, uint64_t t0, uint64_t t1, uint32_t func,
                                   int32_t peer, uint32_t seq, uint64_t bytes, uint16_t flags,
                                   uint64_t wait, uint64_t copy)
{
    uint64_t n = t->used, d = t1 - t0;
    int timed = (wait | copy) != 0;
    if (!__builtin_expect(n + (uint64_t)timed < t->cap && d < UINT32_MAX && bytes < UINT32_MAX,
                          1))
        return 0;
    rt_trace_rec *r = &t->rec[n];
    r->t0 = t0;
    r->dur = (uint32_t)d;
    r->func = func;
    r->peer = peer;
    r->seq = seq;
    r->bytes = (uint32_t)bytes;
    r->flags = (uint16_t)(flags | (timed ? RT_F_TIMES : 0));
    r->ncont = (uint16_t)timed;
    if (timed) {
        rt_trace_times *x = (rt_trace_times *)(r + 1);
        x->wait = wait;
        x->copy = copy;
    }
    t->used = n + 1 + (uint64_t)timed;
    __atomic_store_n(&t->img->used, t->used, __ATOMIC_RELEASE);
    return 1;
}

/* The call ended with at most one peer (-1: none) and no error. */
static inline void rt_trace_end_at(rt_tracer *t, uint64_t t1, int32_t peer, uint32_t seq,
                                   uint64_t bytes, uint16_t flags)
{
    t->in_call = 0;
    if (!t->late)
        t->img->open_t0 = 0;
    if (!rt_trace_rec_put(t, t->t0, t1, t->func, peer, seq, bytes, flags,
                          rt_trace_wait_ticks(t, t1), t->copy))
        rt_trace_put(t, t1, peer, seq, bytes, flags, 0, NULL, NULL, 0);
}

static inline void rt_trace_end(rt_tracer *t, int32_t peer, uint32_t seq, uint64_t bytes,
                                uint16_t flags)
{
    rt_trace_end_at(t, rt_ticks(), peer, seq, bytes, flags);
}
/* The call failed with rc (its text, if reported, is t->last_text). */
MDL_HIDDEN void rt_trace_end_error(rt_tracer *t, int rc);

/* A call with no peer: its result. */
static inline int rt_trace_end_rc(rt_tracer *t, int rc)
{
    if (rc < 0)
        rt_trace_end_error(t, rc);
    else
        rt_trace_end(t, -1, 0, 0, 0);
    return rc;
}

/* The call ended with a list of peers: `insts` with their message numbers
 * `seqs` (NULL: none, for Mcast members), or, for a Wait/Test, the
 * senders of the async receives it completed (t->done). */
MDL_HIDDEN void rt_trace_end_list(rt_tracer *t, uint64_t bytes, const int *insts,
                                  const uint32_t *seqs, uint32_t n);
MDL_HIDDEN void rt_trace_end_done(rt_tracer *t);

/* ---------------------------------------------------------------- backends */

/* An async receive of m from instance `inst` completed (in the Wait/Test
 * in progress): the flow ends there. */
MDL_HIDDEN void rt_trace_arrived(mdl_rt *rt, const mdl_msg_desc *m, int inst);


/* Builds the instance's image in memory from alloc(rt, size, arg) (the
 * backend's: the job segment, or the process heap) and starts recording:
 * slot = the job-wide number, clock = enum rt_trace_clock of the job,
 * late: the backend stamps late (rt_tracer.late).  Called by be_init once
 * the instance is identified.  0, or MDL_ERR_INTERN with the reason in
 * why for the backend to report. */
MDL_HIDDEN int rt_trace_attach(mdl_rt *rt, uint64_t slots, int slot, int clock, int late,
                               void *(*alloc)(mdl_rt *, size_t, void *arg, char *why, size_t len),
                               void *arg, char *why, size_t whylen);
/* Frees what rt_trace_attach allocated besides the image (rt_common_free). */
MDL_HIDDEN void rt_trace_detach(mdl_rt *rt);
/* CLOCK_MONOTONIC in ns as the trace reads it: with MDL_TEST_CLOCK_SKEW
 * naming this host, skewed as it says (test only). */
MDL_HIDDEN uint64_t rt_trace_host_ns(void);
/* MDL_TEST_CLOCK_SKEW asks world rank 0 to merge the hosts' clocks
 * unaligned (test only: shows what the alignment corrects). */
MDL_HIDDEN int rt_trace_test_unaligned(void);
/* Samples the clock pair of the image: at the start (end = 0: MPI after a
 * barrier) or at the end (at least a millisecond after the start). */
MDL_HIDDEN void rt_trace_clock(rt_tracer *t, int end);

/* The image as this process recorded it, in memory of its own: its head
 * and the records it counted, with the counts it kept (used, ntexts)
 * whatever the image says now — not checked (rt_trace_img_check).
 * malloc'd; *head and *records its two parts' bytes; NULL when out of
 * memory. */
MDL_HIDDEN rt_trace_img *rt_trace_snapshot(const rt_tracer *t, uint64_t *head,
                                           uint64_t *records);

/* MDL_End reached: the image is complete. */
MDL_HIDDEN void rt_trace_finish(mdl_rt *rt);
/* A fault is being reported (rt_vfail): its text is kept for the call's
 * record; fatal: the instance stops here (rt_trace_stop, then
 * be_trace_fatal). */
MDL_HIDDEN void rt_trace_error(mdl_rt *rt, const char *fn, int code, const char *fmt,
                               va_list ap);
MDL_HIDDEN void rt_trace_errorf(mdl_rt *rt, const char *fn, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The instance stops on an error (the last one passed to rt_trace_error):
 * the call in progress is recorded with it and the image marked.
 * reported: this instance printed it (the job's error); else it stops
 * because of another's. */
MDL_HIDDEN void rt_trace_stop(mdl_rt *rt, int code, int reported);

#endif
