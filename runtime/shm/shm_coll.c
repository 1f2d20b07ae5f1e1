/* shm_coll.c — collectives over shared memory (transport: the validation
 * layer has checked and resolved the arguments, rt_coll.c).
 *
 * Every collective has the same steps:
 *   1. publish: each participant writes in its shm_info the segment
 *      offsets of what others read (its send buffer) or write (its receive
 *      buffer); buffers outside the segment (pointer variables) are
 *      replaced by a scratch block of the own heap.  An instance whose
 *      arguments were refused publishes its error instead;
 *   2. barrier: everything is published;
 *   3. exchange: copies straight between the buffers, spread over the
 *      participants (pulls into own buffers, pushes into the root's, and
 *      for reductions each instance reduces one slice over all inputs) —
 *      unless some participant published an error: then all return one;
 *   4. barrier: nobody reads or writes a published buffer any more;
 *   5. finish: scratch receive blocks are copied out and freed. */
#include "shm_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct scratch {
    uint64_t off;
    size_t bytes;
    void *out;                  /* receive scratch: copied here at the end */
} scratch;

typedef struct coll {
    mdl_rt *rt;
    const mdl_coll_desc *c;
    const mdl_coll_call *a;
    const char *fn;
    int n;                      /* participants */
    const int *slots;           /* their slots, by position */
    int me;                     /* own position */
    int root;                   /* the root's position */
    long count;                 /* elements per instance or block */
    size_t es;                  /* bytes per element */
    char *sb, *rb;              /* this instance's buffers */
    void *tmp;                  /* in-place Alltoall: blocks gathered here first */
    scratch scr[4];
    int nscr;
    int err;                    /* this instance's error (reported) */
} coll;

/* Records an error of this instance, reported once, here. */
static void coll_fail(coll *k, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void coll_fail(coll *k, int code, const char *fmt, ...)
{
    if (k->err)
        return;
    va_list ap;
    va_start(ap, fmt);
    k->err = rt_vfail(k->rt, k->fn, code, fmt, ap);
    va_end(ap);
}

static shm_info *who(const coll *k, int pos)
{
    return &k->rt->info[k->slots[pos]];
}

static void *at(const coll *k, uint64_t off, long elems)
{
    return (char *)shm_ptr(k->rt, off) + (size_t)elems * k->es;
}

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
        coll_fail(k, MDL_ERR_INTERN, "the shared segment is full");
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

static int barrier(coll *k)
{
    if (k->c->kind == MDL_COLL_MCAST)
        return shm_subset_barrier(k->rt, k->slots, k->n, k->fn);
    return shm_family_barrier(k->rt, k->fn);
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


/* ---------------------------------------------------------------- 1. publish */

static void publish_v(coll *k, shm_info *mine)
{
    const mdl_coll_desc *c = k->c;
    const int *counts = k->a->counts, *displs = k->a->displs;
    int scat = c->kind == MDL_COLL_SCATTERV;
    long extent = 0;
    for (int i = 0; i < k->n; i++)
        if ((long)displs[i] + counts[i] > extent)
            extent = (long)displs[i] + counts[i];
    mine->c_count = counts[k->me];
    if (c->kind == MDL_COLL_ALLGATHERV) {
        mine->c_src = pub_src(k, c->in_place ? k->rb + (size_t)displs[k->me] * k->es : k->sb,
                              (size_t)counts[k->me] * k->es);
        return;
    }
    if (k->me != k->root)
        return;
    mine->c_counts = pub_src(k, counts, (size_t)k->n * sizeof(int));
    mine->c_displs = pub_src(k, displs, (size_t)k->n * sizeof(int));
    if (scat)
        mine->c_src = pub_src(k, k->sb, (size_t)extent * k->es);
    else
        mine->c_dst = pub_dst(k, k->rb, (size_t)extent * k->es, 1);
}

static void publish_args(coll *k)
{
    const mdl_coll_desc *c = k->c;
    shm_info *mine = &k->rt->info[k->rt->me];
    mine->c_src = mine->c_dst = mine->c_counts = mine->c_displs = 0;
    mine->c_count = k->count;
    int me = k->me, n = k->n, ip = c->in_place;
    size_t es = k->es, cnt = (size_t)k->count;
    switch (c->kind) {
    case MDL_COLL_BCAST:
    case MDL_COLL_MCAST:
        if (me == k->root)
            mine->c_src = pub_src(k, k->sb, cnt * es);
        break;
    case MDL_COLL_SCATTER:
        if (me == k->root)
            mine->c_src = pub_src(k, k->sb, cnt * (size_t)n * es);
        break;
    case MDL_COLL_GATHER:
        if (me == k->root)
            mine->c_dst = pub_dst(k, k->rb, cnt * (size_t)n * es, ip);
        break;
    case MDL_COLL_ALLGATHER:
        mine->c_src = pub_src(k, ip ? k->rb + cnt * (size_t)me * es : k->sb, cnt * es);
        break;
    case MDL_COLL_ALLTOALL:
        mine->c_src = pub_src(k, k->sb, cnt * (size_t)n * es);
        if (ip && cnt > 0 && !(k->tmp = malloc(cnt * (size_t)n * es)))
            coll_fail(k, MDL_ERR_INTERN, "out of memory");
        break;
    case MDL_COLL_REDUCE:
    case MDL_COLL_ALLREDUCE:
        mine->c_src = pub_src(k, k->sb, cnt * es);
        if (me == k->root || c->kind == MDL_COLL_ALLREDUCE)
            mine->c_dst = pub_dst(k, k->rb, cnt * es, 0);
        break;
    case MDL_COLL_SCATTERV:
    case MDL_COLL_GATHERV:
    case MDL_COLL_ALLGATHERV:
        publish_v(k, mine);
        break;
    }
}

/* ---------------------------------------------------------------- 3. exchange */

static void exchange_v(coll *k)
{
    mdl_rt *rt = k->rt;
    const mdl_coll_desc *c = k->c;
    const int *counts = k->a->counts, *displs = k->a->displs;
    int me = k->me, ip = c->in_place;
    size_t es = k->es;
    const shm_info *r = who(k, k->root);
    switch (c->kind) {
    case MDL_COLL_SCATTERV: {
        /* The root's counts[me] elements into the own counts[me] places. */
        const int *rcounts = shm_ptr(rt, r->c_counts), *rdispls = shm_ptr(rt, r->c_displs);
        long cnt = rcounts[me];
        if (ip && me == k->root)
            break;
        if (cnt > counts[me])
            k->err = rt_fail_coll_size(rt, k->fn);
        else if (cnt > 0)
            memcpy(ip ? k->rb + (size_t)displs[me] * es : k->rb, at(k, r->c_src, rdispls[me]),
                   (size_t)cnt * es);
        break;
    }
    case MDL_COLL_GATHERV: {
        /* Each block into its place at the root; one larger than its place
         * is left out and the root reports it, as MPI does. */
        const int *rcounts = shm_ptr(rt, r->c_counts), *rdispls = shm_ptr(rt, r->c_displs);
        if (me == k->root) {
            for (int p = 0; p < k->n; p++)
                if (who(k, p)->c_count > counts[p]) {
                    k->err = rt_fail_coll_size(rt, k->fn);
                    break;
                }
            if (ip)
                break;
        }
        long cnt = counts[me];
        if (cnt > 0 && cnt <= rcounts[me])
            memcpy(at(k, r->c_dst, rdispls[me]), ip ? k->sb + (size_t)displs[me] * es : k->sb,
                   (size_t)cnt * es);
        break;
    }
    case MDL_COLL_ALLGATHERV:
        for (int p = 0; p < k->n; p++) {
            long cnt = who(k, p)->c_count;
            if (ip && p == me)
                continue;
            if (cnt > counts[p]) {
                k->err = rt_fail_coll_size(rt, k->fn);
                break;
            }
            if (cnt > 0)
                memcpy(k->rb + (size_t)displs[p] * es, shm_ptr(rt, who(k, p)->c_src),
                       (size_t)cnt * es);
        }
        break;
    }
}

static void exchange(coll *k)
{
    mdl_rt *rt = k->rt;
    const mdl_coll_desc *c = k->c;
    int me = k->me, n = k->n, ip = c->in_place;
    size_t es = k->es, cnt = (size_t)k->count;
    const shm_info *r = who(k, k->root);
    switch (c->kind) {
    case MDL_COLL_BCAST:
    case MDL_COLL_MCAST:
        /* The root's own receive too, unless it is the send, or an Mcast
         * root that is not listed (as in the MPI runtime). */
        if (me == k->root && c->kind == MDL_COLL_MCAST && !k->a->root_listed)
            break;
        if (r->c_count != k->count) {
            k->err = rt_fail_coll_size(rt, k->fn);
            break;
        }
        if (cnt > 0 && k->rb != (char *)shm_ptr(rt, r->c_src))
            memcpy(k->rb, shm_ptr(rt, r->c_src), cnt * es);
        break;
    case MDL_COLL_SCATTER:
        if (!(ip && me == k->root) && cnt > 0)
            memcpy(ip ? k->rb + cnt * (size_t)me * es : k->rb, at(k, r->c_src, k->count * me),
                   cnt * es);
        break;
    case MDL_COLL_GATHER:
        if (!(ip && me == k->root) && cnt > 0)
            memcpy(at(k, r->c_dst, k->count * me), ip ? k->sb + cnt * (size_t)me * es : k->sb,
                   cnt * es);
        break;
    case MDL_COLL_ALLGATHER:
        for (int p = 0; p < n && cnt > 0; p++)
            if (!(ip && p == me))
                memcpy(k->rb + cnt * (size_t)p * es, shm_ptr(rt, who(k, p)->c_src), cnt * es);
        break;
    case MDL_COLL_ALLTOALL:
        for (int p = 0; p < n && cnt > 0; p++)
            memcpy((k->tmp ? (char *)k->tmp : k->rb) + cnt * (size_t)p * es,
                   at(k, who(k, p)->c_src, k->count * me), cnt * es);
        break;
    case MDL_COLL_REDUCE:
    case MDL_COLL_ALLREDUCE:
        reduce_slice(k, k->count, c->kind == MDL_COLL_ALLREDUCE);
        break;
    case MDL_COLL_SCATTERV:
    case MDL_COLL_GATHERV:
    case MDL_COLL_ALLGATHERV:
        exchange_v(k);
        break;
    }
}

/* ---------------------------------------------------------------- 5. finish */

static void finish(coll *k, int ok)
{
    if (ok && k->tmp)
        memcpy(k->rb, k->tmp, (size_t)k->count * (size_t)k->n * k->es);
    for (int i = 0; i < k->nscr; i++) {
        if (ok && k->scr[i].out)
            memcpy(k->scr[i].out, shm_ptr(k->rt, k->scr[i].off), k->scr[i].bytes);
        shm_free(k->rt, k->scr[i].off, k->scr[i].bytes);
    }
    free(k->tmp);
}

/* ---------------------------------------------------------------- entry */

/* The first participant that published an error, or -1. */
static int first_refusal(const coll *k, int *code)
{
    for (int p = 0; p < k->n; p++)
        if ((*code = who(k, p)->c_err) != 0)
            return p;
    return -1;
}

int be_collective(mdl_rt *rt, const mdl_coll_desc *c, const mdl_coll_call *a)
{
    const mdl_rt_common *rc_ = &rt->c;
    int self = rc_->d->self;
    coll k = {.rt = rt, .c = c, .a = a, .fn = c->fn, .count = a->count, .es = c->type->size,
              .sb = a->send, .rb = a->recv, .err = a->err};
    int slots_inl[64], *slots = NULL;
    if (a->members) {
        k.n = a->nmembers;
        k.me = a->me;
        k.root = 0;
        slots = k.n <= 64 ? slots_inl : malloc((size_t)k.n * sizeof(int));
        if (!slots)
            return rt_fail_oom(rt, k.fn);   /* the others wait: as a fatal error would */
        for (int i = 0; i < k.n; i++)
            slots[i] = shm_slot_of(rt, self, a->members[i]);
        k.slots = slots;
    } else {
        k.n = rc_->fam_size[self];
        k.me = rc_->inst;
        k.root = c->root;
        k.slots = &rt->fam_slots[rt->fam_first[self]];
    }

    if (!k.err)
        publish_args(&k);
    rt->info[rt->me].c_err = k.err;
    int rc = barrier(&k);
    int code = 0, bad = -1;
    if (rc == 0) {
        /* read now: after the next barrier it may change */
        bad = first_refusal(&k, &code);
        if (bad < 0)
            exchange(&k);
        rc = barrier(&k);
    }
    finish(&k, rc == 0 && bad < 0 && !k.err);
    if (slots && slots != slots_inl)
        free(slots);
    if (rc < 0)
        return rc;
    if (k.err)
        return k.err;
    if (bad >= 0)
        return rt_fail(rt, k.fn, code, "instance %d of the collective refused its arguments",
                       a->members ? a->members[bad] : bad);
    return MDL_SUCCESS;
}
