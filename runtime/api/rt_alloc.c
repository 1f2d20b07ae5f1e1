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
#include <string.h>

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
 * on) into f, checked, with its elements and bytes. */
static int extents_of(mdl_rt *rt, const mdl_rtvar_desc *r, const long *e, int *next,
                      const void *task, rt_sized_var *f)
{
    const char *fn = MDL_FN_NAME(ALLOCATE);
    char names[160];
    long n = 1;
    int overflow = 0;
    memset(f->ext, 0, sizeof f->ext);
    for (int k = 0; k < r->ndims; k++) {
        f->ext[k] = r->extent[k] >= 0 ? r->extent[k] : e[(*next)++];
        if (f->ext[k] <= 0) {
            names_now(rt_c(rt)->d, r, task, names, sizeof names);
            return rt_fail(rt, fn, MDL_ERR_ARG,
                           "'%s' would have size %ld in dimension %d (%s): sizes must be "
                           "positive", r->var, f->ext[k], k, names);
        }
        overflow |= __builtin_mul_overflow(n, f->ext[k], &n);
    }
    size_t b;
    if (overflow || __builtin_mul_overflow((size_t)n, r->type->size, &b) || b > PTRDIFF_MAX) {
        names_now(rt_c(rt)->d, r, task, names, sizeof names);
        return rt_fail(rt, fn, MDL_ERR_ARG, "the sizes of '%s' (%s) make more than %td bytes",
                       r->var, names, (ptrdiff_t)PTRDIFF_MAX);
    }
    f->nelems = n;
    f->bytes = b;
    return 0;
}

/* Whether v keeps its storage: it has some, of the extents f asks for. */
static int unchanged(const rt_sized_var *v, const rt_sized_var *f)
{
    return v->mem && memcmp(v->ext, f->ext, sizeof v->ext) == 0;
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

/* New storage for every variable that changes, into fresh[v].mem; all of
 * it or none (what was taken is given back). */
static int new_storage(mdl_rt *rt, const rt_sizes *sz, int nvars)
{
    const mdl_task_desc *d = rt_c(rt)->d;
    for (int v = 0; v < nvars; v++) {
        rt_sized_var *f = &sz->fresh[v];
        f->mem = NULL;
        if (unchanged(&sz->var[v], f))
            continue;
        char why[160];
        if ((f->mem = be_sized_alloc(rt, f->bytes, why, sizeof why)))
            continue;
        for (int u = 0; u < v; u++)
            if (sz->fresh[u].mem)
                be_sized_free(rt, sz->fresh[u].mem, sz->fresh[u].bytes);
        return rt_fail(rt, MDL_FN_NAME(ALLOCATE), MDL_ERR_ARG, "'%s' needs %zu bytes: %s",
                       d->rtvars[v].var, f->bytes, why);
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
    /* everything checked and taken before anything changes: a refused
     * call leaves the variables as they were */
    rt_sizes *sz = c->sizes;
    int next = 0, changed = 0;
    for (int v = 0; v < d->nrtvars; v++) {
        int rc = extents_of(rt, &d->rtvars[v], extents, &next, task, &sz->fresh[v]);
        if (!rc && !unchanged(&sz->var[v], &sz->fresh[v]))
            rc = in_flight(rt, v);
        if (rc)
            return rc;
    }
    int rc = new_storage(rt, sz, d->nrtvars);
    if (rc)
        return rc;
    for (int v = 0; v < d->nrtvars; v++) {
        rt_sized_var *s = &sz->var[v];
        if (!sz->fresh[v].mem)
            continue;
        if (s->mem)
            be_sized_free(rt, s->mem, s->bytes);
        *s = sz->fresh[v];
        *(void **)((char *)task + d->rtvars[v].offset) = s->mem;
        changed = 1;
    }
    for (int x = 0; x < d->nextvars; x++)
        sz->recorded[x] = rt_extvar_value(&d->extvars[x], task);
    if (changed)
        rt_layouts_resized(rt);
    return MDL_SUCCESS;
}
