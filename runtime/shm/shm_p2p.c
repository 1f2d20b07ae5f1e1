/* shm_p2p.c — point-to-point messages of the shared-memory runtime.
 *
 * Every ordered pair of instances has an SPSC ring of cells.  A message up
 * to SHM_EAGER bytes is packed into a cell (eager).  A larger one puts a
 * rendezvous record in the cell: the receiver copies straight from the
 * sender's variables into its own (one copy) and counts the record down,
 * which completes the send.  Arrivals are matched against posted receives
 * in post order (then kept as unexpected, in arrival order), so messages
 * of one pair and channel are received in the order they were sent. */
#include "shm_internal.h"
#include "trace/rt_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- packing eager messages */

/* Unpacking's loops the other way (shm_arrive.c says why they are shaped
 * so and kept apart); beside the sends that call them, which inline them. */
static void pack_one(const mdl_span *s, char *dst)
{
    if (s->bytes == 0)
        return;
    if (s->nloops == 0) {
        memcpy(dst, s->base, s->block);
        return;
    }
    if (s->nloops != 1) {
        mdl_spans_pack(s, 1, dst);
        return;
    }
    const char *p = s->base;
    long cnt = s->count[0], stride = s->stride[0];
    size_t blk = s->block;
    if (blk == 8) {
        for (long i = 0; i < cnt; i++, p += stride, dst += 8)
            memcpy(dst, p, 8);
    } else if (blk == 4) {
        for (long i = 0; i < cnt; i++, p += stride, dst += 4)
            memcpy(dst, p, 4);
    } else {
        for (long i = 0; i < cnt; i++, p += stride, dst += blk)
            memcpy(dst, p, blk);
    }
}

static void spans_pack(const mdl_span *sp, int n, char *dst)
{
    for (int i = 0; i < n; i++) {
        pack_one(&sp[i], dst);
        dst += sp[i].bytes;
    }
}

/* Tracing: the packing of a rendezvous message (more than SHM_EAGER
 * bytes) is timed (copy_us), in a function of its own; the eager path
 * is left as it is untraced: any work added there, even a compare, cost
 * the traced 8-byte ping-pong ≈ 10 %, the receiver's poll loop running in
 * lock-step with it. */
static __attribute__((noinline)) void spans_pack_timed(mdl_rt *rt, const mdl_span *spans, int n,
                                                       char *dst)
{
    uint64_t c0 = rt_trace_copy_begin(rt->c.tr);
    spans_pack(spans, n, dst);
    rt_trace_copy_end(rt->c.tr, c0);
}

/* ---------------------------------------------------------------- sending */

/* Frees the overflow nodes towards `to` that the receiver is done with
 * (all but the newest consumed one, whose `next` it may still read). */
static void ov_reclaim(mdl_rt *rt, int to)
{
    shm_ovs *o = &rt->ov_out[to];
    uint64_t done = __atomic_load_n(&shm_ring_of(rt, rt->me, to)->ov_done, __ATOMIC_ACQUIRE);
    while (o->oldest && o->oldest_idx + 1 < done) {
        shm_node *nd = shm_ptr(rt, o->oldest);
        uint64_t next = nd->next;
        shm_free(rt, o->oldest, nd->size);
        o->oldest = next;
        o->oldest_idx++;
    }
}

/* Posts one message to `to`: into a ring cell when there is room and no
 * overflow node is pending, else as a new overflow node.  Never waits.
 * Eager: packs spans; rendezvous: rdv is the record's offset. */
struct ov_arg {
    shm_ring *r;
    shm_ovs *o;
    int to;
};

static int ov_has_room(mdl_rt *rt, void *arg)
{
    (void)rt;
    struct ov_arg *a = arg;
    return a->o->sent - __atomic_load_n(&a->r->ov_done, __ATOMIC_SEQ_CST) < SHM_OVERFLOW;
}

static void awaits_room(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list)
{
    (void)rt;
    shm_await_add(w, list, ((struct ov_arg *)arg)->to);
}

static const shm_waiting room = { ov_has_room, awaits_room };

static int post_msg(mdl_rt *rt, int to, const mdl_msg_desc *m, uint32_t kind, uint64_t bytes,
                    const mdl_span *spans, uint64_t rdv)
{
    shm_ring *r = shm_ring_of(rt, rt->me, to);
    shm_ovs *o = &rt->ov_out[to];
    /* Flow control: a receiver that falls far behind stops the sender
     * (progressing meanwhile) instead of filling the segment.  Each check
     * below tries the receiver's counter as last read first (shm_ovs). */
    if (o->sent - o->done_seen >= SHM_OVERFLOW) {
        struct ov_arg a = {r, o, to};
        int rc;
        if (!ov_has_room(rt, &a) && (rc = shm_wait(rt, &room, &a, m->fn)) < 0)
            return rc;
    }
    if (o->oldest && o->oldest_idx + 1 < o->sent)  /* else nothing can be freed */
        ov_reclaim(rt, to);
    if ((o->sent == o->done_seen ||
         o->sent == (o->done_seen = __atomic_load_n(&r->ov_done, __ATOMIC_ACQUIRE))) &&
        (r->tail - o->head_seen < SHM_NCELLS ||
         r->tail - (o->head_seen = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE)) < SHM_NCELLS)) {
        shm_cell *c = &r->cells[r->tail % SHM_NCELLS];
        c->channel = (uint32_t)m->channel;
        c->kind = kind;
        c->bytes = bytes;
        c->rdv = rdv;
        if (kind == CELL_EAGER)
            spans_pack(spans, m->nitems, c->data);
        __atomic_store_n(&r->tail, r->tail + 1, __ATOMIC_RELEASE);
        shm_notify(rt, to);             /* its fence orders the store before its load */
        return 0;
    }
    size_t size = sizeof(shm_node) + (kind == CELL_EAGER ? bytes : 0);
    uint64_t off = shm_alloc(rt, size);
    if (!off)
        return rt_fail(rt, m->fn, MDL_ERR_INTERN, "the shared segment is full");
    shm_node *nd = shm_ptr(rt, off);
    nd->next = 0;
    nd->size = size;
    nd->channel = (uint32_t)m->channel;
    nd->kind = kind;
    nd->bytes = bytes;
    nd->rdv = rdv;
    if (kind == CELL_EAGER)
        spans_pack(spans, m->nitems, nd->data);
    if (o->last)
        __atomic_store_n(&((shm_node *)shm_ptr(rt, o->last))->next, off, __ATOMIC_RELEASE);
    else
        __atomic_store_n(&r->ov_first, off, __ATOMIC_RELEASE);
    if (!o->oldest) {
        o->oldest = off;
        o->oldest_idx = o->sent;
    }
    o->last = off;
    __atomic_store_n(&r->ov_sent, ++o->sent, __ATOMIC_RELEASE);
    shm_notify(rt, to);
    return 0;
}

static int rdv_done(mdl_rt *rt, void *arg)
{
    (void)rt;
    return __atomic_load_n(&((shm_rdv *)arg)->remaining, __ATOMIC_ACQUIRE) == 0;
}

/* A sync rendezvous send waits for its receivers' copies. */
struct rdv_arg {
    shm_rdv *r;
    const int *slots;
    int n;
};

static int rdv_arg_done(mdl_rt *rt, void *arg)
{
    return rdv_done(rt, ((struct rdv_arg *)arg)->r);
}

/* Which receivers have copied is not recorded (a count): with one, it is
 * the one needed; with several, any of them (a superset of those still
 * needed, which can only delay a report). */
static void awaits_rdv(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list)
{
    (void)rt;
    struct rdv_arg *a = arg;
    w->kind = a->n == 1 ? MDL_AWAIT_ALL_OF : MDL_AWAIT_ANY_OF;
    for (int i = 0; i < a->n; i++)
        shm_await_add(w, list, a->slots[i]);
}

static const shm_waiting rdv_copied = { rdv_arg_done, awaits_rdv };

static size_t rdv_size(uint32_t nspans)
{
    return sizeof(shm_rdv) + nspans * sizeof(shm_rspan);
}

static void sreq_free(mdl_rt *rt, shm_sreq *s)
{
    shm_rdv *r = shm_ptr(rt, s->rdv);
    if (s->scratch)
        shm_free(rt, s->scratch, r->bytes);
    shm_free(rt, s->rdv, rdv_size(r->nspans));
    free(s);
}

static int spans_in_seg(const mdl_rt *rt, const mdl_span *sp, int n)
{
    for (int i = 0; i < n; i++)
        if (sp[i].bytes && !shm_in_seg(rt, sp[i].base))
            return 0;
    return 1;
}

/* Rendezvous: one record for all receivers, pointing at the variables;
 * data outside the segment (pointer items) is read where it is with
 * process_vm_readv when the job allows it, else packed into the heap. */
static int send_rdv(mdl_rt *rt, const mdl_msg_desc *m, const mdl_span *spans, size_t total,
                    const int *slots, int n)
{
    int direct = rt->cma || spans_in_seg(rt, spans, m->nitems);
    uint32_t ns = direct ? (uint32_t)m->nitems : 1;
    shm_sreq *sr = malloc(sizeof *sr + (size_t)n * sizeof(int));
    uint64_t roff = shm_alloc(rt, rdv_size(ns));
    uint64_t scratch = direct ? 0 : shm_alloc(rt, total);
    if (!sr || !roff || (!direct && !scratch)) {
        free(sr);
        shm_free(rt, roff, rdv_size(ns));
        return rt_fail(rt, m->fn, MDL_ERR_INTERN, "the shared segment is full");
    }
    shm_rdv *r = shm_ptr(rt, roff);
    r->remaining = (uint32_t)n;
    r->nspans = ns;
    r->bytes = total;
    r->pid = rt->info[rt->me].pid;
    if (direct) {
        for (uint32_t i = 0; i < ns; i++) {
            r->spans[i].s = spans[i];
            r->spans[i].remote = !shm_in_seg(rt, spans[i].base);
            if (!r->spans[i].remote)
                r->spans[i].s.base = (char *)(uintptr_t)shm_off(rt, spans[i].base);
        }
    } else {
        spans_pack_timed(rt, spans, m->nitems, shm_ptr(rt, scratch));
        r->spans[0].s = (mdl_span){(char *)(uintptr_t)scratch, total, 0, {0}, {0}, total};
        r->spans[0].remote = 0;
    }
    sr->rdv = roff;
    sr->scratch = scratch;
    sr->m = m;
    sr->ntargets = n;
    memcpy(sr->targets, slots, (size_t)n * sizeof(int));
    int rc = 0;
    for (int i = 0; i < n; i++)
        if ((rc = post_msg(rt, slots[i], m, CELL_RDV, total, NULL, roff)) < 0) {
            free(sr);           /* the record may be read: left in the segment */
            return rc;
        }
    if (m->async) {
        sr->next = rt->sends[m->index];
        rt->sends[m->index] = sr;
        return 0;
    }
    struct rdv_arg ra = {r, slots, n};
    rc = shm_wait(rt, &rdv_copied, &ra, m->fn);
    if (rc == 0)
        sreq_free(rt, sr);
    return rc;
}

/* Whether messages this instance sent itself are still in its own ring. */
static int self_pending(mdl_rt *rt)
{
    const shm_ring *r = shm_ring_of(rt, rt->me, rt->me);
    return __atomic_load_n(&r->head, __ATOMIC_RELAXED) != r->tail ||
           __atomic_load_n(&r->ov_done, __ATOMIC_RELAXED) != rt->ov_out[rt->me].sent;
}

/* A sync send of a large message to the sending instance itself: its
 * receive comes only after the send returns, so a rendezvous would wait
 * for ever.  The message is packed into a buffer of this process and
 * taken as arrived (a posted async receive gets it, else it waits as
 * unexpected) once what earlier self-sends left in the ring is taken:
 * order holds.  An eager self-send needs none of this (it never waits). */
static int send_self(mdl_rt *rt, const mdl_msg_desc *m, const mdl_span *spans, size_t total)
{
    for (int pass = 0; self_pending(rt); pass++) {
        if (pass > SHM_NCELLS + SHM_OVERFLOW)
            return rt_fail_oom(rt, m->fn);
        shm_progress(rt);
    }
    shm_umsg *u = malloc(sizeof *u + total);
    if (!u)
        return rt_fail_oom(rt, m->fn);
    spans_pack(spans, m->nitems, u->data);
    shm_rreq *q = shm_take_posted(rt, m->channel, rt->me);
    if (q) {
        shm_deliver(rt, q, rt->me, CELL_EAGER, total, u->data, 0);
        free(u);
        return 0;
    }
    u->next = NULL;
    u->channel = m->channel;
    u->slot = rt->me;
    u->kind = CELL_EAGER;
    u->bytes = total;
    u->rdv = 0;
    *rt->unexp_tail = u;
    rt->unexp_tail = &u->next;
    return 0;
}

/* Above the eager limit: a rendezvous, but a sync send to the sending
 * instance itself is buffered (slots: a scratch copy, reordered here). */
static __attribute__((noinline)) int send_large(mdl_rt *rt, const mdl_msg_desc *m,
                                                const mdl_span *spans, size_t total, int *slots,
                                                int n)
{
    int rc = 0;
    if (!m->async)
        for (int i = 0; i < n && rc == 0; i++)
            if (slots[i] == rt->me) {
                rc = send_self(rt, m, spans, total);
                slots[i--] = slots[--n];
            }
    return n > 0 && rc == 0 ? send_rdv(rt, m, spans, total, slots, n) : rc;
}

int be_send(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, const int *to, int n)
{
    int sinl[16], *slots = sinl;
    if (n > 16 && !(slots = malloc((size_t)n * sizeof(int))))
        return rt_fail_oom(rt, m->fn);
    for (int i = 0; i < n; i++)
        slots[i] = shm_slot_of(rt, m->peer_task, to[i]);
    const mdl_span *spans = lay->spans;
    size_t total = lay->bytes;
    int rc = 0;
    rt_trace_payload(rt->c.tr, total);
    if (total <= SHM_EAGER)
        for (int i = 0; i < n && rc == 0; i++)
            rc = post_msg(rt, slots[i], m, CELL_EAGER, total, spans, 0);
    else if (n > 0)
        rc = send_large(rt, m, spans, total, slots, n);
    if (slots != sinl)
        free(slots);
    return rc < 0 ? rc : MDL_SUCCESS;
}

/* be_send needs the layout only, which be_send_again is handed: nothing
 * else to note. */
int be_send_one(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int to, rt_again *again)
{
    if (again)
        again->none = 0;
    return be_send(rt, m, lay, &to, 1);
}

int be_send_again(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int to,
                  mdl_site *site)
{
    (void)site;                 /* nothing planned: see be_send_one */
    return be_send(rt, m, lay, &to, 1);
}

/* ---------------------------------------------------------------- receiving */

/* Matches a new receive against the unexpected messages; else posts it. */
static void post_recv(mdl_rt *rt, shm_rreq *q)
{
    for (shm_umsg **pp = &rt->unexp; *pp; pp = &(*pp)->next) {
        shm_umsg *u = *pp;
        if (u->channel == q->channel && (q->want < 0 || q->want == u->slot)) {
            *pp = u->next;
            if (!*pp)
                rt->unexp_tail = pp;
            shm_deliver(rt, q, u->slot, u->kind, u->bytes, u->data, u->rdv);
            free(u);
            return;
        }
    }
    *rt->posted_tail = q;
    rt->posted_tail = &q->next;
}

static void unpost(mdl_rt *rt, shm_rreq *q)
{
    for (shm_rreq **pp = &rt->posted; *pp; pp = &(*pp)->next)
        if (*pp == q) {
            *pp = q->next;
            if (!*pp)
                rt->posted_tail = pp;
            return;
        }
}

static int rreq_done(mdl_rt *rt, void *arg)
{
    (void)rt;
    return ((shm_rreq *)arg)->done;
}

struct recv_arg {
    shm_rreq *q;
    int task;                   /* the peer task, for MDL_ANY */
};

static int recv_done(mdl_rt *rt, void *arg)
{
    return rreq_done(rt, ((struct recv_arg *)arg)->q);
}

static void awaits_recv(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list)
{
    (void)rt;
    struct recv_arg *a = arg;
    if (a->q->want >= 0) {
        shm_await_add(w, list, a->q->want);
    } else {
        w->kind = MDL_AWAIT_TASK;
        w->task = a->task;
    }
}

static const shm_waiting received = { recv_done, awaits_recv };

static void rreq_free(shm_rreq *q)
{
    if (q->spans != q->inl)
        free((void *)q->spans);
    free(q);
}

/* The outcome of a completed receive: the sender's instance, or its error
 * reported under fn (the receive; Test/Wait for an async one: NULL and
 * `wait` says which). */
static int recv_result(mdl_rt *rt, const mdl_msg_desc *m, const shm_rreq *q, const char *fn,
                       int wait)
{
    if (!q->err)
        return rt->slot_rank[q->sender];
    char buf[160];
    if (!fn)
        fn = rt_completion_fn(m, wait, buf, sizeof buf);
    if (q->err == MDL_ERR_TRUNCATE)
        return rt_fail_size(rt, fn, m->peer_task, rt->slot_rank[q->sender], q->got, q->total);
    return rt_fail(rt, fn, q->err,
                   "could not copy the message from %s[%d] (out of memory, or its memory "
                   "cannot be read)", rt->c.d->tasks[m->peer_task], rt->slot_rank[q->sender]);
}

int be_recv(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int from,
            mdl_site *site)
{
    (void)site;                 /* nothing planned: see be_send_one */
    const mdl_span *spans = lay->spans;
    size_t total = lay->bytes;
    int rc;
    rt_trace_payload(rt->c.tr, total);
    int want = from == MDL_ANY ? -1 : shm_slot_of(rt, m->peer_task, from);
    shm_rreq local, *q = &local;
    if (m->async && !(q = malloc(sizeof *q)))
        return rt_fail_oom(rt, m->fn);
    /* Field by field: zeroing the inline spans (half a KiB) was ≈ 90 of a
     * small receive's ≈ 490 instructions. */
    q->next = q->mnext = NULL;
    q->done = q->err = q->sender = 0;
    q->got = 0;
    q->channel = m->channel;
    q->want = want;
    q->nspans = m->nitems;
    q->spans = spans;
    q->total = total;
    if (m->async) {
        /* pending past this call: its own copy of the layout */
        mdl_span *own = m->nitems > 4 ? malloc((size_t)m->nitems * sizeof *own) : q->inl;
        if (!own) {
            free(q);
            return rt_fail_oom(rt, m->fn);
        }
        memcpy(own, spans, (size_t)m->nitems * sizeof *own);
        q->spans = own;
    }
    post_recv(rt, q);
    if (m->async) {
        q->mnext = rt->recvs[m->index];
        rt->recvs[m->index] = q;
        /* The sender of an MDL_ANY receive is known only at completion:
         * answer MDL_SUCCESS, never a negative value that reads as an error. */
        return want >= 0 ? from : MDL_SUCCESS;
    }
    struct recv_arg ra = {q, m->peer_task};
    if (!q->done && (rc = shm_wait(rt, &received, &ra, m->fn)) < 0)
        unpost(rt, q);
    else
        rc = recv_result(rt, m, q, m->fn, 0);
    return rc;
}

/* ---------------------------------------------------------------- completion */

/* Frees what has completed; returns 1 when nothing of m is pending, or
 * the first error of a completed receive (reported under Test/Wait). */
static int reap(mdl_rt *rt, const mdl_msg_desc *m, int wait)
{
    int rc = 1;
    if (m->is_send) {
        for (shm_sreq **pp = &rt->sends[m->index]; *pp;) {
            shm_sreq *s = *pp;
            if (rdv_done(rt, shm_ptr(rt, s->rdv))) {
                *pp = s->next;
                sreq_free(rt, s);
            } else {
                rc = 0;
                pp = &s->next;
            }
        }
        return rc;
    }
    for (shm_rreq **pp = &rt->recvs[m->index]; *pp;) {
        shm_rreq *q = *pp;
        if (q->done) {
            *pp = q->mnext;
            int r = recv_result(rt, m, q, NULL, wait);
            if (r >= 0 && rt->c.tr)
                rt_trace_arrived(rt, m, r);
            rreq_free(q);
            if (r < 0 && rc >= 0)
                rc = r;
        } else {
            if (rc > 0)
                rc = 0;
            pp = &q->mnext;
        }
    }
    return rc;
}

int be_test(mdl_rt *rt, const mdl_msg_desc *m)
{
    shm_progress(rt);
    return reap(rt, m, 0);
}

struct reap_arg {
    const mdl_msg_desc *m;
    int rc;
};

static int reaped(mdl_rt *rt, void *arg)
{
    struct reap_arg *a = arg;
    a->rc = reap(rt, a->m, 1);
    return a->rc != 0;
}

/* Every pending send's receivers and receive's sender: ALL_OF when each is
 * one instance, else ANY_OF all of them (MDL_ANY: the whole task). */
static void awaits_sends(mdl_rt *rt, const shm_sreq *s, mdl_shm_wait *w, int32_t *list)
{
    if (rdv_done(rt, shm_ptr(rt, s->rdv)))
        return;
    if (s->ntargets > 1)
        w->kind = MDL_AWAIT_ANY_OF;
    for (int k = 0; k < s->ntargets; k++)
        shm_await_add(w, list, s->targets[k]);
}

static void awaits_reap(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list)
{
    const mdl_msg_desc *m = ((struct reap_arg *)arg)->m;
    w->kind = MDL_AWAIT_ALL_OF;
    if (m->is_send) {
        for (const shm_sreq *s = rt->sends[m->index]; s; s = s->next)
            awaits_sends(rt, s, w, list);
        return;
    }
    for (const shm_rreq *q = rt->recvs[m->index]; q; q = q->mnext) {
        if (q->done)
            continue;
        if (q->want >= 0) {
            shm_await_add(w, list, q->want);
        } else {
            w->kind = MDL_AWAIT_ANY_OF;
            shm_await_task(rt, w, list, m->peer_task);
        }
    }
}

static const shm_waiting all_reaped = { reaped, awaits_reap };

int be_wait(mdl_rt *rt, const mdl_msg_desc *m)
{
    struct reap_arg a = {m, 0};
    if (shm_wait_for(rt, &all_reaped, &a) < 0) {
        char fn[160];
        return shm_fail_peer(rt, rt_completion_fn(m, 1, fn, sizeof fn),
                             "another instance of the job died or failed");
    }
    /* A failed receive ends the wait at once (reported), like MPI_Waitall. */
    return a.rc < 0 ? a.rc : MDL_SUCCESS;
}

/* ---------------------------------------------------------------- MDL_End */

/* left[i]: message i had async receives the program never completed
 * (NULL: not asked). */
void shm_p2p_cancel_recvs(mdl_rt *rt, unsigned char *left)
{
    for (int i = 0; i < rt->c.d->nmsgs; i++)
        for (shm_rreq *q = rt->recvs[i], *nx; q; q = nx) {
            nx = q->mnext;
            if (!q->done)
                unpost(rt, q);
            rreq_free(q);
            if (left)
                left[i] = 1;
        }
    memset(rt->recvs, 0, (size_t)rt->c.d->nmsgs * sizeof *rt->recvs);
}

/* The channel of the first message this instance sent to `to` that is
 * still in that instance's ring or overflow list (-1: none). */
static int first_unconsumed(mdl_rt *rt, int to)
{
    const shm_ring *r = shm_ring_of(rt, rt->me, to);
    const shm_ovs *o = &rt->ov_out[to];
    uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    if (head != r->tail)
        return (int)r->cells[head % SHM_NCELLS].channel;
    uint64_t done = __atomic_load_n(&r->ov_done, __ATOMIC_ACQUIRE);
    if (done == o->sent || !o->oldest || done < o->oldest_idx)
        return -1;
    uint64_t off = o->oldest;
    for (uint64_t k = o->oldest_idx; k < done && off; k++)
        off = __atomic_load_n(&((shm_node *)shm_ptr(rt, off))->next, __ATOMIC_ACQUIRE);
    return off ? (int)((shm_node *)shm_ptr(rt, off))->channel : -1;
}

/* MDL_End, its own sends delivered: no message may be lost without a
 * word (MPI asks the same: every message received before MPI_Finalize).
 * Messages sent to this instance that it never received are its error;
 * those of a message whose async receives MDL_End cancelled (left) are
 * dropped, as those receives' own would have been.  A message that
 * reaches an instance after its own look finds it ended: its sender
 * reports it here (it is still in that instance's ring). */
int shm_p2p_unreceived(mdl_rt *rt, const unsigned char *left)
{
    while (shm_progress(rt))
        ;                       /* what was sent to it has arrived */
    const mdl_msg_desc *first = NULL;
    int n = 0, from = 0;
    for (const shm_umsg *u = rt->unexp; u; u = u->next) {
        const mdl_msg_desc *m = rt_msg_on(rt, u->channel, 0);
        if (!m || left[m->index])
            continue;
        if (!n++) {
            first = m;
            from = u->slot;
        }
    }
    if (n)
        return rt_fail_unreceived(rt, first, rt->slot_rank[from], n);
    for (int to = 0; to < rt->nslots; to++) {
        if (to == rt->me ||
            __atomic_load_n(&rt->hdr->slots[to].state, __ATOMIC_SEQ_CST) != MDL_SLOT_ENDED)
            continue;
        const mdl_msg_desc *m = rt_msg_on(rt, first_unconsumed(rt, to), 1);
        if (m)
            return rt_fail(rt, MDL_FN_NAME(END), MDL_ERR_PEER,
                           "message %s (%s) can no longer be received: %s[%d] ended without "
                           "receiving it", m->name, m->fn, rt->c.d->tasks[m->peer_task],
                           rt->slot_rank[to]);
    }
    return 0;
}

/* Can the receiver in `slot` still copy a message?  Not once it has ended
 * (its receives are cancelled), nor this very instance, which is ending. */
static int can_receive(mdl_rt *rt, int slot)
{
    return slot != rt->me &&
           __atomic_load_n(&rt->hdr->slots[slot].state, __ATOMIC_SEQ_CST) != MDL_SLOT_ENDED;
}

struct flush_arg {
    const shm_sreq *lost;       /* a send some receiver can no longer take */
};

/* Every async send delivered, or one that never can be. */
static int flushed(mdl_rt *rt, void *arg)
{
    struct flush_arg *a = arg;
    int pending = 0;
    for (int i = 0; i < rt->c.d->nmsgs; i++)
        for (shm_sreq **pp = &rt->sends[i]; *pp;) {
            shm_sreq *s = *pp;
            const shm_rdv *r = shm_ptr(rt, s->rdv);
            /* The receivers' states first: one that copied counted the
             * record down before it ended, so `remaining` read after
             * its state includes no receiver seen as ended. */
            uint32_t able = 0;
            for (int k = 0; k < s->ntargets; k++)
                able += (uint32_t)can_receive(rt, s->targets[k]);
            uint32_t left = __atomic_load_n(&r->remaining, __ATOMIC_SEQ_CST);
            if (left == 0) {
                *pp = s->next;
                sreq_free(rt, s);
                continue;
            }
            if (left > able) {
                a->lost = s;
                return 1;
            }
            pending = 1;
            pp = &s->next;
        }
    return !pending;
}

static void awaits_flush(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list)
{
    (void)arg;
    w->kind = MDL_AWAIT_ALL_OF;
    for (int i = 0; i < rt->c.d->nmsgs; i++)
        for (const shm_sreq *s = rt->sends[i]; s; s = s->next)
            awaits_sends(rt, s, w, list);
}

static const shm_waiting all_flushed = { flushed, awaits_flush };

/* The report names the message and the receivers that have ended. */
static int lost_send(mdl_rt *rt, const shm_sreq *s)
{
    const mdl_msg_desc *m = s->m;
    const char *peer = rt->c.d->tasks[m->peer_task];
    char who[256] = "";
    size_t len = 0;
    for (int k = 0; k < s->ntargets && len < sizeof who - 32; k++)
        if (!can_receive(rt, s->targets[k]))
            len += (size_t)snprintf(who + len, sizeof who - len, "%s%s[%d]", len ? ", " : "",
                                    peer, rt->slot_rank[s->targets[k]]);
    return rt_fail(rt, MDL_FN_NAME(END), MDL_ERR_PEER,
                   "message %s (%s) can no longer be received: %s ended without receiving it",
                   m->name, m->fn, who);
}

/* The hang report of MDL_End names the receivers of the first send still
 * in flight (which of them have copied it is not recorded). */
static void end_names_receivers(mdl_rt *rt)
{
    for (int i = 0; i < rt->c.d->nmsgs; i++)
        for (const shm_sreq *s = rt->sends[i]; s; s = s->next) {
            const shm_rdv *r = shm_ptr(rt, s->rdv);
            if (__atomic_load_n(&r->remaining, __ATOMIC_SEQ_CST) == 0)
                continue;
            int insts[8], n = s->ntargets < 8 ? s->ntargets : 8;
            for (int k = 0; k < n; k++)
                insts[k] = rt->slot_rank[s->targets[k]];
            rt_enter_end(s->m, insts, n);
            return;
        }
}

int shm_p2p_flush_sends(mdl_rt *rt)
{
    struct flush_arg a = {NULL};
    end_names_receivers(rt);
    int rc = shm_wait(rt, &all_flushed, &a, MDL_FN_NAME(END));
    if (rc < 0)
        return rc;
    return a.lost ? lost_send(rt, a.lost) : MDL_SUCCESS;
}

void shm_p2p_free(mdl_rt *rt)
{
    for (shm_umsg *u = rt->unexp, *nx; u; u = nx) {
        nx = u->next;
        free(u);
    }
    rt->unexp = NULL;
    if (rt->recvs)
        for (int i = 0; i < rt->c.d->nmsgs; i++)
            for (shm_rreq *q = rt->recvs[i], *nx; q; q = nx) {
                nx = q->mnext;
                rreq_free(q);
            }
    if (rt->sends)
        for (int i = 0; i < rt->c.d->nmsgs; i++)
            for (shm_sreq *s = rt->sends[i], *nx; s; s = nx) {
                nx = s->next;
                free(s);
            }
}
