/* validate.c — `mdltrace --check FILE`: does the file keep the format of
 * docs/tracing.md?  For whoever writes traces (the runtimes) and their
 * tests; users get the same problems as warnings, without the details. */
#include <stdlib.h>
#include <string.h>

#include "validate.h"

/* The spelling of the format (tracefile/rt_trace_format.h), quoted as the
 * warnings quote it. */
#define KEY(k) RT_TF_KEY_##k
#define QUOTED(s) "\"" s "\""

static int is(const mt_trace *t, int id, const char *s)
{
    return id >= 0 && strcmp(mt_s(t, id), s) == 0;
}

static int span_cmp(const void *a, const void *b)
{
    const mt_span *x = a, *y = b;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* The complete event of a track that strictly contains ts, or NULL. */
static const mt_span *enclosing(const mt_track *tr, int64_t ts)
{
    size_t lo = 0, hi = tr->nspans;
    while (lo < hi) {                   /* first span starting at or after ts */
        size_t mid = lo + (hi - lo) / 2;
        if (tr->spans[mid].ts < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const mt_span *s = &tr->spans[lo - 1];
    return ts < s->ts + s->dur ? s : NULL;
}

static const char *track_name(const mt_trace *t, const mt_track *tr)
{
    return mt_s(t, tr->name);
}

static void check_job(mt_trace *t)
{
    if (!t->has_other) {
        mt_trace_warn(t, 0, 0, "no " QUOTED(KEY(OTHER_DATA)) " object: the job description is "
                      "missing");
        return;
    }
    if (!is(t, t->format, RT_TF_FORMAT))
        mt_trace_warn(t, 0, 0, KEY(OTHER_DATA) "." KEY(FORMAT) " is %s%s%s, not "
                      QUOTED(RT_TF_FORMAT),
                      t->format >= 0 ? "\"" : "", t->format >= 0 ? mt_s(t, t->format) : "missing",
                      t->format >= 0 ? "\"" : "");
    if (t->version != RT_TF_VERSION)
        mt_trace_warn(t, 0, 0, KEY(OTHER_DATA) "." KEY(VERSION) " is %lld; this mdltrace reads "
                      "version " RT_TF_TEXT(RT_TF_VERSION), t->version);
    if (t->spec < 0 || t->runtime < 0 || t->spec_hash < 0)
        mt_trace_warn(t, 0, 0, KEY(OTHER_DATA) " lacks %s", t->spec < 0 ? QUOTED(KEY(SPEC))
                      : t->runtime < 0 ? QUOTED(KEY(RUNTIME)) : QUOTED(KEY(SPEC_HASH)));
    if (!is(t, t->end, RT_TF_END_NORMAL) && !is(t, t->end, RT_TF_END_ERROR))
        mt_trace_warn(t, 0, 0, KEY(OTHER_DATA) "." KEY(END) " must be " QUOTED(RT_TF_END_NORMAL)
                      " or " QUOTED(RT_TF_END_ERROR));
    if (is(t, t->end, RT_TF_END_ERROR) && (t->error < 0 || !*mt_s(t, t->error)))
        mt_trace_warn(t, 0, 0, "the job ended by an error but " KEY(OTHER_DATA) "." KEY(ERROR)
                      " is empty");
    if (t->ninfos == 0)
        mt_trace_warn(t, 0, 0, KEY(OTHER_DATA) "." KEY(INSTANCES) " is missing or empty");
}

static void check_instances(mt_trace *t)
{
    for (size_t i = 0; i < t->ninsts; i++) {
        const mt_inst *in = &t->insts[i];
        const char *name = mt_s(t, in->name);
        if (in->track < 0) {
            mt_trace_warn(t, 0, 0, "'%s' is named (as a peer or in " KEY(OTHER_DATA) ") but has "
                          "no " RT_TF_META_THREAD " metadata event", name);
            continue;
        }
        const mt_track *tr = &t->tracks[in->track];
        if (!tr->named) {
            mt_trace_warn(t, 0, 0, "events on pid %lld tid %lld but no " RT_TF_META_THREAD
                          " for it",
                          (long long)tr->pid, (long long)tr->tid);
            continue;
        }
        if (in->index < 0)
            mt_trace_warn(t, 0, 0, "track '%s' is not named task[index]", name);
        int proc = -1;
        for (size_t p = 0; p < t->nprocs; p++)
            if (t->procs[p].pid == tr->pid)
                proc = t->procs[p].name;
        if (proc < 0)
            mt_trace_warn(t, 0, 0, "pid %lld ('%s') has no " RT_TF_META_PROCESS
                          " metadata event",
                          (long long)tr->pid, name);
        else if (proc != in->task)
            mt_trace_warn(t, 0, 0, "'%s' is in process '%s', not in its task's", name,
                          mt_s(t, proc));
        if (in->info < 0) {
            mt_trace_warn(t, 0, 0, "'%s' has no entry in " KEY(OTHER_DATA) "." KEY(INSTANCES),
                          name);
            continue;
        }
        const mt_info *info = &t->infos[in->info];
        if (!info->has_pid || !info->has_tid || info->pid != tr->pid || info->tid != tr->tid)
            mt_trace_warn(t, 0, 0, KEY(OTHER_DATA) " gives '%s' another pid/tid than its track "
                          "(pid %lld tid %lld)", name, (long long)tr->pid, (long long)tr->tid);
        if (!info->has_events || !info->has_dropped)
            mt_trace_warn(t, 0, 0, KEY(OTHER_DATA) " entry of '%s' lacks \"%s\"", name,
                          info->has_events ? KEY(DROPPED) : KEY(EVENTS));
        else if (info->events != tr->nx)
            mt_trace_warn(t, 0, 0, KEY(OTHER_DATA) " says '%s' recorded %lld events; the file has "
                          "%lld complete events on its track", name, info->events, tr->nx);
        if (info->dropped < 0)
            mt_trace_warn(t, 0, 0, "'%s' dropped a negative number of events", name);
        if (!is(t, info->end, RT_TF_END_NORMAL) && !is(t, info->end, RT_TF_END_ERROR) &&
            !is(t, info->end, RT_TF_END_LOST))
            mt_trace_warn(t, 0, 0, KEY(OTHER_DATA) " " KEY(END) " of '%s' is not "
                          QUOTED(RT_TF_END_NORMAL) ", " QUOTED(RT_TF_END_ERROR) " or "
                          QUOTED(RT_TF_END_LOST), name);
    }
}

static void check_calls(mt_trace *t)
{
    for (size_t i = 0; i < t->ntracks; i++) {
        mt_track *tr = &t->tracks[i];
        if (tr->nspans > 1)
            qsort(tr->spans, tr->nspans, sizeof *tr->spans, span_cmp);
        for (size_t k = 1; k < tr->nspans; k++)
            if (tr->spans[k].ts < tr->spans[k - 1].ts + tr->spans[k - 1].dur) {
                mt_trace_warn(t, 0, 0, "calls overlap on '%s' at ts %.3f: an instance's MDL "
                              "calls follow one another", track_name(t, tr),
                              (double)tr->spans[k].ts / 1e3);
                break;
            }
    }
    for (size_t e = 0; e < t->nedges; e++) {
        int peer = mt_inst_by_name(t, mt_s(t, t->edges[e].peer));
        if (peer < 0 || t->insts[peer].track < 0)
            mt_trace_warn(t, 0, 0, "'%s' sends to '%s', which has no track",
                          track_name(t, &t->tracks[t->edges[e].track]),
                          mt_s(t, t->edges[e].peer));
    }
}

static int flow_cmp(const void *a, const void *b)
{
    const mt_flow *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void check_flows(mt_trace *t)
{
    if (t->nflows > 1)
        qsort(t->flows, t->nflows, sizeof *t->flows, flow_cmp);
    for (size_t i = 0; i < t->nflows;) {
        size_t k = i;
        while (k < t->nflows && t->flows[k].id == t->flows[i].id)
            k++;
        const mt_flow *s = NULL, *f = NULL;
        for (size_t x = i; x < k; x++) {
            const mt_flow *fl = &t->flows[x];
            if (fl->ph == MT_PH_FLOW_START)
                s = fl;
            else
                f = fl;
            const mt_track *tr = &t->tracks[fl->track];
            const mt_span *sp = enclosing(tr, fl->ts);
            if (!sp)
                mt_trace_warn(t, 0, 0, "flow '%c' id %llx on '%s' at ts %.3f is inside no "
                              "complete event of its track", fl->ph,
                              (unsigned long long)fl->id, track_name(t, tr), (double)fl->ts / 1e3);
            else if (fl->ph == MT_PH_FLOW_START ? sp->cat != MT_CAT_SEND
                                   : sp->cat != MT_CAT_RECV && sp->cat != MT_CAT_WAIT)
                mt_trace_warn(t, 0, 0, "flow '%c' id %llx on '%s' is inside a call of cat %s",
                              fl->ph, (unsigned long long)fl->id, track_name(t, tr),
                              mt_cat_name((mt_cat)sp->cat));
            if (fl->ph == MT_PH_FLOW_END && !fl->bp_e)
                mt_trace_warn(t, 0, 0, "flow '" RT_TF_PH_FLOW_END "' id %llx lacks "
                              QUOTED(KEY(BP)) ":" QUOTED(RT_TF_BP_ENCLOSING) " (it would bind to "
                              "the next call instead of the receive)",
                              (unsigned long long)fl->id);
        }
        if (k - i > 2 || (k - i == 2 && (!s || !f)))
            mt_trace_warn(t, 0, 0, "flow id %llx is used by %zu events (one '" RT_TF_PH_FLOW_START
                          "' and one '" RT_TF_PH_FLOW_END "' "
                          "expected)", (unsigned long long)t->flows[i].id, k - i);
        else if (s && f && (s->name != f->name || s->cat != f->cat))
            mt_trace_warn(t, 0, 0, "flow id %llx: '" RT_TF_PH_FLOW_START "' and '" RT_TF_PH_FLOW_END
                          "' differ in name or cat, so "
                          "viewers do not join them", (unsigned long long)s->id);
        i = k;
    }
    int complete = is(t, t->end, RT_TF_END_NORMAL) && t->dropped_total == 0 && !t->any_lost;
    if (complete && t->flows_unreceived)
        mt_trace_warn(t, 0, 0, "%lld messages sent but never received in a job that ended "
                      "normally", t->flows_unreceived);
    if (complete && t->flows_unsent)
        mt_trace_warn(t, 0, 0, "%lld messages received with no send recorded",
                      t->flows_unsent);
}

long long mt_validate(mt_trace *t)
{
    long long before = t->nwarnings;
    check_job(t);
    check_instances(t);
    check_calls(t);
    check_flows(t);
    return t->nwarnings - before;
}
