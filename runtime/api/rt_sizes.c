/* rt_sizes.c — what the layer knows of the run-time-sized variables
 * (docs/language.md §5): the storage and extents MDL_Allocate gave them
 * (rt_alloc.c sets them), and the check each call on one of them makes:
 * storage exists, and the variables its sizes name still have the values
 * it was allocated with.  A call reaches the check only on the slow path
 * of its layout (rt_layout.h: those values are part of the key), so a
 * message on such a variable costs no more than one on a pointer. */
#include "rt_sizes.h"

#include <stdlib.h>

rt_sizes *rt_sizes_new(const mdl_task_desc *d, int *oom)
{
    *oom = 0;
    if (d->nrtvars <= 0)
        return NULL;
    rt_sizes *s = calloc(1, sizeof *s);
    if (s) {
        s->var = calloc((size_t)d->nrtvars, sizeof *s->var);
        s->fresh = calloc((size_t)d->nrtvars, sizeof *s->fresh);
        s->ext = calloc((size_t)d->nrtvars, sizeof *s->ext);
        s->recorded = calloc((size_t)d->nextvars + 1, sizeof *s->recorded);
    }
    if (!s || !s->var || !s->fresh || !s->ext || !s->recorded) {
        *oom = 1;
        if (s) {
            free(s->var);
            free(s->fresh);
            free(s->ext);
            free(s->recorded);
        }
        free(s);
        return NULL;
    }
    for (int i = 0; i < d->nrtvars; i++)
        s->ext[i] = s->var[i].ext;
    return s;
}

void rt_sizes_free(mdl_rt *rt, rt_sizes *s)
{
    if (!s)
        return;
    for (int i = 0; i < rt_c(rt)->d->nrtvars; i++)
        if (s->var[i].mem)
            be_sized_free(rt, s->var[i].mem, s->var[i].bytes);
    free(s->var);
    free(s->fresh);
    free(s->ext);
    free(s->recorded);
    free(s);
}

long long rt_extvar_value(const mdl_extvar_desc *x, const void *task)
{
    const char *p = (const char *)task + x->offset;
    switch (x->base) {
    case MDL_T_CHAR: return *(const char *)p;
    case MDL_T_SCHAR: return *(const signed char *)p;
    case MDL_T_UCHAR: return *(const unsigned char *)p;
    case MDL_T_SHORT: return *(const short *)p;
    case MDL_T_USHORT: return *(const unsigned short *)p;
    case MDL_T_INT: return *(const int *)p;
    case MDL_T_UINT: return *(const unsigned *)p;
    case MDL_T_LONG: return *(const long *)p;
    case MDL_T_ULONG: return (long long)*(const unsigned long *)p;
    case MDL_T_LLONG: return *(const long long *)p;
    case MDL_T_ULLONG: return (long long)*(const unsigned long long *)p;
    }
    return 0;
}

int rt_sized_check(mdl_rt *rt, const char *fn, int v, const void *task)
{
    const mdl_rt_common *c = rt_c(rt);
    const mdl_rtvar_desc *r = &c->d->rtvars[v];
    if (!c->sizes->var[v].mem)
        return rt_fail(rt, fn, MDL_ERR_STATE,
                       "'%s' has no storage yet: set its sizes, then call MDL_Allocate", r->var);
    for (int k = 0; k < r->ndeps; k++) {
        const mdl_extvar_desc *x = &c->d->extvars[r->deps[k]];
        long long now = rt_extvar_value(x, task), was = c->sizes->recorded[r->deps[k]];
        if (now != was)
            return rt_fail(rt, fn, MDL_ERR_STATE,
                           "'%s' was allocated with %s = %lld, but %s is now %lld: call "
                           "MDL_Allocate after changing a size",
                           r->var, x->var, was, x->var, now);
    }
    return 0;
}

int rt_sized_check_msg(mdl_rt *rt, const mdl_msg_desc *m, const void *task)
{
    for (int i = 0; i < m->nitems; i++)
        if (m->items[i].rtvar >= 0) {
            int rc = rt_sized_check(rt, m->fn, m->items[i].rtvar, task);
            if (rc)
                return rc;
        }
    return 0;
}
