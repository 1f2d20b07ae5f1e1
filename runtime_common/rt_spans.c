/* rt_spans.c — the layout of each message, cached for the bounds and
 * pointer values it was last computed and validated for (rt_backend.h). */
#include "rt_layer.h"

#include <stdint.h>
#include <stdlib.h>

rt_spans_cache *rt_spans_caches_new(const mdl_task_desc *d)
{
    rt_spans_cache *caches = calloc((size_t)d->nmsgs + 1, sizeof *caches);
    for (int i = 0; caches && i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        rt_spans_cache *c = &caches[i];
        c->nbounds = m->fixed_bounds ? 0 : 2 * m->npairs;
        for (int k = 0; k < m->nitems; k++)
            c->nptr += m->items[k].is_pointer;
        c->key = calloc((size_t)(c->nbounds + c->nptr) + 1, sizeof *c->key);
        c->spans = calloc((size_t)m->nitems + 1, sizeof *c->spans);
        if (!c->key || !c->spans) {
            rt_spans_caches_free(d, caches);
            return NULL;
        }
    }
    return caches;
}

void rt_spans_caches_free(const mdl_task_desc *d, rt_spans_cache *caches)
{
    for (int i = 0; caches && i < d->nmsgs; i++) {
        free(caches[i].key);
        free(caches[i].spans);
    }
    free(caches);
}

int rt_spans_compute(mdl_rt *rt, rt_spans_cache *c, const mdl_msg_desc *m, void *task,
                     const long *bounds)
{
    char why[256];
    c->task = NULL;
    int rc = mdl_msg_spans(m, task, bounds, c->spans, &c->total, why, sizeof why);
    if (rc < 0)
        return rt_fail(rt, m->fn, rc, "%s", why);
    for (int i = 0; i < c->nbounds; i++)
        c->key[i] = bounds[i];
    long *ptr = c->key + c->nbounds;
    for (int i = 0; i < m->nitems; i++)
        if (m->items[i].is_pointer)
            *ptr++ = (long)(intptr_t) * (void **)((char *)task + m->items[i].offset);
    c->task = task;
    return 0;
}
