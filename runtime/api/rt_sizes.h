/* rt_sizes.h — the run-time-sized variables of an instance (rt_sizes.c):
 * their storage and extents as MDL_Allocate set them, and the values of
 * the variables their sizes name then.  For the files of runtime/api. */
#ifndef MDL_RT_SIZES_H
#define MDL_RT_SIZES_H

#include "rt_backend.h"

typedef struct rt_sized_var {
    void *mem;                  /* the storage (the task member's value), NULL: none yet */
    size_t bytes;
    long ext[MDL_MAX_DIMS];     /* the extents it was allocated with */
    long nelems;
} rt_sized_var;

typedef struct rt_sizes {
    rt_sized_var *var;          /* [d->nrtvars] */
    rt_sized_var *fresh;        /* [d->nrtvars] MDL_Allocate's scratch: the
                                   storage and extents it is about to set */
    const long **ext;           /* [d->nrtvars] var[i].ext: what mdl_msg_spans reads */
    long long *recorded;        /* [d->nextvars] the extent variables' values at
                                   the last MDL_Allocate that succeeded */
} rt_sizes;

/* For rt_common_identified: NULL for a task without run-time-sized
 * variables, or (*oom set) when memory is short. */
MDL_HIDDEN rt_sizes *rt_sizes_new(const mdl_task_desc *d, int *oom);
/* Gives the storage back (be_sized_free) and frees s. */
MDL_HIDDEN void rt_sizes_free(mdl_rt *rt, rt_sizes *s);

/* The value of extent variable x of the task struct, as a long long. */
MDL_HIDDEN long long rt_extvar_value(const mdl_extvar_desc *x, const void *task);

/* Whether run-time-sized variable v may be used by `fn` now: it has
 * storage, and the variables its sizes name have the values of the last
 * MDL_Allocate.  0, or the reported MDL_ERR_STATE. */
MDL_HIDDEN int rt_sized_check(mdl_rt *rt, const char *fn, int v, const void *task);

/* The same for every run-time-sized item of m (the layout's slow path). */
MDL_HIDDEN int rt_sized_check_msg(mdl_rt *rt, const mdl_msg_desc *m, const void *task);

#endif
