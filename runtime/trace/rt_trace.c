/* rt_trace.c — the traced job's recorder (rt_trace.h): the image built at
 * MDL_Init, the records that do not take the inline path (long or large
 * calls, lists of peers, errors, a full buffer), and the end of an
 * instance, normal or on an error. */
#include "rt_trace.h"
#include "mdl_grow.h"
#include "mdl_tables.h"
#include "tracefile/rt_trace_write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rt_trace_tsc;

/* MDL_TEST_CLOCK_SKEW=HOST:OFFSET_US[:DRIFT_PPM[:raw]] (test only,
 * docs/tracing.md §5.4): the processes on host HOST read the trace's
 * clock OFFSET_US µs ahead, and DRIFT_PPM µs more per second of
 * CLOCK_MONOTONIC (so that they read one clock, as a host's processes
 * do) — a cluster's clocks, on hosts that share one; "raw":
 * world rank 0 merges the hosts' clocks as read (no alignment), so that
 * a test can show what the alignment corrects.  Parsed once. */
static struct {
    int parsed, here, raw;
    double off_ns, ppm;
} skew;

static void skew_parse(void)
{
    skew.parsed = 1;
    const char *v = getenv("MDL_TEST_CLOCK_SKEW");
    char host[64] = "", flag[8] = "";
    if (!v || sscanf(v, "%63[^:]:%lf:%lf:%7s", host, &skew.off_ns, &skew.ppm, flag) < 2)
        return;
    char me[64] = "";
    gethostname(me, sizeof me - 1);
    skew.here = strcmp(host, me) == 0;
    skew.raw = strcmp(flag, "raw") == 0;
    skew.off_ns *= 1e3;
}

/* A reading of CLOCK_MONOTONIC as the trace's clock. */
static uint64_t skewed(uint64_t ns)
{
    if (!skew.parsed)
        skew_parse();
    if (__builtin_expect(!skew.here, 1))
        return ns;
    return (uint64_t)((double)ns + skew.off_ns + (double)ns * skew.ppm * 1e-6);
}

uint64_t rt_trace_host_ns(void)
{
    return skewed(mdl_mono_ns());
}

int rt_trace_test_unaligned(void)
{
    if (!skew.parsed)
        skew_parse();
    return skew.raw;
}

void rt_trace_clock(rt_tracer *t, int end)
{
    rt_trace_img *img = t->img;
    uint64_t tick, ns = mdl_mono_ns();
    if (end && rt_trace_tsc)
        while (ns < t->ns0 + 1000000)       /* a rate measured over >= 1 ms */
            ns = mdl_mono_ns();
    /* the tick between two readings of the monotonic clock */
    tick = rt_ticks();
    ns = (ns + mdl_mono_ns()) / 2;
    if (end) {
        img->tick1 = tick;
        img->ns1 = skewed(ns);
    } else {
        img->tick0 = tick;
        img->ns0 = skewed(ns);
        t->ns0 = ns;
    }
}

rt_trace_img *rt_trace_snapshot(const rt_tracer *t, uint64_t *head, uint64_t *records)
{
    *head = (uint64_t)((const char *)t->rec - (const char *)t->img);
    *records = t->used * sizeof(rt_trace_rec);
    rt_trace_img *copy = malloc(*head + *records);
    if (!copy)
        return NULL;
    memcpy(copy, t->img, *head + *records);
    copy->recs = *head;
    copy->used = t->used;
    copy->ntexts = t->ntexts;
    return copy;
}

/* ---------------------------------------------------------------- the image */

typedef struct strbuf {
    char *s;
    size_t len, cap;
    int failed;
} strbuf;

/* Offset of a copy of the string in the buffer (0 is the empty string's
 * place: offsets are made relative to the image later). */
static uint32_t add_str(strbuf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    if ((size_t)n >= sizeof tmp)
        n = sizeof tmp - 1;
    char *s = mdl_grow(b->s, &b->cap, b->len + (size_t)n + 1, 1, 1024);
    if (!s) {
        b->failed = 1;
        return 0;
    }
    b->s = s;
    uint32_t at = (uint32_t)b->len;
    memcpy(b->s + b->len, tmp, (size_t)n + 1);
    b->len += (size_t)n + 1;
    return at;
}

static size_t align8(size_t x)
{
    return (x + 7) & ~(size_t)7;
}

static uint64_t fixed_payload(const mdl_msg_desc *m)
{
    if (m->npairs && !m->fixed_bounds)
        return RT_BYTES_VARY;
    uint64_t b = 0;
    for (int i = 0; i < m->nitems; i++) {
        const mdl_item_desc *it = &m->items[i];
        uint64_t n = it->type->size;
        const long *p = m->fixed_bounds ? m->fixed_bounds + 2 * it->first_pair : NULL;
        for (int d = 0; d < it->ndims && p; d++)
            n *= (uint64_t)(p[2 * d + 1] - p[2 * d] + 1);
        b += n;
    }
    return b;
}

static int rooted(int kind)
{
    switch (kind) {
#define MDL_X(id, name, rooted) case MDL_COLL_##id: return rooted;
    MDL_COLLECTIVES(MDL_X)
#undef MDL_X
    }
    return 0;
}

/* The names and the function table, in a temporary buffer. */
static int describe(const mdl_task_desc *d, strbuf *b, rt_trace_func *f, uint32_t *tasks,
                    uint32_t *spec)
{
    int nm = d->nmsgs, nc = d->ncolls;
    char name[512];
    add_str(b, "%s", "");
    *spec = add_str(b, "%s", d->spec ? d->spec : "?");
    for (int t = 0; t < d->ntasks; t++)
        tasks[t] = d->tasks[t] ? add_str(b, "%s", d->tasks[t]) : 0;
    for (int i = 0; i < nm; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        uint32_t msg = add_str(b, "%s", m->name ? m->name : "?");
        rt_trace_func p = { 0, msg, (uint8_t)(m->is_send ? RT_CAT_SEND : RT_CAT_RECV), 0, 0, 0,
                            m->peer_task, m->channel, -1 };
        f[i] = p;
        f[i].name = add_str(b, "%s", m->fn);
        p.cat = RT_CAT_WAIT;
        f[nm + i] = p;
        f[nm + i].name = add_str(b, "%s", rt_completion_fn(m, 1, name, sizeof name));
        f[2 * nm + i] = p;
        f[2 * nm + i].name = add_str(b, "%s", rt_completion_fn(m, 0, name, sizeof name));
    }
    for (int i = 0; i < nc; i++) {
        const mdl_coll_desc *c = d->colls[i];
        f[3 * nm + i] = (rt_trace_func){ add_str(b, "%s", c->fn), add_str(b, "%s", c->name ? c->name : "?"),
                                         RT_CAT_COLL, (uint8_t)rooted(c->kind),
                                         (uint8_t)(c->kind == MDL_COLL_MCAST), 0, -1, -1, c->root };
    }
    const char *const sync[RT_NSYNC] = {
#define RT_X(id) [RT_SYNC_##id] = MDL_FN_NAME(id),
        RT_TRACE_SYNCS(RT_X)
#undef RT_X
    };
    for (int i = 0; i < RT_NSYNC; i++)
        f[3 * nm + nc + i] = (rt_trace_func){ add_str(b, "%s", sync[i]), 0, RT_CAT_SYNC, 0, 0, 0,
                                              -1, -1, -1 };
    return b->failed ? -1 : 0;
}

int rt_trace_attach(mdl_rt *rt, uint64_t slots, int slot, int clock, int late,
                    void *(*alloc)(mdl_rt *, size_t, void *arg, char *why, size_t len), void *arg,
                    char *why, size_t whylen)
{
    mdl_rt_common *c = rt_c(rt);
    const mdl_task_desc *d = c->d;
    int nfuncs = 3 * d->nmsgs + d->ncolls + RT_NSYNC;
    strbuf b = { 0 };
    rt_trace_func *funcs = calloc((size_t)nfuncs, sizeof *funcs);
    uint32_t *tasks = calloc((size_t)d->ntasks, sizeof *tasks);
    rt_tracer *t = calloc(1, sizeof *t);
    uint32_t spec = 0;
    if (!funcs || !tasks || !t || describe(d, &b, funcs, tasks, &spec) < 0) {
        free(funcs);
        free(tasks);
        free(t);
        free(b.s);
        snprintf(why, whylen, "out of memory");
        return MDL_ERR_INTERN;
    }
    /* layout */
    size_t at = align8(sizeof(rt_trace_img));
    size_t o_str = at;
    at = align8(at + b.len);
    size_t o_tasks = at;
    at = align8(at + sizeof(uint32_t) * (size_t)d->ntasks);
    size_t o_funcs = at;
    at = align8(at + sizeof(rt_trace_func) * (size_t)nfuncs);
    size_t o_stats = at;
    at = align8(at + sizeof(rt_trace_stat) * (size_t)nfuncs);
    size_t o_texts = at;
    at = align8(at + (size_t)RT_TEXTS * RT_TEXT);
    size_t o_recs = at, size = at + sizeof(rt_trace_rec) * slots;

    /* counters of message numbers, per (message, peer instance) */
    size_t nseq = 0;
    t->seq_at = malloc(sizeof(uint32_t) * ((size_t)d->nmsgs + 1));
    t->fixed_bytes = malloc(sizeof(uint64_t) * ((size_t)d->nmsgs + 1));
    t->capdone = 16;
    t->done = malloc(sizeof *t->done * t->capdone);
    for (int i = 0; t->seq_at && t->fixed_bytes && i < d->nmsgs; i++) {
        t->seq_at[i] = (uint32_t)nseq;
        nseq += (size_t)c->fam_size[d->msgs[i]->peer_task];
        t->fixed_bytes[i] = fixed_payload(d->msgs[i]);
    }
    t->seq = calloc(nseq + 1, sizeof(uint32_t));
    t->seqs = malloc(sizeof(uint32_t) * ((size_t)c->maxfam + 1));
    char room[400] = "";
    rt_trace_img *img = t->seq && t->seqs && t->seq_at && t->fixed_bytes && t->done
                            ? alloc(rt, size, arg, room, sizeof room)
                            : NULL;
    if (!img) {
        free(funcs);
        free(tasks);
        free(b.s);
        c->tr = t;
        rt_trace_detach(rt);
        if (*room)
            snprintf(why, whylen, "MDL_TRACE: %s", room);
        else
            snprintf(why, whylen,
                     "MDL_TRACE: no room for a trace buffer of %llu events (%zu bytes): set "
                     "MDL_TRACE_BUFFER lower", (unsigned long long)slots, size);
        return MDL_ERR_INTERN;
    }
    /* The whole image is written now, records included: their pages are
     * then mapped before the first call, not faulted in by it. */
    memset(img, 0, size);
    char *base = (char *)img;
    memcpy(base + o_str, b.s, b.len);
    for (int i = 0; i < d->ntasks; i++)
        tasks[i] = tasks[i] ? tasks[i] + (uint32_t)o_str : 0;
    memcpy(base + o_tasks, tasks, sizeof(uint32_t) * (size_t)d->ntasks);
    for (int i = 0; i < nfuncs; i++) {
        funcs[i].name += (uint32_t)o_str;
        funcs[i].msg = funcs[i].msg ? funcs[i].msg + (uint32_t)o_str : 0;
    }
    memcpy(base + o_funcs, funcs, sizeof(rt_trace_func) * (size_t)nfuncs);
    free(funcs);
    free(tasks);
    free(b.s);

    img->version = RT_TRACE_VERSION;
    img->clock = (uint32_t)clock;
    img->size = size;
    img->spec_hash = d->spec_hash;
    img->slot = slot;
    img->task = d->self;
    img->inst = c->inst;
    img->ntasks = d->ntasks;
    img->nfuncs = nfuncs;
    img->nmsgs = d->nmsgs;
    img->ncolls = d->ncolls;
    img->spec = spec + (uint32_t)o_str;
    img->tasks = (uint32_t)o_tasks;
    img->funcs = (uint32_t)o_funcs;
    img->stats = (uint32_t)o_stats;
    img->texts = (uint32_t)o_texts;
    img->recs = o_recs;
    img->cap = slots;
    img->error_text = -1;
    img->waits_timed = late != 0;
    gethostname(img->host, sizeof img->host - 1);
    img->pid = (int32_t)getpid();
    img->pid_start = rt_trace_proc_start(img->pid);
    rt_trace_tsc = clock == RT_CLOCK_TSC;
    t->img = img;
    t->rec = (rt_trace_rec *)(base + o_recs);
    t->cap = slots;
    t->stats = (rt_trace_stat *)(base + o_stats);
    t->funcs = (const rt_trace_func *)(base + o_funcs);
    t->texts = base + o_texts;
    rt_trace_clock(t, 0);
    __atomic_store_n(&img->magic, RT_TRACE_MAGIC, __ATOMIC_RELEASE);

    t->nmsgs = d->nmsgs;
    t->ncolls = d->ncolls;
    t->late = late;
    c->tr = t;
    return 0;
}

void rt_trace_detach(mdl_rt *rt)
{
    rt_tracer *t = rt_c(rt)->tr;
    if (!t)
        return;
    free(t->seq);
    free(t->seqs);
    free(t->seq_at);
    free(t->fixed_bytes);
    free(t->done);
    free(t);
    rt_c(rt)->tr = NULL;
}

/* ---------------------------------------------------------------- records */

static int32_t keep_text(rt_tracer *t, const char *text)
{
    if (!text || t->ntexts >= RT_TEXTS)
        return -1;
    snprintf(t->texts + (size_t)t->ntexts * RT_TEXT, RT_TEXT, "%s", text);
    t->img->ntexts = t->ntexts + 1;
    return (int32_t)t->ntexts++;
}

/* A call that is not recorded: only counted. */
static void drop(rt_tracer *t, uint32_t func, uint64_t dur, uint64_t wait, uint64_t copy,
                 uint64_t bytes, uint64_t msgs)
{
    rt_trace_stat *s = &t->stats[func];
    s->calls++;
    s->msgs += msgs;
    s->bytes += bytes;
    s->ticks += dur;
    s->wait_ticks += wait;
    s->copy_ticks += copy;
    t->img->dropped = ++t->dropped;
    t->cap = t->used;           /* nothing later either: no holes */
}

static uint64_t msgs_of(const rt_trace_func *f, int32_t peer, uint16_t flags, uint32_t npairs)
{
    if (f->cat == RT_CAT_SEND)
        return npairs ? npairs : peer >= 0;
    if (f->cat == RT_CAT_RECV)
        return peer >= 0 || (flags & RT_F_ANYPOST);
    return 0;
}

/* One call's record in any form: extension, times, pairs. */
static void put_rec(rt_tracer *t, uint64_t t0, uint64_t t1, uint32_t func, int32_t peer,
                    uint32_t seq, uint64_t bytes, uint16_t flags, int err, const int *insts,
                    const uint32_t *seqs, uint32_t npairs, uint64_t wait, uint64_t copy)
{
    uint64_t dur = t1 - t0, n = t->used;
    int ext = err || dur >= UINT32_MAX || bytes >= UINT32_MAX;
    int timed = (wait | copy) != 0;
    uint64_t slots = 1 + (uint64_t)ext + (uint64_t)timed + rt_trace_pair_slots(npairs);
    const rt_trace_func *f = &t->funcs[func];
    uint64_t msgs = msgs_of(f, peer, flags, npairs);
    if (slots > 1 + 0xffffu || n + slots > t->cap) {
        drop(t, func, dur, wait, copy, f->cat == RT_CAT_COLL ? bytes : bytes * msgs, msgs);
        return;
    }
    rt_trace_rec *r = &t->rec[n];
    *r = (rt_trace_rec){ t0, ext ? 0 : (uint32_t)dur, func, peer, npairs ? npairs : seq,
                         ext ? 0 : (uint32_t)bytes,
                         (uint16_t)(flags | (ext ? RT_F_EXT : 0) | (timed ? RT_F_TIMES : 0) |
                                    (npairs ? RT_F_PAIRS : 0)),
                         (uint16_t)(slots - 1) };
    rt_trace_rec *next = r + 1;
    if (ext) {
        rt_trace_ext *e = (rt_trace_ext *)next++;
        *e = (rt_trace_ext){ dur, bytes, err, -1, 0 };
        if (err)
            e->text = keep_text(t, t->last_err == err ? t->last_text : NULL);
    }
    if (timed)
        *(rt_trace_times *)next++ = (rt_trace_times){ wait, copy, { 0, 0 } };
    rt_trace_pair *p = (rt_trace_pair *)next;
    for (uint32_t i = 0; i < npairs; i++)
        p[i] = (rt_trace_pair){ insts ? insts[i] : t->done[i].inst,
                                insts ? (seqs ? seqs[i] : 0) : t->done[i].seq };
    t->used = n + slots;
    __atomic_store_n(&t->img->used, t->used, __ATOMIC_RELEASE);
}

void rt_trace_put(rt_tracer *t, uint64_t t1, int32_t peer, uint32_t seq, uint64_t bytes,
                  uint16_t flags, int err, const int *insts, const uint32_t *seqs,
                  uint32_t npairs)
{
    if (!t->t0)                 /* a late call stopped before it was stamped */
        t->t0 = t1;
    t->in_call = 0;
    if (!t->late)
        t->img->open_t0 = 0;
    put_rec(t, t->t0, t1, t->func, peer, seq, bytes, flags, err, insts, seqs, npairs,
            rt_trace_wait_ticks(t, t1), t->copy);
}

void rt_trace_end_error(rt_tracer *t, int rc)
{
    rt_trace_put(t, rt_ticks(), -1, 0, 0, 0, rc, NULL, NULL, t->ndone);
    t->last_err = 0;
}

void rt_trace_end_list(rt_tracer *t, uint64_t bytes, const int *insts, const uint32_t *seqs,
                       uint32_t n)
{
    rt_trace_put(t, rt_ticks(), -1, 0, bytes, 0, 0, insts, seqs, n);
}

void rt_trace_end_done(rt_tracer *t)
{
    rt_trace_put(t, rt_ticks(), -1, 0, 0, 0, 0, NULL, NULL, t->ndone);
}

void rt_trace_arrived(mdl_rt *rt, const mdl_msg_desc *m, int inst)
{
    rt_tracer *t = rt_c(rt)->tr;
    if (t->ndone == t->capdone) {
        size_t cap = mdl_grow_cap(t->capdone, (size_t)t->ndone + 1, 16, UINT32_MAX);
        rt_trace_pair *p = mdl_resize(t->done, cap, sizeof *p);
        if (!p) {
            rt_trace_seq(t, m, inst);   /* the flow is lost, the numbering kept */
            return;
        }
        t->done = p;
        t->capdone = (uint32_t)cap;
    }
    t->done[t->ndone++] = (rt_trace_pair){ inst, rt_trace_seq(t, m, inst) };
}

/* ---------------------------------------------------------------- the end */

void rt_trace_flush(rt_tracer *t)
{
    const mdl_msg_desc *m = t->pend_m;
    t->pend_m = NULL;
    uint32_t seq = rt_trace_seq(t, m, t->pend_peer);
    uint64_t wait = rt_trace_blocked(t->pend_wait0, t->pend_seen, t->pend_copy_w);
    if (!rt_trace_rec_put(t, t->pend_t0, t->pend_t1, t->pend_func, t->pend_peer, seq,
                          t->pend_bytes, 0, wait, t->pend_copy))
        put_rec(t, t->pend_t0, t->pend_t1, t->pend_func, t->pend_peer, seq, t->pend_bytes, 0, 0,
                NULL, NULL, 0, wait, t->pend_copy);
}

void rt_trace_finish(mdl_rt *rt)
{
    rt_tracer *t = rt_c(rt)->tr;
    if (t->pend_m)
        rt_trace_flush(t);
    rt_trace_clock(t, 1);
    t->img->end = RT_END_NORMAL;
}

void rt_trace_error(mdl_rt *rt, const char *fn, int code, const char *fmt, va_list ap)
{
    rt_tracer *t = rt_c(rt)->tr;
    const mdl_who w = rt_c(rt)->who;
    char reason[RT_TEXT];
    vsnprintf(reason, sizeof reason, fmt, ap);
    /* the line the runtime prints, without its newline */
    const char *name = MDL_Error_string(code);
    size_t nlen = strcspn(name, ":");
    char line[2 * RT_TEXT + 64];
    if (w.inst >= 0)
        snprintf(line, sizeof line, "%s[%d]: %s: %s (%.*s)", w.task, w.inst, fn, reason,
                 (int)nlen, name);
    else
        snprintf(line, sizeof line, "%s: %s: %s (%.*s)", w.task, fn, reason, (int)nlen, name);
    size_t n = strnlen(line, sizeof t->last_text - 1);
    memcpy(t->last_text, line, n);
    t->last_text[n] = '\0';
    t->last_err = code;
}

void rt_trace_errorf(mdl_rt *rt, const char *fn, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_trace_error(rt, fn, code, fmt, ap);
    va_end(ap);
}

void rt_trace_stop(mdl_rt *rt, int code, int reported)
{
    rt_tracer *t = rt_c(rt)->tr;
    rt_trace_img *img = t->img;
    if (t->stopped)
        return;
    t->stopped = 1;
    if (t->pend_m)
        rt_trace_flush(t);
    uint64_t now = rt_ticks();
    if (t->in_call)
        rt_trace_put(t, now, -1, 0, 0, 0, code, NULL, NULL, t->ndone);
    img->error_text = keep_text(t, t->last_err == code ? t->last_text : NULL);
    img->error_reported = reported;
    img->error_tick = now;
    rt_trace_clock(t, 1);
    img->end = RT_END_ERROR;
}
