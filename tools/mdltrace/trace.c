/* trace.c — reading a trace file into aggregates (trace.h).
 *
 * One pass over the file; per event, a few hash lookups.  The order of
 * events in the file does not matter: tracks are resolved to instance
 * names only at the end (mt_trace_finish). */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"
#include "json.h"
#include "trace.h"

/* The spelling of the format (tracefile/rt_trace_format.h): a key, a key
 * within an object ("args.bytes"), quoted as the warnings quote them. */
#define KEY(k) RT_TF_KEY_##k
#define IN(object, k) RT_TF_KEY_##object "." RT_TF_KEY_##k
#define QUOTED(s) "\"" s "\""

/* Warnings printed: the first few in normal use, more under --check. */
enum { WARN_SHOWN = 5, WARN_SHOWN_CHECK = 200 };

static const char *const cat_names[] = {
#define MT_X(id, name) [MT_CAT_##id] = name,
    RT_TF_CATS(MT_X)
#undef MT_X
    [MT_CAT_OTHER] = "other",
};
/* ", send, recv, wait, coll, sync": the categories, after two characters */
static const char cat_list[] =
#define MT_X(id, name) ", " name
    RT_TF_CATS(MT_X)
#undef MT_X
    ;

const char *mt_cat_name(mt_cat c)
{
    return cat_names[c];
}

static mt_cat cat_of(const char *s)
{
    for (int c = 0; c < MT_CAT_OTHER; c++)
        if (s && strcmp(s, cat_names[c]) == 0)
            return (mt_cat)c;
    return MT_CAT_OTHER;
}

void mt_trace_warn(mt_trace *t, unsigned long long line, unsigned long long col,
                   const char *fmt, ...)
{
    t->nwarnings++;
    if (t->nwarnings > (t->check ? WARN_SHOWN_CHECK : WARN_SHOWN))
        return;
    va_list ap;
    va_start(ap, fmt);
    if (line)
        fprintf(stderr, "%s:%llu:%llu: warning: ", t->path, line, col);
    else
        fprintf(stderr, "%s: warning: ", t->path);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int64_t mt_ns(double us)
{
    return llround(us * 1000.0);
}

/* ---------------------------------------------------------------- one event */

typedef struct event {
    unsigned long long line, col;   /* of its '{' */
    char ph;
    int name, cat;
    int64_t pid, tid;
    int has_pid, has_tid;
    double ts, dur;
    int has_ts, has_dur;
    uint64_t id;
    int has_id, bp_e;
    /* args */
    int a_name, a_msg, a_root, a_error;
    long long bytes, msgs;
    int has_bytes, has_msgs;
    double wait, copy;
    int has_wait, has_copy;
    int has_peer;
    int *peers;
    size_t npeers, cappeers;
    const char *bad;            /* the first problem that makes it unusable */
    char badbuf[160];
} event;

static void bad(event *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(event *e, const char *fmt, ...)
{
    if (e->bad)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->badbuf, sizeof e->badbuf, fmt, ap);
    va_end(ap);
    e->bad = e->badbuf;
}

/* Typed reads that do not stop the file: a value of another type is
 * skipped and 0 returned, and the caller says what it means (the event
 * is unusable, or a warning). */
static int take_int(mt_json *j, long long *out)
{
    if (j->tok == MT_J_NUMBER && j->num_is_int) {
        *out = j->inum;
        mt_json_next(j);
        return 1;
    }
    mt_json_skip(j);
    return 0;
}

static int take_num(mt_json *j, double *out)
{
    if (j->tok == MT_J_NUMBER) {
        *out = j->num;
        mt_json_next(j);
        return 1;
    }
    mt_json_skip(j);
    return 0;
}

static int take_str(mt_trace *t, mt_json *j, int *out)
{
    if (j->tok == MT_J_STRING) {
        *out = mt_intern(&t->str, j->str);
        mt_json_next(j);
        return 1;
    }
    mt_json_skip(j);
    return 0;
}

static int get_int(mt_json *j, event *e, long long *out, const char *what)
{
    if (take_int(j, out))
        return 1;
    bad(e, "\"%s\" is not an integer", what);
    return 0;
}

static int get_num(mt_json *j, event *e, double *out, const char *what)
{
    if (take_num(j, out))
        return 1;
    bad(e, "\"%s\" is not a number", what);
    return 0;
}

static int get_str(mt_trace *t, mt_json *j, event *e, int *out, const char *what)
{
    if (take_str(t, j, out))
        return 1;
    bad(e, "\"%s\" is not a string", what);
    return 0;
}

/* A flow id: a number, or a string read as hexadecimal as Perfetto does
 * (any other string is hashed, so equal strings still match). */
static int get_id(mt_json *j, event *e, uint64_t *out)
{
    if (j->tok == MT_J_NUMBER && j->num_is_int) {
        *out = (uint64_t)j->inum;
    } else if (j->tok == MT_J_STRING) {
        const char *s = j->str;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
            s += 2;
        char *end;
        errno = 0;
        unsigned long long v = *s ? strtoull(s, &end, 16) : 0;
        *out = *s && !*end && !errno && *s != '-' && *s != '+' ? v : mdl_fnv1a_str(j->str);
    } else {
        bad(e, QUOTED(KEY(ID)) " is neither a number nor a string");
        mt_json_skip(j);
        return 0;
    }
    mt_json_next(j);
    return 1;
}

static void add_peer(event *e, int id)
{
    MT_VEC_RESERVE(e->peers, e->cappeers, e->npeers + 1);
    e->peers[e->npeers++] = id;
}

static int read_args(mt_trace *t, mt_json *j, event *e)
{
    int first = 1, r;
    while ((r = mt_json_member(j, &first)) == 1) {
        const char *k = j->key;
        if (strcmp(k, KEY(NAME)) == 0)
            get_str(t, j, e, &e->a_name, IN(ARGS, NAME));
        else if (strcmp(k, KEY(MSG)) == 0)
            get_str(t, j, e, &e->a_msg, IN(ARGS, MSG));
        else if (strcmp(k, KEY(ROOT)) == 0)
            get_str(t, j, e, &e->a_root, IN(ARGS, ROOT));
        else if (strcmp(k, KEY(ERROR)) == 0)
            get_str(t, j, e, &e->a_error, IN(ARGS, ERROR));
        else if (strcmp(k, KEY(BYTES)) == 0) {
            e->has_bytes = get_int(j, e, &e->bytes, IN(ARGS, BYTES));
            if (e->has_bytes && e->bytes < 0)
                bad(e, QUOTED(IN(ARGS, BYTES)) " is negative");
        } else if (strcmp(k, KEY(MSGS)) == 0) {
            e->has_msgs = get_int(j, e, &e->msgs, IN(ARGS, MSGS));
            if (e->has_msgs && e->msgs < 0)
                bad(e, QUOTED(IN(ARGS, MSGS)) " is negative");
        } else if (strcmp(k, KEY(WAIT_US)) == 0)
            e->has_wait = get_num(j, e, &e->wait, IN(ARGS, WAIT_US));
        else if (strcmp(k, KEY(COPY_US)) == 0)
            e->has_copy = get_num(j, e, &e->copy, IN(ARGS, COPY_US));
        else if (strcmp(k, KEY(PEER)) == 0) {
            e->npeers = 0;
            e->has_peer = 1;
            if (j->tok == MT_J_STRING) {
                add_peer(e, mt_intern(&t->str, j->str));
                mt_json_next(j);
            } else if (j->tok == MT_J_LBRACKET) {
                int f2 = 1, r2;
                while ((r2 = mt_json_element(j, &f2)) == 1) {
                    if (j->tok == MT_J_STRING) {
                        add_peer(e, mt_intern(&t->str, j->str));
                        mt_json_next(j);
                    } else {
                        bad(e, QUOTED(IN(ARGS, PEER)) " holds something else than instance names");
                        mt_json_skip(j);
                    }
                }
                if (r2 < 0)
                    return -1;
            } else {
                bad(e, QUOTED(IN(ARGS, PEER)) " is neither an instance name nor a list of them");
                mt_json_skip(j);
            }
        } else
            mt_json_skip(j);
        if (j->failed)
            return -1;
    }
    return r;
}

static int read_event(mt_trace *t, mt_json *j, event *e)
{
    int *peers = e->peers;
    size_t cappeers = e->cappeers;
    memset(e, 0, sizeof *e);
    e->peers = peers;
    e->cappeers = cappeers;
    e->name = e->cat = e->a_name = e->a_msg = e->a_root = e->a_error = -1;
    e->line = j->tok_line;
    e->col = j->tok_col;
    if (j->tok != MT_J_LBRACE) {
        bad(e, "an element of " KEY(TRACE_EVENTS) " is not an object");
        return mt_json_skip(j);
    }
    int first = 1, r;
    while ((r = mt_json_member(j, &first)) == 1) {
        const char *k = j->key;
        long long v;
        if (strcmp(k, KEY(PH)) == 0) {
            if (j->tok == MT_J_STRING && j->str[0] && !j->str[1]) {
                e->ph = j->str[0];
                mt_json_next(j);
            } else {
                bad(e, QUOTED(KEY(PH)) " is not a one-letter string");
                mt_json_skip(j);
            }
        } else if (strcmp(k, KEY(NAME)) == 0)
            get_str(t, j, e, &e->name, KEY(NAME));
        else if (strcmp(k, KEY(CAT)) == 0)
            get_str(t, j, e, &e->cat, KEY(CAT));
        else if (strcmp(k, KEY(PID)) == 0) {
            if ((e->has_pid = get_int(j, e, &v, KEY(PID))))
                e->pid = v;
        } else if (strcmp(k, KEY(TID)) == 0) {
            if ((e->has_tid = get_int(j, e, &v, KEY(TID))))
                e->tid = v;
        } else if (strcmp(k, KEY(TS)) == 0)
            e->has_ts = get_num(j, e, &e->ts, KEY(TS));
        else if (strcmp(k, KEY(DUR)) == 0)
            e->has_dur = get_num(j, e, &e->dur, KEY(DUR));
        else if (strcmp(k, KEY(ID)) == 0)
            e->has_id = get_id(j, e, &e->id);
        else if (strcmp(k, KEY(BP)) == 0) {
            if (j->tok == MT_J_STRING && strcmp(j->str, RT_TF_BP_ENCLOSING) == 0)
                e->bp_e = 1;
            mt_json_skip(j);
        } else if (strcmp(k, KEY(ARGS)) == 0) {
            if (j->tok == MT_J_LBRACE) {
                if (read_args(t, j, e) < 0)
                    return -1;
            } else {
                bad(e, QUOTED(KEY(ARGS)) " is not an object");
                mt_json_skip(j);
            }
        } else
            mt_json_skip(j);
        if (j->failed)
            return -1;
    }
    return r < 0 ? -1 : 0;
}

/* ---------------------------------------------------------------- aggregation */

void mt_stats_add(mt_stats *dst, const mt_stats *src, int volume)
{
    dst->calls = mt_add(dst->calls, src->calls);
    if (volume) {
        dst->msgs = mt_add(dst->msgs, src->msgs);
        dst->bytes = mt_add(dst->bytes, src->bytes);
    }
    dst->dur += src->dur;
    dst->wait += src->wait;
    dst->copy += src->copy;
    dst->nwait = mt_add(dst->nwait, src->nwait);
    dst->ncopy = mt_add(dst->ncopy, src->ncopy);
    dst->errors = mt_add(dst->errors, src->errors);
}

static int track_of(mt_trace *t, int64_t pid, int64_t tid)
{
    mt_key k = mt_key4(pid, tid, 0, 0);
    int added;
    uint32_t i = mt_map_put(&t->track_map, &k, (uint32_t)t->ntracks, &added);
    if (added) {
        MT_VEC_RESERVE(t->tracks, t->captracks, t->ntracks + 1);
        mt_track *tr = &t->tracks[t->ntracks++];
        memset(tr, 0, sizeof *tr);
        tr->pid = pid;
        tr->tid = tid;
        tr->name = -1;
        tr->inst = -1;
    }
    return (int)i;
}

/* key[0] is the track, or -1 - instance name for otherData totals. */
static mt_agg *agg_of(mt_trace *t, int64_t owner, int fn, int msg, mt_cat cat)
{
    mt_key k = mt_key4(owner, fn, msg, 0);
    int added;
    uint32_t i = mt_map_put(&t->agg_map, &k, (uint32_t)t->naggs, &added);
    if (added) {
        MT_VEC_RESERVE(t->aggs, t->capaggs, t->naggs + 1);
        mt_agg *a = &t->aggs[t->naggs++];
        memset(a, 0, sizeof *a);
        a->track = owner >= 0 ? (int)owner : -1;
        a->inst_name = owner >= 0 ? -1 : (int)(-1 - owner);
        a->fn = fn;
        a->msg = msg;
        a->cat = cat;
    }
    return &t->aggs[i];
}

static void count_size(mt_trace *t, uint32_t agg, long long bytes)
{
    mt_key k = mt_key4(agg, bytes, 0, 0);
    int added;
    uint32_t i = mt_map_put(&t->size_map, &k, (uint32_t)t->nsizes, &added);
    if (added) {
        MT_VEC_RESERVE(t->sizes, t->capsizes, t->nsizes + 1);
        t->sizes[t->nsizes++] = (mt_size){ agg, bytes, 0 };
    }
    t->sizes[i].calls++;
}

static void add_edge(mt_trace *t, int track, int peer, long long bytes)
{
    mt_key k = mt_key4(track, peer, 0, 0);
    int added;
    uint32_t i = mt_map_put(&t->edge_map, &k, (uint32_t)t->nedges, &added);
    if (added) {
        MT_VEC_RESERVE(t->edges, t->capedges, t->nedges + 1);
        t->edges[t->nedges++] = (mt_edge){ track, peer, 0, 0 };
    }
    t->edges[i].bytes = mt_add(t->edges[i].bytes, bytes);
    t->edges[i].msgs++;
}

static int is_call_cat(mt_cat c)
{
    return c == MT_CAT_SEND || c == MT_CAT_RECV || c == MT_CAT_COLL;
}

/* A failed call's text, kept once (a job whose calls fail in a loop
 * repeats a few texts: the search stays short; beyond a thousand distinct
 * ones, the report has long stopped listing them). */
static void note_call_error(mt_trace *t, int text)
{
    if (t->ncall_errors >= 1000)
        return;
    for (size_t i = 0; i < t->ncall_errors; i++)
        if (t->call_errors[i] == text)
            return;
    MT_VEC_RESERVE(t->call_errors, t->capcall_errors, t->ncall_errors + 1);
    t->call_errors[t->ncall_errors++] = text;
}

static void complete_event(mt_trace *t, event *e)
{
    if (!e->has_pid || !e->has_tid || !e->has_ts || !e->has_dur || e->name < 0) {
        mt_trace_warn(t, e->line, e->col,
                      "complete event without %s: ignored",
                      !e->has_pid ? QUOTED(KEY(PID)) : !e->has_tid ? QUOTED(KEY(TID))
                      : !e->has_ts ? QUOTED(KEY(TS)) : !e->has_dur ? QUOTED(KEY(DUR))
                      : QUOTED(KEY(NAME)));
        t->nunusable++;
        return;
    }
    if (e->dur < 0) {
        mt_trace_warn(t, e->line, e->col,
                      "complete event '%s' with a negative " QUOTED(KEY(DUR)) ": ignored",
                      mt_s(t, e->name));
        t->nunusable++;
        return;
    }
    mt_cat cat = cat_of(mt_s(t, e->cat));
    if (t->check) {
        if (cat == MT_CAT_OTHER)
            mt_trace_warn(t, e->line, e->col, "complete event '%s' has " KEY(CAT)
                          " %s%s%s, not one of %s", mt_s(t, e->name),
                          e->cat >= 0 ? "\"" : "", e->cat >= 0 ? mt_s(t, e->cat) : "(none)",
                          e->cat >= 0 ? "\"" : "", cat_list + 2);
        else if (is_call_cat(cat) && !e->has_bytes)
            mt_trace_warn(t, e->line, e->col,
                          "'%s' (" KEY(CAT) " %s) has no " QUOTED(IN(ARGS, BYTES)),
                          mt_s(t, e->name), mt_cat_name(cat));
        if ((e->has_wait ? e->wait : 0) + (e->has_copy ? e->copy : 0) > e->dur + 0.0015)
            mt_trace_warn(t, e->line, e->col,
                          "'%s': " KEY(WAIT_US) " + " KEY(COPY_US) " exceed " KEY(DUR),
                          mt_s(t, e->name));
        if (strncmp(mt_s(t, e->name), "MDL_", 4) != 0)
            mt_trace_warn(t, e->line, e->col, "complete event '%s' is not named after an MDL_ "
                          "function", mt_s(t, e->name));
    }
    int tr = track_of(t, e->pid, e->tid);
    mt_track *track = &t->tracks[tr];
    track->nx++;
    t->nx++;
    if (t->check) {
        MT_VEC_RESERVE(track->spans, track->capspans, track->nspans + 1);
        track->spans[track->nspans++] = (mt_span){ mt_ns(e->ts), mt_ns(e->dur), cat };
    }

    long long msgs = 0;
    if (e->has_msgs)
        msgs = e->msgs;
    else if (cat == MT_CAT_SEND)
        msgs = (long long)e->npeers;
    else if (cat == MT_CAT_RECV)
        msgs = e->has_peer ? 1 : 0;
    long long bytes = e->has_bytes ? e->bytes : 0;

    mt_agg *a = agg_of(t, tr, e->name, e->a_msg, cat);
    uint32_t ai = (uint32_t)(a - t->aggs);
    mt_stats one = {
        .calls = 1, .msgs = msgs,
        .bytes = cat == MT_CAT_COLL ? bytes : mt_mul(bytes, msgs),
        .dur = e->dur, .wait = e->has_wait ? e->wait : 0, .copy = e->has_copy ? e->copy : 0,
        .nwait = e->has_wait, .ncopy = e->has_copy, .errors = e->a_error >= 0,
    };
    mt_stats_add(&a->st, &one, 1);
    if (e->a_error >= 0)
        note_call_error(t, e->a_error);
    /* a no-op call (neighbour MDL_PROC_NULL, failed call) moved nothing:
     * its byte count says nothing about the message's size */
    if (e->has_bytes && (cat == MT_CAT_COLL || (is_call_cat(cat) && msgs > 0)))
        count_size(t, ai, e->bytes);
    if (cat == MT_CAT_SEND)
        for (size_t p = 0; p < e->npeers; p++)
            add_edge(t, tr, e->peers[p], bytes);
}

static void metadata_event(mt_trace *t, event *e)
{
    const char *n = mt_s(t, e->name);
    int is_proc = n && strcmp(n, RT_TF_META_PROCESS) == 0;
    int is_thread = n && strcmp(n, RT_TF_META_THREAD) == 0;
    if (!is_proc && !is_thread)
        return;                         /* sort indexes and the like */
    if (!e->has_pid || (is_thread && !e->has_tid) || e->a_name < 0) {
        mt_trace_warn(t, e->line, e->col, "%s metadata without %s: ignored", n,
                      !e->has_pid ? QUOTED(KEY(PID))
                      : e->a_name < 0 ? QUOTED(IN(ARGS, NAME)) : QUOTED(KEY(TID)));
        t->nunusable++;
        return;
    }
    if (is_thread) {
        int i = track_of(t, e->pid, e->tid);   /* may move t->tracks */
        mt_track *tr = &t->tracks[i];
        if (tr->name >= 0 && tr->name != e->a_name)
            mt_trace_warn(t, e->line, e->col, "thread pid %lld tid %lld renamed from '%s' to '%s'",
                          (long long)e->pid, (long long)e->tid, mt_s(t, tr->name),
                          mt_s(t, e->a_name));
        tr->name = e->a_name;
        tr->named = 1;
        return;
    }
    for (size_t i = 0; i < t->nprocs; i++)
        if (t->procs[i].pid == e->pid) {
            t->procs[i].name = e->a_name;
            return;
        }
    MT_VEC_RESERVE(t->procs, t->capprocs, t->nprocs + 1);
    t->procs[t->nprocs].pid = e->pid;
    t->procs[t->nprocs++].name = e->a_name;
}

static void flow_event(mt_trace *t, event *e)
{
    if (!e->has_pid || !e->has_tid || !e->has_ts || !e->has_id) {
        mt_trace_warn(t, e->line, e->col, "flow event without %s: ignored",
                      !e->has_pid ? QUOTED(KEY(PID)) : !e->has_tid ? QUOTED(KEY(TID))
                      : !e->has_ts ? QUOTED(KEY(TS)) : QUOTED(KEY(ID)));
        t->nunusable++;
        return;
    }
    if (e->ph == MT_PH_FLOW_START) {
        MT_VEC_RESERVE(t->sids, t->capsids, t->nsids + 1);
        t->sids[t->nsids++] = e->id;
    } else {
        MT_VEC_RESERVE(t->fids, t->capfids, t->nfids + 1);
        t->fids[t->nfids++] = e->id;
    }
    if (t->check) {
        int tr = track_of(t, e->pid, e->tid);
        MT_VEC_RESERVE(t->flows, t->capflows, t->nflows + 1);
        t->flows[t->nflows++] = (mt_flow){ e->id, tr, e->ph, (char)e->bp_e, e->name, e->cat,
                                           mt_ns(e->ts) };
    }
}

static void dispatch(mt_trace *t, event *e)
{
    if (e->bad) {
        mt_trace_warn(t, e->line, e->col, "%s: event ignored", e->bad);
        t->nunusable++;
        return;
    }
    if (e->ph == MT_PH_CALL)
        complete_event(t, e);
    else if (e->ph == MT_PH_META)
        metadata_event(t, e);
    else if (e->ph == MT_PH_FLOW_START || e->ph == MT_PH_FLOW_END)
        flow_event(t, e);
    else
        t->nignored++;                  /* other event types mean nothing here */
}

/* ---------------------------------------------------------------- otherData */

/* A member of otherData of a known type; another type is a warning. */
static int other_int(mt_trace *t, mt_json *j, long long *out, const char *what)
{
    unsigned long long line = j->tok_line, col = j->tok_col;
    if (take_int(j, out))
        return 1;
    mt_trace_warn(t, line, col, KEY(OTHER_DATA) ": \"%s\" is not an integer", what);
    return 0;
}

static int other_num(mt_trace *t, mt_json *j, double *out, const char *what)
{
    unsigned long long line = j->tok_line, col = j->tok_col;
    if (take_num(j, out))
        return 1;
    mt_trace_warn(t, line, col, KEY(OTHER_DATA) ": \"%s\" is not a number", what);
    return 0;
}

static int other_str(mt_trace *t, mt_json *j, int *out, const char *what)
{
    unsigned long long line = j->tok_line, col = j->tok_col;
    if (take_str(t, j, out))
        return 1;
    mt_trace_warn(t, line, col, KEY(OTHER_DATA) ": \"%s\" is not a string", what);
    return 0;
}

/* otherData.instances[k].totals[m]: exact call statistics of one function. */
static int read_total(mt_trace *t, mt_json *j, int inst_name)
{
    unsigned long long line = j->tok_line, col = j->tok_col;
    int fn = -1, msg = -1, catname = -1, first = 1, r;
    long long calls = 0, msgs = 0, bytes = 0;
    double dur = 0, wait = 0, copy = 0;
    int has_wait = 0, has_copy = 0;
    while ((r = mt_json_member(j, &first)) == 1) {
        const char *k = j->key;
        if (strcmp(k, KEY(NAME)) == 0)
            other_str(t, j, &fn, IN(TOTALS, NAME));
        else if (strcmp(k, KEY(MSG)) == 0)
            other_str(t, j, &msg, IN(TOTALS, MSG));
        else if (strcmp(k, KEY(CAT)) == 0)
            other_str(t, j, &catname, IN(TOTALS, CAT));
        else if (strcmp(k, KEY(CALLS)) == 0)
            other_int(t, j, &calls, IN(TOTALS, CALLS));
        else if (strcmp(k, KEY(MSGS)) == 0)
            other_int(t, j, &msgs, IN(TOTALS, MSGS));
        else if (strcmp(k, KEY(BYTES)) == 0)
            other_int(t, j, &bytes, IN(TOTALS, BYTES));
        else if (strcmp(k, KEY(DUR_US)) == 0)
            other_num(t, j, &dur, IN(TOTALS, DUR_US));
        else if (strcmp(k, KEY(WAIT_US)) == 0)
            has_wait = other_num(t, j, &wait, IN(TOTALS, WAIT_US));
        else if (strcmp(k, KEY(COPY_US)) == 0)
            has_copy = other_num(t, j, &copy, IN(TOTALS, COPY_US));
        else
            mt_json_skip(j);
    }
    if (r < 0)
        return -1;
    if (fn < 0) {
        mt_trace_warn(t, line, col, KEY(OTHER_DATA) ": a " KEY(TOTALS) " entry without "
                      QUOTED(KEY(NAME)) ": ignored");
        return 0;
    }
    mt_agg *a = agg_of(t, -1 - (int64_t)inst_name, fn, msg, cat_of(mt_s(t, catname)));
    mt_stats sum = {
        .calls = calls, .msgs = msgs, .bytes = bytes, .dur = dur,
        .wait = has_wait ? wait : 0, .copy = has_copy ? copy : 0,
        .nwait = has_wait ? calls : 0, .ncopy = has_copy ? calls : 0,
    };
    mt_stats_add(&a->st, &sum, 1);
    return 0;
}

static int read_instance(mt_trace *t, mt_json *j)
{
    unsigned long long line = j->tok_line, col = j->tok_col;
    mt_info in;
    memset(&in, 0, sizeof in);
    in.name = in.end = -1;
    if (j->tok != MT_J_LBRACE) {
        mt_trace_warn(t, line, col, KEY(OTHER_DATA) ": an element of " QUOTED(KEY(INSTANCES))
                      " is not an object");
        return mt_json_skip(j);
    }
    /* totals may come before the name: read them into a scratch owner, then
     * move them (rare; the runtime writes the name first) */
    int first = 1, r;
    int totals_pending = 0;
    long long v;
    while ((r = mt_json_member(j, &first)) == 1) {
        const char *k = j->key;
        if (strcmp(k, KEY(NAME)) == 0)
            other_str(t, j, &in.name, IN(INSTANCES, NAME));
        else if (strcmp(k, KEY(PID)) == 0) {
            if ((in.has_pid = other_int(t, j, &v, IN(INSTANCES, PID))))
                in.pid = v;
        } else if (strcmp(k, KEY(TID)) == 0) {
            if ((in.has_tid = other_int(t, j, &v, IN(INSTANCES, TID))))
                in.tid = v;
        } else if (strcmp(k, KEY(EVENTS)) == 0)
            in.has_events = other_int(t, j, &in.events, IN(INSTANCES, EVENTS));
        else if (strcmp(k, KEY(DROPPED)) == 0)
            in.has_dropped = other_int(t, j, &in.dropped, IN(INSTANCES, DROPPED));
        else if (strcmp(k, KEY(END)) == 0)
            other_str(t, j, &in.end, IN(INSTANCES, END));
        else if (strcmp(k, KEY(TOTALS)) == 0) {
            if (in.name < 0) {
                totals_pending = 1;
                mt_json_skip(j);
                continue;
            }
            in.has_totals = 1;
            int f2 = 1, r2;
            while ((r2 = mt_json_element(j, &f2)) == 1) {
                if (j->tok != MT_J_LBRACE) {
                    mt_trace_warn(t, j->tok_line, j->tok_col,
                                  KEY(OTHER_DATA) ": a " KEY(TOTALS) " entry is not an object");
                    mt_json_skip(j);
                } else if (read_total(t, j, in.name) < 0)
                    return -1;
            }
            if (r2 < 0)
                return -1;
        } else
            mt_json_skip(j);
    }
    if (r < 0)
        return -1;
    if (in.name < 0) {
        mt_trace_warn(t, line, col, KEY(OTHER_DATA) ": an instance without " QUOTED(KEY(NAME))
                      ": ignored");
        return 0;
    }
    if (totals_pending)
        mt_trace_warn(t, line, col, KEY(OTHER_DATA) ": " QUOTED(KEY(TOTALS)) " of '%s' come "
                      "before its " QUOTED(KEY(NAME)) ": "
                      "ignored", mt_s(t, in.name));
    MT_VEC_RESERVE(t->infos, t->capinfos, t->ninfos + 1);
    t->infos[t->ninfos++] = in;
    return 0;
}

static int read_other(mt_trace *t, mt_json *j)
{
    t->has_other = 1;
    int first = 1, r;
    mt_json_context(j, " in " KEY(OTHER_DATA));
    while ((r = mt_json_member(j, &first)) == 1) {
        const char *k = j->key;
        if (strcmp(k, KEY(FORMAT)) == 0)
            other_str(t, j, &t->format, KEY(FORMAT));
        else if (strcmp(k, KEY(VERSION)) == 0)
            other_int(t, j, &t->version, KEY(VERSION));
        else if (strcmp(k, KEY(SPEC)) == 0)
            other_str(t, j, &t->spec, KEY(SPEC));
        else if (strcmp(k, KEY(SPEC_HASH)) == 0)
            other_str(t, j, &t->spec_hash, KEY(SPEC_HASH));
        else if (strcmp(k, KEY(RUNTIME)) == 0)
            other_str(t, j, &t->runtime, KEY(RUNTIME));
        else if (strcmp(k, KEY(COMMAND)) == 0)
            other_str(t, j, &t->command, KEY(COMMAND));
        else if (strcmp(k, KEY(HOST_CLOCKS)) == 0)
            other_str(t, j, &t->host_clocks, KEY(HOST_CLOCKS));
        else if (strcmp(k, KEY(END)) == 0)
            other_str(t, j, &t->end, KEY(END));
        else if (strcmp(k, KEY(ERROR)) == 0)
            other_str(t, j, &t->error, KEY(ERROR));
        else if (strcmp(k, KEY(BUFFER_EVENTS)) == 0)
            other_int(t, j, &t->buffer_events, KEY(BUFFER_EVENTS));
        else if (strcmp(k, KEY(INSTANCES)) == 0) {
            if (j->tok != MT_J_LBRACKET) {
                mt_trace_warn(t, j->tok_line, j->tok_col,
                              KEY(OTHER_DATA) ": " QUOTED(KEY(INSTANCES)) " is not an array");
                mt_json_skip(j);
                continue;
            }
            int f2 = 1, r2;
            while ((r2 = mt_json_element(j, &f2)) == 1)
                if (read_instance(t, j) < 0)
                    return -1;
            if (r2 < 0)
                return -1;
        } else
            mt_json_skip(j);
        if (j->failed)
            return -1;
    }
    mt_json_context(j, NULL);
    return r < 0 ? -1 : 0;
}

/* ---------------------------------------------------------------- the file */

static int read_events(mt_trace *t, mt_json *j)
{
    if (j->tok != MT_J_LBRACKET) {
        mt_json_error(j, QUOTED(KEY(TRACE_EVENTS)) " is not an array (found %s)",
                      mt_json_tokname(j));
        return -1;
    }
    event e;
    memset(&e, 0, sizeof e);
    int first = 1, r;
    while ((r = mt_json_element(j, &first)) == 1) {
        mt_json_context(j, " in an event");
        if (read_event(t, j, &e) < 0)
            break;
        mt_json_context(j, " in the " KEY(TRACE_EVENTS) " array");
        dispatch(t, &e);
    }
    free(e.peers);
    return j->failed ? -1 : 0;
}

int mt_trace_read(mt_trace *t, const char *path, int check)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->check = check;
    t->format = t->spec = t->spec_hash = t->runtime = t->end = t->error = t->command = t->host_clocks = -1;
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "mdltrace: error: cannot open '%s': %s\n", path, strerror(errno));
        return -1;
    }
    mt_json j;
    mt_json_init(&j, f, path);
    int seen_events = 0;
    mt_json_context(&j, " in the top-level object");
    if (j.tok == MT_J_LBRACKET) {
        /* the JSON Array Format: events only */
        mt_json_context(&j, " in the " KEY(TRACE_EVENTS) " array");
        read_events(t, &j);
        seen_events = 1;
    } else if (j.tok == MT_J_LBRACE) {
        int first = 1, r;
        while ((r = mt_json_member(&j, &first)) == 1) {
            if (strcmp(j.key, KEY(TRACE_EVENTS)) == 0) {
                if (seen_events)
                    mt_trace_warn(t, j.tok_line, j.tok_col,
                                  "a second " QUOTED(KEY(TRACE_EVENTS))
                                  " array: its events are added");
                seen_events = 1;
                mt_json_context(&j, " in the " KEY(TRACE_EVENTS) " array");
                read_events(t, &j);
                mt_json_context(&j, " in the top-level object");
            } else if (strcmp(j.key, KEY(OTHER_DATA)) == 0 && j.tok == MT_J_LBRACE) {
                read_other(t, &j);
                mt_json_context(&j, " in the top-level object");
            } else {
                mt_json_skip(&j);
            }
            if (j.failed)
                break;
        }
    } else if (!j.failed) {
        mt_json_error(&j, "expected a trace (a JSON object with " QUOTED(KEY(TRACE_EVENTS))
                      "), found %s",
                      mt_json_tokname(&j));
    }
    if (!j.failed && j.tok != MT_J_EOF)
        mt_json_error(&j, "unexpected %s after the end of the trace", mt_json_tokname(&j));
    if (!j.failed && !seen_events)
        fprintf(stderr, "%s: error: no " QUOTED(KEY(TRACE_EVENTS)) " array: not a trace file\n",
                path);
    int failed = j.failed || !seen_events;
    mt_json_free(&j);
    if (f != stdin)
        fclose(f);
    return failed ? -1 : 0;
}

/* ---------------------------------------------------------------- finishing */

int mt_track_inst(const mt_trace *t, int track)
{
    return track >= 0 ? t->tracks[track].inst : -1;
}

int mt_inst_by_name(const mt_trace *t, const char *name)
{
    int id = mt_strtab_find(&t->str, name);
    return id >= 0 && (size_t)id < t->ninst_of_name ? t->inst_of_name[id] : -1;
}

static int64_t proc_of_name(const mt_trace *t, int task)
{
    for (size_t i = 0; i < t->nprocs; i++)
        if (t->procs[i].name == task)
            return t->procs[i].pid;
    return INT64_MAX;
}

/* "son[12]" → task "son", index 12; anything else: the whole name, -1. */
static void split_name(mt_trace *t, mt_inst *in)
{
    const char *s = mt_s(t, in->name);
    const char *br = strrchr(s, '[');
    size_t n = strlen(s);
    in->index = -1;
    if (br && br > s && n >= 3 && s[n - 1] == ']' && br + 1 < s + n - 1) {
        char *end;
        errno = 0;
        long v = strtol(br + 1, &end, 10);
        if (!errno && end == s + n - 1 && v >= 0 && br[1] >= '0' && br[1] <= '9') {
            char *task = mt_xstrdup(s);
            task[br - s] = '\0';
            in->task = mt_intern(&t->str, task);
            free(task);
            in->index = v;
            return;
        }
    }
    in->task = in->name;
}

static int inst_for_name(mt_trace *t, int name)
{
    if ((size_t)name >= t->ninst_of_name) {
        size_t old = t->ninst_of_name, n = t->str.n + 1;
        t->inst_of_name = mt_xrealloc(t->inst_of_name, n * sizeof *t->inst_of_name);
        for (size_t i = old; i < n; i++)
            t->inst_of_name[i] = -1;
        t->ninst_of_name = n;
    }
    if (t->inst_of_name[name] >= 0)
        return t->inst_of_name[name];
    t->insts = mt_xrealloc(t->insts, (t->ninsts + 1) * sizeof *t->insts);
    mt_inst *in = &t->insts[t->ninsts];
    memset(in, 0, sizeof *in);
    in->name = name;
    in->track = in->info = -1;
    in->pid = INT64_MAX;
    t->inst_of_name[name] = (int)t->ninsts;
    return (int)t->ninsts++;
}

static const mt_trace *sort_trace;

static int inst_cmp(const void *a, const void *b)
{
    const mt_inst *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    int c = strcmp(mt_s(sort_trace, x->task), mt_s(sort_trace, y->task));
    if (c)
        return c;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return strcmp(mt_s(sort_trace, x->name), mt_s(sort_trace, y->name));
}

void mt_trace_finish(mt_trace *t)
{
    /* every name that designates an instance: track names, otherData
     * instances, peers of sends */
    for (size_t i = 0; i < t->ntracks; i++) {
        mt_track *tr = &t->tracks[i];
        if (tr->name < 0) {
            char buf[64];
            snprintf(buf, sizeof buf, "pid %lld tid %lld", (long long)tr->pid,
                     (long long)tr->tid);
            tr->name = mt_intern(&t->str, buf);
        }
        int k = inst_for_name(t, tr->name);
        if (t->insts[k].track >= 0 && t->insts[k].track != (int)i)
            mt_trace_warn(t, 0, 0, "two tracks are named '%s' (pid %lld tid %lld and "
                          "pid %lld tid %lld)", mt_s(t, tr->name),
                          (long long)t->tracks[t->insts[k].track].pid,
                          (long long)t->tracks[t->insts[k].track].tid,
                          (long long)tr->pid, (long long)tr->tid);
        else
            t->insts[k].track = (int)i;
        if (t->insts[k].pid == INT64_MAX || tr->pid < t->insts[k].pid)
            t->insts[k].pid = tr->pid;
    }
    for (size_t i = 0; i < t->ninfos; i++) {
        int k = inst_for_name(t, t->infos[i].name);
        t->insts[k].info = (int)i;
        if (t->insts[k].pid == INT64_MAX && t->infos[i].has_pid)
            t->insts[k].pid = t->infos[i].pid;
    }
    for (size_t i = 0; i < t->nedges; i++)
        inst_for_name(t, t->edges[i].peer);
    for (size_t i = 0; i < t->ninsts; i++) {
        split_name(t, &t->insts[i]);
        if (t->insts[i].pid == INT64_MAX)
            t->insts[i].pid = proc_of_name(t, t->insts[i].task);
    }
    /* tasks in pid order (spec order for our runtimes), instances by index */
    sort_trace = t;
    if (t->ninsts > 1)
        qsort(t->insts, t->ninsts, sizeof *t->insts, inst_cmp);
    for (size_t i = 0; i < t->ninsts; i++) {
        t->inst_of_name[t->insts[i].name] = (int)i;
        if (t->insts[i].track >= 0)
            t->tracks[t->insts[i].track].inst = (int)i;
    }

    /* flows: each id should have one 's' and one 'f' */
    mt_sort_u64(t->sids, t->nsids);
    mt_sort_u64(t->fids, t->nfids);
    for (size_t i = 0, k = 0; i < t->nsids || k < t->nfids;) {
        uint64_t id = i < t->nsids && (k == t->nfids || t->sids[i] <= t->fids[k])
                          ? t->sids[i] : t->fids[k];
        long long ns = 0, nf = 0;
        for (; i < t->nsids && t->sids[i] == id; i++)
            ns++;
        for (; k < t->nfids && t->fids[k] == id; k++)
            nf++;
        if (ns > 1 || nf > 1)
            t->flows_duplicate++;
        else if (ns == 1 && nf == 1)
            t->flows_matched++;
        else if (ns)
            t->flows_unreceived++;
        else
            t->flows_unsent++;
    }

    t->all_infos = t->ninfos > 0;
    for (size_t i = 0; i < t->ninsts; i++) {
        mt_inst *in = &t->insts[i];
        if (in->info < 0) {
            /* a peer name with no track and no otherData entry is not
             * missing information unless tracks exist for its task */
            if (in->track >= 0)
                t->all_infos = 0;
            continue;
        }
        const mt_info *info = &t->infos[in->info];
        t->dropped_total = mt_add(t->dropped_total, info->dropped);
        if (info->end >= 0 && strcmp(mt_s(t, info->end), RT_TF_END_LOST) == 0)
            t->any_lost = 1;
    }
}

void mt_trace_free(mt_trace *t)
{
    for (size_t i = 0; i < t->ntracks; i++)
        free(t->tracks[i].spans);
    free(t->tracks);
    mt_map_free(&t->track_map);
    free(t->procs);
    free(t->aggs);
    mt_map_free(&t->agg_map);
    free(t->sizes);
    mt_map_free(&t->size_map);
    free(t->edges);
    mt_map_free(&t->edge_map);
    free(t->sids);
    free(t->fids);
    free(t->flows);
    free(t->infos);
    free(t->call_errors);
    free(t->insts);
    free(t->inst_of_name);
    mt_strtab_free(&t->str);
    memset(t, 0, sizeof *t);
}
