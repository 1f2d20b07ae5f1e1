/* shm_spans.c — the layout of each message, cached for the bounds and
 * pointer values it was last computed and validated for (shm_internal.h). */
#include "shm_internal.h"

#include <stdlib.h>

shm_spans_cache *shm_spans_caches_new(const mdl_task_desc *d)
{
    shm_spans_cache *caches = calloc((size_t)d->nmsgs + 1, sizeof *caches);
    for (int i = 0; caches && i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        shm_spans_cache *c = &caches[i];
        c->nbounds = m->fixed_bounds ? 0 : 2 * m->npairs;
        for (int k = 0; k < m->nitems; k++)
            c->nptr += m->items[k].is_pointer;
        c->key = calloc((size_t)(c->nbounds + c->nptr) + 1, sizeof *c->key);
        c->spans = calloc((size_t)m->nitems + 1, sizeof *c->spans);
        if (!c->key || !c->spans) {
            shm_spans_caches_free(d, caches);
            return NULL;
        }
    }
    return caches;
}

void shm_spans_caches_free(const mdl_task_desc *d, shm_spans_cache *caches)
{
    for (int i = 0; caches && i < d->nmsgs; i++) {
        free(caches[i].key);
        free(caches[i].spans);
    }
    free(caches);
}

int shm_spans_compute(mdl_rt *rt, shm_spans_cache *c, const mdl_msg_desc *m, void *task,
                     const long *bounds)
{
    char why[256];
    c->task = NULL;
    int rc = mdl_msg_spans(m, task, bounds, c->spans, &c->total, why, sizeof why);
    if (rc < 0)
        return rt_fail(rt, m->fn, rc, "%s", why);
    mdl_msg_key_put(m, task, bounds, c->nbounds, c->key);
    c->task = task;
    return 0;
}
