/* rt_coll.c — collectives, for both runtimes: the descriptor, the root,
 * the Mcast members, the operator, counts (given, or derived for Scatter
 * and Allgather), counts/displs and every count against the capacity of
 * its variable, then the backend moves the data (rt_backend.h).
 *
 * Capacities are static and the same on every instance, so every instance
 * checks every capacity whatever its role: with MDL_ERRORS=return either
 * all instances refuse a wrong count or none does, and none is left
 * waiting in a collective the others skipped.  A NULL buffer matters only
 * where the instance uses it.  The capacity of a run-time-sized buffer is
 * the instance's own (its extents, from the start given): an instance
 * that refuses it may be the only one, and the others are told as of any
 * refused arguments (mdl_coll_call.err: the shm runtime tells them, the
 * MPI runtime cannot, docs/language.md §11). */
#include "rt_layer.h"
#include "mdl_tables.h"
#include "trace/rt_trace.h"
#include "rt_sizes.h"

#include <limits.h>

typedef struct coll_check {
    mdl_rt *rt;
    const mdl_coll_desc *c;
    const char *fn;
    long send_cap, recv_cap;    /* the descriptor's, or a run-time-sized
                                   buffer's from the call's start */
} coll_check;

/* `need` elements of the buffer `what` (capacity cap, -1 unknown) at p. */
static int fits(const coll_check *k, const char *what, const void *p, long cap, long need,
                int used)
{
    if (need > INT_MAX)
        return rt_fail(k->rt, k->fn, MDL_ERR_ARG,
                       "%ld elements of the %s buffer: more than a collective can move", need,
                       what);
    if (cap >= 0 && need > cap)
        return rt_fail(k->rt, k->fn, MDL_ERR_BOUNDS,
                       "needs %ld elements of the %s buffer but its variable holds %ld from there",
                       need, what, cap);
    if (used && need > 0 && !p)
        return rt_fail(k->rt, k->fn, MDL_ERR_BOUNDS, "the %s buffer is NULL", what);
    return 0;
}

/* The V forms: counts/displs valid and every block inside the buffer;
 * *maxcount gets the largest count. */
static int fits_v(const coll_check *k, const char *what, const void *p, long cap,
                  const int *counts, const int *displs, int n, int used, long *maxcount)
{
    if (!counts || !displs)
        return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "counts or displs is NULL");
    *maxcount = 0;
    for (int i = 0; i < n; i++) {
        if (counts[i] < 0)
            return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "counts[%d] = %d is negative", i,
                           counts[i]);
        if (displs[i] < 0)
            return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "displs[%d] = %d is negative", i,
                           displs[i]);
        int rc = fits(k, what, p, cap, (long)displs[i] + counts[i], used);
        if (rc)
            return rc;
        if (counts[i] > *maxcount)
            *maxcount = counts[i];
    }
    return 0;
}

static int negative_count(const coll_check *k, long count)
{
    return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "negative count %ld", count);
}

/* A count the spec does not give (-1): from a capacity known at compile
 * time (docs/language.md §7). */
static int derive(const coll_check *k, long cap, int n, const char *what, long *count)
{
    if (cap < 0)
        return rt_fail(k->rt, k->fn, MDL_ERR_ARG,
                       "the %s cannot be derived from a pointer variable", what);
    *count = k->c->in_place ? cap / n : cap;
    return 0;
}

/* A reduction operator of mdl.h. */
static int reduction(int op)
{
    switch (op) {
#define MDL_X(id, value) case MDL_##id: return 1;
    MDL_REDUCTIONS(MDL_X)
#undef MDL_X
    }
    return 0;
}

/* Every check of one call, in a fixed order (the first fault is reported). */
static int check_args(const coll_check *k, mdl_coll_call *a, int n, int is_root)
{
    const mdl_coll_desc *c = k->c;
    int ip = c->in_place, rc = 0;
    long maxc = 0;
    void *s = a->send, *r = a->recv;
    switch (c->kind) {
    case MDL_COLL_BCAST:
    case MDL_COLL_MCAST: {
        int receives = c->kind == MDL_COLL_BCAST || a->me > 0 || a->root_listed;
        if (a->count < 0)
            return negative_count(k, a->count);
        if ((rc = fits(k, "send", s, k->send_cap, a->count, is_root)) ||
            (rc = fits(k, "receive", r, k->recv_cap, a->count, receives && !(is_root && ip))))
            return rc;
        return 0;
    }
    case MDL_COLL_SCATTER:
        if (a->count < 0 && (rc = derive(k, ip ? k->send_cap : k->recv_cap, n, "segment size",
                                          &a->count)))
            return rc;
        if ((rc = fits(k, "send", s, k->send_cap, a->count * n, is_root)) ||
            (rc = fits(k, "receive", r, k->recv_cap, ip ? a->count * n : a->count,
                       !(is_root && ip))))
            return rc;
        return 0;
    case MDL_COLL_SCATTERV:
        if ((rc = fits_v(k, "send", s, k->send_cap, a->counts, a->displs, n, is_root, &maxc)))
            return rc;
        if (ip)
            return fits_v(k, "receive", r, k->recv_cap, a->counts, a->displs, n, !is_root, &maxc);
        return fits(k, "receive", r, k->recv_cap, maxc, 1);
    case MDL_COLL_GATHER:
        if (a->count < 0)
            return negative_count(k, a->count);
        if ((rc = fits(k, "receive", r, k->recv_cap, a->count * n, is_root)) ||
            (rc = fits(k, "send", s, k->send_cap, ip ? a->count * n : a->count,
                       !(is_root && ip))))
            return rc;
        return 0;
    case MDL_COLL_GATHERV:
        if ((rc = fits_v(k, "receive", r, k->recv_cap, a->counts, a->displs, n, is_root, &maxc)))
            return rc;
        if (ip)
            return fits_v(k, "send", s, k->send_cap, a->counts, a->displs, n, !is_root, &maxc);
        return fits(k, "send", s, k->send_cap, maxc, 1);
    case MDL_COLL_ALLGATHER:
        if (a->count < 0 && (rc = derive(k, k->send_cap, n, "block size", &a->count)))
            return rc;
        if ((rc = fits(k, "receive", r, k->recv_cap, a->count * n, 1)) ||
            (!ip && (rc = fits(k, "send", s, k->send_cap, a->count, 1))))
            return rc;
        return 0;
    case MDL_COLL_ALLGATHERV:
        if ((rc = fits_v(k, "receive", r, k->recv_cap, a->counts, a->displs, n, 1, &maxc)))
            return rc;
        return ip ? 0 : fits(k, "send", s, k->send_cap, maxc, 1);
    case MDL_COLL_ALLTOALL:
        if (a->count < 0)
            return negative_count(k, a->count);
        if ((rc = fits(k, "receive", r, k->recv_cap, a->count * n, 1)) ||
            (!ip && (rc = fits(k, "send", s, k->send_cap, a->count * n, 1))))
            return rc;
        return 0;
    case MDL_COLL_REDUCE:
    case MDL_COLL_ALLREDUCE: {
        int all = c->kind == MDL_COLL_ALLREDUCE;
        if (c->type->base == MDL_T_STRUCT || c->type->base < 0 ||
            c->type->base >= MDL_T_NBASE || !reduction(c->op))
            return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "cannot reduce %s elements with operator %d",
                           c->type->name, c->op);
        if (a->count < 0)
            return negative_count(k, a->count);
        if ((rc = fits(k, "send", s, k->send_cap, a->count, !(is_root && ip))) ||
            (rc = fits(k, "receive", r, k->recv_cap, a->count, all || is_root)))
            return rc;
        return 0;
    }
    }
    return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "unknown collective kind %d", c->kind);
}

/* Mcast: the root first, then the listed instances but the root. */
static int mcast_members(mdl_rt *rt, const coll_check *k, const int *insts, int n,
                         mdl_coll_call *a)
{
    mdl_rt_common *c = rt_c(rt);
    int rc = rt_check_list(rt, k->fn, c->d->self, insts, n);
    if (rc)
        return rc;
    int root = k->c->root, m = 0;
    c->list[m++] = root;
    a->me = root == c->inst ? 0 : -1;
    for (int i = 0; i < n; i++) {
        if (insts[i] == root) {
            a->root_listed = 1;
            continue;
        }
        if (insts[i] == c->inst)
            a->me = m;
        c->list[m++] = insts[i];
    }
    a->members = c->list;
    a->nmembers = m;
    return 0;
}

/* The capacity of a run-time-sized buffer starting at p: the elements
 * from p to the end of variable v's storage (its sizes current). */
static int sized_cap(const coll_check *k, const char *what, int v, const void *p, long *cap)
{
    const rt_sizes *sz = rt_c(k->rt)->sizes;
    int rc = rt_sized_check(k->rt, k->fn, v, rt_c(k->rt)->task);
    if (rc)
        return rc;
    const rt_sized_var *s = &sz->var[v];
    const char *base = s->mem, *at = p;
    size_t esize = k->c->type->size;
    if (at < base || at > base + s->bytes || (size_t)(at - base) % esize)
        return rt_fail(k->rt, k->fn, MDL_ERR_BOUNDS,
                       "the %s buffer does not start at an element of '%s'", what,
                       rt_c(k->rt)->d->rtvars[v].var);
    *cap = (long)((size_t)(base + s->bytes - at) / esize);
    return 0;
}

/* Everything after the descriptor's check; *involved: the instance takes
 * part (not a Mcast it is not listed in). */
static inline int coll_body(mdl_rt *rt, const mdl_coll_desc *c, mdl_coll_call *a,
                            const int *insts, int n, int *involved)
{
    const mdl_rt_common *rc_ = rt_c(rt);
    const mdl_task_desc *d = rc_->d;
    coll_check k = { rt, c, c->fn, c->send_cap, c->recv_cap };
    int size = rc_->fam_size[d->self];
    if (c->root < 0 || c->root >= size)
        return rt_fail(rt, c->fn, MDL_ERR_RANK, "the root, instance %d of %s, does not exist (0..%d)",
                       c->root, rc_->who.task, size - 1);
    if (c->kind == MDL_COLL_MCAST) {
        int rc = mcast_members(rt, &k, insts, n, a);
        if (rc)
            return rc;
        if (a->me < 0) {        /* neither the root nor listed: not involved */
            *involved = 0;
            return MDL_SUCCESS;
        }
    }
    int is_root = c->kind == MDL_COLL_MCAST ? a->me == 0 : rc_->inst == c->root;
    /* a fault is this instance's: the others learn it from the backend */
    int rc = 0;
    if (__builtin_expect(c->send_rtvar >= 0 || c->recv_rtvar >= 0, 0)) {
        if (c->send_rtvar >= 0)
            rc = sized_cap(&k, "send", c->send_rtvar, a->send, &k.send_cap);
        if (!rc && c->recv_rtvar >= 0)
            rc = sized_cap(&k, "receive", c->recv_rtvar, a->recv, &k.recv_cap);
    }
    a->err = rc ? rc : check_args(&k, a, size, is_root);
    if (a->members)
        rt_enter_list(c->fn, NULL, a->members, a->nmembers);
    else
        rt_enter(c->fn, NULL, RT_PEER_ALL);
    return be_collective(rt, c, a);
}

static int is_v(int kind)
{
    return kind == MDL_COLL_SCATTERV || kind == MDL_COLL_GATHERV || kind == MDL_COLL_ALLGATHERV;
}

/* Traced: bytes are this instance's block; Mcast names its members. */
static __attribute__((noinline)) int traced_coll(mdl_rt *rt, const mdl_coll_desc *c,
                                                 mdl_coll_call *a, const int *insts, int n)
{
    rt_tracer *t = rt_c(rt)->tr;
    int involved = 1;
    rt_trace_begin(t, rt_fn_coll(t, c));
    int rc = coll_body(rt, c, a, insts, n, &involved);
    if (rc < 0) {
        rt_trace_end_error(t, rc);
        return rc;
    }
    if (!involved) {
        t->in_call = 0;
        return rc;
    }
    uint64_t bytes = (uint64_t)(is_v(c->kind) ? a->counts[rt_c(rt)->inst] : a->count) *
                     c->type->size;
    if (c->kind == MDL_COLL_MCAST)
        rt_trace_end_list(t, bytes, a->members, NULL, (uint32_t)a->nmembers);
    else
        rt_trace_end(t, -1, 0, bytes, 0);
    return rc;
}

MDL_API int mdl_collective(mdl_rt *rt, const mdl_coll_desc *c, void *send, void *recv,
                           long count, const int *counts, const int *displs, const int *insts,
                           int n)
{
    const char *fn = c && c->fn ? c->fn : "collective";
    if (rt != rt_live)
        return rt_dead(fn);
    const mdl_rt_common *rc_ = rt_c(rt);
    const mdl_task_desc *d = rc_->d;
    if (!c || (unsigned)c->index >= (unsigned)d->ncolls || d->colls[c->index] != c)
        return rt_fail(rt, fn, MDL_ERR_ARG, "not a collective of this task");
    mdl_coll_call a = { send, recv, count, counts, displs, NULL, 0, rc_->inst, 0, 0 };
    if (__builtin_expect(rc_->tr != NULL, 0))
        return traced_coll(rt, c, &a, insts, n);
    int involved;
    return coll_body(rt, c, &a, insts, n, &involved);
}
