/* shm_coll.c — collectives over shared memory.
 *
 * Every collective has the same shape:
 *   1. each participant checks its arguments and publishes, in its
 *      shm_info, segment offsets of what others read (its send buffer) or
 *      write (its receive buffer); buffers outside the segment (pointer
 *      variables) are replaced by a scratch block of the own heap;
 *   2. barrier: everything is published;
 *   3. copies straight between the buffers, spread over the participants
 *      (pulls into own buffers, pushes into the root's, and for reductions
 *      each instance reduces one slice over all inputs);
 *   4. barrier: nobody reads or writes a published buffer any more;
 *   5. scratch receive blocks are copied out and freed.
 * An argument error of any participant is published too, so that all
 * return instead of copying. */
#include "shm_internal.h"
#include "mdl_tables.h"

#include <stdlib.h>
#include <string.h>

static const char *const coll_names[] = {
#define MDL_X(id, name) [MDL_COLL_##id] = name,
    MDL_COLLECTIVES(MDL_X)
#undef MDL_X
};

typedef struct scratch {
    uint64_t off;
    size_t bytes;
    void *out;                  /* receive scratch: copied here at the end */
} scratch;

typedef struct coll {
    mdl_rt *rt;
    const mdl_coll_desc *c;
    const char *fn;
    int n;                      /* participants */
    const int *slots;           /* their slots, by position */
    int me;                     /* own position */
    int root_listed;            /* Mcast: the root is also in the list */
    size_t es;
    scratch scr[4];
    int nscr;
    int err;
} coll;

static void fail(coll *k, int code, const char *fmt, const char *a, long x, long y);

/* Offset of a buffer others may read or write: the buffer itself when it
 * is in the segment, else a scratch in the own heap, filled with a copy of
 * the buffer when `copy`, and copied back into `back` when the collective
 * ends (NULL: nothing to copy back). */
static uint64_t publish(coll *k, void *p, size_t bytes, int copy, void *back)
{
    if (bytes == 0 || !p)
        return 0;
    if (shm_in_seg(k->rt, p))
        return shm_off(k->rt, p);
    uint64_t off = shm_alloc(k->rt, bytes);
    if (!off) {
        fail(k, MDL_ERR_INTERN, "%s", "the shared segment is full", 0, 0);
        return 0;
    }
    if (copy)
        memcpy(shm_ptr(k->rt, off), p, bytes);
    k->scr[k->nscr++] = (scratch){off, bytes, back};
    return off;
}

/* A buffer others read. */
static uint64_t pub_src(coll *k, const void *p, size_t bytes)
{
    return publish(k, (void *)p, bytes, 1, NULL);
}

/* A buffer others write.  `keep`: parts nobody writes (gaps, an in-place
 * block) must keep their value, so the scratch starts as a copy. */
static uint64_t pub_dst(coll *k, void *p, size_t bytes, int keep)
{
    return publish(k, p, bytes, keep, p);
}

static shm_info *who(coll *k, int pos)
{
    return &k->rt->info[k->slots[pos]];
}

static int barrier(coll *k)
{
    if (k->c->kind == MDL_COLL_MCAST)
        return shm_subset_barrier(k->rt, k->slots, k->n, k->fn);
    return shm_family_barrier(k->rt, k->fn);
}

/* Records an error of this instance (reported once, here). */
static void fail(coll *k, int code, const char *fmt, const char *a, long x, long y)
{
    if (k->err)
        return;
    k->err = shm_fail(k->rt, k->fn, code, fmt, a, x, y);
}

static void check_cap(coll *k, const char *what, long need, long cap)
{
    if (cap >= 0 && need > cap)
        fail(k, MDL_ERR_BOUNDS, "%s needs %ld elements, the variable holds %ld", what,
             need, cap);
}

/* ---------------------------------------------------------------- reductions */

/* Integer sums and products wrap (computed in the unsigned type, as the
 * hardware does) instead of being undefined on overflow. */
#define RED_LOOP(T, U)                                                          \
    do {                                                                        \
        T *x = acc;                                                             \
        const T *y = in;                                                        \
        switch (op) {                                                           \
        case MDL_SUM:                                                           \
            for (size_t i = 0; i < n; i++) x[i] = (T)((U)x[i] + (U)y[i]);       \
            break;                                                              \
        case MDL_PROD:                                                          \
            for (size_t i = 0; i < n; i++) x[i] = (T)((U)x[i] * (U)y[i]);       \
            break;                                                              \
        case MDL_MAX:                                                           \
            for (size_t i = 0; i < n; i++) if (y[i] > x[i]) x[i] = y[i];        \
            break;                                                              \
        case MDL_MIN:                                                           \
            for (size_t i = 0; i < n; i++) if (y[i] < x[i]) x[i] = y[i];        \
            break;                                                              \
        }                                                                       \
    } while (0)

static void reduce_into(int base, int op, void *acc, const void *in, size_t n)
{
    switch (base) {
    case MDL_T_CHAR: RED_LOOP(char, unsigned); break;
    case MDL_T_SCHAR: RED_LOOP(signed char, unsigned); break;
    case MDL_T_UCHAR: RED_LOOP(unsigned char, unsigned); break;
    case MDL_T_SHORT: RED_LOOP(short, unsigned); break;
    case MDL_T_USHORT: RED_LOOP(unsigned short, unsigned); break;
    case MDL_T_INT: RED_LOOP(int, unsigned); break;
    case MDL_T_UINT: RED_LOOP(unsigned, unsigned); break;
    case MDL_T_LONG: RED_LOOP(long, unsigned long); break;
    case MDL_T_ULONG: RED_LOOP(unsigned long, unsigned long); break;
    case MDL_T_LLONG: RED_LOOP(long long, unsigned long long); break;
    case MDL_T_ULLONG: RED_LOOP(unsigned long long, unsigned long long); break;
    case MDL_T_FLOAT: RED_LOOP(float, float); break;
    case MDL_T_DOUBLE: RED_LOOP(double, double); break;
    }
}

/* This instance's slice of the elements, reduced over every input in
 * position order and written to every published output (the root's for
 * Reduce, all for Allreduce).  Only this instance touches the slice in any
 * buffer, so in-place buffers are safe: a chunk is read in full before it
 * is written. */
static void reduce_slice(coll *k, long count, int all)
{
    mdl_rt *rt = k->rt;
    int base = k->c->type->base, op = k->c->op;
    size_t lo = (size_t)((long long)count * k->me / k->n);
    size_t hi = (size_t)((long long)count * (k->me + 1) / k->n);
    long long tmp[1024];
    size_t chunk = sizeof tmp / k->es;
    for (size_t a = lo; a < hi; a += chunk) {
        size_t m = hi - a < chunk ? hi - a : chunk;
        memcpy(tmp, (char *)shm_ptr(rt, who(k, 0)->c_src) + a * k->es, m * k->es);
        for (int p = 1; p < k->n; p++)
            reduce_into(base, op, tmp, (char *)shm_ptr(rt, who(k, p)->c_src) + a * k->es, m);
        for (int p = 0; p < k->n; p++) {
            if (!all && p != k->c->root)
                continue;
            memcpy((char *)shm_ptr(rt, who(k, p)->c_dst) + a * k->es, tmp, m * k->es);
        }
    }
}

/* ---------------------------------------------------------------- entry */

static int members(mdl_rt *rt, const mdl_coll_desc *c, const int *insts, int ni,
                   int *slots, int *n, int *me, int *root_listed, const char *fn)
{
    int task = rt->d->self, size = rt->fam_n[task];
    if (c->root < 0 || c->root >= size)
        return shm_fail(rt, fn, MDL_ERR_RANK, "root %d is not in 0..%d", c->root, size - 1);
    if (c->kind != MDL_COLL_MCAST) {
        for (int i = 0; i < size; i++)
            slots[i] = shm_slot_of(rt, task, i);
        *n = size;
        *me = rt->rank;
        return 0;
    }
    /* Mcast: the root first, then the listed instances. */
    if (ni < 0 || (ni > 0 && !insts))
        return shm_fail(rt, fn, MDL_ERR_ARG, "invalid instance list");
    int cnt = 0;
    slots[cnt++] = shm_slot_of(rt, task, c->root);
    *me = c->root == rt->rank ? 0 : -1;
    for (int i = 0; i < ni; i++) {
        if (insts[i] < 0 || insts[i] >= size)
            return shm_fail(rt, fn, MDL_ERR_RANK, "instance %d is not in 0..%d", insts[i],
                            size - 1);
        for (int j = 0; j < i; j++)
            if (insts[j] == insts[i])
                return shm_fail(rt, fn, MDL_ERR_RANK, "instance %d is listed twice",
                                insts[i]);
        if (insts[i] == c->root) {
            *root_listed = 1;
            continue;
        }
        if (insts[i] == rt->rank)
            *me = cnt;
        slots[cnt++] = shm_slot_of(rt, task, insts[i]);
    }
    *n = cnt;
    return 0;
}

int mdl_collective(mdl_rt *rt, const mdl_coll_desc *c, void *send, void *recv, long count,
                   const int *counts, const int *displs, const int *insts, int ni)
{
    SHM_LIVE(rt);
    if (!c || c->kind < MDL_COLL_BCAST || c->kind > MDL_COLL_ALLREDUCE || !c->type)
        return shm_fail(rt, c ? c->fn : "mdl_collective", MDL_ERR_ARG, "invalid call");
    const char *fn = c->fn ? c->fn : coll_names[c->kind];
    int size = rt->fam_n[rt->d->self];
    int slots_inl[64], *slots = slots_inl;
    /* Mcast: the root and at most `size` listed instances (a longer list
     * fails its checks first; a huge wrong ni must not size the array) */
    int cap = c->kind == MDL_COLL_MCAST ? (ni <= 0 ? 0 : ni < size ? ni : size) + 1 : size;
    if (cap > 64 && !(slots = malloc((size_t)cap * sizeof(int))))
        return shm_fail(rt, fn, MDL_ERR_INTERN, "out of memory");
    coll k = {.rt = rt, .c = c, .fn = fn, .slots = slots, .es = c->type->size};
    int rc = members(rt, c, insts, ni, slots, &k.n, &k.me, &k.root_listed, fn);
    if (rc < 0 || k.me < 0) {   /* error, or an Mcast this instance is not in */
        if (slots != slots_inl)
            free(slots);
        return rc < 0 ? rc : MDL_SUCCESS;
    }
    int n = k.n, me = k.me, root = c->kind == MDL_COLL_MCAST ? 0 : c->root;
    size_t es = k.es;
    char *sb = send, *rb = recv;
    shm_info *mine = &rt->info[rt->me];
    mine->c_src = mine->c_dst = mine->c_counts = mine->c_displs = 0;
    mine->c_count = 0;
    void *tmp = NULL;           /* in-place Alltoall: blocks gathered here first */
    int vkind = c->kind == MDL_COLL_SCATTERV || c->kind == MDL_COLL_GATHERV ||
                c->kind == MDL_COLL_ALLGATHERV;

    /* 1. checks and publication */
    if (vkind && (!counts || !displs))
        fail(&k, MDL_ERR_ARG, "%s: counts and displs are required", "V collective", 0, 0);
    else if (!vkind && count < 0 && c->kind != MDL_COLL_SCATTER &&
             c->kind != MDL_COLL_ALLGATHER)
        fail(&k, MDL_ERR_ARG, "%s: negative count %ld", "count", count, 0);
    else if ((c->kind == MDL_COLL_REDUCE || c->kind == MDL_COLL_ALLREDUCE) &&
             (c->type->base == MDL_T_STRUCT || c->op < MDL_SUM || c->op > MDL_MIN))
        fail(&k, MDL_ERR_ARG, "cannot reduce %s elements with operator %ld", c->type->name,
             c->op, 0);
    if (!k.err) {
        switch (c->kind) {
        case MDL_COLL_BCAST:
        case MDL_COLL_MCAST:
            if (me == root) {
                check_cap(&k, "the send", count, c->send_cap);
                mine->c_src = pub_src(&k, sb, (size_t)count * es);
            } else {
                check_cap(&k, "the receive", count, c->recv_cap);
            }
            break;
        case MDL_COLL_SCATTER:
            if (count < 0) {
                count = c->in_place ? (c->send_cap >= 0 ? c->send_cap / n : -1) : c->recv_cap;
                if (count < 0)
                    count = me == root && c->send_cap >= 0 ? c->send_cap / n : -1;
                if (count < 0)
                    fail(&k, MDL_ERR_ARG, "%s: cannot derive the segment size", "Scatter",
                         0, 0);
            }
            if (me == root) {
                check_cap(&k, "the send", count * n, c->send_cap);
                mine->c_src = pub_src(&k, sb, (size_t)count * n * es);
            }
            check_cap(&k, "the receive", c->in_place ? count * (me + 1) : count, c->recv_cap);
            mine->c_count = count;
            break;
        case MDL_COLL_GATHER:
            check_cap(&k, "the send", c->in_place ? count * (me + 1) : count, c->send_cap);
            if (me == root) {
                check_cap(&k, "the receive", count * n, c->recv_cap);
                mine->c_dst = pub_dst(&k, rb, (size_t)count * n * es, c->in_place);
            }
            break;
        case MDL_COLL_ALLGATHER:
            if (count < 0)
                count = c->in_place ? c->send_cap / n : c->send_cap;
            if (count < 0)
                fail(&k, MDL_ERR_ARG, "%s: cannot derive the block size", "Allgather", 0, 0);
            check_cap(&k, "the receive", count * n, c->recv_cap);
            mine->c_src = pub_src(&k, c->in_place ? rb + (size_t)count * me * es : sb,
                                  (size_t)count * es);
            break;
        case MDL_COLL_ALLTOALL:
            check_cap(&k, "the send", count * n, c->send_cap);
            check_cap(&k, "the receive", count * n, c->recv_cap);
            mine->c_src = pub_src(&k, sb, (size_t)count * n * es);
            if (c->in_place && count > 0 && !(tmp = malloc((size_t)count * n * es)))
                fail(&k, MDL_ERR_INTERN, "%s", "out of memory", 0, 0);
            break;
        case MDL_COLL_REDUCE:
        case MDL_COLL_ALLREDUCE:
            check_cap(&k, "the input", count, c->send_cap);
            mine->c_src = pub_src(&k, sb, (size_t)count * es);
            if (me == root || c->kind == MDL_COLL_ALLREDUCE) {
                check_cap(&k, "the output", count, c->recv_cap);
                mine->c_dst = pub_dst(&k, rb, (size_t)count * es, 0);
            }
            break;
        case MDL_COLL_GATHERV:
        case MDL_COLL_ALLGATHERV:
        case MDL_COLL_SCATTERV: {
            int scat = c->kind == MDL_COLL_SCATTERV;
            int holder = c->kind == MDL_COLL_ALLGATHERV || me == root;
            /* Every instance checks every block against the capacities
             * (static, the same everywhere), so that all fail together. */
            long extent = 0, big = 0;
            for (int i = 0; i < n && !k.err; i++) {
                if (counts[i] < 0 || displs[i] < 0)
                    fail(&k, MDL_ERR_ARG, "%s[%ld] is negative (%ld)",
                         counts[i] < 0 ? "counts" : "displs", i,
                         counts[i] < 0 ? counts[i] : displs[i]);
                long end = (long)displs[i] + counts[i];
                long own = c->in_place ? end : counts[i];   /* a block at its own end */
                if (end > extent)
                    extent = end;
                if (own > big)
                    big = own;
            }
            if (k.err)
                break;
            check_cap(&k, scat ? "the send" : "the receive", extent,
                      scat ? c->send_cap : c->recv_cap);
            check_cap(&k, scat ? "a receive" : "a send", big, scat ? c->recv_cap : c->send_cap);
            if (k.err)
                break;
            long mycount = counts[me];
            if (!scat)
                mine->c_count = mycount;
            if (c->kind == MDL_COLL_ALLGATHERV)
                mine->c_src = pub_src(&k, c->in_place ? rb + (size_t)displs[me] * es : sb,
                                      (size_t)mycount * es);
            if (holder && c->kind != MDL_COLL_ALLGATHERV) {
                mine->c_counts = pub_src(&k, counts, (size_t)n * sizeof(int));
                mine->c_displs = pub_src(&k, displs, (size_t)n * sizeof(int));
                if (scat)
                    mine->c_src = pub_src(&k, sb, (size_t)extent * es);
                else
                    mine->c_dst = pub_dst(&k, rb, (size_t)extent * es, 1);
            }
            break;
        }
        }
    }
    mine->c_err = k.err;

    /* 2. */
    rc = barrier(&k);
    if (rc < 0)
        goto out;
    int bad = -1, badcode = 0;  /* read now: after the next barrier it may change */
    for (int p = 0; p < n && bad < 0; p++)
        if ((badcode = who(&k, p)->c_err) != 0)
            bad = p;

    /* 3. */
    if (bad < 0) {
        shm_info *r = who(&k, root);
        switch (c->kind) {
        case MDL_COLL_BCAST:
        case MDL_COLL_MCAST:
            /* The root's own receive too, unless it is the send, or an
             * Mcast root that is not listed (as in the MPI runtime). */
            if (me == root && c->kind == MDL_COLL_MCAST && !k.root_listed)
                break;
            if (count > 0 && rb != (char *)shm_ptr(rt, r->c_src))
                memcpy(rb, shm_ptr(rt, r->c_src), (size_t)count * es);
            break;
        case MDL_COLL_SCATTER:
            if (!(c->in_place && me == root) && count > 0)
                memcpy(c->in_place ? rb + (size_t)count * me * es : rb,
                       (char *)shm_ptr(rt, r->c_src) + (size_t)count * me * es,
                       (size_t)count * es);
            break;
        case MDL_COLL_GATHER:
            if (!(c->in_place && me == root) && count > 0)
                memcpy((char *)shm_ptr(rt, r->c_dst) + (size_t)count * me * es,
                       c->in_place ? sb + (size_t)count * me * es : sb, (size_t)count * es);
            break;
        case MDL_COLL_ALLGATHER:
            for (int p = 0; p < n && count > 0; p++)
                if (!(c->in_place && p == me))
                    memcpy(rb + (size_t)count * p * es, shm_ptr(rt, who(&k, p)->c_src),
                           (size_t)count * es);
            break;
        case MDL_COLL_ALLTOALL:
            for (int p = 0; p < n && count > 0; p++)
                memcpy((tmp ? (char *)tmp : rb) + (size_t)count * p * es,
                       (char *)shm_ptr(rt, who(&k, p)->c_src) + (size_t)count * me * es,
                       (size_t)count * es);
            break;
        case MDL_COLL_REDUCE:
        case MDL_COLL_ALLREDUCE:
            reduce_slice(&k, count, c->kind == MDL_COLL_ALLREDUCE);
            break;
        case MDL_COLL_SCATTERV: {
            const int *rc_ = shm_ptr(rt, r->c_counts), *rd = shm_ptr(rt, r->c_displs);
            long cnt = rc_[me], at = c->in_place ? displs[me] : 0;
            if (c->in_place && me == root)
                break;
            /* The receive holds counts[rank] of the own array. */
            if (cnt > counts[me] || (c->recv_cap >= 0 && at + cnt > c->recv_cap))
                fail(&k, MDL_ERR_TRUNCATE, "%s: %ld elements arrive, the receive holds %ld",
                     "segment", cnt,
                     c->recv_cap >= 0 && c->recv_cap - at < counts[me] ? c->recv_cap - at
                                                                       : counts[me]);
            else if (cnt > 0)
                memcpy(rb + (size_t)at * es, (char *)shm_ptr(rt, r->c_src) + (size_t)rd[me] * es,
                       (size_t)cnt * es);
            break;
        }
        case MDL_COLL_GATHERV: {
            const int *rc_ = shm_ptr(rt, r->c_counts), *rd = shm_ptr(rt, r->c_displs);
            long cnt = counts[me];
            if (c->in_place && me == root)
                break;
            if (cnt > rc_[me])
                fail(&k, MDL_ERR_TRUNCATE, "%s: %ld elements sent, the root expects %ld",
                     "block", cnt, rc_[me]);
            else if (cnt > 0)
                memcpy((char *)shm_ptr(rt, r->c_dst) + (size_t)rd[me] * es,
                       c->in_place ? sb + (size_t)displs[me] * es : sb, (size_t)cnt * es);
            break;
        }
        case MDL_COLL_ALLGATHERV:
            for (int p = 0; p < n; p++) {
                long cnt = who(&k, p)->c_count;
                if (c->in_place && p == me)
                    continue;
                if (cnt > counts[p]) {
                    fail(&k, MDL_ERR_TRUNCATE, "%s: %ld elements sent, %ld expected",
                         "block", cnt, counts[p]);
                    break;
                }
                if (cnt > 0)
                    memcpy(rb + (size_t)displs[p] * es, shm_ptr(rt, who(&k, p)->c_src),
                           (size_t)cnt * es);
            }
            break;
        }
    }

    /* 4. */
    rc = barrier(&k);
    if (rc < 0)
        goto out;

    /* 5. */
    if (tmp && bad < 0 && !k.err)
        memcpy(rb, tmp, (size_t)count * n * es);
    for (int i = 0; i < k.nscr; i++)
        if (k.scr[i].out && bad < 0 && !k.err)
            memcpy(k.scr[i].out, shm_ptr(rt, k.scr[i].off), k.scr[i].bytes);
    if (k.err)
        rc = k.err;
    else if (bad >= 0)
        rc = shm_fail(rt, fn, badcode,
                      "instance %d of the collective failed its part", bad);
out:
    for (int i = 0; i < k.nscr; i++)
        shm_free(rt, k.scr[i].off, k.scr[i].bytes);
    free(tmp);
    if (slots != slots_inl)
        free(slots);
    return rc;
}
