/* rt_alloc.c — MDL_Allocate (docs/language.md §5): the extents the
 * generated code computed from the task's variables, checked (positive,
 * their product and its bytes within a C object), then storage from the
 * transport (be_sized_alloc) for each run-time-sized variable whose
 * extents changed; the values of the extent variables recorded, and the
 * layouts of the messages on such variables marked stale. */
#include "rt_layer.h"
#include "rt_layout.h"
#include "rt_sizes.h"

#include <stdio.h>

/* ", names nx = 3, ny = -1": the values the sizes of v name now. */
static void names_now(const mdl_task_desc *d, const mdl_rtvar_desc *r, const void *task,
                      char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < r->ndeps && n < len; k++) {
        const mdl_extvar_desc *x = &d->extvars[r->deps[k]];
        int w = snprintf(buf + n, len - n, "%s%s = %lld", k ? ", " : "", x->var,
                         rt_extvar_value(x, task));
        n += w > 0 ? (size_t)w : 0;
    }
}

/* The extents of v from the call's (its -1 entries from e, from *next
 * on), checked; *bytes its storage. */
static int extents_of(mdl_rt *rt, const mdl_rtvar_desc *r, const long *e, int *next,
                      const void *task, long *ext, long *nelems, size_t *bytes)
{
    const char *fn = MDL_FN_NAME(ALLOCATE);
    char names[160];
    long n = 1;
    int overflow = 0;
    for (int k = 0; k < r->ndims; k++) {
        ext[k] = r->extent[k] >= 0 ? r->extent[k] : e[(*next)++];
        if (ext[k] <= 0) {
            names_now(rt_c(rt)->d, r, task, names, sizeof names);
            return rt_fail(rt, fn, MDL_ERR_ARG,
                           "'%s' would have size %ld in dimension %d (%s): sizes must be "
                           "positive", r->var, ext[k], k, names);
        }
        overflow |= __builtin_mul_overflow(n, ext[k], &n);
    }
    size_t b;
    if (overflow || __builtin_mul_overflow((size_t)n, r->type->size, &b) || b > PTRDIFF_MAX) {
        names_now(rt_c(rt)->d, r, task, names, sizeof names);
        return rt_fail(rt, fn, MDL_ERR_ARG, "the sizes of '%s' (%s) make more than %td bytes",
                       r->var, names, (ptrdiff_t)PTRDIFF_MAX);
    }
    *nelems = n;
    *bytes = b;
    return 0;
}

static int same_extents(const rt_sized_var *s, const long *ext, int ndims)
{
    for (int k = 0; k < ndims; k++)
        if (s->ext[k] != ext[k])
            return 0;
    return s->mem != NULL;
}

/* An async message on v still in flight would move data to or from the
 * storage about to be given back. */
static int in_flight(mdl_rt *rt, int v)
{
    const mdl_task_desc *d = rt_c(rt)->d;
    for (int i = 0; i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        for (int k = 0; m->async && k < m->nitems; k++)
            if (m->items[k].rtvar == v && be_test(rt, m) == 0) {
                char name[128];
                return rt_fail(rt, MDL_FN_NAME(ALLOCATE), MDL_ERR_STATE,
                               "'%s' is in the async %s '%s', not complete: call %s first",
                               d->rtvars[v].var, m->is_send ? "send" : "receive", m->name,
                               rt_completion_fn(m, 1, name, sizeof name));
            }
    }
    return 0;
}

MDL_API int mdl_allocate(mdl_rt *rt, void *task, const long *extents)
{
    const char *fn = MDL_FN_NAME(ALLOCATE);
    if (rt != rt_live)
        return rt_dead(fn);
    mdl_rt_common *c = rt_c(rt);
    const mdl_task_desc *d = c->d;
    if (task != c->task)
        return rt_fail(rt, fn, MDL_ERR_ARG, "not the task struct of MDL_Init");
    if (!c->sizes || !extents)
        return rt_fail(rt, fn, MDL_ERR_ARG, "the task has no run-time-sized variable");
    /* every extent checked before anything changes: a refused call leaves
     * the variables as they were */
    long ext[MDL_MAX_DIMS];
    long nelems;
    size_t bytes;
    int next = 0, changed = 0;
    for (int v = 0; v < d->nrtvars; v++) {
        int rc = extents_of(rt, &d->rtvars[v], extents, &next, task, ext, &nelems, &bytes);
        if (rc)
            return rc;
        if (!same_extents(&c->sizes->var[v], ext, d->rtvars[v].ndims) && (rc = in_flight(rt, v)))
            return rc;
    }
    next = 0;
    for (int v = 0; v < d->nrtvars; v++) {
        const mdl_rtvar_desc *r = &d->rtvars[v];
        rt_sized_var *s = &c->sizes->var[v];
        extents_of(rt, r, extents, &next, task, ext, &nelems, &bytes);
        if (same_extents(s, ext, r->ndims))
            continue;
        char why[160];
        void *p = be_sized_alloc(rt, bytes, why, sizeof why);
        if (!p)
            return rt_fail(rt, fn, MDL_ERR_ARG, "'%s' needs %zu bytes: %s", r->var, bytes, why);
        if (s->mem)
            be_sized_free(rt, s->mem, s->bytes);
        s->mem = p;
        s->bytes = bytes;
        s->nelems = nelems;
        for (int k = 0; k < MDL_MAX_DIMS; k++)
            s->ext[k] = k < r->ndims ? ext[k] : 0;
        *(void **)((char *)task + r->offset) = p;
        changed = 1;
    }
    for (int x = 0; x < d->nextvars; x++)
        c->sizes->recorded[x] = rt_extvar_value(&d->extvars[x], task);
    if (changed)
        rt_layouts_resized(rt);
    return MDL_SUCCESS;
}
