/* rt_layout.h — the layer's layouts of messages (rt_layout.c), for the
 * files of runtime/api: a transport sees rt_layout (rt_backend.h) only. */
#ifndef MDL_RT_LAYOUT_H
#define MDL_RT_LAYOUT_H

#include <stddef.h>
#include <string.h>

#include "rt_backend.h"

/* Which calls of a message mdl_send may make from a note (rt_again):
 * none (to several instances, to a neighbour: peers resolved per call),
 * narrow ones (to one instance, the key at most one pair of bounds:
 * compared without a loop) or any to one instance (rt_again_of). */
enum { RT_REPEAT_NONE, RT_REPEAT_NARROW, RT_REPEAT_WIDE };

/* What the layer keeps per message: the layout it last checked (out) and
 * what that layout depends on besides the descriptor, the key — the
 * call's bounds, then the value of each pointer item (a pointer moved
 * under unchanged bounds is another layout), then those of the variables
 * the sizes of its run-time-sized items name (docs/language.md §5): a
 * size changed without MDL_Allocate takes the slow path, which refuses
 * it.  MDL_Allocate marks the layouts of those messages stale: the next
 * call computes them again under new numbers, which is all a transport's
 * cache needs to know. */
typedef struct rt_msg_layout {
    rt_layout out;              /* what the transport is handed; a send's
                                   out.again is cleared where out changes
                                   or is marked stale */
    long stale;                 /* non-zero: out is not the layout of key
                                   (none yet, or the last call's bounds
                                   were refused) */
    unsigned peers;             /* the peer task's instances (fam_size's,
                                   fixed at MDL_Init): a noted send's check */
    int nbounds;                /* bounds in the key: 2 * npairs, 0 when fixed */
    int nptr;                   /* words of the task struct in the key:
                                   pointer items', then extent variables' */
    int repeats;                /* which calls mdl_send may repeat (RT_REPEAT_*) */
    long *key;                  /* [nbounds + nptr] */
    mdl_rt *rt;                 /* whose (for its reports) */
    const mdl_msg_desc *m;      /* of which message */
    size_t *ptr_off;            /* [nptr] where those words are */
    long *ptr_mask;             /* [nptr] their bytes (an int extent variable:
                                   the low 4 of the word read; the word
                                   never passes the struct's end, which is
                                   the runtime's handle) */
    int err;                    /* why the last call got no layout */
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
    int sized;                  /* a run-time-sized variable: its pointer at
                                   offset, its extents and steps those of the
                                   last recompute, the key its own array */
    long key_here[2 * MDL_MAX_DIMS];    /* the key when it has no word of
                                           the task struct and fits (a
                                           narrow message's, a movable one's
                                           not sized) */
    long extent[MDL_MAX_DIMS];          /* the section's variable's */
    size_t row_bytes[MDL_MAX_DIMS];     /* bytes per index step */
    size_t offset;                      /* the variable's in the task struct */
    mdl_site *site;             /* a receive's site, whose plan may read out:
                                   cleared where out changes */
} rt_msg_layout;

/* Word i of the key after the bounds as the task struct has it now: a
 * pointer, or a size variable's bytes (the word may start at an int:
 * read with memcpy, one unaligned load). */
static inline long rt_key_word(const rt_msg_layout *l, const void *task, int i)
{
    long w;
    memcpy(&w, (const char *)task + l->ptr_off[i], sizeof w);
    return w & l->ptr_mask[i];
}

/* The code of the fault reported when rt_layout_of returned NULL. */
static inline int rt_layout_error(mdl_rt *rt, const mdl_msg_desc *m)
{
    return rt_c(rt)->layouts[m->index]->err;
}

/* MDL_Allocate changed storage or extents: the layouts of the messages
 * with run-time-sized items are computed again at their next call. */
MDL_HIDDEN void rt_layouts_resized(mdl_rt *rt);

/* One per message of rt's descriptor d, stale; NULL when out of memory. */
MDL_HIDDEN rt_msg_layout **rt_layouts_new(mdl_rt *rt, const mdl_task_desc *d);
MDL_HIDDEN void rt_layouts_free(const mdl_task_desc *d, rt_msg_layout **all);

/* rt_layout_of when the key differs: a section moved, or the layout
 * computed and checked again. */
MDL_HIDDEN const rt_layout *rt_layout_update(rt_msg_layout *l, void *task, const long *bounds)
    __attribute__((noinline));

/* diff, or'ed with what differs between l's key and the call's bounds
 * and the task struct's words: 0 when it is the same key. */
static inline long rt_key_diff(const rt_msg_layout *l, void *task, const long *bounds, long diff)
{
    const long *key = l->key;
    const long *end = key + l->nbounds;
    for (const long *b = bounds, *k = key; k < end; b += 2, k += 2)
        diff |= (b[0] ^ k[0]) | (b[1] ^ k[1]);
    for (int i = 0; __builtin_expect(i < l->nptr, 0); i++)
        diff |= rt_key_word(l, task, i) ^ end[i];
    return diff;
}

/* rt_layout_cached: the layout of m if the key has not changed, else
 * NULL (the caller then calls rt_layout_of, out of its fast path).
 * rt_layout_of: the checked layout of m for the call's task struct (the one of
 * MDL_Init) and bounds.  NULL: a bound lies outside its variable,
 * reported as MDL_ERR_BOUNDS under m->fn, or a run-time-sized variable
 * has no current storage, MDL_ERR_STATE (rt_layout_error: which).  The
 * path of a call whose key has not changed is inline: one OR of XORs, no
 * branch per bound; the pointer loop is marked unlikely, so that the
 * messages without one pay a test for it and no registers. */
static inline const rt_layout *rt_layout_cached(mdl_rt *rt, const mdl_msg_desc *m, void *task,
                                                const long *bounds)
{
    rt_msg_layout *l = rt_c(rt)->layouts[m->index];
    return __builtin_expect(rt_key_diff(l, task, bounds, l->stale) == 0, 1) ? &l->out : NULL;
}

/* l's layout, with its note of how the transport sends it (rt_again), if
 * this call's key is l's — bounds, the task struct's words (pointers,
 * sizes) — and the note holds (the layout not stale: every place marking
 * it stale clears the note), else NULL.  l is the layout of a message of this
 * task, task its struct; narrow (a constant): l->repeats is
 * RT_REPEAT_NARROW, what nearly every small message is, and its key is
 * compared without a loop; else RT_REPEAT_WIDE. */
static inline __attribute__((always_inline)) const rt_layout *
rt_again_of(const rt_msg_layout *l, void *task, const long *bounds, int narrow)
{
    long diff = l->out.again.none;
    if (l->nbounds) {
        if (!bounds)
            return NULL;
        if (narrow)
            diff |= (bounds[0] ^ l->key_here[0]) | (bounds[1] ^ l->key_here[1]);
    }
    if (!narrow)
        diff = rt_key_diff(l, task, bounds, diff);
    return __builtin_expect(diff == 0, 1) ? &l->out : NULL;
}

static inline const rt_layout *rt_layout_of(mdl_rt *rt, const mdl_msg_desc *m, void *task,
                                            const long *bounds)
{
    const rt_layout *lay = rt_layout_cached(rt, m, task, bounds);
    return lay ? lay : rt_layout_update(rt_c(rt)->layouts[m->index], task, bounds);
}

#endif
