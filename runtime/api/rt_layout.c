/* rt_layout.c — the layout of each message, checked by the layer once per
 * call that changes it and handed to the transport (rt_backend.h,
 * rt_layout).  The bounds rule is runtime/core's (mdl_bounds_ok,
 * mdl_item_span); nothing below the layer checks a bound.
 *
 * A call whose bounds and pointer values are those of the message's
 * previous call reuses its layout (rt_layout_of, inline).  Otherwise the
 * spans are computed and checked again, and numbered: a new gen, and a
 * new shape unless they equal the previous ones relative to their first
 * byte, so that a transport's cache keyed by shape survives a block sent
 * from another place (MPI's datatypes: docs/performance.md, "a datatype
 * per call").  A one-section message whose shape stays is only moved,
 * its bounds checked inline, as the MPI runtime's datatype cache did
 * before the layer owned the layout (≈ 30 instructions instead of ≈ 200). */
#include "rt_layout.h"
#include "rt_sizes.h"

#include <stdlib.h>

/* The extents of a movable message's variable and the bytes of one index
 * step in each dimension (those of mdl_item_span). */
static void set_steps(rt_msg_layout *l, const mdl_item_desc *it, const long *extent)
{
    size_t rb = it->type->size;
    for (int k = it->ndims - 1; k >= 0; k--) {
        l->extent[k] = extent[k];
        l->row_bytes[k] = rb;
        if (extent[k] > 0)
            rb *= (size_t)extent[k];
    }
}

rt_msg_layout **rt_layouts_new(mdl_rt *rt, const mdl_task_desc *d)
{
    rt_msg_layout **all = calloc((size_t)d->nmsgs + 1, sizeof *all);
    for (int i = 0; all && i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        rt_msg_layout *l = all[i] = calloc(1, sizeof *l);
        if (!l) {
            rt_layouts_free(d, all);
            return NULL;
        }
        size_t n = (size_t)m->nitems + 1;
        l->rt = rt;
        l->m = m;
        l->stale = 1;
        l->out.again.none = 1;
        l->peers = (unsigned)rt_c(rt)->fam_size[m->peer_task];
        l->nbounds = m->fixed_bounds ? 0 : 2 * m->npairs;
        for (int k = 0; k < m->nitems; k++) {
            l->nptr += m->items[k].is_pointer;
            if (m->items[k].rtvar >= 0)
                l->nptr += d->rtvars[m->items[k].rtvar].ndeps;
        }
        l->repeats = m->peer_kind != MDL_PEER_ONE            ? RT_REPEAT_NONE
                     : l->nptr == 0 && l->nbounds <= 2 ? RT_REPEAT_NARROW
                                                       : RT_REPEAT_WIDE;
        const mdl_item_desc *it = m->nitems == 1 ? &m->items[0] : NULL;
        l->movable = it && (!it->is_pointer || it->rtvar >= 0) && !m->fixed_bounds &&
                     it->ndims > 0 && m->npairs == it->ndims && it->first_pair == 0;
        l->sized = it && it->rtvar >= 0;
        l->key = l->nptr == 0 && l->nbounds <= 2 * MDL_MAX_DIMS
                     ? l->key_here
                     : calloc((size_t)(l->nbounds + l->nptr) + 1, sizeof *l->key);
        l->ptr_off = calloc((size_t)l->nptr + 1, sizeof *l->ptr_off);
        l->ptr_mask = calloc((size_t)l->nptr + 1, sizeof *l->ptr_mask);
        l->spans = calloc(n, sizeof *l->spans);
        l->spare = calloc(n, sizeof *l->spare);
        if (!l->key || !l->ptr_off || !l->ptr_mask || !l->spans || !l->spare) {
            rt_layouts_free(d, all);
            return NULL;
        }
        int j = 0;
        for (int k = 0; k < m->nitems; k++)
            if (m->items[k].is_pointer) {
                l->ptr_off[j] = m->items[k].offset;
                l->ptr_mask[j++] = -1L;
            }
        for (int k = 0; k < m->nitems; k++) {
            const mdl_rtvar_desc *r = m->items[k].rtvar >= 0 ? &d->rtvars[m->items[k].rtvar] : NULL;
            for (int e = 0; r && e < r->ndeps; e++) {
                const mdl_extvar_desc *x = &d->extvars[r->deps[e]];
                size_t bytes = mdl_base_size(x->base);
                l->ptr_off[j] = x->offset;
                l->ptr_mask[j++] = bytes >= sizeof(long) ? -1L : (long)((1UL << (8 * bytes)) - 1);
            }
        }
        l->out.spans = l->spans;
        if (!l->movable)
            continue;
        l->offset = it->offset;
        set_steps(l, it, it->extent);   /* a run-time-sized one's: at each recompute */
    }
    return all;
}

void rt_layouts_free(const mdl_task_desc *d, rt_msg_layout **all)
{
    for (int i = 0; all && i < d->nmsgs; i++)
        if (all[i]) {
            if (all[i]->key != all[i]->key_here)
                free(all[i]->key);
            free(all[i]->ptr_off);
            free(all[i]->ptr_mask);
            free(all[i]->spans);
            free(all[i]->spare);
            free(all[i]);
        }
    free(all);
}

/* Whether spans a and b (n of each) are one layout, b perhaps moved:
 * equal but for their bases, and those equal relative to the first. */
static int same_shape(const mdl_span *a, const mdl_span *b, int n)
{
    uintptr_t a0 = (uintptr_t)a[0].base, b0 = (uintptr_t)b[0].base;
    for (int i = 0; i < n; i++) {
        if (a[i].block != b[i].block || a[i].nloops != b[i].nloops || a[i].bytes != b[i].bytes ||
            (uintptr_t)a[i].base - a0 != (uintptr_t)b[i].base - b0)
            return 0;
        for (int d = 0; d < a[i].nloops; d++)
            if (a[i].count[d] != b[i].count[d] || a[i].stride[d] != b[i].stride[d])
                return 0;
    }
    return 1;
}

/* The spans computed and checked again, numbered, and the key kept. */
static __attribute__((noinline)) const rt_layout *recompute(rt_msg_layout *l, void *task,
                                                            const long *bounds)
{
    const mdl_msg_desc *m = l->m;
    const rt_sizes *sz = rt_c(l->rt)->sizes;
    char why[256];
    size_t bytes;
    int rc = sz ? rt_sized_check_msg(l->rt, m, task) : 0;
    if (rc) {
        l->stale = 1;
        l->moves = 0;
        l->err = rc;
        return NULL;
    }
    rc = mdl_msg_spans(m, task, bounds, sz ? sz->ext : NULL, l->spare, &bytes, why, sizeof why);
    if (rc) {
        l->stale = 1;           /* the key is no layout's: checked again */
        l->moves = 0;
        l->err = rc;
        rt_fail(l->rt, m->fn, rc, "%s", why);
        return NULL;
    }
    mdl_span *was = l->spans;
    l->spans = l->spare;
    l->spare = was;
    l->out.spans = l->spans;
    l->out.base = l->spans[0].base;
    l->out.bytes = bytes;
    l->out.gen++;
    if (!l->out.shape || !same_shape(l->spans, was, m->nitems))
        l->out.shape = l->out.gen;
    long *key = l->key;
    for (int i = 0; i < l->nbounds; i++)
        *key++ = bounds[i];
    for (int i = 0; i < l->nptr; i++)
        *key++ = rt_key_word(l, task, i);
    if (l->movable && l->sized)
        set_steps(l, &m->items[0], sz->ext[m->items[0].rtvar]);
    l->stale = 0;
    l->moves = l->movable;
    return &l->out;
}

/* Whether a word of the key after the bounds (a pointer, a size variable)
 * differs from the task's. */
static int words_changed(const rt_msg_layout *l, const void *task)
{
    for (int i = 0; i < l->nptr; i++)
        if (rt_key_word(l, task, i) != l->key[l->nbounds + i])
            return 1;
    return 0;
}

/* A movable message's section moved, its shape unchanged (hi - lo as in
 * the key, in every dimension): its bounds checked by the rule of
 * runtime/core and the section placed, its spans otherwise the same;
 * anything else computed again.  The key takes the bounds as they pass:
 * a call that fails here is computed again, which rewrites the key or
 * marks the layout stale. */
static __attribute__((noinline)) const rt_layout *moved(rt_msg_layout *l, void *task,
                                                        const long *bounds)
{
    char *var = (char *)task + l->offset;
    long *key = l->key;
    if (__builtin_expect(l->sized, 0)) {
        /* its storage; a size changed since MDL_Allocate is refused there */
        if (words_changed(l, task))
            return recompute(l, task, bounds);
        var = *(char **)var;
    }
    size_t off = 0;
    for (size_t i = 0, n = (size_t)l->nbounds; i < n; i += 2) {
        long lo = bounds[i], hi = bounds[i + 1];
        if (!mdl_bounds_ok(lo, hi, l->extent[i / 2]) || hi - lo != key[i + 1] - key[i])
            return recompute(l, task, bounds);
        key[i] = lo;
        key[i + 1] = hi;
        off += (size_t)lo * l->row_bytes[i / 2];
    }
    l->spans[0].base = l->out.base = var + off;
    l->out.gen++;
    return &l->out;
}

/* Tail calls only, so that each path pays for its own registers.  The
 * layout changes here only: the note of how it is sent goes with it, and
 * the plan of a receive's site, which may read it (rt_site_plan). */
const rt_layout *rt_layout_update(rt_msg_layout *l, void *task, const long *bounds)
{
    l->out.again.none = 1;
    if (l->site)
        l->site->plan_task = NULL;
    if (l->moves)
        return moved(l, task, bounds);
    return recompute(l, task, bounds);
}

void rt_layouts_resized(mdl_rt *rt)
{
    const mdl_task_desc *d = rt_c(rt)->d;
    for (int i = 0; i < d->nmsgs; i++)
        for (int k = 0; k < d->msgs[i]->nitems; k++)
            if (d->msgs[i]->items[k].rtvar >= 0) {
                rt_c(rt)->layouts[i]->stale = 1;
                rt_c(rt)->layouts[i]->moves = 0;
                rt_c(rt)->layouts[i]->out.again.none = 1;
            }
}

const rt_layout *rt_layout_fixed(mdl_rt *rt, const mdl_msg_desc *m)
{
    return rt_layout_of(rt, m, rt_c(rt)->task, NULL);
}
