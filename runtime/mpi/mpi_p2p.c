/* mpi_p2p.c — point-to-point messages: one datatype per message, the
 * channel number as tag on the runtime's duplicate of MPI_COMM_WORLD. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdl_grow.h"
#include "mpi_rt.h"
#include "trace/rt_trace.h"

/* Room for `more` async requests of message m (grows, never shrinks:
 * warm calls do not allocate). */
static int reserve(mdl_rt *rt, const mdl_msg_desc *m, int more)
{
    mpi_msg_reqs *rq = &rt->msgs[m->index].reqs;
    if (rq->n + more <= rq->cap)
        return 0;
    size_t cap = mdl_grow_cap((size_t)rq->cap, (size_t)rq->n + (size_t)more, 4, INT_MAX);
    MPI_Request *r = mdl_resize(rq->reqs, cap, sizeof *r);
    if (r)
        rq->reqs = r;
    MPI_Status *st = mdl_resize(rq->sts, cap, sizeof *st);
    if (st)
        rq->sts = st;
    int ok = r && st;
    if (ok && m->is_send) {
        int *d = mdl_resize(rq->send_dest, cap, sizeof *d);
        if ((ok = d != NULL))
            rq->send_dest = d;
    } else if (ok) {
        size_t *b = mdl_resize(rq->recv_bytes, cap, sizeof *b);
        if ((ok = b != NULL))
            rq->recv_bytes = b;
    }
    if (!ok || !mpi_direct_reserve(rt, m, (int)cap))
        return rt_fail(rt, m->fn, MDL_ERR_INTERN, "out of memory");
    rq->cap = (int)cap;
    return 0;
}

void mpi_reqs_free(mdl_rt *rt)
{
    for (int i = 0; rt->msgs && i < rt->c.d->nmsgs; i++) {
        mpi_msg_reqs *rq = &rt->msgs[i].reqs;
        free(rq->reqs);
        free(rq->sts);
        free(rq->recv_bytes);
        free(rq->send_dest);
        *rq = (mpi_msg_reqs){ 0 };
    }
}

/* MPICH keeps a receive's count in bytes in the status itself (count_lo,
 * and count_hi_and_cancelled >> 1: part of its ABI), Open MPI in
 * _ucount (a size_t).  Reading it costs a few instructions, MPI_Get_count
 * ~100 per message on MPICH, 44 on Open MPI (MPI_Get_elements_x 85).  The
 * decoding is verified once against MPI_Status_set_elements_x; any other
 * MPI, or a layout that does not decode, asks MPI (mpi_status_bytes). */
#if defined(MPICH_NUMVERSION) || defined(OPEN_MPI)
static size_t status_count(const MPI_Status *st)
{
#ifdef MPICH_NUMVERSION
    return ((size_t)((unsigned)st->count_hi_and_cancelled >> 1) << 32) | (unsigned)st->count_lo;
#else
    return st->_ucount;
#endif
}

static __attribute__((noinline)) int probe_status(mdl_rt *rt)
{
    static const MPI_Count probe[2] = { 12345, ((MPI_Count)5 << 32) | 7 };
    int ok = 1;
    for (int i = 0; i < 2; i++) {
        MPI_Status st;
        memset(&st, 0, sizeof st);
        ok &= MPI_Status_set_elements_x(&st, MPI_BYTE, probe[i]) == MPI_SUCCESS &&
              status_count(&st) == (size_t)probe[i];
    }
    rt->job.status_fast = ok ? 1 : -1;
    return ok;
}
#endif

/* Bytes a receive got as MPI says them, in 64 bits (MPI_Get_count's int
 * made a message of 2 GiB or more a size error); SIZE_MAX when MPI cannot
 * say. */
static size_t mpi_status_bytes(const MPI_Status *st)
{
    MPI_Count got = 0;
#if MPI_VERSION >= 4
    MPI_Get_count_c(st, MPI_BYTE, &got);
#else
    MPI_Get_elements_x(st, MPI_BYTE, &got);
#endif
    return got < 0 ? SIZE_MAX : (size_t)got;
}

/* Whether status_bytes reads the count from the status itself (known
 * from the first receive on: probe_status), so that a receive may read it
 * as status_decoded_bytes without the test. */
static inline int status_decoded(const mdl_rt *rt)
{
#if defined(MPICH_NUMVERSION) || defined(OPEN_MPI)
    return rt->job.status_fast > 0;
#else
    (void)rt;
    return 0;
#endif
}

/* status_bytes once status_decoded. */
static inline __attribute__((always_inline)) size_t status_decoded_bytes(const MPI_Status *st)
{
#if defined(MPICH_NUMVERSION) || defined(OPEN_MPI)
    return status_count(st);
#else
    return mpi_status_bytes(st);
#endif
}

/* Bytes a receive got (SIZE_MAX when MPI cannot say).  Inline: on every
 * receive's path, a call cost more than the read. */
static inline __attribute__((always_inline)) size_t status_bytes(mdl_rt *rt, const MPI_Status *st)
{
#if defined(MPICH_NUMVERSION) || defined(OPEN_MPI)
    if (rt->job.status_fast > 0 || (rt->job.status_fast == 0 && probe_status(rt)))
        return status_count(st);
#else
    (void)rt;
#endif
    return mpi_status_bytes(st);
}

static __attribute__((noinline, cold)) int size_fail(mdl_rt *rt, const char *fn,
                                                     const mdl_msg_desc *m, MPI_Status *st,
                                                     size_t got)
{
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    return rt_fail_size(rt, fn, rt->job.task_of[st->MPI_SOURCE], rt->job.inst_of[st->MPI_SOURCE],
                        mpi_types_memory_bytes(m, ty, got), ty->layout_bytes);
}

/* A receive that got other than it expected (one that got what it
 * expected got the message itself: a receive that may get an
 * announcement of that size goes through its own buffer,
 * mpi_recv_own_bytes): an announcement (the message is copied from the
 * sender's struct, mpi_direct.c), or sizes that disagree.  spans: the
 * receive's layout.  copy: MPI_DIRECT_COPY, or MPI_DIRECT_RELEASE
 * (MDL_End, a failed Wait: the sender is only released, nothing
 * reported). */
static __attribute__((noinline, cold)) int recv_odd(mdl_rt *rt, const char *fn,
                                                    const mdl_msg_desc *m, MPI_Status *st,
                                                    size_t got, size_t expect,
                                                    const mdl_span *spans, int copy)
{
    const mpi_msg_direct *dx = &rt->msgs[m->index].direct;
    if (dx->noted && got == (size_t)dx->wire) {
        int rc = mpi_direct_recv(rt, fn, m, st, spans, copy);
        if (rc != 1)
            return rc;
    }
    if (copy != MPI_DIRECT_COPY || got == expect)
        return 0;
    return size_fail(rt, fn, m, st, got);
}

/* Whether a receive through a buffer of its own, `own`, got its message
 * (got the bytes it expected, and they are not an announcement of that
 * size): place_own's, else recv_own's, handed what was found (*found:
 * its slot_word 0 unless an announcement was). */
static int own_message(mdl_rt *rt, const mdl_msg_desc *m, const MPI_Status *st,
                       const unsigned char *own, size_t got, size_t expect,
                       mpi_direct_found *found)
{
    found->slot_word = 0;
    return got == expect && (got != (size_t)rt->msgs[m->index].direct.wire ||
                             !mpi_direct_is_note(rt, m, st, own, found));
}

/* A receive that went through a buffer of its own (noted), `own`, and
 * got `got` bytes when it expected `expect`, not its message
 * (own_message, whose found is handed on; NULL: not asked): an
 * announcement (its sender released; MDL_ERR_TRUNCATE with copy) or
 * sizes that disagree, as recv_odd. */
static __attribute__((noinline, cold)) int recv_own(mdl_rt *rt, const char *fn,
                                                    const mdl_msg_desc *m, MPI_Status *st,
                                                    const unsigned char *own, size_t got,
                                                    size_t expect, int copy,
                                                    const mpi_direct_found *found)
{
    if (got == (size_t)rt->msgs[m->index].direct.wire) {
        int rc = mpi_direct_recv_small(rt, fn, m, st, own, expect, copy, found);
        if (rc != 1)
            return rc;
    }
    return copy == MPI_DIRECT_COPY ? size_fail(rt, fn, m, st, got) : 0;
}

/* The message a receive got whole in its own buffer, put in its place
 * (buf, dt: the receive's for its bounds): a contiguous section copied,
 * anything else unpacked by MPI. */
static inline __attribute__((always_inline)) int place_own(mdl_rt *rt, const char *fn,
                                                           const mpi_msg_types *ty,
                                                           const unsigned char *own, size_t got,
                                                           void *buf, MPI_Datatype dt)
{
    if (ty->contiguous) {
        memcpy(buf, own, got);
        return 0;
    }
    int pos = 0;
    int mpirc = MPI_Unpack(own, (int)got, &pos, buf, 1, dt, rt->job.world);
    return mpirc == MPI_SUCCESS ? 0 : mpi_fail(rt, fn, mpirc, "MPI_Unpack");
}

static void progress(mdl_rt *rt);

/* A send to a host peer that may take the direct path: 1 when it does not
 * (the caller sends through MPI), as a contiguous message below
 * MPI_DIRECT_MIN, which MPICH moves as fast (direct_peer lets it by). */
static __attribute__((noinline)) int send_direct(mdl_rt *rt, const mdl_msg_desc *m,
                                                 const rt_layout *lay, int dest)
{
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    if (ty->contiguous && ty->bytes < MPI_DIRECT_MIN)
        return 1;
    if (m->async) {
        int rc = reserve(rt, m, 1);
        if (rc)
            return rc;
    }
    return mpi_direct_send(rt, m, lay, dest, progress);
}

/* A message of at least the smaller threshold, strided ones'
 * (mpi_direct_min_strided: at most MPI_DIRECT_MIN; send_direct leaves the
 * contiguous ones below MPI_DIRECT_MIN to MPI), on a host whose processes
 * announce (direct_sized), to one of them (direct_peer): one compare of a
 * small message's size, what ping-pongs and halos send. */
static inline int direct_sized(const mdl_rt *rt, const mpi_msg_types *ty)
{
    return ty->bytes >= rt->host.direct_min_strided && rt->host.announces;
}

static inline int direct_peer(const mdl_rt *rt, const mpi_msg_types *ty, int dest)
{
    return direct_sized(rt, ty) && rt->host.peer_base[dest];
}

/* A failed receive: a truncation names the sender and the receive's size. */
static __attribute__((cold)) int recv_fail(mdl_rt *rt, const char *fn, const mdl_msg_desc *m,
                                           int mpirc, MPI_Status *st)
{
    int cls = 0;
    MPI_Error_class(mpirc, &cls);
    if (cls != MPI_ERR_TRUNCATE || st->MPI_SOURCE < 0 || st->MPI_SOURCE >= rt->job.world_size) {
        rt->tally.taken--;      /* nothing taken (recv_taken counted it) */
        return mpi_fail(rt, fn, mpirc, "receive");
    }
    return rt_fail_size(rt, fn, rt->job.task_of[st->MPI_SOURCE], rt->job.inst_of[st->MPI_SOURCE],
                        RT_SIZE_LARGER, rt->msgs[m->index].types.layout_bytes);
}

/* A sync receive (mpi_recv_sync) of m from src, counted as taken off the
 * channel (before: off the message's path; a truncated one is taken too,
 * and recv_fail takes the count back for anything else); a failure said
 * by recv_fail.  Every sync receive of a message goes through it. */
static inline __attribute__((always_inline)) int recv_taken(mdl_rt *rt, const mdl_msg_desc *m,
                                                            void *buf, int count,
                                                            MPI_Datatype dt, int src,
                                                            MPI_Status *st)
{
    rt->tally.taken++;
    int mpirc = mpi_recv_sync(rt, buf, count, dt, src, m->channel, st);
    if (mpirc != MPI_SUCCESS)
        return recv_fail(rt, m->fn, m, mpirc, st);
    return 0;
}

static int is_self(const mdl_rt *rt, const mdl_msg_desc *m, int inst)
{
    return m->peer_task == rt->c.d->self && inst == rt->c.inst;
}

/* Whether send_self can pack the message: not when only MPI_Pack can
 * (struct padding) from MPI_BOTTOM (pointer items), which MPICH 4.0's
 * MPI_Pack refuses ("Null pointer in parameter inbuf").  Such an async
 * send to itself goes through MPI_Isend as before. */
static int self_packable(const mpi_msg_types *ty, const rt_layout *lay)
{
    return !ty->absolute || ty->bytes == lay->bytes;
}

/* Every send but the fast ones of be_send. */
static __attribute__((noinline)) int send_general(mdl_rt *rt, const mdl_msg_desc *m,
                                                  const rt_layout *lay, const int *to, int n)
{
    const char *fn = m->fn;
    const int *rank = rt->job.rank_of[m->peer_task];
    void *buf;
    MPI_Datatype dt;
    int rc = mpi_msg_type(rt, m, lay, &buf, &dt);
    if (rc)
        return rc;
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    mpi_msg_reqs *rq = &rt->msgs[m->index].reqs;
    int mpirc = MPI_SUCCESS;
    if (m->async) {
        rc = reserve(rt, m, n);
        if (rc)
            return rc;
        for (int k = 0; k < n && mpirc == MPI_SUCCESS; k++) {
            if (is_self(rt, m, to[k]) && self_packable(ty, lay)) {
                if ((rc = mpi_self_send(rt, m, lay, buf, dt)) < 0)
                    return rc;
                continue;
            }
            if (is_self(rt, m, to[k])) {
                if ((rc = mpi_self_flushed(rt)) < 0)
                    return rc;  /* after those kept: MPI's order per channel */
                rt->to_self.mpi_only = 1;       /* not in to_self.sends: in_mpi */
            }
            if (direct_peer(rt, ty, rank[to[k]]) &&
                (rc = send_direct(rt, m, lay, rank[to[k]])) != 1) {
                if (rc < 0)
                    return rc;
                continue;
            }
            mpirc = MPI_Isend(buf, 1, dt, rank[to[k]], m->channel, rt->job.world, &rq->reqs[rq->n]);
            if (mpirc == MPI_SUCCESS) {
                mpi_count_sent(rt, rank[to[k]]);
                rq->send_dest[rq->n++] = rank[to[k]];
            }
        }
        return mpirc == MPI_SUCCESS ? MDL_SUCCESS : mpi_fail(rt, fn, mpirc, "MPI_Isend");
    }
    if (n == 1 && is_self(rt, m, to[0]))
        return mpi_self_send(rt, m, lay, buf, dt);
    if (n == 1 && direct_peer(rt, ty, rank[to[0]]) &&
        (rc = send_direct(rt, m, lay, rank[to[0]])) != 1)
        return rc;
    if (n == 1) {
        rt_block_begin();
        mpirc = MPI_Send(buf, 1, dt, rank[to[0]], m->channel, rt->job.world);
        rt_block_end();
        if (mpirc != MPI_SUCCESS)
            return mpi_fail(rt, fn, mpirc, "MPI_Send");
        mpi_count_sent(rt, rank[to[0]]);
        return MDL_SUCCESS;
    }
    /* several targets: all in flight at once, then wait (the sender itself,
     * if listed, buffered first) */
    int started = 0;
    for (int k = 0; k < n && mpirc == MPI_SUCCESS; k++) {
        if (is_self(rt, m, to[k])) {
            if ((rc = mpi_self_send(rt, m, lay, buf, dt)) < 0)
                break;
            continue;
        }
        mpirc = MPI_Isend(buf, 1, dt, rank[to[k]], m->channel, rt->job.world,
                          &rt->scratch.reqs[started]);
        if (mpirc == MPI_SUCCESS) {
            mpi_count_sent(rt, rank[to[k]]);
            started++;
        }
    }
    rt_block_begin();
    int waitrc = MPI_Waitall(started, rt->scratch.reqs, rt->scratch.sts);
    rt_block_end();
    if (rc < 0)
        return rc;
    if (mpirc == MPI_SUCCESS)
        mpirc = waitrc;
    return mpirc == MPI_SUCCESS ? MDL_SUCCESS : mpi_fail(rt, fn, mpirc, "MPI_Isend/MPI_Waitall");
}

/* A sync receive of at most an announcement's bytes on a channel that
 * may carry an announcement (noted): through a buffer, then into buf as
 * dt, unless it was an announcement or sizes disagree. */
static __attribute__((noinline)) int recv_small(mdl_rt *rt, const mdl_msg_desc *m, int src,
                                                void *buf, MPI_Datatype dt)
{
    unsigned char own[MPI_DIRECT_WIRE_MAX];
    MPI_Status st;
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    int rc = recv_taken(rt, m, own, sizeof own, MPI_PACKED, src, &st);
    if (rc)
        return rc;
    size_t got = status_bytes(rt, &st);
    mpi_direct_found found;
    rc = own_message(rt, m, &st, own, got, ty->bytes, &found)
             ? place_own(rt, m->fn, ty, own, got, buf, dt)
             : recv_own(rt, m->fn, m, &st, own, got, ty->bytes, MPI_DIRECT_COPY, &found);
    return rc ? rc : rt->job.inst_of[st.MPI_SOURCE];
}

/* What a sync receive of m laid out as lay got when it was not what it
 * expected (st, got bytes): an announcement, or sizes that disagree
 * (recv_odd); the sender's instance, or the error. */
static __attribute__((noinline, cold)) int recv_sync_odd(mdl_rt *rt, const mdl_msg_desc *m,
                                                         MPI_Status *st, size_t got,
                                                         const rt_layout *lay)
{
    int rc = recv_odd(rt, m->fn, m, st, got, rt->msgs[m->index].types.bytes, lay->spans,
                      MPI_DIRECT_COPY);
    return rc ? rc : rt->job.inst_of[st->MPI_SOURCE];
}

/* Size of what a sync receive got against what it expected: a message
 * larger than the receive is MPI_ERR_TRUNCATE already; a smaller one is
 * also an error (the two sides' sections disagree), never a silent
 * partial fill.  The sender's instance, or the error. */
static inline int check_size(mdl_rt *rt, const mdl_msg_desc *m, MPI_Status *st,
                             const rt_layout *lay)
{
    size_t got = status_bytes(rt, st);
    return got == rt->msgs[m->index].types.bytes ? rt->job.inst_of[st->MPI_SOURCE]
                                                 : recv_sync_odd(rt, m, st, got, lay);
}

/* An async receive k of m posted with the layout lay: kept with it when
 * it may get an announcement (noted), for its completion. */
static void keep_posted(mpi_msg_direct *dx, const mdl_msg_desc *m, int k, const rt_layout *lay)
{
    dx->posted[k] = *lay;       /* its spans: see req_layout */
    memcpy(&dx->posted_spans[(size_t)k * (size_t)m->nitems], lay->spans,
           sizeof *lay->spans * (size_t)m->nitems);
}

/* Every receive but the fast one of be_recv. */
static __attribute__((noinline)) int recv_general(mdl_rt *rt, const mdl_msg_desc *m,
                                                  const rt_layout *lay, int from)
{
    const char *fn = m->fn;
    int src = from == MDL_ANY ? MPI_ANY_SOURCE : rt->job.rank_of[m->peer_task][from];
    void *buf;
    MPI_Datatype dt;
    int rc = mpi_msg_type(rt, m, lay, &buf, &dt);
    if (rc)
        return rc;
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    int mpirc;
    if (m->async) {
        rc = reserve(rt, m, 1);
        if (rc)
            return rc;
        mpi_msg_reqs *rq = &rt->msgs[m->index].reqs;
        mpi_msg_direct *dx = &rt->msgs[m->index].direct;
        int k = rq->n;
        size_t own = mpi_recv_own_bytes(rt, m, ty->bytes);
        if (own && !dx->own[k] && !(dx->own[k] = malloc(own)))
            return rt_fail_oom(rt, fn);
        mpirc = own ? MPI_Irecv(dx->own[k], (int)own, MPI_PACKED, src, m->channel, rt->job.world,
                                &rq->reqs[k])
                    : MPI_Irecv(buf, 1, dt, src, m->channel, rt->job.world, &rq->reqs[k]);
        if (mpirc != MPI_SUCCESS)
            return mpi_fail(rt, fn, mpirc, "MPI_Irecv");
        rt->tally.taken++;      /* until MDL_End cancels it (end_receives) */
        if (dx->noted) {        /* for an announcement (recv_odd) */
            keep_posted(dx, m, k, lay);
            dx->early[k] = 0;
            if (!own) {
                dx->nlarge++;   /* progress looks at it */
                rt->host.nlarge++;
            }
        }
        rq->recv_bytes[rq->n++] = ty->bytes;
        /* The sender of an MDL_ANY receive is known only on completion:
         * answer MDL_SUCCESS, never a negative value that reads as an error. */
        return from == MDL_ANY ? MDL_SUCCESS : from;
    }
    if (mpi_recv_own_bytes(rt, m, ty->bytes))
        return recv_small(rt, m, src, buf, dt);
    MPI_Status st;
    rc = recv_taken(rt, m, buf, 1, dt, src, &st);
    return rc ? rc : check_size(rt, m, &st, lay);
}

int be_send(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, const int *to, int n)
{
    return send_general(rt, m, lay, to, n);
}

/* A sync send of m, count of dt (its cached call_count, call_dt) from
 * buf to world rank dest, not itself: inline in be_send_again, whose
 * arguments are then MPI_Send's without a move. */
static inline __attribute__((always_inline)) int send_sync_body(mdl_rt *rt,
                                                                const mdl_msg_desc *m,
                                                                void *buf, int count,
                                                                MPI_Datatype dt, int dest)
{
    rt_block_begin();
    int mpirc = MPI_Send(buf, count, dt, dest, m->channel, rt->job.world);
    rt_block_end();
    if (mpirc != MPI_SUCCESS)
        return mpi_fail(rt, m->fn, mpirc, "MPI_Send");
    mpi_count_sent(rt, dest);
    return MDL_SUCCESS;
}

static __attribute__((noinline)) int send_sync(mdl_rt *rt, const mdl_msg_desc *m, void *buf,
                                               int count, MPI_Datatype dt, int dest)
{
    return send_sync_body(rt, m, buf, count, dt, dest);
}

/* An async send of m, count of dt from buf to world rank dest, another
 * process, through MPI: a request of the message's if one is free, else
 * send_general, which makes room (lay, to: the call's). */
static __attribute__((noinline)) int send_async(mdl_rt *rt, const mdl_msg_desc *m, void *buf,
                                                int count, MPI_Datatype dt, int dest,
                                                const rt_layout *lay, int to)
{
    mpi_msg_reqs *rq = &rt->msgs[m->index].reqs;
    if (rq->n == rq->cap)
        return send_general(rt, m, lay, &to, 1);
    int mpirc = MPI_Isend(buf, count, dt, dest, m->channel, rt->job.world, &rq->reqs[rq->n]);
    if (mpirc != MPI_SUCCESS)
        return mpi_fail(rt, m->fn, mpirc, "MPI_Isend");
    mpi_count_sent(rt, dest);
    rq->send_dest[rq->n++] = dest;
    return MDL_SUCCESS;
}

/* be_send_one after its first checks: to a host peer that may take the
 * direct path, or to itself. */
static __attribute__((noinline)) int send_one_other(mdl_rt *rt, const mdl_msg_desc *m,
                                                    const rt_layout *lay, int to, int dest)
{
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    if (direct_peer(rt, ty, dest)) {
        int rc = send_direct(rt, m, lay, dest);
        if (rc != 1)
            return rc;
    }
    if (dest == rt->job.world_rank)     /* to itself: buffered */
        return send_general(rt, m, lay, &to, 1);
    if (m->async)
        return send_async(rt, m, lay->base, ty->call_count, ty->call_dt, dest, lay, to);
    return send_sync(rt, m, lay->base, ty->call_count, ty->call_dt, dest);
}

/* Fast paths: one peer, the datatype cached for the layout's shape — what
 * a program does in its loops: a few branches and the MPI call.
 * Everything else goes through the general functions.  Tail calls only,
 * so that they save no register (be_send_one and be_recv pushed and
 * popped six each).  A layout that no process of the host may take by
 * the direct path (too small, or no host peer announces) is noted
 * (again, rt_again): MPI_Send's or MPI_Isend's buffer, count and
 * datatype, which serve every other process.  The datatype is rebuilt
 * only for a layout of another shape, and the layer clears the note
 * whenever the layout changes. */
int be_send_one(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int to,
                rt_again *again)
{
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    if (!mpi_type_serves(ty, lay))
        return send_general(rt, m, lay, &to, 1);
    int dest = rt->job.rank_of[m->peer_task][to];
    if (__builtin_expect(direct_peer(rt, ty, dest) || dest == rt->job.world_rank, 0))
        return send_one_other(rt, m, lay, to, dest);
    if (again && !direct_sized(rt, ty)) {
        again->buf = lay->base;
        again->count = ty->call_count;
        again->type = (uintptr_t)ty->call_dt;
        again->ranks = rt->job.rank_of[m->peer_task];
        again->none = 0;
    }
    if (m->async)
        return send_async(rt, m, lay->base, ty->call_count, ty->call_dt, dest, lay, to);
    return send_sync(rt, m, lay->base, ty->call_count, ty->call_dt, dest);
}

/* A site's plan (rt_site_plan): a sync send's MPI_Send arguments, or a
 * sync receive's MPI_Recv arguments, the bytes it expects and its
 * layout, which holds as long as the plan (the layer clears the plan
 * where the layout changes); the peer
 * task's world ranks, and the rank of the instance the plan last served
 * (site->plan_inst); the runtime, which the plan outlives not. */
enum {
    PLAN_RT, PLAN_BUF, PLAN_TYPE, PLAN_COUNT, PLAN_TAG, PLAN_RANKS, PLAN_RANK, PLAN_BYTES,
    PLAN_LAYOUT                 /* a receive reads it (rt_msg_layout.site) */
};

/* The plan's words for m's call, laid out as lay, of `count` elements
 * of dt from buf (a datatype of MPI's own: it lives as long as the
 * runtime, where a derived one is freed when the message changes shape)
 * to or from instance `to`, made with plan_call. */
static void plan(mdl_rt *rt, const mdl_msg_desc *m, mdl_site *site, const rt_layout *lay,
                 void *buf, int count, MPI_Datatype dt, int to,
                 int (*plan_call)(mdl_site *site, int inst))
{
    uintptr_t *w = site->plan;
    w[PLAN_RT] = (uintptr_t)rt;
    w[PLAN_LAYOUT] = (uintptr_t)lay;
    w[PLAN_BUF] = (uintptr_t)buf;
    w[PLAN_TYPE] = (uintptr_t)dt;
    w[PLAN_COUNT] = (uintptr_t)count;
    w[PLAN_TAG] = (uintptr_t)m->channel;
    w[PLAN_RANKS] = (uintptr_t)rt->job.rank_of[m->peer_task];
    w[PLAN_RANK] = (uintptr_t)rt->job.rank_of[m->peer_task][to];
    w[PLAN_BYTES] = rt->msgs[m->index].types.bytes;
    rt_site_plan(site, plan_call, to);
}

/* The world rank of instance inst in the plan, which keeps it for the
 * next call (the generated function's, to the same instance, comes with
 * inst == plan_inst). */
static inline __attribute__((always_inline)) int plan_rank(mdl_site *site, int inst)
{
    uintptr_t *w = site->plan;
    if (__builtin_expect(inst != site->plan_inst, 0)) {
        w[PLAN_RANK] = (uintptr_t)((const int *)w[PLAN_RANKS])[inst];
        site->plan_inst = inst;
    }
    return (int)w[PLAN_RANK];
}

/* send_planned's MPI_Send failed: its count taken back, the failure
 * reported under the call rt_enter recorded. */
static __attribute__((noinline, cold)) int send_planned_failed(mdl_site *site, int mpirc)
{
    mdl_rt *rt = (mdl_rt *)site->plan[PLAN_RT];
    rt->tally.sent[(int)site->plan[PLAN_RANK]]--;
    return mpi_fail(rt, site->m->fn, mpirc, "MPI_Send");
}

/* A planned sync send.  Counted before MPI_Send, so that only the site
 * lives across the call (one register saved). */
static int send_planned(mdl_site *site, int inst)
{
    uintptr_t *w = site->plan;
    mdl_rt *rt = (mdl_rt *)w[PLAN_RT];
    int dest = plan_rank(site, inst);
    rt_enter(site->m->fn, site->m, inst);
    mpi_count_sent(rt, dest);
    rt_block_begin();
    int mpirc = MPI_Send((void *)w[PLAN_BUF], (int)w[PLAN_COUNT], (MPI_Datatype)w[PLAN_TYPE],
                         dest, (int)w[PLAN_TAG], rt->job.world);
    rt_block_end();
    if (__builtin_expect(mpirc != MPI_SUCCESS, 0))
        return send_planned_failed(site, mpirc);
    return MDL_SUCCESS;
}

int be_send_again(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int to,
                  mdl_site *site)
{
    int dest = lay->again.ranks[to];
    if (__builtin_expect(dest == rt->job.world_rank, 0))
        return send_one_other(rt, m, lay, to, dest);
    const rt_again *again = &lay->again;
    MPI_Datatype dt = (MPI_Datatype)again->type;
    if (m->async)
        return send_async(rt, m, again->buf, again->count, dt, dest, lay, to);
    if (site && rt->msgs[m->index].types.basic) {
        plan(rt, m, site, lay, again->buf, again->count, dt, to, send_planned);
        return send_planned(site, to);
    }
    return send_sync_body(rt, m, again->buf, again->count, dt, dest);
}

/* A sync receive of m's cached datatype from world rank src, not through
 * a buffer of its own (mpi_recv_own_bytes).  What follows MPI_Recv is on the
 * message's path (in a ping-pong, before the reply's send): what it
 * needs is read before, and known (a constant) says the status decodes
 * (status_decoded) and the sender is instance `from`, not MDL_ANY, so
 * that neither is looked up after the receive. */
static inline __attribute__((always_inline)) int recv_sync_body(mdl_rt *rt,
                                                                const mdl_msg_desc *m,
                                                                const rt_layout *lay, int src,
                                                                int from, int known)
{
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    size_t expect = ty->bytes;
    MPI_Status st;
    int rc = recv_taken(rt, m, lay->base, ty->call_count, ty->call_dt, src, &st);
    if (rc)
        return rc;
    size_t got = known ? status_decoded_bytes(&st) : status_bytes(rt, &st);
    if (__builtin_expect(got != expect, 0))
        return recv_sync_odd(rt, m, &st, got, lay);
    return known ? from : rt->job.inst_of[st.MPI_SOURCE];
}

static __attribute__((noinline)) int recv_sync(mdl_rt *rt, const mdl_msg_desc *m,
                                               const rt_layout *lay, int src)
{
    return recv_sync_body(rt, m, lay, src, MDL_ANY, 0);
}

/* be_recv's: from an instance, the status known to decode. */
static __attribute__((noinline)) int recv_sync_known(mdl_rt *rt, const mdl_msg_desc *m,
                                                     const rt_layout *lay, int src, int from)
{
    return recv_sync_body(rt, m, lay, src, from, 1);
}

/* be_recv while sends to itself are kept (mpi_self.c): one taken, or
 * the receive through MPI.  Out of be_recv, whose fast path then saves no
 * register. */
static __attribute__((noinline)) int recv_kept(mdl_rt *rt, const mdl_msg_desc *m,
                                               const rt_layout *lay, int from)
{
    int rc = mpi_self_recv(rt, m, lay, from);
    return rc != MPI_SELF_NONE ? rc : recv_general(rt, m, lay, from);
}

/* recv_planned's receive failed, or got other than the bytes it
 * expects: an announcement, or sizes that disagree, as recv_sync_body
 * says them. */
static __attribute__((noinline, cold)) int recv_planned_odd(mdl_site *site, int mpirc,
                                                            MPI_Status *st, size_t got)
{
    mdl_rt *rt = (mdl_rt *)site->plan[PLAN_RT];
    if (mpirc != MPI_SUCCESS)
        return recv_fail(rt, site->m->fn, site->m, mpirc, st);
    return recv_sync_odd(rt, site->m, st, got, (const rt_layout *)site->plan[PLAN_LAYOUT]);
}

/* A planned sync receive: recv_sync_known's, from the plan's words (not
 * through recv_taken, whose failure path would keep m and rt in
 * registers across MPI_Recv: two pops more on the message's path). */
static int recv_planned(mdl_site *site, int inst)
{
    uintptr_t *w = site->plan;
    mdl_rt *rt = (mdl_rt *)w[PLAN_RT];
    int src = plan_rank(site, inst);
    rt_enter(site->m->fn, site->m, inst);
    rt->tally.taken++;
    MPI_Status st;
    int mpirc = mpi_recv_sync(rt, (void *)w[PLAN_BUF], (int)w[PLAN_COUNT],
                              (MPI_Datatype)w[PLAN_TYPE], src, (int)w[PLAN_TAG], &st);
    size_t got = status_decoded_bytes(&st);
    if (__builtin_expect(mpirc != MPI_SUCCESS || got != w[PLAN_BYTES], 0))
        return recv_planned_odd(site, mpirc, &st, got);
    return inst;
}

int be_recv(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int from,
            mdl_site *site)
{
    if (__builtin_expect(rt->to_self.nkept != 0, 0))
        return recv_kept(rt, m, lay, from);
    const mpi_msg_types *ty = &rt->msgs[m->index].types;
    if (m->async || from == MDL_ANY || !mpi_type_serves(ty, lay))
        return recv_general(rt, m, lay, from);
    int src = rt->job.rank_of[m->peer_task][from];
    /* noted first: GCC reads the bytes, an argument, before the inline's
     * own test of it (one load more on every receive) */
    if (__builtin_expect(rt->msgs[m->index].direct.noted, 0) &&
        mpi_recv_own_bytes(rt, m, ty->bytes))
        return recv_small(rt, m, src, lay->base, ty->dt);
    if (!status_decoded(rt))
        return recv_sync(rt, m, lay, src);
    if (__builtin_expect(site != NULL, 0) && ty->basic) {
        plan(rt, m, site, lay, lay->base, ty->call_count, ty->call_dt, from, recv_planned);
        return recv_planned(site, from);
    }
    return recv_sync_known(rt, m, lay, src, from);
}

/* The requests of a message, x, are done with (completed, or cancelled
 * at MDL_End). */
static inline void requests_done(mdl_rt *rt, mpi_msg *x)
{
    x->reqs.n = 0;
    x->reqs.completed_first = 0;
    rt->host.nlarge -= x->direct.nlarge;
    x->direct.nlarge = 0;
}

/* Whether async receive i of m went through its own buffer (recv_own). */
static inline int req_own(const mdl_rt *rt, const mdl_msg_desc *m, int i)
{
    return mpi_recv_own_bytes(rt, m, rt->msgs[m->index].reqs.recv_bytes[i]) != 0;
}

/* The layout async receive i of a noted message was posted with. */
static rt_layout req_layout(const mpi_msg_direct *dx, const mdl_msg_desc *m, int i)
{
    rt_layout lay = dx->posted[i];
    lay.spans = &dx->posted_spans[(size_t)i * (size_t)m->nitems];
    return lay;
}

/* Its spans, for recv_odd (NULL: not noted, never an announcement). */
static const mdl_span *req_spans(const mpi_msg_direct *dx, const mdl_msg_desc *m, int i)
{
    return dx->noted ? &dx->posted_spans[(size_t)i * (size_t)m->nitems] : NULL;
}

/* Async receive i of m got its message: what it expected, or an
 * announcement copied already by progress. */
static inline int req_plain(const mdl_rt *rt, const mdl_msg_desc *m, int i, size_t got)
{
    const mpi_msg *x = &rt->msgs[m->index];
    return (got == x->reqs.recv_bytes[i] && !req_own(rt, m, i)) ||
           (x->direct.noted && x->direct.early[i]);
}

/* Async receive i of m, not plain: recv_own (found: req_placed's, or
 * NULL) or recv_odd. */
static int req_odd(mdl_rt *rt, const char *fn, const mdl_msg_desc *m, int i, size_t got,
                   int copy, const mpi_direct_found *found)
{
    mpi_msg *x = &rt->msgs[m->index];
    mpi_msg_reqs *rq = &x->reqs;
    return req_own(rt, m, i)
               ? recv_own(rt, fn, m, &rq->sts[i], x->direct.own[i], got, rq->recv_bytes[i], copy,
                          found)
               : recv_odd(rt, fn, m, &rq->sts[i], got, rq->recv_bytes[i],
                          req_spans(&x->direct, m, i), copy);
}

/* Async receive i of m went through its own buffer and got what it
 * expected: into its place, the datatype of its layout (1: not that
 * case; what own_message found in *found, for req_odd). */
static int req_placed(mdl_rt *rt, const mdl_msg_desc *m, int i, size_t got,
                      mpi_direct_found *found)
{
    mpi_msg *x = &rt->msgs[m->index];
    if (!req_own(rt, m, i) || !own_message(rt, m, &x->reqs.sts[i], x->direct.own[i], got,
                                           x->reqs.recv_bytes[i], found))
        return 1;
    rt_layout lay = req_layout(&x->direct, m, i);
    void *buf;
    MPI_Datatype dt;
    int rc = mpi_msg_type(rt, m, &lay, &buf, &dt);
    return rc ? rc : place_own(rt, m->fn, &x->types, x->direct.own[i], got, buf, dt);
}

/* While a sender waits for its receiver (mpi_direct.c, the hook it is
 * given): the async receives posted by this process that have completed
 * are completed now, so that an announcement among them is copied and its
 * sender, which may be waiting for this one's copy in turn, released. */
static void progress(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    for (int i = 0; rt->host.nlarge && i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        const mpi_msg_reqs *rq = &rt->msgs[i].reqs;
        mpi_msg_direct *dx = &rt->msgs[i].direct;
        for (int k = 0; dx->nlarge && k < rq->n; k++) {
            if (dx->early[k] || req_own(rt, m, k))
                continue;
            /* completed, the request left for the Wait or Test */
            int flag = 0;
            MPI_Status st;
            mpi_completion_errors_returned(rt, 1);
            int mpirc = MPI_Request_get_status(rq->reqs[k], &flag, &st);
            mpi_completion_errors_returned(rt, 0);
            if (flag && mpirc == MPI_SUCCESS && status_bytes(rt, &st) == (size_t)dx->wire &&
                mpi_direct_recv(rt, m->fn, m, &st, req_spans(dx, m, k), MPI_DIRECT_EARLY) == 0)
                dx->early[k] = 1;
        }
    }
}

/* A Wait or Test that reports the error of receive `bad`: the senders of
 * the other receives it completed that were announcements of large
 * messages from a host peer are released (nothing copied: the call
 * failed), or they would wait for ever. */
static __attribute__((cold)) void release_others(mdl_rt *rt, const char *fn,
                                                 const mdl_msg_desc *m, int n, int bad,
                                                 int in_status)
{
    const MPI_Status *sts = rt->msgs[m->index].reqs.sts;
    for (int i = 0; rt->host.peer_base && i < n; i++) {
        size_t got = status_bytes(rt, &sts[i]);
        if (i != bad && (!in_status || sts[i].MPI_ERROR == MPI_SUCCESS) &&
            !req_plain(rt, m, i, got))
            req_odd(rt, fn, m, i, got, MPI_DIRECT_RELEASE, NULL);
    }
}

/* A Wait or Test that failed (MPI_ERR_IN_STATUS) with requests of m still
 * in flight (MPI_ERR_PENDING: MPICH's Testall leaves the others so when
 * one failed): those stay, first in the arrays, for the next Wait or Test
 * of m (MPI may still write into them; one may be an announcement whose
 * sender waits); the rest are done with. */
static void keep_pending(mdl_rt *rt, const mdl_msg_desc *m, int n)
{
    mpi_msg_reqs *rq = &rt->msgs[m->index].reqs;
    mpi_msg_direct *dx = &rt->msgs[m->index].direct;
    size_t ni = (size_t)m->nitems;
    int kept = 0, large = 0;
    for (int i = 0; i < n; i++) {
        if (rq->sts[i].MPI_ERROR != MPI_ERR_PENDING) {
            if (dx->notes && dx->notes[i]) {
                free(dx->notes[i]);
                dx->notes[i] = NULL;
                dx->nnotes--;
            }
            continue;
        }
        if (i != kept) {
            rq->reqs[kept] = rq->reqs[i];
            if (m->is_send)
                rq->send_dest[kept] = rq->send_dest[i];
            else
                rq->recv_bytes[kept] = rq->recv_bytes[i];
            if (dx->noted) {
                dx->posted[kept] = dx->posted[i];
                memcpy(&dx->posted_spans[ni * (size_t)kept], &dx->posted_spans[ni * (size_t)i],
                       sizeof *dx->posted_spans * ni);
                dx->early[kept] = dx->early[i];
                unsigned char *x = dx->own[kept];   /* buffers are swapped, never lost */
                dx->own[kept] = dx->own[i];
                dx->own[i] = x;
            }
            if (dx->notes) {
                dx->notes[kept] = dx->notes[i];
                dx->notes[i] = NULL;
            }
        }
        large += !m->is_send && dx->noted && !req_own(rt, m, kept);
        kept++;
    }
    rt->host.nlarge += large - dx->nlarge;
    dx->nlarge = large;
    rq->n = kept;
    rq->completed_first = 0;    /* those kept are all in flight */
}

/* After completion of all requests of m: errors and sizes of receives.
 * wait: Test (0) or Wait (1), for the function name of an error (formatted
 * only when there is one: snprintf was ~900 instructions a call). */
static int completed(mdl_rt *rt, const mdl_msg_desc *m, int wait, int mpirc)
{
    char fn[160];
    mpi_msg *x = &rt->msgs[m->index];
    mpi_msg_reqs *rq = &x->reqs;
    int n = rq->n;
    if (mpirc == MPI_ERR_IN_STATUS) {
        for (int i = 0; i < n; i++)
            if (rq->sts[i].MPI_ERROR != MPI_SUCCESS && rq->sts[i].MPI_ERROR != MPI_ERR_PENDING) {
                rt_completion_fn(m, wait, fn, sizeof fn);
                if (!m->is_send)
                    release_others(rt, fn, m, n, i, 1);
                int rc = m->is_send ? mpi_fail(rt, fn, rq->sts[i].MPI_ERROR, "completion")
                                    : recv_fail(rt, fn, m, rq->sts[i].MPI_ERROR, &rq->sts[i]);
                keep_pending(rt, m, n);
                return rc;
            }
    }
    requests_done(rt, x);
    if (m->is_send)
        mpi_direct_release(&x->direct, n);
    if (mpirc != MPI_SUCCESS) {
        rt_completion_fn(m, wait, fn, sizeof fn);
        return m->is_send || n != 1 ? mpi_fail(rt, fn, mpirc, "completion")
                                    : recv_fail(rt, fn, m, mpirc, &rq->sts[0]);
    }
    if (!m->is_send)
        for (int i = 0; i < n; i++) {
            size_t got = status_bytes(rt, &rq->sts[i]);
            mpi_direct_found found;
            int rc = req_plain(rt, m, i, got) ? 0 : req_placed(rt, m, i, got, &found);
            if (rc == 1)
                rc = req_odd(rt, rt_completion_fn(m, wait, fn, sizeof fn), m, i, got,
                             MPI_DIRECT_COPY, &found);
            if (rc) {
                rt_completion_fn(m, wait, fn, sizeof fn);
                release_others(rt, fn, m, n, i, 0);
                return rc;
            }
        }
    if (!m->is_send && rt->c.tr)        /* in post order: the order of arrival */
        for (int i = 0; i < n; i++)
            rt_trace_arrived(rt, m, rt->job.inst_of[rq->sts[i].MPI_SOURCE]);
    return 0;
}

/* Test or Wait (wait) of receives some of which were completed first
 * (rq->completed_first): request by request, as MPI_Testall /
 * MPI_Waitall report them (MPI_ERR_IN_STATUS, those not done
 * MPI_ERR_PENDING), the statuses of those completed first kept. */
static __attribute__((noinline, cold)) int complete_each(mpi_msg_reqs *rq, int wait, int *flag)
{
    int all = 1;
    for (int k = 0; k < rq->n; k++) {
        if (rq->reqs[k] == MPI_REQUEST_NULL)
            continue;
        int done = 1;
        int mpirc = wait ? MPI_Wait(&rq->reqs[k], &rq->sts[k])
                         : MPI_Test(&rq->reqs[k], &done, &rq->sts[k]);
        if (mpirc != MPI_SUCCESS) {
            for (int i = 0; i < rq->n; i++)
                rq->sts[i].MPI_ERROR = i == k ? mpirc
                    : rq->reqs[i] == MPI_REQUEST_NULL ? MPI_SUCCESS : MPI_ERR_PENDING;
            *flag = 1;
            return MPI_ERR_IN_STATUS;
        }
        if (done)
            rq->sts[k].MPI_ERROR = MPI_SUCCESS;
        all &= done;
    }
    *flag = all;
    return MPI_SUCCESS;
}

static int testall(mdl_rt *rt, const mdl_msg_desc *m, mpi_msg_reqs *rq, int *flag)
{
    if (m->is_send)
        return MPI_Testall(rq->n, rq->reqs, flag, rq->sts);
    mpi_completion_errors_returned(rt, 1);
    int mpirc = rq->completed_first ? complete_each(rq, 0, flag)
                                    : MPI_Testall(rq->n, rq->reqs, flag, rq->sts);
    mpi_completion_errors_returned(rt, 0);
    return mpirc;
}

static int waitall(mdl_rt *rt, const mdl_msg_desc *m, mpi_msg_reqs *rq)
{
    int mpirc;
    if (m->is_send) {
        rt_block_begin();
        mpirc = rq->n == 1 ? MPI_Wait(&rq->reqs[0], &rq->sts[0])
                           : MPI_Waitall(rq->n, rq->reqs, rq->sts);
        rt_block_end();
        return mpirc;
    }
    mpi_completion_errors_returned(rt, 1);
    rt_block_begin();
    int flag;
    mpirc = rq->completed_first ? complete_each(rq, 1, &flag)
          : rq->n == 1 ? MPI_Wait(&rq->reqs[0], &rq->sts[0])
                       : MPI_Waitall(rq->n, rq->reqs, rq->sts);
    rt_block_end();
    mpi_completion_errors_returned(rt, 0);
    return mpirc;
}

/* The Wait of several receives some of which may be announcements of
 * large messages from host peers (direct.nlarge), before its waitall:
 * until MPI says every request is complete (not completing them: the
 * Wait does, as before), each announcement that is in is copied at once
 * (progress), where MPI_Waitall alone let the copies wait for the last
 * message.  Its sender waits for that copy (and withdraws only once its
 * receiver has spent MPI_DIRECT_STUCK_US of CPU time blocked elsewhere),
 * so every sender of a host waited for the slowest message its receiver
 * got from another host, and under load for the scheduler to give the
 * receiver that CPU time (the Vlasov code on 2 hosts x 2,
 * docs/performance.md "Across hosts").  A request MPI fails to look at
 * ends the polling: the Wait reports it. */
static __attribute__((noinline)) void copy_while_waiting(mdl_rt *rt, const mpi_msg_reqs *rq)
{
    rt_block_begin();
    for (int k = 0; k < rq->n;) {
        int done = 1, mpirc = MPI_SUCCESS;
        if (rq->reqs[k] != MPI_REQUEST_NULL) {
            mpi_completion_errors_returned(rt, 1);
            mpirc = MPI_Request_get_status(rq->reqs[k], &done, MPI_STATUS_IGNORE);
            mpi_completion_errors_returned(rt, 0);
        }
        if (mpirc != MPI_SUCCESS)
            break;
        if (done)
            k++;
        else
            progress(rt);
    }
    rt_block_end();
}

/* A Test that finds not all receives of m complete: one that has already
 * failed is reported now, as MPI reports a truncation as soon as it
 * happens, and the others stay posted (else a program polling for the
 * error while its peer waits for it would wait for ever).  Failed: in MPI
 * (more than its buffer) — MPICH's MPI_Testall says so itself; Open MPI's
 * says "not done" until every request has completed, and its
 * MPI_Request_get_status does not give the error, so a request found
 * complete is completed here, and the others request by request from now
 * on (rq->completed_first) — or, for one that went through a buffer of
 * its own, a message of another size (which MPI did not fail: it fitted
 * the buffer).  0: none such. */
static __attribute__((noinline)) int failed_early(mdl_rt *rt, const mdl_msg_desc *m)
{
    mpi_msg *x = &rt->msgs[m->index];
    mpi_msg_reqs *rq = &x->reqs;
    int rc = 0;
    mpi_completion_errors_returned(rt, 1);     /* a truncation found here is returned */
    for (int k = 0; k < rq->n; k++) {
        int done = 0;
        MPI_Status st;
        if (rq->reqs[k] == MPI_REQUEST_NULL)
            continue;
        int mpirc = MPI_Request_get_status(rq->reqs[k], &done, &st);
        if (mpirc == MPI_SUCCESS && !done)
            continue;
        if (mpirc == MPI_SUCCESS && !req_own(rt, m, k)) {
            mpirc = MPI_Test(&rq->reqs[k], &done, &st);
            if (mpirc == MPI_SUCCESS) {
                st.MPI_ERROR = MPI_SUCCESS;
                rq->sts[k] = st;
                rq->completed_first++;
                continue;
            }
        } else if (mpirc == MPI_SUCCESS && status_bytes(rt, &st) == rq->recv_bytes[k]) {
            continue;
        } else {
            MPI_Test(&rq->reqs[k], &done, &rq->sts[k]);
        }
        /* completed here, reported, the others left posted */
        for (int i = 0; i < rq->n; i++)
            rq->sts[i].MPI_ERROR = i == k ? MPI_ERR_TRUNCATE
                : rq->reqs[i] == MPI_REQUEST_NULL ? MPI_SUCCESS : MPI_ERR_PENDING;
        char fn[160];
        rt_completion_fn(m, 0, fn, sizeof fn);
        rc = mpirc != MPI_SUCCESS ? recv_fail(rt, fn, m, mpirc, &st)
                                  : recv_own(rt, fn, m, &rq->sts[k], x->direct.own[k],
                                             status_bytes(rt, &rq->sts[k]), rq->recv_bytes[k],
                                             MPI_DIRECT_COPY, NULL);
        keep_pending(rt, m, rq->n);
        break;
    }
    mpi_completion_errors_returned(rt, 0);
    return rc;
}

int be_test(mdl_rt *rt, const mdl_msg_desc *m)
{
    mpi_self_packed(rt, m);
    mpi_msg *x = &rt->msgs[m->index];
    if (x->reqs.n == 0)
        return 1;
    int flag = 0;
    int mpirc = testall(rt, m, &x->reqs, &flag);
    if (mpirc == MPI_SUCCESS && !flag) {
        int rc = !m->is_send && (x->reqs.n > 1 || x->direct.noted) ? failed_early(rt, m) : 0;
        if (rc)
            return rc;
        /* a program polling with Test may be what a sender waits for */
        if (rt->host.peer_base)
            progress(rt);
        return 0;
    }
    if (mpirc == MPI_SUCCESS && x->direct.nnotes) {     /* announced sends: copied yet? */
        int done = mpi_direct_sends_done(rt, m, 0, 0, progress);
        if (done <= 0)
            return done;
    }
    int rc = completed(rt, m, 0, mpirc);
    return rc ? rc : 1;
}

int be_wait(mdl_rt *rt, const mdl_msg_desc *m)
{
    mpi_self_packed(rt, m);
    mpi_msg *x = &rt->msgs[m->index];
    mpi_msg_reqs *rq = &x->reqs;
    if (rq->n == 0)
        return MDL_SUCCESS;
    /* One request in flight (an async send or receive per exchange) is
     * completed with MPI_Wait: MPI_Waitall cost MPICH ~350 instructions
     * for one. */
    if (!m->is_send && x->direct.nlarge && rq->n > 1)
        copy_while_waiting(rt, rq);
    int mpirc = waitall(rt, m, rq);
    if (mpirc == MPI_SUCCESS && x->direct.nnotes) {     /* announced sends: until copied */
        int done = mpi_direct_sends_done(rt, m, 1, 1, progress);
        if (done < 0)
            return done;
    }
    if (mpirc == MPI_SUCCESS && rq->n == 1 &&
        (m->is_send || req_plain(rt, m, 0, status_bytes(rt, &rq->sts[0])))) {
        requests_done(rt, x);
        if (!m->is_send && rt->c.tr)
            rt_trace_arrived(rt, m, rt->job.inst_of[rq->sts[0].MPI_SOURCE]);
        return MDL_SUCCESS;
    }
    return completed(rt, m, 1, mpirc);
}

/* MDL_End, the async receives of m not completed: cancelled.  One whose
 * message matched already is dropped, as on shm, even if it did not fit
 * (nothing asked for it); a large one announced by a host peer releases
 * its sender (cancel does not take back what matched).  0 or the first
 * other error. */
static int end_receives(mdl_rt *rt, const char *fn, const mdl_msg_desc *m)
{
    mpi_msg_reqs *rq = &rt->msgs[m->index].reqs;
    int rc = 0;
    for (int k = 0; k < rq->n; k++)
        if (rq->reqs[k] != MPI_REQUEST_NULL)
            MPI_Cancel(&rq->reqs[k]);
    int mpirc = waitall(rt, m, rq);
    for (int k = 0; k < rq->n; k++) {
        /* one request: MPI_Wait returned its error; several: their statuses */
        int cancelled = 0, cls = MPI_SUCCESS,
            err = mpirc == MPI_ERR_IN_STATUS ? rq->sts[k].MPI_ERROR : mpirc;
        MPI_Error_class(err, &cls);
        MPI_Test_cancelled(&rq->sts[k], &cancelled);
        rt->tally.taken -= cancelled;   /* took nothing */
        size_t got = status_bytes(rt, &rq->sts[k]);
        if (!cancelled && err == MPI_SUCCESS && !req_plain(rt, m, k, got))
            req_odd(rt, fn, m, k, got, MPI_DIRECT_RELEASE, NULL);
        if (cls != MPI_SUCCESS && cls != MPI_ERR_TRUNCATE && !rc)
            rc = mpi_fail(rt, fn, err, "cancelling an async receive");
    }
    return rc;
}

/* A message nothing received, probed: received and dropped (a large
 * one's sender released; m: its receive, NULL for a message to itself,
 * never an announcement).  0: out of memory, left where it is. */
static int drop_unreceived(mdl_rt *rt, const mdl_msg_desc *m, MPI_Status *st)
{
    /* one of 2 GiB or more is dropped by a receive of none: truncated,
     * it is taken off the queue all the same */
    size_t got = status_bytes(rt, st);
    int bytes = got > INT_MAX ? 0 : (int)got;
    void *sink = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!sink)
        return 0;
    MPI_Recv(sink, bytes, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, rt->job.world, MPI_STATUS_IGNORE);
    rt->tally.taken++;
    if (m && rt->host.peer_base && rt->msgs[m->index].direct.noted &&
        bytes == rt->msgs[m->index].direct.wire)
        mpi_direct_recv_small(rt, MDL_FN_NAME(END), m, st, sink, 0, MPI_DIRECT_RELEASE, NULL);
    free(sink);
    return 1;
}

/* The messages on this task's receive tags that have reached the
 * process, received and dropped; their number added to *n (those of a
 * message in `left` not counted), the first one's receive and sender in
 * *first and *from.  left NULL: none looked at.  0: out of memory,
 * the message left where it is. */
static int probe_unreceived(mdl_rt *rt, const unsigned char *left, const mdl_msg_desc **first,
                            int *from, int *n)
{
    const mdl_task_desc *d = rt->c.d;
    for (int i = 0; left && i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        int flag = 1;
        MPI_Status st;
        while (!m->is_send && flag) {
            if (MPI_Iprobe(MPI_ANY_SOURCE, m->channel, rt->job.world, &flag, &st) != MPI_SUCCESS)
                break;
            if (flag && !left[i] && !(*n)++) {
                *first = m;
                *from = rt->job.inst_of[st.MPI_SOURCE];
            }
            if (flag && !drop_unreceived(rt, m, &st))
                return 0;
        }
    }
    return 1;
}

/* MDL_End, its own sends complete: messages sent to this instance that
 * nothing received are an error, not dropped without a word (MPI asks the
 * same: every message received before MPI_Finalize; MPICH drops them).
 * MPI does not say when a message sent has arrived (over TCP an eager one
 * may still be on its way after a later barrier), so the job adds up what
 * each process sent to each (tally.sum, begun as MDL_End started), and
 * this process takes what reaches its receive channels until what it
 * took, received or dropped, makes up what it is owed.  It takes while
 * the sum is on its way too: a sender may wait in its own MDL_End for a
 * large message to be taken (MPI's rendezvous; or the one-copy path's
 * announcement, then released).  Those of a message whose async receives
 * MDL_End cancelled (left) are dropped, as those receives' own would have
 * been.  left NULL, or memory running out for a message to drop: only
 * the sum, which every process's MDL_End takes part in, is waited for. */
static int unreceived(mdl_rt *rt, const unsigned char *left)
{
    const mdl_msg_desc *first = NULL;
    int from = 0, n = 0, summed = 0, mpirc = MPI_SUCCESS, room = 1;
    mpi_direct_name_pending(rt);    /* what the wait waits for */
    rt_block_begin();
    while (mpirc == MPI_SUCCESS && (!summed || (left && room && rt->tally.taken < rt->tally.owed))) {
        room = room && probe_unreceived(rt, left, &first, &from, &n);
        if (!summed)
            mpirc = MPI_Test(&rt->tally.sum, &summed, MPI_STATUS_IGNORE);
    }
    rt_block_end();
    int rc = n ? rt_fail_unreceived(rt, first, from, n) : 0;
    return rc || mpirc == MPI_SUCCESS ? rc
                                      : mpi_fail(rt, MDL_FN_NAME(END), mpirc,
                                                 "MPI_Ireduce_scatter_block");
}

/* MDL_End, about to wait for the async sends of m: the receivers of those
 * still in flight (an announced one until copied) are named. */
static void end_names_receivers(mdl_rt *rt, const mdl_msg_desc *m)
{
    const mpi_msg_reqs *rq = &rt->msgs[m->index].reqs;
    const mpi_msg_direct *dx = &rt->msgs[m->index].direct;
    int n = 0;
    for (int k = 0; k < rq->n; k++) {
        int done = 0, inst = rt->job.inst_of[rq->send_dest[k]], seen = 0;
        if (!(dx->notes && dx->notes[k]))
            MPI_Request_get_status(rq->reqs[k], &done, MPI_STATUS_IGNORE);
        for (int i = 0; i < n && !seen; i++)
            seen = rt->scratch.targets[i] == inst;
        if (!done && !seen)
            rt->scratch.targets[n++] = inst;
    }
    rt_enter_end(m, rt->scratch.targets, n);
}

/* MDL_End: what the program handed over is delivered — every async send
 * completes (waiting for its receiver if it must) —, async receives not
 * completed are cancelled, and what was sent to this instance and never
 * received is reported: nothing is left to MPI_Finalize. */
int mpi_p2p_end(mdl_rt *rt)
{
    const char *const fn = MDL_FN_NAME(END);
    int flushed = mpi_self_flushed(rt);
    /* every send of the job is made: the sum of what each process is
     * owed (unreceived) starts */
    int rc = MPI_Ireduce_scatter_block(rt->tally.sent, &rt->tally.owed, 1, MPI_LONG_LONG, MPI_SUM,
                                       rt->job.world, &rt->tally.sum);
    if (rc != MPI_SUCCESS) {
        rt->tally.sum = MPI_REQUEST_NULL;
        rc = mpi_fail(rt, fn, rc, "MPI_Ireduce_scatter_block");
    }
    rc = flushed ? flushed : rc;
    unsigned char *left = calloc((size_t)rt->c.d->nmsgs + 1, 1);
    for (int i = 0; i < rt->c.d->nmsgs; i++) {
        const mdl_msg_desc *m = rt->c.d->msgs[i];
        mpi_msg *x = &rt->msgs[i];
        mpi_msg_reqs *rq = &x->reqs;
        if (rq->n == 0)
            continue;
        if (!m->is_send) {
            if (left)
                left[i] = 1;
            int rrc = end_receives(rt, fn, m);
            rc = rc ? rc : rrc;
            requests_done(rt, x);
            continue;
        }
        end_names_receivers(rt, m);
        int mpirc = waitall(rt, m, rq);
        if (x->direct.nnotes) {
            int done = mpi_direct_sends_done(rt, m, 1, 1, progress);
            if (done < 0 && !rc)
                rc = done;
        }
        mpi_direct_release(&x->direct, rq->n);
        requests_done(rt, x);
        if (mpirc != MPI_SUCCESS && !rc)
            rc = mpi_fail(rt, fn, mpirc, "completing an async send");
    }
    int urc = unreceived(rt, left);
    rc = rc ? rc : urc;
    free(left);
    /* What this instance sent itself and never received was received
     * above (unreceived), unless memory ran out there: then here
     * (cancelling a send is not reliable in MPICH once a network module
     * carries it), and the send completes. */
    for (mpi_buffered *x = rt->to_self.sends, *nx; x; x = nx) {
        nx = x->next;
        int done = 0;
        MPI_Test(&x->req, &done, MPI_STATUS_IGNORE);
        if (!done) {
            MPI_Status st;
            MPI_Probe(rt->job.world_rank, x->tag, rt->job.world, &st);
            if (!drop_unreceived(rt, NULL, &st))
                continue;       /* out of memory: the buffer stays in flight */
            MPI_Wait(&x->req, MPI_STATUS_IGNORE);
        }
        free(x);
    }
    rt->to_self.sends = NULL;
    rt->to_self.n = rt->to_self.reap_at = 0;
    mpi_buffered_pool_free(&rt->to_self.spares);
    mpi_self_free(rt);
    mpi_direct_flush(rt);
    rt_enter_end(NULL, NULL, 0);
    return rc;
}
