/* mpi_self.c — messages an instance sends itself: kept by the runtime
 * and copied by the receive from itself straight from the sender's data
 * while nothing in MPI could match them (mpi_self_recv), else packed into
 * a buffer of their own and sent from there through MPI. */
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

/* The index in_mpi reads: by channel, the task's receives from its own
 * task (a counting sort of their message indices), so that a send to
 * itself looks at its channel's receives (one, in a spec medleyc
 * compiled), not at every message of the task.  Every channel is in
 * 0..nchannels-1 (checked by MDL_Init, rt_api.c).  Counted at their
 * channel and summed, recv_at[c] is where channel c's end; placed from
 * there, last message first, it is where they start, in message order.
 * Out of memory, teardown frees what was made. */
int mpi_self_init(mdl_rt *rt)
{
    mpi_to_self *ts = &rt->to_self;
    const mdl_task_desc *d = rt->c.d;
    if (!(ts->recv_at = calloc((size_t)d->nchannels + 1, sizeof *ts->recv_at)) ||
        !(ts->recvs = calloc((size_t)d->nmsgs + 1, sizeof *ts->recvs)))
        return rt_fail_oom(rt, MDL_FN_NAME(INIT));
    for (int i = 0; i < d->nmsgs; i++)
        if (!d->msgs[i]->is_send && d->msgs[i]->peer_task == d->self)
            ts->recv_at[d->msgs[i]->channel]++;
    for (int c = 0; c < d->nchannels; c++)
        ts->recv_at[c + 1] += ts->recv_at[c];
    for (int i = d->nmsgs; i-- > 0;)
        if (!d->msgs[i]->is_send && d->msgs[i]->peer_task == d->self)
            ts->recvs[--ts->recv_at[d->msgs[i]->channel]] = i;
    return 0;
}

/* Whether a message of m to itself could meet MPI's matching: one of
 * its channel to itself still in MPI (the list reaped first: MPI_Issend
 * completes once received), an async receive on its channel from this
 * task posted (its source may be this instance, or MDL_ANY), or one that
 * went through MPI_Isend (mpi_only).  Then it goes through MPI too, after
 * the kept ones: MPI's order per channel. */
static int in_mpi(mdl_rt *rt, const mdl_msg_desc *m)
{
    mpi_to_self *ts = &rt->to_self;
    if (ts->mpi_only)
        return 1;
    if (ts->sends) {
        ts->n -= mpi_buffered_reap(&ts->sends, &ts->spares);
        ts->reap_at = ts->n + MPI_DIRECT_SPARES;
    }
    for (const mpi_buffered *x = ts->sends; x; x = x->next)
        if (x->tag == m->channel)
            return 1;
    for (int k = ts->recv_at[m->channel]; k < ts->recv_at[m->channel + 1]; k++)
        if (rt->msgs[ts->recvs[k]].reqs.n)
            return 1;
    return 0;
}

/* A send to itself kept: its buffer taken now (out of memory is said by
 * the send); an async one's spans kept (the layer's are valid until the
 * next call of the message only; its data may not change before its Test
 * or Wait, mpi_self_pack), a sync one packed at once (the program may
 * change its data when the send returns). */
static int keep(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, size_t bytes)
{
    mpi_to_self *ts = &rt->to_self;
    int nspans = m->async ? m->nitems : 0;
    size_t total = ts->nspans + (size_t)nspans;
    mpi_self_kept *kept =
        mdl_grow(ts->kept, &ts->kept_cap, (size_t)ts->nkept + 1, sizeof *ts->kept, 4);
    if (kept)
        ts->kept = kept;
    mdl_span *spans = kept ? mdl_grow(ts->spans, &ts->spans_cap, total, sizeof *ts->spans, 8) : NULL;
    if (!spans)
        return rt_fail_oom(rt, m->fn);
    ts->spans = spans;
    mpi_buffered *x = mpi_buffered_get(&ts->spares, bytes);
    if (!x)
        return rt_fail_oom(rt, m->fn);
    if (nspans)
        memcpy(&ts->spans[ts->nspans], lay->spans, sizeof *lay->spans * (size_t)nspans);
    else
        mdl_spans_pack(lay->spans, m->nitems, x->data);
    ts->kept[ts->nkept++] = (mpi_self_kept){
        .x = x, .m = m, .bytes = bytes, .spans_at = ts->nspans, .nspans = nspans
    };
    ts->nspans = total;
    return MDL_SUCCESS;
}

/* The spans of kept message i given up (taken, or packed): the later
 * ones moved down, so that the spans do not grow while messages stay
 * kept. */
static void drop_spans(mpi_to_self *ts, int i)
{
    mpi_self_kept *k = &ts->kept[i];
    size_t from = k->spans_at, n = (size_t)k->nspans;
    if (!n)
        return;
    memmove(&ts->spans[from], &ts->spans[from + n], sizeof *ts->spans * (ts->nspans - from - n));
    ts->nspans -= n;
    for (int j = 0; j < ts->nkept; j++)
        if (ts->kept[j].spans_at > from)
            ts->kept[j].spans_at -= n;
    k->nspans = 0;
}

/* Kept message i packed into its buffer. */
static void pack_kept(mpi_to_self *ts, int i)
{
    mpi_self_kept *k = &ts->kept[i];
    if (k->nspans) {
        mdl_spans_pack(&ts->spans[k->spans_at], k->nspans, k->x->data);
        drop_spans(ts, i);
    }
}

void mpi_self_pack(mdl_rt *rt, const mdl_msg_desc *m)
{
    for (int i = 0; i < rt->to_self.nkept; i++)
        if (rt->to_self.kept[i].m == m)
            pack_kept(&rt->to_self, i);
}

int mpi_self_flush(mdl_rt *rt)
{
    mpi_to_self *ts = &rt->to_self;
    int rc = MDL_SUCCESS;
    for (int i = 0; i < ts->nkept; i++) {
        const mpi_self_kept *k = &ts->kept[i];
        if (k->nspans)
            mdl_spans_pack(&ts->spans[k->spans_at], k->nspans, k->x->data);
        int prc = post(rt, k->m, k->x, (int)k->bytes);
        rc = rc ? rc : prc;
    }
    ts->nkept = 0;
    ts->nspans = 0;
    self_reap(rt);
    return rc;
}

/* A receive of m taking kept message i (one copy, into lay's spans), sizes
 * checked as a receive through MPI checks them (mpi_p2p.c): one larger
 * than the receive is a truncation, unless the buffer of its own a receive
 * goes through (mpi_recv_own_bytes) held it; either way the message is
 * taken. */
static int take(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay,
                const mpi_msg_types *ty, int i)
{
    mpi_to_self *ts = &rt->to_self;
    mpi_self_kept k = ts->kept[i];
    if (k.bytes == ty->bytes) {
        if (k.nspans)
            mdl_spans_copy(lay->spans, m->nitems, &ts->spans[k.spans_at], k.nspans);
        else
            mdl_spans_unpack(lay->spans, m->nitems, k.x->data);
    }
    drop_spans(ts, i);
    /* One list for every channel, oldest first, closed up: its order is
     * MPI's per channel when flushed, and first_kept's scan already costs
     * what this move does.  It holds the sends made and not yet received,
     * which a program keeps few (the halo: one per direction); a list per
     * channel would buy an O(1) take at the cost of the flush's order
     * across channels. */
    memmove(&ts->kept[i], &ts->kept[i + 1], sizeof *ts->kept * (size_t)(ts->nkept - i - 1));
    ts->nkept--;
    mpi_buffered_keep(&ts->spares, k.x);
    int task = rt->c.d->self, inst = rt->c.inst;
    if (k.bytes == ty->bytes)
        return inst;
    size_t own = mpi_recv_own_bytes(rt, m, ty->bytes);
    if (k.bytes > ty->bytes && k.bytes > own)
        return rt_fail_size(rt, m->fn, task, inst, RT_SIZE_LARGER, ty->layout_bytes);
    return rt_fail_size(rt, m->fn, task, inst, mpi_types_memory_bytes(m, ty, k.bytes),
                        ty->layout_bytes);
}

/* The first kept message of m's channel, when m receives from this
 * instance (or MDL_ANY of its task: MPI promises no order between
 * sources, so a kept one may come first); else -1. */
static int first_kept(const mdl_rt *rt, const mdl_msg_desc *m, int from)
{
    const mpi_to_self *ts = &rt->to_self;
    if (m->peer_task != rt->c.d->self || (from != MDL_ANY && from != rt->c.inst))
        return -1;
    for (int i = 0; i < ts->nkept; i++)
        if (ts->kept[i].m->channel == m->channel)
            return i;
    return -1;
}

/* A receive while messages to itself are kept: a sync one from itself
 * takes the first of its channel; an async one that could match one is
 * posted after all are put in MPI (MPI then matches it, in order), as is
 * one whose layout has struct padding (MPI unpacks it); any other leaves
 * them kept. */
int mpi_self_recv(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int from)
{
    int i = first_kept(rt, m, from);
    if (i < 0)
        return MPI_SELF_NONE;
    void *buf;
    MPI_Datatype dt;
    int rc = m->async ? 0 : mpi_msg_type(rt, m, lay, &buf, &dt);
    if (rc)
        return rc;
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    if (!m->async && ty->bytes == lay->bytes)
        return take(rt, m, lay, ty, i);
    rc = mpi_self_flush(rt);
    return rc ? rc : MPI_SELF_NONE;
}

/* A send to itself is kept (keep) unless something in MPI could match
 * it (in_mpi): then, and for a layout with struct padding, it goes
 * through MPI after the kept ones.  A sync send to itself through MPI can
 * complete only once its receive is posted, which comes after the send
 * returns: MPICH's MPI_Send to self then waits for ever (any size).  The
 * message is packed into a buffer of its own and sent from there with
 * MPI_Issend (a message sent as MPI_PACKED matches a receive of its
 * datatype, post), so the send returns at once, as on the shm runtime;
 * the buffer is reused once received (self_reap), or freed at MDL_End.
 * Why kept, and why that is sound: docs/runtime-mpi.md "send to oneself".
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
    if (own && !in_mpi(rt, m))
        return keep(rt, m, lay, ty->bytes);
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

/* MDL_End, after its flush: none is left kept. */
void mpi_self_free(mdl_rt *rt)
{
    mpi_to_self *ts = &rt->to_self;
    free(ts->kept);
    free(ts->spans);
    free(ts->recv_at);
    free(ts->recvs);
    ts->kept = NULL;
    ts->spans = NULL;
    ts->recv_at = ts->recvs = NULL;
    ts->nkept = 0;
    ts->kept_cap = 0;
    ts->nspans = ts->spans_cap = 0;
    ts->mpi_only = 0;
}
