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
    long slow;                  /* non-zero: the inline compare alone cannot
                                   reuse out (stale, or pointer items,
                                   compared out of line) */
    int nbounds;                /* bounds in the key: 2 * npairs, 0 when fixed */
    int nptr;                   /* pointer items: their values follow */
    long *key;                  /* [nbounds + nptr] */
    int stale;                  /* out is not the layout of key (none yet,
                                   or the last call's bounds were refused) */
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

/* rt_layout_of when the inline compare fails: the layout of an unchanged
 * key with pointer items, a section moved, or the layout computed and
 * checked again. */
MDL_HIDDEN const rt_layout *rt_layout_update(rt_msg_layout *l, void *task, const long *bounds)
    __attribute__((noinline));

/* The checked layout of m for the call's task struct (the one of
 * MDL_Init) and bounds.  NULL: a bound lies outside its variable, the
 * only fault of a layout, reported as MDL_ERR_BOUNDS under m->fn.  The
 * path of a call whose bounds have not changed is inline: one OR of
 * XORs, no branch per bound.  Pointer values are compared out of line
 * (slow), which keeps this path short for the messages that have none. */
static inline const rt_layout *rt_layout_of(mdl_rt *rt, const mdl_msg_desc *m, void *task,
                                            const long *bounds)
{
    rt_msg_layout *l = rt_c(rt)->layouts[m->index];
    const long *key = l->key;
    long diff = l->slow;
    for (int i = 0; i < l->nbounds; i += 2)
        diff |= (bounds[i] ^ key[i]) | (bounds[i + 1] ^ key[i + 1]);
    if (__builtin_expect(diff == 0, 1))
        return &l->out;
    return rt_layout_update(l, task, bounds);
}

#endif
