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

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

static shm_ring *ring_of(mdl_rt *rt, int from, int to)
{
    return &rt->rings[(size_t)from * rt->nslots + to];
}

/* ---------------------------------------------------------------- delivery */

/* Packing and unpacking of eager messages.  The common shapes — a
 * contiguous block, or one loop of equal blocks (a matrix row or column) —
 * get tight loops; 8- and 4-byte elements a constant-size memcpy (one load
 * and one store, alignment-safe), where a memcpy call of variable size per
 * element would cost more than the data.  Pack and unpack are separate
 * loops: GCC does not unswitch a direction test out of a loop, and that
 * test per element cost as much as the copy.  Anything else goes through
 * the shared generic walk. */
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

static void unpack_one(const mdl_span *s, const char *src)
{
    if (s->bytes == 0)
        return;
    if (s->nloops == 0) {
        memcpy(s->base, src, s->block);
        return;
    }
    if (s->nloops != 1) {
        mdl_spans_unpack(s, 1, src);
        return;
    }
    char *p = s->base;
    long cnt = s->count[0], stride = s->stride[0];
    size_t blk = s->block;
    if (blk == 8) {
        for (long i = 0; i < cnt; i++, p += stride, src += 8)
            memcpy(p, src, 8);
    } else if (blk == 4) {
        for (long i = 0; i < cnt; i++, p += stride, src += 4)
            memcpy(p, src, 4);
    } else {
        for (long i = 0; i < cnt; i++, p += stride, src += blk)
            memcpy(p, src, blk);
    }
}

static void spans_pack(const mdl_span *sp, int n, char *dst)
{
    for (int i = 0; i < n; i++) {
        pack_one(&sp[i], dst);
        dst += sp[i].bytes;
    }
}

static void spans_unpack(const mdl_span *sp, int n, const char *src)
{
    for (int i = 0; i < n; i++) {
        unpack_one(&sp[i], src);
        src += sp[i].bytes;
    }
}

#define CMA_IOV 64

typedef struct cma_batch {
    pid_t pid;
    int n;
    size_t bytes;
    struct iovec l[CMA_IOV], r[CMA_IOV];
} cma_batch;

static int cma_flush(cma_batch *b)
{
    int ok = b->n == 0 ||
             process_vm_readv(b->pid, b->l, (unsigned long)b->n, b->r, (unsigned long)b->n, 0) ==
                 (ssize_t)b->bytes;
    b->n = 0;
    b->bytes = 0;
    return ok ? 0 : MDL_ERR_INTERN;
}

/* A span seen as `cnt` blocks of b bytes `stride` apart, when it is one
 * (contiguous, or one loop of blocks of exactly b bytes). */
static int as_blocks(const mdl_span *s, size_t b, long *cnt, long *stride)
{
    if (s->nloops == 0 && s->block % b == 0) {
        *cnt = (long)(s->block / b);
        *stride = (long)b;
        return 1;
    }
    if (s->nloops == 1 && s->block == b) {
        *cnt = s->count[0];
        *stride = s->stride[0];
        return 1;
    }
    return 0;
}

/* One section to one section of the same simple shape (a halo row or
 * column on both sides): a plain loop.  0 when the shapes are not simple. */
static int copy_simple(const mdl_span *d, const mdl_span *s)
{
    if (d->bytes != s->bytes || d->bytes == 0)
        return 0;
    size_t b = s->nloops == 1 ? s->block : d->nloops == 1 ? d->block : s->bytes;
    long cs, ss, cd, sd;
    if (!as_blocks(s, b, &cs, &ss) || !as_blocks(d, b, &cd, &sd) || cs != cd)
        return 0;
    const char *ps = s->base;
    char *pd = d->base;
    if (b == 8) {
        for (long i = 0; i < cs; i++, ps += ss, pd += sd) {
            uint64_t v;
            memcpy(&v, ps, 8);
            memcpy(pd, &v, 8);
        }
    } else {
        for (long i = 0; i < cs; i++, ps += ss, pd += sd)
            memcpy(pd, ps, b);
    }
    return 1;
}

/* Copies a rendezvous message into the receive's spans: memcpy from the
 * segment, process_vm_readv from the sender's own memory. */
static int copy_from_rdv(mdl_rt *rt, const mdl_span *dst, int ndst, const shm_rdv *r)
{
    mdl_span inl[8] = {{0}}, *src = inl;
    if (r->nspans > 8 && !(src = malloc(r->nspans * sizeof *src)))
        return MDL_ERR_INTERN;
    for (uint32_t i = 0; i < r->nspans; i++) {
        src[i] = r->spans[i].s;
        if (!r->spans[i].remote)
            src[i].base = rt->seg + (uint64_t)(uintptr_t)r->spans[i].s.base;
    }
    if (r->nspans == 1 && ndst == 1 && !r->spans[0].remote && copy_simple(dst, src)) {
        if (src != inl)
            free(src);
        return 0;
    }
    mdl_run_iter rd, rs;
    mdl_run_iter_init(&rd, dst, ndst);
    mdl_run_iter_init(&rs, src, (int)r->nspans);
    char *pd = NULL, *ps = NULL;
    size_t ld = 0, ls = 0;
    int remote = 0, rc = 0;
    cma_batch b;
    b.pid = r->pid;
    b.n = 0;
    b.bytes = 0;
    for (;;) {
        if (ld == 0 && !mdl_next_run(&rd, &pd, &ld))
            break;
        if (ls == 0) {
            if (!mdl_next_run(&rs, &ps, &ls))
                break;
            remote = r->spans[rs.cur].remote != 0;
        }
        size_t k = ld < ls ? ld : ls;
        if (remote) {
            b.l[b.n] = (struct iovec){pd, k};
            b.r[b.n] = (struct iovec){ps, k};
            b.bytes += k;
            if (++b.n == CMA_IOV && (rc = cma_flush(&b)) < 0)
                break;
        } else if (k == 8) {    /* an element of a strided row: no call */
            uint64_t v;
            memcpy(&v, ps, 8);
            memcpy(pd, &v, 8);
        } else {
            memcpy(pd, ps, k);
        }
        pd += k;
        ps += k;
        ld -= k;
        ls -= k;
    }
    if (rc == 0)
        rc = cma_flush(&b);
    if (src != inl)
        free(src);
    return rc;
}

/* Completes a posted receive with a message from `slot`. */
static void deliver(mdl_rt *rt, shm_rreq *q, int slot, uint32_t kind, uint64_t bytes,
                    const void *data, uint64_t rdvoff)
{
    q->sender = slot;
    q->got = bytes;
    /* Sizes must agree: a larger message would be truncated, a smaller one
     * means the sections of the two sides differ.  Nothing is written. */
    if (bytes != q->total) {
        q->err = MDL_ERR_TRUNCATE;
    } else if (kind == CELL_EAGER) {
        spans_unpack(q->spans, q->nspans, data);
    } else if (copy_from_rdv(rt, q->spans, q->nspans, shm_ptr(rt, rdvoff)) < 0) {
        q->err = MDL_ERR_INTERN;
    }
    if (kind == CELL_RDV) {
        shm_rdv *r = shm_ptr(rt, rdvoff);
        /* after the copy (release); seq_cst: it is the condition of a
         * sender that may be going to sleep (shm_notify) */
        if (__atomic_sub_fetch(&r->remaining, 1, __ATOMIC_SEQ_CST) == 0)
            shm_notify(rt, slot);
    }
    q->done = 1;
}

static shm_rreq *take_posted(mdl_rt *rt, int channel, int slot)
{
    for (shm_rreq **pp = &rt->posted; *pp; pp = &(*pp)->next) {
        shm_rreq *q = *pp;
        if (q->channel == channel && (q->want < 0 || q->want == slot)) {
            *pp = q->next;
            if (!*pp)
                rt->posted_tail = pp;
            q->next = NULL;
            return q;
        }
    }
    return NULL;
}

/* A message from `s` has arrived: to the first matching posted receive,
 * else to the unexpected list.  -1: out of memory, leave it for later. */
static int arrive(mdl_rt *rt, int s, uint32_t channel, uint32_t kind, uint64_t bytes,
                  const char *data, uint64_t rdv)
{
    shm_rreq *q = take_posted(rt, (int)channel, s);
    if (q) {
        deliver(rt, q, s, kind, bytes, data, rdv);
        return 0;
    }
    size_t keep = kind == CELL_EAGER ? bytes : 0;
    shm_umsg *u = malloc(sizeof *u + keep);
    if (!u)
        return -1;
    u->next = NULL;
    u->channel = (int)channel;
    u->slot = s;
    u->kind = kind;
    u->bytes = bytes;
    u->rdv = rdv;
    memcpy(u->data, data, keep);
    *rt->unexp_tail = u;
    rt->unexp_tail = &u->next;
    return 0;
}

/* Takes up to PER_PASS messages from every incoming ring and overflow
 * list, starting with a different sender each time: arrivals of several
 * busy senders interleave, so MDL_ANY receives serve them all fairly.
 * Returns 1 when it left messages behind for that limit: a waiter must not
 * sleep then (shm_wait). */
#define PER_PASS 16

int shm_progress(mdl_rt *rt)
{
    int n = rt->nslots, more = 0;
    for (int k = 0; k < n; k++) {
        int s = (rt->rr + k) % n;
        shm_ring *r = ring_of(rt, s, rt->me);
        /* Overflow nodes counted before draining the ring are all younger
         * than what the ring holds now (the sender skips the ring while
         * nodes are pending): they are taken only once the ring is empty. */
        uint64_t ovs = __atomic_load_n(&r->ov_sent, __ATOMIC_ACQUIRE);
        uint64_t head = r->head;
        int taken = 0;
        while (head != __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE)) {
            if (taken++ == PER_PASS) {
                more = 1;
                goto next;
            }
            shm_cell *c = &r->cells[head % SHM_NCELLS];
            /* out of memory: retried at the next pass (a sleep times out) */
            if (arrive(rt, s, c->channel, c->kind, c->bytes, c->data, c->rdv) < 0)
                return more;
            __atomic_store_n(&r->head, ++head, __ATOMIC_RELEASE);
        }
        uint64_t done = r->ov_done, done0 = done;
        for (; done < ovs; taken++) {
            if (taken == PER_PASS) {
                more = 1;
                break;
            }
            uint64_t off = rt->ov_last[s]
                               ? __atomic_load_n(&((shm_node *)shm_ptr(rt, rt->ov_last[s]))->next,
                                                 __ATOMIC_ACQUIRE)
                               : __atomic_load_n(&r->ov_first, __ATOMIC_ACQUIRE);
            shm_node *nd = shm_ptr(rt, off);
            if (arrive(rt, s, nd->channel, nd->kind, nd->bytes, nd->data, nd->rdv) < 0)
                return more;
            rt->ov_last[s] = off;
            __atomic_store_n(&r->ov_done, ++done, __ATOMIC_SEQ_CST);
        }
        if (done != done0)
            shm_notify(rt, s);          /* it may wait for room */
    next:;
    }
    rt->rr = (rt->rr + 1) % n;
    return more;
}

/* Matches a new receive against the unexpected messages; else posts it. */
static void post_recv(mdl_rt *rt, shm_rreq *q)
{
    for (shm_umsg **pp = &rt->unexp; *pp; pp = &(*pp)->next) {
        shm_umsg *u = *pp;
        if (u->channel == q->channel && (q->want < 0 || q->want == u->slot)) {
            *pp = u->next;
            if (!*pp)
                rt->unexp_tail = pp;
            deliver(rt, q, u->slot, u->kind, u->bytes, u->data, u->rdv);
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

/* ---------------------------------------------------------------- sending */

/* Frees the overflow nodes towards `to` that the receiver is done with
 * (all but the newest consumed one, whose `next` it may still read). */
static void ov_reclaim(mdl_rt *rt, int to)
{
    shm_ovs *o = &rt->ov_out[to];
    uint64_t done = __atomic_load_n(&ring_of(rt, rt->me, to)->ov_done, __ATOMIC_ACQUIRE);
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
};

static int ov_has_room(mdl_rt *rt, void *arg)
{
    (void)rt;
    struct ov_arg *a = arg;
    return a->o->sent - __atomic_load_n(&a->r->ov_done, __ATOMIC_SEQ_CST) < SHM_OVERFLOW;
}

static int post_msg(mdl_rt *rt, int to, const mdl_msg_desc *m, uint32_t kind, uint64_t bytes,
                    const mdl_span *spans, uint64_t rdv)
{
    shm_ring *r = ring_of(rt, rt->me, to);
    shm_ovs *o = &rt->ov_out[to];
    /* Flow control: a receiver that falls far behind stops the sender
     * (progressing meanwhile) instead of filling the segment. */
    struct ov_arg a = {r, o};
    int rc;
    if (!ov_has_room(rt, &a) && (rc = shm_wait(rt, ov_has_room, &a, m->fn)) < 0)
        return rc;
    ov_reclaim(rt, to);
    if (o->sent == __atomic_load_n(&r->ov_done, __ATOMIC_ACQUIRE) &&
        r->tail - __atomic_load_n(&r->head, __ATOMIC_ACQUIRE) < SHM_NCELLS) {
        shm_cell *c = &r->cells[r->tail % SHM_NCELLS];
        c->channel = (uint32_t)m->channel;
        c->kind = kind;
        c->bytes = bytes;
        c->rdv = rdv;
        if (kind == CELL_EAGER)
            spans_pack(spans, m->nitems, c->data);
        __atomic_store_n(&r->tail, r->tail + 1, __ATOMIC_SEQ_CST);
        shm_notify(rt, to);
        return 0;
    }
    size_t size = sizeof(shm_node) + (kind == CELL_EAGER ? bytes : 0);
    uint64_t off = shm_alloc(rt, size);
    if (!off)
        return shm_fail(rt, m->fn, MDL_ERR_INTERN, "the shared segment is full");
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
    __atomic_store_n(&r->ov_sent, ++o->sent, __ATOMIC_SEQ_CST);
    shm_notify(rt, to);
    return 0;
}

static int rdv_done(mdl_rt *rt, void *arg)
{
    (void)rt;
    return __atomic_load_n(&((shm_rdv *)arg)->remaining, __ATOMIC_ACQUIRE) == 0;
}

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

/* Destination slots of a send; *n = -1 for a no-op (MDL_PROC_NULL). */
static int send_targets(mdl_rt *rt, const mdl_msg_desc *m, int inst, const int *insts,
                        int ni, int *slots, int *n)
{
    int fam = rt->fam_n[m->peer_task];
    const char *peer = rt->d->tasks[m->peer_task];
    switch (m->peer_kind) {
    case MDL_PEER_ONE:
        if (inst < 0 || inst >= fam)
            return shm_fail(rt, m->fn, MDL_ERR_RANK,
                            "instance %d of %s does not exist (0..%d)", inst, peer, fam - 1);
        slots[0] = shm_slot_of(rt, m->peer_task, inst);
        *n = 1;
        return 0;
    case MDL_PEER_ALL:
        /* Like MPI_Bcast (and the MPI runtime), not to the sender itself. */
        *n = 0;
        for (int i = 0; i < fam; i++)
            if (shm_slot_of(rt, m->peer_task, i) != rt->me)
                slots[(*n)++] = shm_slot_of(rt, m->peer_task, i);
        return 0;
    case MDL_PEER_SUBSET:
        if (ni < 0 || (ni > 0 && !insts))
            return shm_fail(rt, m->fn, MDL_ERR_ARG, "invalid instance list");
        for (int i = 0; i < ni; i++) {
            if (insts[i] < 0 || insts[i] >= fam)
                return shm_fail(rt, m->fn, MDL_ERR_RANK,
                                "instance %d of %s does not exist (0..%d)", insts[i],
                                peer, fam - 1);
            for (int k = 0; k < i; k++)
                if (insts[k] == insts[i])
                    return shm_fail(rt, m->fn, MDL_ERR_RANK,
                                    "instance %d is listed twice", insts[i]);
            slots[i] = shm_slot_of(rt, m->peer_task, insts[i]);
        }
        *n = ni;
        return 0;
    case MDL_PEER_NEIGHBOR: {
        int r = mdl_grid_neighbor(rt, m->offset);
        if (r == MDL_PROC_NULL) {
            *n = -1;
            return 0;
        }
        if (r < 0)
            return shm_fail(rt, m->fn, MDL_ERR_GRID, "no grid: call MDL_Grid_Create first");
        slots[0] = shm_slot_of(rt, m->peer_task, r);
        *n = 1;
        return 0;
    }
    }
    return shm_fail(rt, m->fn, MDL_ERR_ARG, "bad peer kind %d", m->peer_kind);
}

static int spans_in_seg(const mdl_rt *rt, const mdl_span *sp, int n)
{
    for (int i = 0; i < n; i++)
        if (sp[i].bytes && !shm_in_seg(rt, sp[i].base))
            return 0;
    return 1;
}

/* A descriptor of this task, of the right direction, with the task struct
 * of MDL_Init and bounds when the message needs them. */
static int valid_msg(const mdl_rt *rt, const mdl_msg_desc *m, int is_send, const void *task,
                     const long *bounds)
{
    return m && !m->is_send == !is_send && m->index >= 0 && m->index < rt->d->nmsgs &&
           m->peer_task >= 0 && m->peer_task < rt->d->ntasks && m->nitems >= 0 &&
           task == rt->task && (bounds || m->fixed_bounds || !m->npairs);
}

int mdl_send(mdl_rt *rt, const mdl_msg_desc *m, void *task, int inst, const int *insts,
             int n, const long *bounds)
{
    SHM_LIVE(rt);
    if (!valid_msg(rt, m, 1, task, bounds))
        return shm_fail(rt, m ? m->fn : "mdl_send", MDL_ERR_ARG, "invalid call");
    int fam = rt->fam_n[m->peer_task];
    int tinl[16], *targets = tinl, ntargets = 0;
    /* a list longer than the family fails its checks before entry `fam`:
     * a huge wrong n must not size the allocation */
    int cap = m->peer_kind == MDL_PEER_SUBSET && n < fam ? n : fam;
    if (cap > 16 && !(targets = malloc((size_t)cap * sizeof(int))))
        return shm_fail(rt, m->fn, MDL_ERR_INTERN, "out of memory");
    mdl_span sinl[8], *spans = sinl;
    int rc = 0;
    if (m->nitems > 8 && !(spans = malloc((size_t)m->nitems * sizeof *spans))) {
        rc = shm_fail(rt, m->fn, MDL_ERR_INTERN, "out of memory");
        goto out;
    }
    if ((rc = send_targets(rt, m, inst, insts, n, targets, &ntargets)) < 0 || ntargets < 0)
        goto out;
    size_t total;
    char why[256];
    if ((rc = mdl_msg_spans(m, task, bounds, spans, &total, why, sizeof why)) < 0) {
        rc = shm_fail(rt, m->fn, rc, "%s", why);
        goto out;
    }
    if (total <= SHM_EAGER) {
        for (int i = 0; i < ntargets && rc == 0; i++)
            rc = post_msg(rt, targets[i], m, CELL_EAGER, total, spans, 0);
        goto out;
    }
    if (ntargets == 0)
        goto out;

    /* Rendezvous: one record for all receivers, pointing at the variables;
     * data outside the segment (pointer items) is read where it is with
     * process_vm_readv when the job allows it, else packed into the heap. */
    int direct = rt->cma || spans_in_seg(rt, spans, m->nitems);
    uint32_t ns = direct ? (uint32_t)m->nitems : 1;
    shm_sreq *sr = calloc(1, sizeof *sr);
    uint64_t roff = shm_alloc(rt, rdv_size(ns));
    uint64_t scratch = direct ? 0 : shm_alloc(rt, total);
    if (!sr || !roff || (!direct && !scratch)) {
        free(sr);
        shm_free(rt, roff, rdv_size(ns));
        rc = shm_fail(rt, m->fn, MDL_ERR_INTERN, "the shared segment is full");
        goto out;
    }
    shm_rdv *r = shm_ptr(rt, roff);
    r->remaining = (uint32_t)ntargets;
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
        spans_pack(spans, m->nitems, shm_ptr(rt, scratch));
        r->spans[0].s = (mdl_span){(char *)(uintptr_t)scratch, total, 0, {0}, {0}, total};
        r->spans[0].remote = 0;
    }
    sr->rdv = roff;
    sr->scratch = scratch;
    for (int i = 0; i < ntargets; i++)
        if ((rc = post_msg(rt, targets[i], m, CELL_RDV, total, NULL, roff)) < 0) {
            free(sr);           /* the record may be read: left in the segment */
            goto out;
        }
    if (m->async) {
        sr->next = rt->sends[m->index];
        rt->sends[m->index] = sr;
    } else {
        rc = shm_wait(rt, rdv_done, r, m->fn);
        if (rc == 0)
            sreq_free(rt, sr);
    }
out:
    if (targets != tinl)
        free(targets);
    if (spans != sinl)
        free(spans);
    return rc < 0 ? rc : MDL_SUCCESS;
}

/* ---------------------------------------------------------------- receiving */

static int rreq_done(mdl_rt *rt, void *arg)
{
    (void)rt;
    return ((shm_rreq *)arg)->done;
}

static int recv_result(mdl_rt *rt, const mdl_msg_desc *m, shm_rreq *q)
{
    if (q->err == MDL_ERR_TRUNCATE && q->got > q->total)
        return shm_fail(rt, m->fn, MDL_ERR_TRUNCATE,
                        "the message from %s[%d] (%llu bytes) is larger than the "
                        "receive (%zu bytes)", rt->d->tasks[m->peer_task],
                        rt->slot_rank[q->sender], (unsigned long long)q->got, q->total);
    if (q->err == MDL_ERR_TRUNCATE)
        return shm_fail(rt, m->fn, MDL_ERR_TRUNCATE,
                        "received %llu bytes from %s[%d] but the receive holds %zu: the "
                        "sections of the send and the receive differ",
                        (unsigned long long)q->got, rt->d->tasks[m->peer_task],
                        rt->slot_rank[q->sender], q->total);
    if (q->err)
        return shm_fail(rt, m->fn, q->err,
                        "could not copy the message from %s[%d] (out of memory, or its "
                        "memory cannot be read)", rt->d->tasks[m->peer_task],
                        rt->slot_rank[q->sender]);
    return rt->slot_rank[q->sender];
}

int mdl_recv(mdl_rt *rt, const mdl_msg_desc *m, void *task, int inst, const long *bounds)
{
    SHM_LIVE(rt);
    if (!valid_msg(rt, m, 0, task, bounds))
        return shm_fail(rt, m ? m->fn : "mdl_recv", MDL_ERR_ARG, "invalid call");
    int fam = rt->fam_n[m->peer_task];
    int want;
    if (m->peer_kind == MDL_PEER_NEIGHBOR) {
        int r = mdl_grid_neighbor(rt, m->offset);
        if (r == MDL_PROC_NULL)
            return MDL_PROC_NULL;
        if (r < 0)
            return shm_fail(rt, m->fn, MDL_ERR_GRID, "no grid: call MDL_Grid_Create first");
        want = shm_slot_of(rt, m->peer_task, r);
    } else if (fam == 0) {      /* nobody could ever send it: fail, do not hang */
        return shm_fail(rt, m->fn, MDL_ERR_RANK, "task %s has no instances in this job",
                        rt->d->tasks[m->peer_task]);
    } else if (inst == MDL_ANY) {
        want = -1;
    } else if (inst < 0 || inst >= fam) {
        return shm_fail(rt, m->fn, MDL_ERR_RANK, "instance %d of %s does not exist (0..%d)",
                        inst, rt->d->tasks[m->peer_task], fam - 1);
    } else {
        want = shm_slot_of(rt, m->peer_task, inst);
    }
    shm_rreq local, *q = &local;
    if (m->async && !(q = malloc(sizeof *q)))
        return shm_fail(rt, m->fn, MDL_ERR_INTERN, "out of memory");
    memset(q, 0, sizeof *q);
    q->channel = m->channel;
    q->want = want;
    q->nspans = m->nitems;
    q->spans = q->inl;
    if (m->nitems > 4 && !(q->spans = malloc((size_t)m->nitems * sizeof *q->spans))) {
        if (q != &local)
            free(q);
        return shm_fail(rt, m->fn, MDL_ERR_INTERN, "out of memory");
    }
    char why[256];
    int rc = mdl_msg_spans(m, task, bounds, q->spans, &q->total, why, sizeof why);
    if (rc < 0) {
        if (q->spans != q->inl)
            free(q->spans);
        if (q != &local)
            free(q);
        return shm_fail(rt, m->fn, rc, "%s", why);
    }
    post_recv(rt, q);
    if (m->async) {
        q->mnext = rt->recvs[m->index];
        rt->recvs[m->index] = q;
        /* The sender of an MDL_ANY receive is known only at completion:
         * answer MDL_SUCCESS, never a negative value that reads as an error. */
        return want >= 0 ? rt->slot_rank[want] : MDL_SUCCESS;
    }
    if (!q->done && (rc = shm_wait(rt, rreq_done, q, m->fn)) < 0) {
        unpost(rt, q);
    } else {
        rc = recv_result(rt, m, q);
    }
    if (q->spans != q->inl)
        free(q->spans);
    return rc;
}

/* ---------------------------------------------------------------- completion */

/* Frees what has completed; returns 1 when nothing of m is pending, or
 * the first error of a completed receive. */
static int reap(mdl_rt *rt, const mdl_msg_desc *m)
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
            int r = recv_result(rt, m, q);
            if (q->spans != q->inl)
                free(q->spans);
            free(q);
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

int mdl_test(mdl_rt *rt, const mdl_msg_desc *m)
{
    SHM_LIVE(rt);
    if (!m || m->index < 0 || m->index >= rt->d->nmsgs)
        return shm_fail(rt, m ? m->fn : "mdl_test", MDL_ERR_ARG, "invalid call");
    shm_progress(rt);
    return reap(rt, m);
}

struct reap_arg {
    const mdl_msg_desc *m;
    int rc;
};

static int reaped(mdl_rt *rt, void *arg)
{
    struct reap_arg *a = arg;
    a->rc = reap(rt, a->m);
    return a->rc != 0;
}

int mdl_wait(mdl_rt *rt, const mdl_msg_desc *m)
{
    SHM_LIVE(rt);
    if (!m || m->index < 0 || m->index >= rt->d->nmsgs)
        return shm_fail(rt, m ? m->fn : "mdl_wait", MDL_ERR_ARG, "invalid call");
    struct reap_arg a = {m, 0};
    int rc = shm_wait(rt, reaped, &a, m->fn);
    if (rc < 0)
        return rc;
    /* A failed receive ends the wait at once (reported), like MPI_Waitall. */
    return a.rc < 0 ? a.rc : MDL_SUCCESS;
}

void shm_p2p_free(mdl_rt *rt)
{
    for (shm_umsg *u = rt->unexp, *nx; u; u = nx) {
        nx = u->next;
        free(u);
    }
    rt->unexp = NULL;
    if (rt->recvs)
        for (int i = 0; i < rt->d->nmsgs; i++)
            for (shm_rreq *q = rt->recvs[i], *nx; q; q = nx) {
                nx = q->mnext;
                if (q->spans != q->inl)
                    free(q->spans);
                free(q);
            }
    if (rt->sends)
        for (int i = 0; i < rt->d->nmsgs; i++)
            for (shm_sreq *s = rt->sends[i], *nx; s; s = nx) {
                nx = s->next;
                free(s);
            }
}
