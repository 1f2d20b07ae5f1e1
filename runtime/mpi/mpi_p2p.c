/* mpi_p2p.c — point-to-point messages: one datatype per message, the
 * channel number as tag on the runtime's duplicate of MPI_COMM_WORLD. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_rt.h"
#include "trace/rt_trace.h"

/* Room for `more` async requests of message m (grows, never shrinks:
 * warm calls do not allocate).  With host peers (mpi_direct.c), sends
 * keep an announcement per request and receives their bounds. */
static int reserve(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s, int more)
{
    if (s->nreq + more <= s->capreq)
        return 0;
    int cap = s->capreq ? s->capreq : 4;
    while (cap < s->nreq + more)
        cap *= 2;
    MPI_Request *r = realloc(s->reqs, sizeof *r * (size_t)cap);
    if (r)
        s->reqs = r;
    MPI_Status *st = realloc(s->sts, sizeof *st * (size_t)cap);
    if (st)
        s->sts = st;
    size_t *e = realloc(s->expect, sizeof *e * (size_t)cap);
    if (e)
        s->expect = e;
    int ok = r && st && e;
    if (ok && rt->peer_base && m->is_send) {
        struct mpi_direct_out **n = realloc(s->notes, sizeof *n * (size_t)cap);
        if ((ok = n != NULL)) {
            memset(n + s->capreq, 0, sizeof *n * (size_t)(cap - s->capreq));
            s->notes = n;
        }
    }
    if (ok && rt->peer_base && !m->is_send && m->npairs && !m->fixed_bounds) {
        long *b = realloc(s->rbounds, sizeof *b * 2 * (size_t)m->npairs * (size_t)cap);
        if ((ok = b != NULL))
            s->rbounds = b;
    }
    if (ok && rt->peer_base && !m->is_send) {
        unsigned char *x = realloc(s->early, (size_t)cap);
        if ((ok = x != NULL))
            s->early = x;
    }
    if (ok && s->small_notes) {
        /* buffers of their own: MPI writes into those in flight */
        unsigned char **x = realloc(s->own, sizeof *x * (size_t)cap);
        if ((ok = x != NULL)) {
            memset(x + s->capreq, 0, sizeof *x * (size_t)(cap - s->capreq));
            s->own = x;
        }
    }
    if (!ok)
        return rt_fail(rt, m->fn, MDL_ERR_INTERN, "out of memory");
    s->capreq = cap;
    return 0;
}

/* MPICH keeps a receive's count in bytes in the status itself (count_lo,
 * and count_hi_and_cancelled >> 1: part of its ABI).  Reading it costs a
 * few instructions, MPI_Get_count ~100 per message.  The decoding is
 * verified once against MPI_Status_set_elements_x; any other MPI, or a
 * layout that does not decode, uses MPI_Get_count. */
#ifdef MPICH_NUMVERSION
static size_t mpich_count(const MPI_Status *st)
{
    return ((size_t)((unsigned)st->count_hi_and_cancelled >> 1) << 32) | (unsigned)st->count_lo;
}

static __attribute__((noinline)) int probe_status(mdl_rt *rt)
{
    static const MPI_Count probe[2] = { 12345, ((MPI_Count)5 << 32) | 7 };
    int ok = 1;
    for (int i = 0; i < 2; i++) {
        MPI_Status st;
        memset(&st, 0, sizeof st);
        ok &= MPI_Status_set_elements_x(&st, MPI_BYTE, probe[i]) == MPI_SUCCESS &&
              mpich_count(&st) == (size_t)probe[i];
    }
    rt->status_fast = ok ? 1 : -1;
    return ok;
}
#endif

/* Bytes a receive got (SIZE_MAX when MPI cannot say). */
static size_t status_bytes(mdl_rt *rt, MPI_Status *st)
{
#ifdef MPICH_NUMVERSION
    if (rt->status_fast > 0 || (rt->status_fast == 0 && probe_status(rt)))
        return mpich_count(st);
#else
    (void)rt;
#endif
    int got = 0;
    MPI_Get_count(st, MPI_BYTE, &got);
    return got < 0 ? SIZE_MAX : (size_t)got;
}

static __attribute__((noinline, cold)) int size_fail(mdl_rt *rt, const char *fn,
                                                     const mdl_msg_desc *m, MPI_Status *st,
                                                     size_t got)
{
    const mdl_msg_state *s = &rt->msgs[m->index];
    return rt_fail_size(rt, fn, rt->task_of[st->MPI_SOURCE], rt->inst_of[st->MPI_SOURCE],
                        rt_layout_bytes(m, s, got), s->layout_bytes);
}

/* A receive that got what it expected: the message itself, unless it
 * may be the announcement of a large one from a host peer. */
static inline int recv_plain(size_t got, size_t expect)
{
    return got == expect && got != MPI_DIRECT_NOTE_BYTES;
}

/* A receive that got an announcement's size, with host peers:
 * mpi_direct_recv with the receive's layout for these bounds (1: not an
 * announcement). */
static int announced(mdl_rt *rt, const char *fn, const mdl_msg_desc *m, const MPI_Status *st,
                     const long *bounds, int copy)
{
    mdl_span inl[4], *spans = m->nitems <= 4 ? inl : malloc(sizeof *spans * (size_t)m->nitems);
    size_t total = 0;
    char why[8];
    int rc = 1;
    if (spans && mdl_msg_spans(m, rt->c.task, m->fixed_bounds ? NULL : bounds, spans, &total,
                               why, sizeof why) == 0)
        rc = mpi_direct_recv(rt, fn, m, st, spans, copy);
    if (spans != inl)
        free(spans);
    return rc;
}

/* Any other receive: an announcement (the message is copied from the
 * sender's struct, mpi_direct.c), or sizes that disagree.  bounds: those
 * of the receive.  copy: MPI_DIRECT_COPY, or MPI_DIRECT_RELEASE (MDL_End,
 * a failed Wait: the sender is only released, nothing reported). */
static __attribute__((noinline, cold)) int recv_odd(mdl_rt *rt, const char *fn,
                                                    const mdl_msg_desc *m, MPI_Status *st,
                                                    size_t got, size_t expect,
                                                    const long *bounds, int copy)
{
    if (rt->peer_base && got == MPI_DIRECT_NOTE_BYTES) {
        int rc = announced(rt, fn, m, st, bounds, copy);
        if (rc != 1)
            return rc;
    }
    if (copy != MPI_DIRECT_COPY || got == expect)
        return 0;
    return size_fail(rt, fn, m, st, got);
}

/* A receive smaller than an announcement that went through a buffer of
 * its own (small_notes), `own`, and got `got` bytes when it expected
 * `expect`: an announcement (its sender released; MDL_ERR_TRUNCATE with
 * copy) or sizes that disagree, as recv_odd.  Sizes that agree are not
 * odd (place_own). */
static __attribute__((noinline, cold)) int recv_own(mdl_rt *rt, const char *fn,
                                                    const mdl_msg_desc *m, MPI_Status *st,
                                                    const unsigned char *own, size_t got,
                                                    size_t expect, int copy)
{
    if (got == MPI_DIRECT_NOTE_BYTES) {
        int rc = mpi_direct_recv_small(rt, fn, m, st, own, expect, copy);
        if (rc != 1)
            return rc;
    }
    return copy == MPI_DIRECT_COPY ? size_fail(rt, fn, m, st, got) : 0;
}

/* The message a receive got whole in its own buffer, put in its place
 * (buf, dt: the receive's for its bounds): a contiguous section copied,
 * anything else unpacked by MPI. */
static int place_own(mdl_rt *rt, const char *fn, const mdl_msg_state *s,
                     const unsigned char *own, size_t got, void *buf, MPI_Datatype dt)
{
    if (s->by_shape && s->spans[0].nloops == 0) {
        memcpy(buf, own, got);
        return 0;
    }
    int pos = 0;
    int mpirc = MPI_Unpack(own, (int)got, &pos, buf, 1, dt, rt->world);
    return mpirc == MPI_SUCCESS ? 0 : rt_mpi_fail(rt, fn, mpirc, "MPI_Unpack");
}

/* A send to a host peer that may take the direct path: 1 when it does not
 * (the caller sends through MPI). */
static __attribute__((noinline)) int send_direct(mdl_rt *rt, const mdl_msg_desc *m,
                                                 mdl_msg_state *s, void *task,
                                                 const long *bounds, int dest)
{
    if (m->async) {
        int rc = reserve(rt, m, s, 1);
        if (rc)
            return rc;
    }
    return mpi_direct_send(rt, m, s, task, bounds, dest);
}

static inline int direct_peer(const mdl_rt *rt, const mdl_msg_state *s, int dest)
{
    return s->bytes >= MPI_DIRECT_MIN && rt->announces && rt->peer_base[dest];
}

/* A failed receive: a truncation names the sender and the receive's size. */
static __attribute__((cold)) int recv_fail(mdl_rt *rt, const char *fn, const mdl_msg_desc *m,
                                           int mpirc, MPI_Status *st)
{
    int cls = 0;
    MPI_Error_class(mpirc, &cls);
    if (cls != MPI_ERR_TRUNCATE || st->MPI_SOURCE < 0 || st->MPI_SOURCE >= rt->world_size)
        return rt_mpi_fail(rt, fn, mpirc, "receive");
    return rt_fail_size(rt, fn, rt->task_of[st->MPI_SOURCE], rt->inst_of[st->MPI_SOURCE],
                        RT_SIZE_LARGER, rt->msgs[m->index].layout_bytes);
}

void mpi_buffered_append(mdl_self_send **list, mdl_self_send *x)
{
    while (*list)
        list = &(*list)->next;
    x->next = NULL;
    *list = x;
}

void mpi_buffered_reap(mdl_self_send **list)
{
    for (mdl_self_send **pp = list; *pp;) {
        mdl_self_send *x = *pp;
        int done = 0;
        MPI_Test(&x->req, &done, MPI_STATUS_IGNORE);
        if (done) {
            *pp = x->next;
            free(x);
        } else {
            pp = &x->next;
        }
    }
}

/* A sync send to the sending instance itself can complete only once its
 * receive is posted, which comes after the send returns: MPICH's MPI_Send
 * to self then waits for ever (any size).  The message is packed into a
 * buffer of its own and sent from there with MPI_Isend (a message sent as
 * MPI_PACKED matches a receive of its datatype), so the send returns at
 * once, as on the shm runtime; the buffer is freed once received, or at
 * MDL_End. */
static __attribute__((noinline)) int send_self(mdl_rt *rt, const mdl_msg_desc *m, void *buf,
                                               MPI_Datatype dt)
{
    mpi_buffered_reap(&rt->self_sends);
    int size = 0, pos = 0;
    int mpirc = MPI_Pack_size(1, dt, rt->world, &size);
    if (mpirc != MPI_SUCCESS)
        return rt_mpi_fail(rt, m->fn, mpirc, "MPI_Pack_size");
    mdl_self_send *x = malloc(sizeof *x + (size_t)size);
    if (!x)
        return rt_fail_oom(rt, m->fn);
    mpirc = MPI_Pack(buf, 1, dt, x->data, size, &pos, rt->world);
    if (mpirc == MPI_SUCCESS)
        mpirc = MPI_Isend(x->data, pos, MPI_PACKED, rt->world_rank, m->channel, rt->world,
                          &x->req);
    if (mpirc != MPI_SUCCESS) {
        free(x);
        return rt_mpi_fail(rt, m->fn, mpirc, "MPI_Pack/MPI_Isend");
    }
    x->tag = m->channel;
    mpi_buffered_append(&rt->self_sends, x);
    return MDL_SUCCESS;
}

static int is_self(const mdl_rt *rt, const mdl_msg_desc *m, int inst)
{
    return m->peer_task == rt->c.d->self && inst == rt->c.inst;
}

/* Every send but the fast ones of be_send. */
static __attribute__((noinline)) int send_general(mdl_rt *rt, const mdl_msg_desc *m, void *task,
                                                  const long *bounds, const int *to, int n)
{
    const char *fn = m->fn;
    const int *rank = rt->rank_of[m->peer_task];
    void *buf;
    MPI_Datatype dt;
    int rc = rt_msg_type(rt, m, task, bounds, &buf, &dt);
    if (rc)
        return rc;
    mdl_msg_state *s = &rt->msgs[m->index];
    int mpirc = MPI_SUCCESS;
    if (m->async) {
        rc = reserve(rt, m, s, n);
        if (rc)
            return rc;
        for (int k = 0; k < n && mpirc == MPI_SUCCESS; k++) {
            if (direct_peer(rt, s, rank[to[k]]) &&
                (rc = send_direct(rt, m, s, task, bounds, rank[to[k]])) != 1) {
                if (rc < 0)
                    return rc;
                continue;
            }
            mpirc = MPI_Isend(buf, 1, dt, rank[to[k]], m->channel, rt->world, &s->reqs[s->nreq]);
            if (mpirc == MPI_SUCCESS)
                s->expect[s->nreq++] = (size_t)rank[to[k]];
        }
        return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, mpirc, "MPI_Isend");
    }
    if (n == 1 && is_self(rt, m, to[0]))
        return send_self(rt, m, buf, dt);
    if (n == 1 && direct_peer(rt, s, rank[to[0]]) &&
        (rc = send_direct(rt, m, s, task, bounds, rank[to[0]])) != 1)
        return rc;
    if (n == 1) {
        rt_block_begin();
        mpirc = MPI_Send(buf, 1, dt, rank[to[0]], m->channel, rt->world);
        rt_block_end();
        return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, mpirc, "MPI_Send");
    }
    /* several targets: all in flight at once, then wait (the sender itself,
     * if listed, buffered first) */
    int started = 0;
    for (int k = 0; k < n && mpirc == MPI_SUCCESS; k++) {
        if (is_self(rt, m, to[k])) {
            if ((rc = send_self(rt, m, buf, dt)) < 0)
                break;
            continue;
        }
        mpirc = MPI_Isend(buf, 1, dt, rank[to[k]], m->channel, rt->world,
                          &rt->scratch_reqs[started]);
        started += mpirc == MPI_SUCCESS;
    }
    rt_block_begin();
    int waitrc = MPI_Waitall(started, rt->scratch_reqs, rt->scratch_sts);
    rt_block_end();
    if (rc < 0)
        return rc;
    if (mpirc == MPI_SUCCESS)
        mpirc = waitrc;
    return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, mpirc, "MPI_Isend/MPI_Waitall");
}

/* Whether a receive of s goes through a buffer of its own (recv_own). */
static inline int small_receive(const mdl_msg_state *s)
{
    return s->small_notes && s->bytes < MPI_DIRECT_NOTE_BYTES;
}

/* A sync receive of s->bytes < MPI_DIRECT_NOTE_BYTES on a channel that
 * may carry an announcement (small_notes): through a buffer, then into
 * buf as dt. */
static __attribute__((noinline)) int recv_small(mdl_rt *rt, const mdl_msg_desc *m, int src,
                                                void *buf, MPI_Datatype dt)
{
    unsigned char own[MPI_DIRECT_NOTE_BYTES];
    MPI_Status st;
    rt_block_begin();
    int mpirc = MPI_Recv(own, sizeof own, MPI_PACKED, src, m->channel, rt->world, &st);
    rt_block_end();
    if (mpirc != MPI_SUCCESS)
        return recv_fail(rt, m->fn, m, mpirc, &st);
    const mdl_msg_state *s = &rt->msgs[m->index];
    size_t got = status_bytes(rt, &st);
    int rc = got == s->bytes ? place_own(rt, m->fn, s, own, got, buf, dt)
                             : recv_own(rt, m->fn, m, &st, own, got, s->bytes, MPI_DIRECT_COPY);
    return rc ? rc : rt->inst_of[st.MPI_SOURCE];
}

/* Size of what a receive got against what it expected: a message larger
 * than the receive is MPI_ERR_TRUNCATE already; a smaller one is also an
 * error (the two sides' sections disagree), never a silent partial fill. */
static inline int check_size(mdl_rt *rt, const char *fn, const mdl_msg_desc *m, MPI_Status *st,
                             size_t expect, const long *bounds)
{
    size_t got = status_bytes(rt, st);
    return recv_plain(got, expect) ? 0
                                   : recv_odd(rt, fn, m, st, got, expect, bounds, MPI_DIRECT_COPY);
}

/* Every receive but the fast one of be_recv. */
static __attribute__((noinline)) int recv_general(mdl_rt *rt, const mdl_msg_desc *m, void *task,
                                                  const long *bounds, int from)
{
    const char *fn = m->fn;
    int src = from == MDL_ANY ? MPI_ANY_SOURCE : rt->rank_of[m->peer_task][from];
    void *buf;
    MPI_Datatype dt;
    int rc = rt_msg_type(rt, m, task, bounds, &buf, &dt);
    if (rc)
        return rc;
    mdl_msg_state *s = &rt->msgs[m->index];
    int mpirc;
    if (m->async) {
        rc = reserve(rt, m, s, 1);
        if (rc)
            return rc;
        int k = s->nreq, own = small_receive(s);
        if (own && !s->own[k] && !(s->own[k] = malloc(MPI_DIRECT_NOTE_BYTES)))
            return rt_fail_oom(rt, fn);
        mpirc = own ? MPI_Irecv(s->own[k], MPI_DIRECT_NOTE_BYTES, MPI_PACKED, src, m->channel,
                                rt->world, &s->reqs[k])
                    : MPI_Irecv(buf, 1, dt, src, m->channel, rt->world, &s->reqs[k]);
        if (mpirc != MPI_SUCCESS)
            return rt_mpi_fail(rt, fn, mpirc, "MPI_Irecv");
        if (s->rbounds)         /* for an announcement (recv_odd) */
            memcpy(&s->rbounds[2 * m->npairs * k], bounds, sizeof *bounds * 2 * (size_t)m->npairs);
        if (s->early) {
            s->early[k] = 0;
            if (s->bytes > MPI_DIRECT_NOTE_BYTES) {
                s->nlarge++;    /* mpi_p2p_progress looks at it */
                rt->nlarge++;
            }
        }
        s->expect[s->nreq++] = s->bytes;
        /* The sender of an MDL_ANY receive is known only on completion:
         * answer MDL_SUCCESS, never a negative value that reads as an error. */
        return from == MDL_ANY ? MDL_SUCCESS : from;
    }
    if (small_receive(s))
        return recv_small(rt, m, src, buf, dt);
    MPI_Status st;
    rt_block_begin();
    mpirc = MPI_Recv(buf, 1, dt, src, m->channel, rt->world, &st);
    rt_block_end();
    if (mpirc != MPI_SUCCESS)
        return recv_fail(rt, fn, m, mpirc, &st);
    rc = check_size(rt, fn, m, &st, s->bytes, bounds);
    return rc ? rc : rt->inst_of[st.MPI_SOURCE];
}

int be_send(mdl_rt *rt, const mdl_msg_desc *m, void *task, const long *bounds, const int *to,
            int n)
{
    return send_general(rt, m, task, bounds, to, n);
}

/* Fast paths: one peer, the datatype cached — what a program does in its
 * loops: a few branches and the MPI call.  Everything else goes through
 * the general functions. */
int be_send_one(mdl_rt *rt, const mdl_msg_desc *m, void *task, const long *bounds, int to)
{
    mdl_msg_state *s = &rt->msgs[m->index];
    void *buf;
    MPI_Datatype dt = rt_msg_type_cached(m, s, task, bounds, &buf);
    if (dt != MPI_DATATYPE_NULL) {
        int dest = rt->rank_of[m->peer_task][to];
        if (direct_peer(rt, s, dest)) {
            int rc = send_direct(rt, m, s, task, bounds, dest);
            if (rc != 1)
                return rc;
        }
        if (!m->async) {
            if (dest == rt->world_rank)     /* to itself: buffered */
                return send_general(rt, m, task, bounds, &to, 1);
            rt_block_begin();
            int mpirc = MPI_Send(buf, 1, dt, dest, m->channel, rt->world);
            rt_block_end();
            return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, m->fn, mpirc, "MPI_Send");
        }
        if (s->nreq < s->capreq) {
            int mpirc = MPI_Isend(buf, 1, dt, dest, m->channel, rt->world, &s->reqs[s->nreq]);
            if (mpirc != MPI_SUCCESS)
                return rt_mpi_fail(rt, m->fn, mpirc, "MPI_Isend");
            s->expect[s->nreq++] = (size_t)dest;
            return MDL_SUCCESS;
        }
    }
    return send_general(rt, m, task, bounds, &to, 1);
}

int be_recv(mdl_rt *rt, const mdl_msg_desc *m, void *task, const long *bounds, int from)
{
    mdl_msg_state *s = &rt->msgs[m->index];
    void *buf;
    MPI_Datatype dt = !m->async && from != MDL_ANY ? rt_msg_type_cached(m, s, task, bounds, &buf)
                                                   : MPI_DATATYPE_NULL;
    if (dt != MPI_DATATYPE_NULL) {
        if (__builtin_expect(small_receive(s), 0))
            return recv_small(rt, m, rt->rank_of[m->peer_task][from], buf, dt);
        MPI_Status st;
        rt_block_begin();
        int mpirc = MPI_Recv(buf, 1, dt, rt->rank_of[m->peer_task][from], m->channel,
                             rt->world, &st);
        rt_block_end();
        if (mpirc != MPI_SUCCESS)
            return recv_fail(rt, m->fn, m, mpirc, &st);
        int rc = check_size(rt, m->fn, m, &st, s->bytes, bounds);
        return rc ? rc : rt->inst_of[st.MPI_SOURCE];
    }
    return recv_general(rt, m, task, bounds, from);
}

static void world_errors_returned(mdl_rt *rt, int on);

/* The requests of s are done with (completed, or cancelled at MDL_End). */
static inline void requests_done(mdl_rt *rt, mdl_msg_state *s)
{
    s->nreq = 0;
    rt->nlarge -= s->nlarge;
    s->nlarge = 0;
}

/* Whether async receive i of s went through its own buffer (recv_own). */
static inline int req_own(const mdl_msg_state *s, int i)
{
    return s->small_notes && s->expect[i] < MPI_DIRECT_NOTE_BYTES;
}

/* The bounds an async receive was posted with (recv_odd). */
static const long *req_bounds(const mdl_msg_state *s, const mdl_msg_desc *m, int i)
{
    return s->rbounds ? &s->rbounds[2 * m->npairs * i] : NULL;
}

/* Async receive i of s got its message: what it expected, or an
 * announcement copied already by mpi_p2p_progress. */
static inline int req_plain(const mdl_msg_state *s, int i, size_t got)
{
    return (recv_plain(got, s->expect[i]) && !req_own(s, i)) || (s->early && s->early[i]);
}

/* Async receive i of s, not plain: recv_own or recv_odd. */
static int req_odd(mdl_rt *rt, const char *fn, const mdl_msg_desc *m, mdl_msg_state *s, int i,
                   size_t got, int copy)
{
    return req_own(s, i) ? recv_own(rt, fn, m, &s->sts[i], s->own[i], got, s->expect[i], copy)
                         : recv_odd(rt, fn, m, &s->sts[i], got, s->expect[i],
                                    req_bounds(s, m, i), copy);
}

/* Async receive i of s went through its own buffer and got what it
 * expected: into its place (1: not that case). */
static int req_placed(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s, int i, size_t got)
{
    if (!req_own(s, i) || got != s->expect[i])
        return 1;
    void *buf;
    MPI_Datatype dt;
    int rc = rt_msg_type(rt, m, rt->c.task, req_bounds(s, m, i), &buf, &dt);
    return rc ? rc : place_own(rt, m->fn, s, s->own[i], got, buf, dt);
}

void mpi_p2p_progress(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    for (int i = 0; rt->nlarge && i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        mdl_msg_state *s = &rt->msgs[i];
        for (int k = 0; s->nlarge && k < s->nreq; k++) {
            if (s->early[k] || s->expect[k] <= MPI_DIRECT_NOTE_BYTES)
                continue;
            /* completed, the request left for the Wait or Test */
            int flag = 0;
            MPI_Status st;
            world_errors_returned(rt, 1);
            int mpirc = MPI_Request_get_status(s->reqs[k], &flag, &st);
            world_errors_returned(rt, 0);
            if (flag && mpirc == MPI_SUCCESS && status_bytes(rt, &st) == MPI_DIRECT_NOTE_BYTES &&
                announced(rt, m->fn, m, &st, req_bounds(s, m, k), MPI_DIRECT_EARLY) == 0)
                s->early[k] = 1;
        }
    }
}

/* A Wait or Test that reports the error of receive `bad`: the senders of
 * the other receives it completed that were announcements of large
 * messages from a host peer are released (nothing copied: the call
 * failed), or they would wait for ever. */
static __attribute__((cold)) void release_others(mdl_rt *rt, const char *fn,
                                                 const mdl_msg_desc *m, mdl_msg_state *s,
                                                 int n, int bad, int in_status)
{
    for (int i = 0; rt->peer_base && i < n; i++) {
        size_t got = status_bytes(rt, &s->sts[i]);
        if (i != bad && (!in_status || s->sts[i].MPI_ERROR == MPI_SUCCESS) &&
            !req_plain(s, i, got))
            req_odd(rt, fn, m, s, i, got, MPI_DIRECT_RELEASE);
    }
}

/* A Wait or Test that failed (MPI_ERR_IN_STATUS) with requests of s still
 * in flight (MPI_ERR_PENDING: MPICH's Testall leaves the others so when
 * one failed): those stay, first in the arrays, for the next Wait or Test
 * of m (MPI may still write into them; one may be an announcement whose
 * sender waits); the rest are done with. */
static void keep_pending(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s, int n)
{
    size_t pairs = 2 * (size_t)m->npairs;
    int kept = 0, large = 0;
    for (int i = 0; i < n; i++) {
        if (s->sts[i].MPI_ERROR != MPI_ERR_PENDING) {
            if (s->notes && s->notes[i]) {
                free(s->notes[i]);
                s->notes[i] = NULL;
                s->ndirect--;
            }
            continue;
        }
        if (i != kept) {
            s->reqs[kept] = s->reqs[i];
            s->expect[kept] = s->expect[i];
            if (s->rbounds)
                memcpy(&s->rbounds[pairs * (size_t)kept], &s->rbounds[pairs * (size_t)i],
                       sizeof *s->rbounds * pairs);
            if (s->early)
                s->early[kept] = s->early[i];
            if (s->own) {       /* buffers are swapped, never lost */
                unsigned char *x = s->own[kept];
                s->own[kept] = s->own[i];
                s->own[i] = x;
            }
            if (s->notes) {
                s->notes[kept] = s->notes[i];
                s->notes[i] = NULL;
            }
        }
        large += !m->is_send && s->early && s->expect[kept] > MPI_DIRECT_NOTE_BYTES;
        kept++;
    }
    rt->nlarge += large - s->nlarge;
    s->nlarge = large;
    s->nreq = kept;
}

/* After completion of all requests of s: errors and sizes of receives.
 * wait: Test (0) or Wait (1), for the function name of an error (formatted
 * only when there is one: snprintf was ~900 instructions a call). */
static int completed(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s, int wait, int mpirc)
{
    char fn[160];
    int n = s->nreq;
    if (mpirc == MPI_ERR_IN_STATUS) {
        for (int i = 0; i < n; i++)
            if (s->sts[i].MPI_ERROR != MPI_SUCCESS && s->sts[i].MPI_ERROR != MPI_ERR_PENDING) {
                rt_completion_fn(m, wait, fn, sizeof fn);
                if (!m->is_send)
                    release_others(rt, fn, m, s, n, i, 1);
                int rc = m->is_send ? rt_mpi_fail(rt, fn, s->sts[i].MPI_ERROR, "completion")
                                    : recv_fail(rt, fn, m, s->sts[i].MPI_ERROR, &s->sts[i]);
                keep_pending(rt, m, s, n);
                return rc;
            }
    }
    requests_done(rt, s);
    if (m->is_send)
        mpi_direct_release(s, n);
    if (mpirc != MPI_SUCCESS) {
        rt_completion_fn(m, wait, fn, sizeof fn);
        return m->is_send || n != 1 ? rt_mpi_fail(rt, fn, mpirc, "completion")
                                    : recv_fail(rt, fn, m, mpirc, &s->sts[0]);
    }
    if (!m->is_send)
        for (int i = 0; i < n; i++) {
            size_t got = status_bytes(rt, &s->sts[i]);
            int rc = req_plain(s, i, got) ? 0 : req_placed(rt, m, s, i, got);
            if (rc == 1)
                rc = req_odd(rt, rt_completion_fn(m, wait, fn, sizeof fn), m, s, i, got,
                             MPI_DIRECT_COPY);
            if (rc) {
                rt_completion_fn(m, wait, fn, sizeof fn);
                release_others(rt, fn, m, s, n, i, 0);
                return rc;
            }
        }
    if (!m->is_send && rt->c.tr)        /* in post order: the order of arrival */
        for (int i = 0; i < n; i++)
            rt_trace_arrived(rt, m, rt->inst_of[s->sts[i].MPI_SOURCE]);
    return 0;
}

/* MPICH raises an error that a request's completion finds (a truncated
 * async receive) on MPI_COMM_WORLD's handler, fatal by default, not on
 * the request's communicator: async receives are completed with
 * MPI_ERRORS_RETURN there, and the program's handler is put back. */
static void world_errors_returned(mdl_rt *rt, int on)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, on ? MPI_ERRORS_RETURN : rt->world_eh);
}

static int testall(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s, int *flag)
{
    if (m->is_send)
        return MPI_Testall(s->nreq, s->reqs, flag, s->sts);
    world_errors_returned(rt, 1);
    int mpirc = MPI_Testall(s->nreq, s->reqs, flag, s->sts);
    world_errors_returned(rt, 0);
    return mpirc;
}

static int waitall(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s)
{
    int mpirc;
    if (m->is_send) {
        rt_block_begin();
        mpirc = s->nreq == 1 ? MPI_Wait(&s->reqs[0], &s->sts[0])
                             : MPI_Waitall(s->nreq, s->reqs, s->sts);
        rt_block_end();
        return mpirc;
    }
    world_errors_returned(rt, 1);
    rt_block_begin();
    mpirc = s->nreq == 1 ? MPI_Wait(&s->reqs[0], &s->sts[0])
                         : MPI_Waitall(s->nreq, s->reqs, s->sts);
    rt_block_end();
    world_errors_returned(rt, 0);
    return mpirc;
}

/* A Test that finds not all receives of s complete: one that went through
 * its own buffer and got a message of another size (which MPI did not
 * fail: it fitted the buffer) is reported now, as MPI reports a
 * truncation as soon as it happens, and the others stay posted (else a
 * program polling for the error while its peer waits for it would wait
 * for ever).  0: none such. */
static __attribute__((noinline)) int own_failed(mdl_rt *rt, const mdl_msg_desc *m,
                                                mdl_msg_state *s)
{
    int rc = 0;
    world_errors_returned(rt, 1);     /* a truncation found here is returned */
    for (int k = 0; k < s->nreq; k++) {
        int done = 0;
        MPI_Status st;
        if (!req_own(s, k))
            continue;
        int mpirc = MPI_Request_get_status(s->reqs[k], &done, &st);
        if (mpirc == MPI_SUCCESS && (!done || status_bytes(rt, &st) == s->expect[k]))
            continue;
        /* failed in MPI (more than its buffer), or another size: completed
         * here, reported, the others left posted */
        MPI_Test(&s->reqs[k], &done, &s->sts[k]);
        for (int i = 0; i < s->nreq; i++)
            s->sts[i].MPI_ERROR = i == k ? MPI_ERR_TRUNCATE : MPI_ERR_PENDING;
        char fn[160];
        rt_completion_fn(m, 0, fn, sizeof fn);
        rc = mpirc != MPI_SUCCESS ? recv_fail(rt, fn, m, mpirc, &st)
                                  : recv_own(rt, fn, m, &s->sts[k], s->own[k],
                                             status_bytes(rt, &s->sts[k]), s->expect[k],
                                             MPI_DIRECT_COPY);
        keep_pending(rt, m, s, s->nreq);
        break;
    }
    world_errors_returned(rt, 0);
    return rc;
}

int be_test(mdl_rt *rt, const mdl_msg_desc *m)
{
    mdl_msg_state *s = &rt->msgs[m->index];
    if (s->nreq == 0)
        return 1;
    int flag = 0;
    int mpirc = testall(rt, m, s, &flag);
    if (mpirc == MPI_SUCCESS && !flag) {
        int rc = s->small_notes ? own_failed(rt, m, s) : 0;
        if (rc)
            return rc;
        /* a program polling with Test may be what a sender waits for */
        if (rt->peer_base)
            mpi_p2p_progress(rt);
        return 0;
    }
    if (mpirc == MPI_SUCCESS && s->ndirect) {  /* announced sends: copied yet? */
        int done = mpi_direct_sends_done(rt, m, s, 0, 0);
        if (done <= 0)
            return done;
    }
    int rc = completed(rt, m, s, 0, mpirc);
    return rc ? rc : 1;
}

int be_wait(mdl_rt *rt, const mdl_msg_desc *m)
{
    mdl_msg_state *s = &rt->msgs[m->index];
    if (s->nreq == 0)
        return MDL_SUCCESS;
    /* One request in flight (an async send or receive per exchange) is
     * completed with MPI_Wait: MPI_Waitall cost MPICH ~350 instructions
     * for one. */
    int mpirc = waitall(rt, m, s);
    if (mpirc == MPI_SUCCESS && s->ndirect) {  /* announced sends: until copied */
        int done = mpi_direct_sends_done(rt, m, s, 1, 1);
        if (done < 0)
            return done;
    }
    if (mpirc == MPI_SUCCESS && s->nreq == 1 &&
        (m->is_send || req_plain(s, 0, status_bytes(rt, &s->sts[0])))) {
        requests_done(rt, s);
        if (!m->is_send && rt->c.tr)
            rt_trace_arrived(rt, m, rt->inst_of[s->sts[0].MPI_SOURCE]);
        return MDL_SUCCESS;
    }
    return completed(rt, m, s, 1, mpirc);
}

/* MDL_End, the async receives of m not completed: cancelled.  One whose
 * message matched already is dropped, as on shm, even if it did not fit
 * (nothing asked for it); a large one announced by a host peer releases
 * its sender (cancel does not take back what matched).  0 or the first
 * other error. */
static int end_receives(mdl_rt *rt, const char *fn, const mdl_msg_desc *m, mdl_msg_state *s)
{
    int rc = 0;
    for (int k = 0; k < s->nreq; k++)
        MPI_Cancel(&s->reqs[k]);
    int mpirc = waitall(rt, m, s);
    for (int k = 0; k < s->nreq; k++) {
        /* one request: MPI_Wait returned its error; several: their statuses */
        int cancelled = 0, cls = MPI_SUCCESS,
            err = mpirc == MPI_ERR_IN_STATUS ? s->sts[k].MPI_ERROR : mpirc;
        MPI_Error_class(err, &cls);
        MPI_Test_cancelled(&s->sts[k], &cancelled);
        size_t got = status_bytes(rt, &s->sts[k]);
        if (!cancelled && err == MPI_SUCCESS && !req_plain(s, k, got))
            req_odd(rt, fn, m, s, k, got, MPI_DIRECT_RELEASE);
        if (cls != MPI_SUCCESS && cls != MPI_ERR_TRUNCATE && !rc)
            rc = rt_mpi_fail(rt, fn, err, "cancelling an async receive");
    }
    return rc;
}

/* A message nothing received, probed: received and dropped (a large
 * one's sender released; m: its receive, NULL for a message to itself,
 * never an announcement).  0: out of memory, left where it is. */
static int drop_unreceived(mdl_rt *rt, const mdl_msg_desc *m, MPI_Status *st)
{
    int bytes = 0;
    MPI_Get_count(st, MPI_BYTE, &bytes);
    void *sink = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!sink)
        return 0;
    MPI_Recv(sink, bytes, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, rt->world, MPI_STATUS_IGNORE);
    if (m && rt->peer_base && bytes == MPI_DIRECT_NOTE_BYTES)
        mpi_direct_recv_small(rt, MDL_FN_NAME(END), m, st, sink, 0, MPI_DIRECT_RELEASE);
    free(sink);
    return 1;
}

/* The messages on this task's receive tags that have reached the
 * process, received and dropped; their number (those of a message in
 * `left` not counted), the first one's receive and sender in *first and
 * *from.  left NULL: none looked at. */
static int probe_unreceived(mdl_rt *rt, const unsigned char *left, const mdl_msg_desc **first,
                            int *from)
{
    const mdl_task_desc *d = rt->c.d;
    int n = 0;
    for (int i = 0; left && i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        int flag = 1;
        MPI_Status st;
        while (!m->is_send && flag) {
            if (MPI_Iprobe(MPI_ANY_SOURCE, m->channel, rt->world, &flag, &st) != MPI_SUCCESS)
                break;
            if (flag && !left[i] && !n++) {
                *first = m;
                *from = rt->inst_of[st.MPI_SOURCE];
            }
            if (flag && !drop_unreceived(rt, m, &st))
                break;
        }
    }
    return n;
}

/* MDL_End, its own sends complete: messages sent to this instance that
 * nothing received are an error, not dropped without a word (MPI asks the
 * same: every message received before MPI_Finalize; MPICH drops them).
 * A first look finds those that have reached the process (and ends a job
 * whose sender would wait for ever in its own MDL_End on a large one);
 * then, once every process has completed its sends (a barrier: MPICH
 * delivers the messages of a pair in order, the barrier's after them), a
 * second look finds the rest.  Those of a message whose async receives
 * MDL_End cancelled (left) are dropped, as those receives' own would have
 * been.  left NULL (out of memory): nothing is looked at, but the
 * barrier, which every process's MDL_End makes, is made. */
static int unreceived(mdl_rt *rt, const unsigned char *left)
{
    const mdl_msg_desc *first = NULL;
    int from = 0, rc = 0;
    int n = probe_unreceived(rt, left, &first, &from);
    if (n)                      /* fatal errors: the job ends here */
        rc = rt_fail_unreceived(rt, first, from, n);
    mpi_direct_name_pending(rt);    /* what the barrier waits for */
    rt_block_begin();
    int mpirc = MPI_Barrier(rt->world);
    rt_block_end();
    if (mpirc != MPI_SUCCESS)
        return rc ? rc : rt_mpi_fail(rt, MDL_FN_NAME(END), mpirc, "MPI_Barrier");
    int later = probe_unreceived(rt, left, &first, &from);
    return rc || !later ? rc : rt_fail_unreceived(rt, first, from, later);
}

/* MDL_End, about to wait for the async sends of m: the receivers of those
 * still in flight (an announced one until copied) are named. */
static void end_names_receivers(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s)
{
    int n = 0;
    for (int k = 0; k < s->nreq; k++) {
        int done = 0, inst = rt->inst_of[s->expect[k]], seen = 0;
        if (!(s->notes && s->notes[k]))
            MPI_Request_get_status(s->reqs[k], &done, MPI_STATUS_IGNORE);
        for (int i = 0; i < n && !seen; i++)
            seen = rt->targets[i] == inst;
        if (!done && !seen)
            rt->targets[n++] = inst;
    }
    rt_enter_end(m, rt->targets, n);
}

/* MDL_End: what the program handed over is delivered — every async send
 * completes (waiting for its receiver if it must) —, async receives not
 * completed are cancelled, and what was sent to this instance and never
 * received is reported: nothing is left to MPI_Finalize. */
int rt_complete_all(mdl_rt *rt)
{
    const char *const fn = MDL_FN_NAME(END);
    int rc = 0;
    unsigned char *left = calloc((size_t)rt->c.d->nmsgs + 1, 1);
    for (int i = 0; i < rt->c.d->nmsgs; i++) {
        const mdl_msg_desc *m = rt->c.d->msgs[i];
        mdl_msg_state *s = &rt->msgs[i];
        if (s->nreq == 0)
            continue;
        if (!m->is_send) {
            if (left)
                left[i] = 1;
            int rrc = end_receives(rt, fn, m, s);
            rc = rc ? rc : rrc;
            requests_done(rt, s);
            continue;
        }
        end_names_receivers(rt, m, s);
        int mpirc = waitall(rt, m, s);
        if (s->ndirect) {
            int done = mpi_direct_sends_done(rt, m, s, 1, 1);
            if (done < 0 && !rc)
                rc = done;
        }
        mpi_direct_release(s, s->nreq);
        requests_done(rt, s);
        if (mpirc != MPI_SUCCESS && !rc)
            rc = rt_mpi_fail(rt, fn, mpirc, "completing an async send");
    }
    int urc = unreceived(rt, left);
    rc = rc ? rc : urc;
    free(left);
    /* What this instance sent itself and never received was received
     * above (unreceived), unless memory ran out there: then here
     * (cancelling a send is not reliable in MPICH once a network module
     * carries it), and the send completes. */
    for (mdl_self_send *x = rt->self_sends, *nx; x; x = nx) {
        nx = x->next;
        int done = 0;
        MPI_Test(&x->req, &done, MPI_STATUS_IGNORE);
        if (!done) {
            MPI_Status st;
            MPI_Probe(rt->world_rank, x->tag, rt->world, &st);
            if (!drop_unreceived(rt, NULL, &st))
                continue;       /* out of memory: the buffer stays in flight */
            MPI_Wait(&x->req, MPI_STATUS_IGNORE);
        }
        free(x);
    }
    rt->self_sends = NULL;
    mpi_direct_flush(rt);
    rt_enter_end(NULL, NULL, 0);
    return rc;
}
