/* shm_arrive.c — what arrives at an instance: messages taken from the
 * rings and overflow lists of its senders (shm_progress), matched against
 * its posted receives in post order or kept as unexpected, in arrival
 * order, and delivered (copied, the sender's rendezvous counted down). */
#include "shm_internal.h"
#include "trace/rt_trace.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- unpacking eager messages */

/* The common shapes — a contiguous block, or one loop of equal blocks (a
 * matrix row or column) — get tight loops; 8- and 4-byte elements a
 * constant-size memcpy (one load and one store, alignment-safe), where a
 * memcpy call of variable size per element would cost more than the data.
 * Pack (shm_p2p.c) and unpack (shm_arrive.c) are separate loops: GCC does
 * not unswitch a direction test out of a loop, and that test per element
 * cost as much as the copy.  Anything else goes through the shared
 * generic walk. */
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

static void spans_unpack(const mdl_span *sp, int n, const char *src)
{
    for (int i = 0; i < n; i++) {
        unpack_one(&sp[i], src);
        src += sp[i].bytes;
    }
}

/* ---------------------------------------------------------------- delivery */

/* Completes a posted receive with a message from `slot`. */
void shm_deliver(mdl_rt *rt, shm_rreq *q, int slot, uint32_t kind, uint64_t bytes,
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
    } else if ((rt->c.tr ? shm_copy_rdv_timed(rt, q->spans, q->nspans, shm_ptr(rt, rdvoff))
                         : shm_copy_rdv(rt, q->spans, q->nspans, shm_ptr(rt, rdvoff))) < 0) {
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

shm_rreq *shm_take_posted(mdl_rt *rt, int channel, int slot)
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
    shm_rreq *q = shm_take_posted(rt, (int)channel, s);
    if (q) {
        shm_deliver(rt, q, s, kind, bytes, data, rdv);
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
        shm_ring *r = shm_ring_of(rt, s, rt->me);
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
