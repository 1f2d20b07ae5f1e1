/* mpi_self.c — messages an instance sends itself: packed into a buffer of
 * their own and sent from there; an async one packed and posted only at
 * the process's next call that could need it (mpi_self_flush). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mdl_grow.h"
#include "mpi_rt.h"

/* The buffers received are reaped once MPI_DIRECT_SPARES more sends to
 * itself are in flight than after the last reaping: a progress pass of
 * the MPI per that many sends, where testing them at every send made one
 * per buffer in flight (≈ 0.3-0.9 µs each across hosts, the 2x1 halo's
 * North and South, docs/performance.md "Across hosts"); no more than that
 * many received and not reaped, nor spares. */
static void self_reap(mdl_rt *rt)
{
    if (rt->to_self.n >= rt->to_self.reap_at) {
        rt->to_self.n -= mpi_buffered_reap(&rt->to_self.sends, &rt->to_self.spares);
        rt->to_self.reap_at = rt->to_self.n + MPI_DIRECT_SPARES;
    }
}

/* x, packed with pos bytes of m, in flight to this instance.
 * Synchronous: Open MPI 4.1.4 truncates a message a process sends itself
 * with MPI_Isend into an async receive posted before without saying so
 * (the receive succeeds, counting what fit); MPI_Issend's is reported. */
static int post(mdl_rt *rt, const mdl_msg_desc *m, mpi_buffered *x, int pos)
{
    int mpirc = MPI_Issend(x->data, pos, MPI_PACKED, rt->job.world_rank, m->channel,
                           rt->job.world, &x->req);
    if (mpirc != MPI_SUCCESS) {
        mpi_buffered_keep(&rt->to_self.spares, x);
        return mpi_fail(rt, m->fn, mpirc, "MPI_Pack/MPI_Issend");
    }
    mpi_count_sent(rt, rt->job.world_rank);
    x->tag = m->channel;
    mpi_buffered_append(&rt->to_self.sends, x);
    rt->to_self.n++;
    return MDL_SUCCESS;
}

/* An async send deferred: its buffer taken now (out of memory is said by
 * the send), its spans kept (the layer's are valid until the next call of
 * the message only). */
static int defer(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, size_t bytes)
{
    mpi_to_self *ts = &rt->to_self;
    size_t nspans = ts->nspans + (size_t)m->nitems;
    mpi_self_later *later =
        mdl_grow(ts->later, &ts->later_cap, (size_t)ts->nlater + 1, sizeof *ts->later, 4);
    if (later)
        ts->later = later;
    mdl_span *spans = later ? mdl_grow(ts->spans, &ts->spans_cap, nspans, sizeof *ts->spans, 8) : NULL;
    if (!spans)
        return rt_fail_oom(rt, m->fn);
    ts->spans = spans;
    mpi_buffered *x = mpi_buffered_get(&ts->spares, bytes);
    if (!x)
        return rt_fail_oom(rt, m->fn);
    memcpy(&ts->spans[ts->nspans], lay->spans, sizeof *lay->spans * (size_t)m->nitems);
    ts->later[ts->nlater++] =
        (mpi_self_later){ .x = x, .m = m, .bytes = bytes, .spans_at = ts->nspans };
    ts->nspans = nspans;
    return MDL_SUCCESS;
}

int mpi_self_flush(mdl_rt *rt)
{
    mpi_to_self *ts = &rt->to_self;
    int rc = MDL_SUCCESS;
    for (int i = 0; i < ts->nlater; i++) {
        const mpi_self_later *l = &ts->later[i];
        mdl_spans_pack(&ts->spans[l->spans_at], l->m->nitems, l->x->data);
        int prc = post(rt, l->m, l->x, (int)l->bytes);
        rc = rc ? rc : prc;
    }
    ts->nlater = 0;
    ts->nspans = 0;
    self_reap(rt);
    return rc;
}

/* A sync send to the sending instance itself can complete only once its
 * receive is posted, which comes after the send returns: MPICH's MPI_Send
 * to self then waits for ever (any size).  The message is packed into a
 * buffer of its own and sent from there with MPI_Issend (a message sent as
 * MPI_PACKED matches a receive of its datatype, post), so the send returns
 * at once, as on the shm runtime; the buffer is reused once received
 * (self_reap), or freed at MDL_End.  An async send to itself takes the
 * same path, deferred: its data may not change before its Test or Wait
 * completes it, so it is packed and posted at the process's next call
 * that could need it — any receive, Test, Wait, collective, barrier,
 * MDL_End, another send to itself (in order: MPI's order per channel) —,
 * each of which flushes first (mpi_self_flushed), not before the sends to
 * other processes that follow it (docs/runtime-mpi.md).
 *
 * The packing is the layer's gather of the layout's spans whenever every
 * byte of them travels (no struct padding: ty->bytes == lay->bytes), which
 * is then MPI's packed form exactly (the datatype's type map in order, a
 * homogeneous job).  Not MPI_Pack: MPICH 4.0's MPI_Pack of a contiguous
 * derived datatype rounds the bytes down to a multiple of the datatype's
 * builtin_element_size, which a datatype built in a reused handle can
 * have wrong (seemingly left from the handle's previous datatype) — a
 * struct of 10 doubles, size 80, packed 78 bytes (the receive then
 * reported "received 78 bytes ... but the receive holds 80"; stress_p2p,
 * seeds 5009 2, through MPI alone).  Only a layout with padding, never
 * contiguous in MPI's sense and packed by MPICH's other path, goes through
 * MPI_Pack, its result checked, at once (buf and dt are the call's). */
int mpi_self_send(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, void *buf,
                  MPI_Datatype dt)
{
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    int own = ty->bytes == lay->bytes, size = 0, pos = 0, mpirc = MPI_SUCCESS;
    if (ty->bytes > INT_MAX)
        return rt_fail(rt, m->fn, MDL_ERR_ARG, "message too large for MPI (%zu bytes)",
                       ty->bytes);
    if (own && m->async)
        return defer(rt, m, lay, ty->bytes);
    int rc = mpi_self_flushed(rt);
    if (rc)
        return rc;
    if (own)
        size = (int)ty->bytes;
    else if ((mpirc = MPI_Pack_size(1, dt, rt->job.world, &size)) != MPI_SUCCESS)
        return mpi_fail(rt, m->fn, mpirc, "MPI_Pack_size");
    self_reap(rt);
    mpi_buffered *x = mpi_buffered_get(&rt->to_self.spares, (size_t)size);
    if (!x)
        return rt_fail_oom(rt, m->fn);
    if (own) {
        mdl_spans_pack(lay->spans, m->nitems, x->data);
        return post(rt, m, x, size);
    }
    mpirc = MPI_Pack(buf, 1, dt, x->data, size, &pos, rt->job.world);
    if (mpirc == MPI_SUCCESS && (size_t)pos != ty->bytes) {
        mpi_buffered_keep(&rt->to_self.spares, x);
        return rt_fail(rt, m->fn, MDL_ERR_INTERN,
                       "MPI_Pack packed %d bytes of a %zu-byte message to itself", pos,
                       ty->bytes);
    }
    if (mpirc != MPI_SUCCESS) {
        mpi_buffered_keep(&rt->to_self.spares, x);
        return mpi_fail(rt, m->fn, mpirc, "MPI_Pack/MPI_Issend");
    }
    return post(rt, m, x, pos);
}

/* MDL_End, after its flush: none is left deferred. */
void mpi_self_free(mdl_rt *rt)
{
    mpi_to_self *ts = &rt->to_self;
    free(ts->later);
    free(ts->spans);
    ts->later = NULL;
    ts->spans = NULL;
    ts->nlater = ts->later_cap = 0;
    ts->nspans = ts->spans_cap = 0;
}
