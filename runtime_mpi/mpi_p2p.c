/* mpi_p2p.c — point-to-point messages: one datatype per message, the
 * channel number as tag on the runtime's duplicate of MPI_COMM_WORLD. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_rt.h"

/* Room for one more async request of message s (grows, never shrinks:
 * warm calls do not allocate). */
static int reserve(mdl_rt *rt, mdl_msg_state *s, const char *fn, int more)
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
    if (!r || !st || !e)
        return rt_fail(rt, fn, MDL_ERR_INTERN, "out of memory");
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

static __attribute__((noinline)) int size_fail(mdl_rt *rt, const char *fn, MPI_Status *st,
                                               size_t got, size_t expect)
{
    return rt_fail(rt, fn, MDL_ERR_TRUNCATE,
                   "received %zu bytes from %s[%d] but the receive holds %zu: "
                   "the sections of the send and the receive differ",
                   got, rt->d->tasks[rt->task_of[st->MPI_SOURCE]],
                   rt->inst_of[st->MPI_SOURCE], expect);
}

/* Size of what a receive got against what it expected: a message larger
 * than the receive is MPI_ERR_TRUNCATE already; a smaller one is also an
 * error (the two sides' sections disagree), never a silent partial fill. */
static int check_size(mdl_rt *rt, const char *fn, MPI_Status *st, size_t expect)
{
    size_t got = status_bytes(rt, st);
    return got == expect ? 0 : size_fail(rt, fn, st, got, expect);
}

/* A failed receive: a truncation names the sender and the sizes. */
static int recv_fail(mdl_rt *rt, const char *fn, int mpirc, MPI_Status *st, size_t expect)
{
    int cls = 0;
    MPI_Error_class(mpirc, &cls);
    if (cls != MPI_ERR_TRUNCATE || st->MPI_SOURCE < 0 || st->MPI_SOURCE >= rt->world_size)
        return rt_mpi_fail(rt, fn, mpirc, "receive");
    return rt_fail(rt, fn, MDL_ERR_TRUNCATE,
                   "the message from %s[%d] is larger than the receive (%zu bytes)",
                   rt->d->tasks[rt->task_of[st->MPI_SOURCE]], rt->inst_of[st->MPI_SOURCE],
                   expect);
}

/* The grid neighbour of a neighbour message, computed once: the grid of a
 * job is created once and never changes, so the instance at m->offset does
 * not either (recomputing it from the coordinates cost ~60 instructions a
 * call).  Errors (no grid yet) are not cached. */
static int neighbor_of(mdl_rt *rt, const char *fn, const mdl_msg_desc *m, mdl_msg_state *s)
{
    if (s->has_nb)
        return s->nb;
    int nb = rt_neighbor(rt, fn, m->offset);
    if (nb >= 0 || nb == MDL_PROC_NULL) {
        s->nb = nb;
        s->has_nb = 1;
    }
    return nb;
}

/* Every send; mdl_send takes a shorter path for the common ones. */
static __attribute__((noinline)) int send_general(mdl_rt *rt, const mdl_msg_desc *m, void *task,
                                                  int inst, const int *insts, int n,
                                                  const long *bounds)
{
    const char *fn = m ? m->fn : "MDL_SendTo";
    if (rt != &mdl_the_rt || rt->state != RT_ACTIVE)   /* rt_check, without a call */
        return rt_check(rt, fn);
    int rc;
    if (!m || m->index < 0 || m->index >= rt->d->nmsgs || !m->is_send)
        return rt_fail(rt, fn, MDL_ERR_ARG, "not a send of this task");
    int pt = m->peer_task;
    int size = rt->task_size[pt];
    int ntarget = 0;
    switch (m->peer_kind) {
    case MDL_PEER_ONE:
        if (inst < 0 || inst >= size)
            return rt_fail(rt, fn, MDL_ERR_RANK, "instance %d of %s does not exist (%d instances)",
                           inst, rt->d->tasks[pt], size);
        rt->targets[ntarget++] = inst;
        break;
    case MDL_PEER_ALL:
        /* `to {A}` reaches every instance of A except the sender itself */
        for (int k = 0; k < size; k++)
            if (!(pt == rt->self && k == rt->inst))
                rt->targets[ntarget++] = k;
        break;
    case MDL_PEER_SUBSET:
        rc = rt_check_list(rt, fn, pt, insts, n, MDL_ERR_RANK);
        if (rc)
            return rc;
        for (int k = 0; k < n; k++)
            rt->targets[ntarget++] = insts[k];
        break;
    case MDL_PEER_NEIGHBOR: {
        int nb = neighbor_of(rt, fn, m, &rt->msgs[m->index]);
        if (nb < 0 && nb != MDL_PROC_NULL)
            return nb;
        if (nb == MDL_PROC_NULL)
            return MDL_SUCCESS;
        rt->targets[ntarget++] = nb;
        break;
    }
    default:
        return rt_fail(rt, fn, MDL_ERR_ARG, "unknown peer kind %d", m->peer_kind);
    }
    void *buf;
    MPI_Datatype dt;
    rc = rt_msg_type(rt, m, task, bounds, &buf, &dt);
    if (rc)
        return rc;
    mdl_msg_state *s = &rt->msgs[m->index];
    int mpirc = MPI_SUCCESS;
    if (m->async) {
        rc = reserve(rt, s, fn, ntarget);
        if (rc)
            return rc;
        for (int k = 0; k < ntarget && mpirc == MPI_SUCCESS; k++) {
            mpirc = MPI_Isend(buf, 1, dt, rt->rank_of[pt][rt->targets[k]], m->channel, rt->world,
                              &s->reqs[s->nreq]);
            if (mpirc == MPI_SUCCESS)
                s->expect[s->nreq++] = 0;
        }
        return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, mpirc, "MPI_Isend");
    }
    if (ntarget == 1) {
        mpirc = MPI_Send(buf, 1, dt, rt->rank_of[pt][rt->targets[0]], m->channel, rt->world);
        return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, mpirc, "MPI_Send");
    }
    /* several targets: all in flight at once, then wait */
    int started = 0;
    for (; started < ntarget && mpirc == MPI_SUCCESS; started++)
        mpirc = MPI_Isend(buf, 1, dt, rt->rank_of[pt][rt->targets[started]], m->channel,
                          rt->world, &rt->scratch_reqs[started]);
    if (mpirc != MPI_SUCCESS)
        started--;
    int waitrc = MPI_Waitall(started, rt->scratch_reqs, rt->scratch_sts);
    if (mpirc == MPI_SUCCESS)
        mpirc = waitrc;
    return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, mpirc, "MPI_Isend/MPI_Waitall");
}

/* Every receive; mdl_recv takes a shorter path for the common ones. */
static __attribute__((noinline)) int recv_general(mdl_rt *rt, const mdl_msg_desc *m, void *task,
                                                  int inst, const long *bounds)
{
    const char *fn = m ? m->fn : "MDL_RecvFrom";
    if (rt != &mdl_the_rt || rt->state != RT_ACTIVE)   /* rt_check, without a call */
        return rt_check(rt, fn);
    int rc;
    if (!m || m->index < 0 || m->index >= rt->d->nmsgs || m->is_send)
        return rt_fail(rt, fn, MDL_ERR_ARG, "not a receive of this task");
    int pt = m->peer_task;
    int src;
    if (m->peer_kind == MDL_PEER_NEIGHBOR) {
        int nb = neighbor_of(rt, fn, m, &rt->msgs[m->index]);
        if (nb == MDL_PROC_NULL)
            return MDL_PROC_NULL;
        if (nb < 0)
            return nb;
        src = rt->rank_of[pt][nb];
    } else if (inst == MDL_ANY) {
        if (rt->task_size[pt] == 0)    /* would wait forever */
            return rt_fail(rt, fn, MDL_ERR_RANK, "%s has no instance in this job",
                           rt->d->tasks[pt]);
        src = MPI_ANY_SOURCE;
    } else if (inst < 0 || inst >= rt->task_size[pt]) {
        return rt_fail(rt, fn, MDL_ERR_RANK, "instance %d of %s does not exist (%d instances)",
                       inst, rt->d->tasks[pt], rt->task_size[pt]);
    } else {
        src = rt->rank_of[pt][inst];
    }
    void *buf;
    MPI_Datatype dt;
    rc = rt_msg_type(rt, m, task, bounds, &buf, &dt);
    if (rc)
        return rc;
    mdl_msg_state *s = &rt->msgs[m->index];
    int mpirc;
    if (m->async) {
        rc = reserve(rt, s, fn, 1);
        if (rc)
            return rc;
        mpirc = MPI_Irecv(buf, 1, dt, src, m->channel, rt->world, &s->reqs[s->nreq]);
        if (mpirc != MPI_SUCCESS)
            return rt_mpi_fail(rt, fn, mpirc, "MPI_Irecv");
        s->expect[s->nreq++] = s->bytes;
        /* The sender of an MDL_ANY receive is known only on completion:
         * answer MDL_SUCCESS, never a negative value that reads as an error. */
        return src == MPI_ANY_SOURCE ? MDL_SUCCESS : rt->inst_of[src];
    }
    MPI_Status st;
    mpirc = MPI_Recv(buf, 1, dt, src, m->channel, rt->world, &st);
    if (mpirc != MPI_SUCCESS)
        return recv_fail(rt, fn, mpirc, &st, s->bytes);
    rc = check_size(rt, fn, &st, s->bytes);
    return rc ? rc : rt->inst_of[st.MPI_SOURCE];
}

/* Test and Wait are named after the message ("MDL_mTest"); the name is
 * formatted only when there is something to report, never on a poll or a
 * completion that went well (snprintf was ~900 instructions a call). */
static const char *completion_fn(char *buf, size_t len, const mdl_msg_desc *m, const char *what)
{
    snprintf(buf, len, "MDL_%s%s", m ? m->name : "?", what);
    return buf;
}

/* The one destination of a send or source of a receive that needs no
 * work: ONE with a valid instance, or a neighbour already known; -1 for
 * anything else (then the general path checks and reports). */
static inline int direct_peer(mdl_rt *rt, const mdl_msg_desc *m, const mdl_msg_state *s, int inst)
{
    if (m->peer_kind == MDL_PEER_ONE)
        return (unsigned)inst < (unsigned)rt->task_size[m->peer_task]
                   ? rt->rank_of[m->peer_task][inst] : -1;
    if (m->peer_kind == MDL_PEER_NEIGHBOR && s->has_nb && s->nb >= 0)
        return rt->rank_of[m->peer_task][s->nb];
    return -1;
}

/* Fast paths: a valid message to or from one instance with its datatype
 * cached — what a program does in its loops.  Everything they do not
 * handle, including every error, goes through the general functions,
 * which check and report as before.  (The general path cost ~200
 * instructions per message over MPI's own.) */
MDL_API int mdl_send(mdl_rt *rt, const mdl_msg_desc *m, void *task, int inst, const int *insts, int n,
             const long *bounds)
{
    if (rt == &mdl_the_rt && rt->state == RT_ACTIVE && m && m->is_send &&
        (unsigned)m->index < (unsigned)rt->d->nmsgs) {
        mdl_msg_state *s = &rt->msgs[m->index];
        int dest = direct_peer(rt, m, s, inst);
        void *buf;
        MPI_Datatype dt = dest >= 0 ? rt_msg_type_cached(m, s, task, bounds, &buf)
                                    : MPI_DATATYPE_NULL;
        if (dt != MPI_DATATYPE_NULL && !m->async) {
            int mpirc = MPI_Send(buf, 1, dt, dest, m->channel, rt->world);
            return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, m->fn, mpirc, "MPI_Send");
        }
        if (dt != MPI_DATATYPE_NULL && s->nreq < s->capreq) {
            int mpirc = MPI_Isend(buf, 1, dt, dest, m->channel, rt->world, &s->reqs[s->nreq]);
            if (mpirc != MPI_SUCCESS)
                return rt_mpi_fail(rt, m->fn, mpirc, "MPI_Isend");
            s->expect[s->nreq++] = 0;
            return MDL_SUCCESS;
        }
    }
    return send_general(rt, m, task, inst, insts, n, bounds);
}

MDL_API int mdl_recv(mdl_rt *rt, const mdl_msg_desc *m, void *task, int inst, const long *bounds)
{
    if (rt == &mdl_the_rt && rt->state == RT_ACTIVE && m && !m->is_send && !m->async &&
        (unsigned)m->index < (unsigned)rt->d->nmsgs) {
        mdl_msg_state *s = &rt->msgs[m->index];
        int src = direct_peer(rt, m, s, inst);
        void *buf;
        MPI_Datatype dt = src >= 0 ? rt_msg_type_cached(m, s, task, bounds, &buf)
                                   : MPI_DATATYPE_NULL;
        if (dt != MPI_DATATYPE_NULL) {
            MPI_Status st;
            int mpirc = MPI_Recv(buf, 1, dt, src, m->channel, rt->world, &st);
            if (mpirc != MPI_SUCCESS)
                return recv_fail(rt, m->fn, mpirc, &st, s->bytes);
            int rc = check_size(rt, m->fn, &st, s->bytes);
            return rc ? rc : rt->inst_of[st.MPI_SOURCE];
        }
    }
    return recv_general(rt, m, task, inst, bounds);
}

/* After completion of all requests of s: errors and sizes of receives.
 * what: "Test" or "Wait", for the function name of an error. */
static int completed(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s, const char *what,
                     int mpirc)
{
    char fn[160];
    int n = s->nreq;
    s->nreq = 0;
    if (mpirc == MPI_ERR_IN_STATUS) {
        for (int i = 0; i < n; i++)
            if (s->sts[i].MPI_ERROR != MPI_SUCCESS && s->sts[i].MPI_ERROR != MPI_ERR_PENDING) {
                completion_fn(fn, sizeof fn, m, what);
                return m->is_send ? rt_mpi_fail(rt, fn, s->sts[i].MPI_ERROR, "completion")
                                  : recv_fail(rt, fn, s->sts[i].MPI_ERROR, &s->sts[i],
                                              s->expect[i]);
            }
    }
    if (mpirc != MPI_SUCCESS) {
        completion_fn(fn, sizeof fn, m, what);
        return m->is_send || n != 1 ? rt_mpi_fail(rt, fn, mpirc, "completion")
                                    : recv_fail(rt, fn, mpirc, &s->sts[0], s->expect[0]);
    }
    if (!m->is_send)
        for (int i = 0; i < n; i++)
            if (status_bytes(rt, &s->sts[i]) != s->expect[i])
                return check_size(rt, completion_fn(fn, sizeof fn, m, what), &s->sts[i],
                                  s->expect[i]);
    return 0;
}

static int completion_check(mdl_rt *rt, const mdl_msg_desc *m, const char *what)
{
    char fn[160];
    if (rt != &mdl_the_rt || rt->state != RT_ACTIVE)
        return rt_check(rt, completion_fn(fn, sizeof fn, m, what));
    if (!m || m->index < 0 || m->index >= rt->d->nmsgs)
        return rt_fail(rt, completion_fn(fn, sizeof fn, m, what), MDL_ERR_ARG,
                       "not a message of this task");
    return 0;
}

MDL_API int mdl_test(mdl_rt *rt, const mdl_msg_desc *m)
{
    int rc = completion_check(rt, m, "Test");
    if (rc)
        return rc;
    mdl_msg_state *s = &rt->msgs[m->index];
    if (s->nreq == 0)
        return 1;
    int flag = 0;
    int mpirc = MPI_Testall(s->nreq, s->reqs, &flag, s->sts);
    if (mpirc == MPI_SUCCESS && !flag)
        return 0;
    rc = completed(rt, m, s, "Test", mpirc);
    return rc ? rc : 1;
}

MDL_API int mdl_wait(mdl_rt *rt, const mdl_msg_desc *m)
{
    /* Short path: one request in flight (an async send or receive per
     * exchange), completed with MPI_Wait — MPI_Waitall cost MPICH ~350
     * instructions for one request.  Errors are reported by completed(),
     * as on the general path. */
    if (rt == &mdl_the_rt && rt->state == RT_ACTIVE && m &&
        (unsigned)m->index < (unsigned)rt->d->nmsgs && rt->msgs[m->index].nreq == 1) {
        mdl_msg_state *s = &rt->msgs[m->index];
        int mpirc = MPI_Wait(&s->reqs[0], &s->sts[0]);
        if (mpirc == MPI_SUCCESS && (m->is_send || status_bytes(rt, &s->sts[0]) == s->expect[0])) {
            s->nreq = 0;
            return MDL_SUCCESS;
        }
        return completed(rt, m, s, "Wait", mpirc);
    }
    int rc = completion_check(rt, m, "Wait");
    if (rc)
        return rc;
    mdl_msg_state *s = &rt->msgs[m->index];
    if (s->nreq == 0)
        return MDL_SUCCESS;
    int mpirc = MPI_Waitall(s->nreq, s->reqs, s->sts);
    return completed(rt, m, s, "Wait", mpirc);
}
