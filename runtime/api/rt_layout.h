/* rt_layout.h — the layer's layouts of messages (rt_layout.c), for the
 * files of runtime/api: a transport sees rt_layout (rt_backend.h) only. */
#ifndef MDL_RT_LAYOUT_H
#define MDL_RT_LAYOUT_H

#include "rt_backend.h"

/* What the layer keeps per message: the layout it last checked (out) and
 * what that layout depends on besides the descriptor, the key — the
 * call's bounds, then the value of each pointer item (a pointer moved
 * under unchanged bounds is another layout).  Extents are constants of
 * the descriptor today; extents set at run time (issue 27) would be one
 * more thing a layout depends on: their change marks the layouts stale,
 * and the next call computes them again under new numbers, which is all
 * a transport's cache needs to know. */
typedef struct rt_msg_layout {
    rt_layout out;              /* what the transport is handed */
    long stale;                 /* non-zero: out is not the layout of key
                                   (none yet, or the last call's bounds
                                   were refused) */
    int nbounds;                /* bounds in the key: 2 * npairs, 0 when fixed */
    int nptr;                   /* pointer items: their values follow */
    long *key;                  /* [nbounds + nptr] */
    mdl_rt *rt;                 /* whose (for its reports) */
    const mdl_msg_desc *m;      /* of which message */
    size_t *ptr_off;            /* [nptr] where the pointer members are */
    mdl_span *spans, *spare;    /* [nitems] out's spans, and room for the
                                   next ones (compared with out's) */
    /* One section of a declared variable whose bounds all come with the
     * call: a call that moves it without changing its shape (hi - lo in
     * every dimension) is checked and placed without computing its spans
     * again (a transposition, a sliding window).  What that needs is
     * here, the key included, so that the check runs in registers
     * (rt_layout_update). */
    int movable;
    int moves;                  /* movable, and not stale */
    long move_key[2 * MDL_MAX_DIMS];    /* movable: the key */
    long extent[MDL_MAX_DIMS];          /* the section's variable's */
    size_t row_bytes[MDL_MAX_DIMS];     /* bytes per index step */
    size_t offset;                      /* the variable's in the task struct */
} rt_msg_layout;

/* One per message of rt's descriptor d, stale; NULL when out of memory. */
MDL_HIDDEN rt_msg_layout **rt_layouts_new(mdl_rt *rt, const mdl_task_desc *d);
MDL_HIDDEN void rt_layouts_free(const mdl_task_desc *d, rt_msg_layout **all);

/* rt_layout_of when the key differs: a section moved, or the layout
 * computed and checked again. */
MDL_HIDDEN const rt_layout *rt_layout_update(rt_msg_layout *l, void *task, const long *bounds)
    __attribute__((noinline));

/* The checked layout of m for the call's task struct (the one of
 * MDL_Init) and bounds.  NULL: a bound lies outside its variable, the
 * only fault of a layout, reported as MDL_ERR_BOUNDS under m->fn.  The
 * path of a call whose key has not changed is inline: one OR of XORs, no
 * branch per bound; the pointer loop is marked unlikely, so that the
 * messages without one pay a test for it and no registers. */
static inline const rt_layout *rt_layout_of(mdl_rt *rt, const mdl_msg_desc *m, void *task,
                                            const long *bounds)
{
    rt_msg_layout *l = rt_c(rt)->layouts[m->index];
    const long *key = l->key;
    long diff = l->stale;
    for (int i = 0; i < l->nbounds; i += 2)
        diff |= (bounds[i] ^ key[i]) | (bounds[i + 1] ^ key[i + 1]);
    for (int i = 0; __builtin_expect(i < l->nptr, 0); i++)
        diff |= (long)(intptr_t) * (void *const *)((const char *)task + l->ptr_off[i]) ^
                key[l->nbounds + i];
    if (__builtin_expect(diff == 0, 1))
        return &l->out;
    return rt_layout_update(l, task, bounds);
}

#endif
