/* rt_state.c — the state of the runtime in this process: whether one is
 * live (rt_live), who it was once MDL_End has run (for the errors of the
 * calls after it), and the part of each instance's state both runtimes
 * keep (mdl_rt_common), which be_init sets up through rt_common_start and
 * rt_common_identified; and the call sites the runtime planned, whose
 * plans end with it. */
#include "rt_layer.h"
#include "rt_layout.h"
#include "rt_sizes.h"
#include "trace/rt_trace.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- live */

static char no_runtime;
mdl_rt *rt_live = (mdl_rt *)(void *)&no_runtime;
unsigned long rt_generation = 1;       /* a fresh site's 0 names none */
static int ended;                               /* MDL_End has run here */
static mdl_who ended_who = { "?", -1 };         /* who this process was */

int rt_active(void)
{
    return rt_live != (mdl_rt *)(void *)&no_runtime;
}

void rt_live_set(mdl_rt *rt)
{
    rt_live = rt ? rt : (mdl_rt *)(void *)&no_runtime;
    rt_generation++;
    rt_sites_forget();
}

void rt_ended_set(mdl_rt *rt)
{
    ended = 1;
    ended_who = rt_c(rt)->who;
}

const mdl_who *rt_ended_who(void)
{
    return ended ? &ended_who : NULL;
}

int rt_dead(const char *fn)
{
    if (rt_active())
        return rt_fail(rt_live, fn, MDL_ERR_STATE, "not the runtime handle of this process");
    if (ended)
        return rt_fail_who(ended_who, fn, MDL_ERR_STATE, "called after MDL_End");
    return rt_fail_who((mdl_who){ "?", -1 }, fn, MDL_ERR_STATE, "called before MDL_Init");
}

/* ---------------------------------------------------------------- planned sites */

/* Sites planned since MDL_Init, linked through next_planned (the last
 * points at planned_end, so that a site not listed has NULL there):
 * their plans are cleared when the runtime ends (rt_sites_forget). */
static mdl_site planned_end;
static mdl_site *planned = &planned_end;

/* The plan is the transport's; its key (the task struct the site noted,
 * the bounds) the layer's, set before the transport may plan. */
void rt_site_plan(mdl_site *site, int (*plan_call)(mdl_site *site, int inst), int inst)
{
    site->plan_call = plan_call;
    site->plan_inst = inst;
    site->plan_task = site->task;
    if (!site->next_planned) {
        site->next_planned = planned;
        planned = site;
    }
}

void rt_sites_forget(void)
{
    while (planned != &planned_end) {
        mdl_site *site = planned;
        planned = site->next_planned;
        site->next_planned = NULL;
        site->plan_task = NULL;
    }
}

/* ---------------------------------------------------------------- common state */

int rt_common_start(mdl_rt *rt, const mdl_task_desc *d)
{
    mdl_rt_common *c = rt_c(rt);
    c->d = d;
    c->who = (mdl_who){ d->tasks[d->self], -1 };
    c->inst = -1;
    c->fam_size = calloc((size_t)d->ntasks, sizeof(int));
    return c->fam_size ? 0 : rt_fail_oom(rt, MDL_FN_NAME(INIT));
}

int rt_common_identified(mdl_rt *rt, int inst)
{
    mdl_rt_common *c = rt_c(rt);
    const mdl_task_desc *d = c->d;
    c->inst = inst;
    c->who.inst = inst;
    c->maxfam = 1;
    for (int t = 0; t < d->ntasks; t++)
        if (c->fam_size[t] > c->maxfam)
            c->maxfam = c->fam_size[t];
    if (d->single && c->fam_size[d->self] > 1)
        return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_LAUNCH,
                       "task %s is declared without (i) in %s: it runs as one instance, "
                       "but %d were launched", c->who.task, d->spec, c->fam_size[d->self]);
    c->seen = calloc((size_t)c->maxfam, sizeof(int));
    c->list = malloc(((size_t)c->maxfam + 1) * sizeof(int));
    c->nb = malloc(((size_t)d->nmsgs + 1) * sizeof(int));
    /* fam_size is fixed from here to MDL_End: the layouts' peers and their
     * notes' ranks (rt_again) are copied from it and follow it */
    c->layouts = rt_layouts_new(rt, d);
    int oom;
    c->sizes = rt_sizes_new(d, &oom);
    return c->seen && c->list && c->nb && c->layouts && !oom ? 0
                                                             : rt_fail_oom(rt, MDL_FN_NAME(INIT));
}

void rt_common_free(mdl_rt *rt)
{
    mdl_rt_common *c = rt_c(rt);
    rt_trace_detach(rt);
    free(c->fam_size);
    free(c->seen);
    free(c->list);
    free(c->nb);
    rt_layouts_free(c->d, c->layouts);
    rt_sizes_free(rt, c->sizes);
    c->fam_size = c->seen = c->list = c->nb = NULL;
    c->layouts = NULL;
    c->sizes = NULL;
}
