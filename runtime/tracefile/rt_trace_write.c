/* rt_trace_write.c — the job's trace file from the instances' images
 * (rt_trace_write.h; the format: docs/tracing.md §2).  Runs once, when
 * the job ends, outside any measured path; it formats with its own few
 * helpers into one buffer because a traced job can hold millions of
 * events. */
#include "rt_trace_write.h"
#include "mdl_clock.h"
#include "safe_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

/* ---------------------------------------------------------------- images */

int rt_trace_tsc_usable(void)
{
#if defined(__x86_64__) || defined(__i386__)
    /* CPUID 0x80000007 EDX bit 8 (Linux's constant_tsc + nonstop_tsc) */
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000007u &&
        __get_cpuid(0x80000007u, &a, &b, &c, &d))
        return (d >> 8) & 1;
#endif
    return 0;
}

uint64_t rt_trace_read_clock(uint32_t clock)
{
#if defined(__x86_64__) || defined(__i386__)
    if (clock == RT_CLOCK_TSC)
        return __rdtsc();
#endif
    (void)clock;
    return mdl_mono_ns();
}

const char *rt_trace_first_error(rt_trace_img *const *imgs, int n)
{
    const char *error = NULL;
    uint64_t error_tick = 0;
    for (int i = 0; i < n; i++) {
        const rt_trace_img *h = imgs[i];
        const char *text = h && h->end == RT_END_ERROR && h->error_reported
                               ? rt_trace_img_text(h, h->error_text)
                               : NULL;
        if (text && (!error || h->error_tick < error_tick)) {
            error = text;
            error_tick = h->error_tick;
        }
    }
    return error;
}

uint64_t rt_trace_proc_start(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    /* after the command's ")": state is field 3, starttime field 22 */
    const char *p = strrchr(buf, ')');
    /* a zombie has ended: only its parent has not collected its status
     * yet (a launcher killed with its job leaves them to init a while) */
    if (p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
        return 0;
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    return p ? strtoull(p + 1, NULL, 10) : 0;
}

int rt_trace_img_func(const rt_trace_img *img, const char *name)
{
    const rt_trace_func *f = (const rt_trace_func *)((const char *)img + img->funcs);
    for (int i = 0; i < img->nfuncs; i++) {
        const char *n = rt_trace_img_str(img, f[i].name);
        if (n && strcmp(n, name) == 0)
            return i;
    }
    return -1;
}

rt_trace_img *rt_trace_img_add_unfinished(rt_trace_img *img, uint32_t func, uint64_t t0,
                                          uint64_t t1, int err, const char *text)
{
    /* on a runtime that times its waits, the call was blocked throughout */
    int timed = img->waits_timed != 0;
    uint64_t at = img->recs + img->used * sizeof(rt_trace_rec);
    rt_trace_img *g = realloc(img, at + (2 + (uint64_t)timed) * sizeof(rt_trace_rec));
    if (!g) {
        free(img);
        return NULL;
    }
    int32_t k = -1;
    if (g->ntexts < RT_TEXTS) {
        k = (int32_t)g->ntexts++;
        snprintf((char *)g + g->texts + (size_t)k * RT_TEXT, RT_TEXT, "%s", text);
    }
    rt_trace_rec *r = (rt_trace_rec *)(void *)((char *)g + at);
    uint64_t dur = t1 > t0 ? t1 - t0 : 0;
    r[0] = (rt_trace_rec){ t0, 0, func, -1, 0, 0,
                           (uint16_t)(RT_F_EXT | (timed ? RT_F_TIMES : 0)), (uint16_t)(1 + timed) };
    *(rt_trace_ext *)(void *)&r[1] = (rt_trace_ext){ dur, 0, err, k, 0 };
    if (timed)
        *(rt_trace_times *)(void *)&r[2] = (rt_trace_times){ dur, 0, { 0, 0 } };
    g->used += 2 + (uint64_t)timed;
    if (g->cap < g->used)
        g->cap = g->used;
    return g;
}

/* n elements of `elem` bytes at off, 8-byte aligned, from *at (the end of
 * the previous area) to size: then *at moves to its end. */
static int area_ok(uint64_t off, uint64_t n, uint64_t elem, uint64_t *at, uint64_t size)
{
    if (off % 8 || off < *at || off > size || n > (size - off) / elem)
        return 0;
    *at = off + n * elem;
    return 1;
}

const char *rt_trace_img_check(const rt_trace_img *img, uint64_t avail, int with_records)
{
    if (avail < sizeof *img || img->magic != RT_TRACE_MAGIC)
        return "not a trace image";
    if (img->version != RT_TRACE_VERSION)
        return "a trace image of another version";
    /* the head ends where the records begin; the records are read up to
     * `used` */
    uint64_t size = img->recs;
    if (size > avail || img->recs > img->size || img->cap > (img->size - img->recs) / sizeof(rt_trace_rec) ||
        img->used > img->cap || (with_records && img->used * sizeof(rt_trace_rec) > avail - size) ||
        img->ntasks <= 0 || img->ntasks > 1 << 20 || img->nfuncs < RT_NSYNC || img->nmsgs < 0 ||
        img->ncolls < 0 ||
        (int64_t)img->nfuncs != 3 * (int64_t)img->nmsgs + img->ncolls + RT_NSYNC ||
        img->task < 0 || img->task >= img->ntasks || img->inst < 0 || img->slot < 0)
        return "its header is damaged";
    /* the areas in the layout's order, none over another: a reader that
     * writes one (an error text it adds) changes nothing else */
    uint64_t at = sizeof *img;
    if (!area_ok(img->tasks, (uint64_t)img->ntasks, sizeof(uint32_t), &at, size) ||
        !area_ok(img->funcs, (uint64_t)img->nfuncs, sizeof(rt_trace_func), &at, size) ||
        !area_ok(img->stats, (uint64_t)img->nfuncs, sizeof(rt_trace_stat), &at, size) ||
        !area_ok(img->texts, RT_TEXTS, RT_TEXT, &at, size) || img->ntexts > RT_TEXTS ||
        img->error_text < -1 || img->error_text >= (int32_t)img->ntexts || img->recs % 8)
        return "its areas lie outside it or over one another";
    if (!rt_trace_img_str(img, img->spec))
        return "its names are damaged";
    if (!rt_trace_img_task(img, img->task))
        return "its names are damaged";
    const rt_trace_func *f = (const rt_trace_func *)((const char *)img + img->funcs);
    for (int i = 0; i < img->nfuncs; i++)
        if (!rt_trace_img_str(img, f[i].name) || (f[i].msg && !rt_trace_img_str(img, f[i].msg)) ||
            f[i].cat >= RT_NCAT || f[i].peer_task >= img->ntasks)
            return "its function table is damaged";
    return NULL;
}

const char *rt_trace_img_task(const rt_trace_img *img, int task)
{
    const uint32_t *tasks = (const uint32_t *)((const char *)img + img->tasks);
    return rt_trace_img_str(img, tasks[task]);
}

const char *rt_trace_img_str(const rt_trace_img *img, uint32_t off)
{
    /* the strings lie between the header and the task names */
    if (off < sizeof *img || off >= img->tasks || off >= img->recs || off >= img->size)
        return NULL;
    const char *s = (const char *)img + off;
    return memchr(s, '\0', (size_t)(img->tasks - off)) ? s : NULL;
}

static const rt_trace_func *funcs_of(const rt_trace_img *img)
{
    return (const rt_trace_func *)((const char *)img + img->funcs);
}

const char *rt_trace_img_text(const rt_trace_img *img, int32_t i)
{
    if (i < 0 || (uint32_t)i >= img->ntexts)
        return NULL;
    const char *t = (const char *)img + img->texts + (size_t)i * RT_TEXT;
    return memchr(t, '\0', RT_TEXT) ? t : NULL;
}

/* ---------------------------------------------------------------- output */

/* A key, and a string value, as the file spells them (rt_trace_format.h). */
#define KEY(k) "\"" RT_TF_KEY_##k "\":"
#define STR(v) "\"" v "\""

struct rt_trace_total {
    uint32_t func;
    uint64_t calls, msgs, bytes;
    double dur_ns, wait_ns, copy_ns;
};

struct rt_trace_out {
    int fd;
    char *path, *tmp;           /* tmp NULL: written through path */
    int failed;                 /* errno of the first failed write, or 0 */
    int first;                  /* no event written yet */
    int ntasks;                 /* names of tasks known from the heads, */
    char **task_names;          /* copied: a head may move once its events are out */
    char buf[1 << 16];
    size_t len;
};

static void flush(rt_trace_out *o)
{
    size_t done = 0;
    while (done < o->len && !o->failed) {
        ssize_t w = write(o->fd, o->buf + done, o->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            o->failed = w < 0 ? errno : EIO;
        else
            done += (size_t)w;
    }
    o->len = 0;
}

static void put(rt_trace_out *o, const char *s, size_t n)
{
    if (o->len + n > sizeof o->buf)
        flush(o);
    if (n > sizeof o->buf) {
        while (n && !o->failed) {
            size_t k = n < sizeof o->buf ? n : sizeof o->buf;
            memcpy(o->buf, s, k);
            o->len = k;
            flush(o);
            s += k;
            n -= k;
        }
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void puts_(rt_trace_out *o, const char *s)
{
    put(o, s, strlen(s));
}

static void put_u64(rt_trace_out *o, uint64_t v)
{
    char d[24];
    int n = 0;
    do
        d[sizeof d - 1 - n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    put(o, d + sizeof d - n, (size_t)n);
}

static void put_i64(rt_trace_out *o, int64_t v)
{
    if (v < 0) {
        put(o, "-", 1);
        put_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        put_u64(o, (uint64_t)v);
    }
}

/* Nanoseconds as microseconds with three decimals. */
static void put_us(rt_trace_out *o, uint64_t ns)
{
    char d[4] = { '.', (char)('0' + ns / 100 % 10), (char)('0' + ns / 10 % 10),
                  (char)('0' + ns % 10) };
    put_u64(o, ns / 1000);
    put(o, d, 4);
}

/* The inside of a JSON string: `"` and `\` escaped, control characters
 * as spaces (the format allows no other escape: docs/tracing.md §3). */
static void put_escaped(rt_trace_out *o, const char *s)
{
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            put(o, e, 2);
        } else {
            char e = c < 0x20 || c == 0x7f ? ' ' : (char)c;
            put(o, &e, 1);
        }
    }
}

static void put_str(rt_trace_out *o, const char *s)
{
    put(o, "\"", 1);
    put_escaped(o, s);
    put(o, "\"", 1);
}

static void put_hex(rt_trace_out *o, uint64_t v)
{
    char d[16];
    int n = 0;
    do
        d[sizeof d - 1 - n++] = "0123456789abcdef"[v & 15];
    while ((v >>= 4) != 0);
    put(o, d + sizeof d - n, (size_t)n);
}

/* ---------------------------------------------------------------- names */

static const char *task_name(const rt_trace_out *o, int task, char *buf, size_t len)
{
    if (task >= 0 && task < o->ntasks && o->task_names[task])
        return o->task_names[task];
    snprintf(buf, len, "task%d", task);
    return buf;
}

/* "son[2]" */
static void put_inst_name(rt_trace_out *o, int task, int inst)
{
    char b[32];
    const char *t = task_name(o, task, b, sizeof b);
    char s[32];
    snprintf(s, sizeof s, "[%d]", inst);
    put(o, "\"", 1);
    put_escaped(o, t);              /* an identifier, unless a part was damaged */
    puts_(o, s);
    put(o, "\"", 1);
}

static void put_track_name(rt_trace_out *o, const rt_trace_inst *in)
{
    if (in->task >= 0) {
        put_inst_name(o, in->task, in->inst);
        return;
    }
    char s[300];
    snprintf(s, sizeof s, "%.255s?[%d]", in->prog ? in->prog : "", in->inst);
    put_str(o, s);
}

/* ---------------------------------------------------------------- open, meta */

rt_trace_out *rt_trace_out_open(const char *path, char *why, size_t len)
{
    rt_trace_out *o = calloc(1, sizeof *o);
    char *p = strdup(path);
    if (!o || !p) {
        free(o);
        free(p);
        snprintf(why, len, "out of memory");
        return NULL;
    }
    if ((o->fd = mdl_open_final(path, 0644, &o->tmp, why, len)) < 0) {
        free(o);
        free(p);
        return NULL;
    }
    o->path = p;
    o->first = 1;
    return o;
}

static void event_sep(rt_trace_out *o)
{
    puts_(o, o->first ? "\n" : ",\n");
    o->first = 0;
}

static void meta(rt_trace_out *o, const char *what, int32_t pid, int32_t tid)
{
    event_sep(o);
    puts_(o, "{" KEY(PH) STR(RT_TF_PH_META) "," KEY(TS) "0," KEY(PID));
    put_i64(o, pid);
    puts_(o, "," KEY(TID));
    put_i64(o, tid);
    puts_(o, "," KEY(NAME) "\"");
    puts_(o, what);
    puts_(o, "\"," KEY(ARGS) "{" KEY(NAME));
}

void rt_trace_out_meta(rt_trace_out *o, rt_trace_job *job)
{
    /* Task names from every head: an instance names its peers' tasks too,
     * so a task whose instances were all lost is usually still named. */
    int nt = 0;
    for (int i = 0; i < job->ninst; i++) {
        const rt_trace_img *h = job->inst[i].head;
        if (h && h->ntasks > nt)
            nt = h->ntasks;
        if (job->inst[i].task + 1 > nt)
            nt = job->inst[i].task + 1;
    }
    o->task_names = calloc((size_t)nt + 1, sizeof *o->task_names);
    o->ntasks = o->task_names ? nt : 0;
    for (int i = 0; i < job->ninst; i++) {
        const rt_trace_img *h = job->inst[i].head;
        if (!h)
            continue;
        for (int t = 0; t < h->ntasks && t < o->ntasks; t++) {
            const char *name = rt_trace_img_task(h, t);
            if (!o->task_names[t] && name)
                o->task_names[t] = strdup(name);    /* out of memory: "task<t>" */
        }
    }
    puts_(o, "{" KEY(TRACE_EVENTS) "[");
    /* one process per task, named with the tid of its lowest instance */
    int32_t ntasks = 0, npids, nprogs = 0;
    for (int i = 0; i < job->ninst; i++)
        if (job->inst[i].task + 1 > ntasks)
            ntasks = job->inst[i].task + 1;
    /* Instances whose task is unknown (they died before MDL_Init): one
     * process per program after the tasks, named `prog?` (no task name has
     * a `?`, so no track name is taken twice), numbered in slot order. */
    int *progs = malloc(sizeof(int) * ((size_t)job->ninst + 1));
    int *count = calloc((size_t)job->ninst + 1, sizeof(int));
    for (int i = 0; i < job->ninst; i++) {
        rt_trace_inst *in = &job->inst[i];
        if (in->task >= 0) {
            in->pid = in->task + 1;
            continue;
        }
        int p = 0;
        while (progs && p < nprogs &&
               !(in->prog && job->inst[progs[p]].prog && strcmp(in->prog, job->inst[progs[p]].prog) == 0))
            p++;
        if (progs && p == nprogs)
            progs[nprogs++] = i;
        in->pid = ntasks + 1 + p;
        if (count)
            in->inst = count[p]++;
    }
    free(progs);
    free(count);
    npids = ntasks + 1 + nprogs;
    int *lowest = malloc(sizeof(int) * ((size_t)npids + 1));
    for (int p = 0; lowest && p <= npids; p++)
        lowest[p] = -1;
    for (int i = 0; lowest && i < job->ninst; i++) {
        int *l = &lowest[job->inst[i].pid];
        if (*l < 0 || job->inst[i].inst < job->inst[*l].inst)
            *l = i;
    }
    for (int p = 0; lowest && p <= npids; p++) {
        if (lowest[p] < 0)
            continue;
        const rt_trace_inst *in = &job->inst[lowest[p]];
        meta(o, RT_TF_META_PROCESS, p, in->slot + 1);
        if (in->task >= 0) {
            char b[32];
            put_str(o, task_name(o, in->task, b, sizeof b));
        } else {
            char b[300];
            snprintf(b, sizeof b, "%.255s?", in->prog ? in->prog : "");
            put_str(o, b);
        }
        puts_(o, "}}");
    }
    free(lowest);
    /* then one thread per instance */
    for (int i = 0; i < job->ninst; i++) {
        const rt_trace_inst *in = &job->inst[i];
        meta(o, RT_TF_META_THREAD, in->pid, in->slot + 1);
        put_track_name(o, in);
        puts_(o, "}}");
    }
}

/* ---------------------------------------------------------------- events */

/* A flow's id: the same at both ends, which know the sender, the
 * receiver, the channel and the message's number on it (splitmix64's
 * finaliser over the six numbers). */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h;
}

static uint64_t flow_id(int stask, int sinst, int rtask, int rinst, int channel, uint32_t seq)
{
    uint64_t h = 0x4d444cull;
    h = mix(h, (uint64_t)(uint32_t)stask);
    h = mix(h, (uint64_t)(uint32_t)sinst);
    h = mix(h, (uint64_t)(uint32_t)rtask);
    h = mix(h, (uint64_t)(uint32_t)rinst);
    h = mix(h, (uint64_t)(uint32_t)channel);
    return mix(h, seq);
}

/* A flow's start (at its send) or end. */
static void flow(rt_trace_out *o, int start, uint64_t ts, int32_t pid, int32_t tid, uint64_t id)
{
    event_sep(o);
    puts_(o, start ? "{" KEY(PH) STR(RT_TF_PH_FLOW_START) "," KEY(TS)
                   : "{" KEY(PH) STR(RT_TF_PH_FLOW_END) "," KEY(TS));
    put_us(o, ts);
    puts_(o, "," KEY(PID));
    put_i64(o, pid);
    puts_(o, "," KEY(TID));
    put_i64(o, tid);
    puts_(o, "," KEY(NAME) STR(RT_TF_FLOW_NAME) "," KEY(CAT) STR(RT_TF_FLOW_CAT) "," KEY(ID) "\"");
    put_hex(o, id);
    puts_(o, start ? "\"}" : "\"," KEY(BP) STR(RT_TF_BP_ENCLOSING) "}");
}

static const char *const cat_names[] = {
#define RT_X(id, name) [RT_CAT_##id] = name,
    RT_TF_CATS(RT_X)
#undef RT_X
};

static double ns_of(const rt_trace_inst *in, uint64_t tick)
{
    return in->ns_at + (double)(int64_t)(tick - in->tick_at) * in->ns_per_tick;
}

/* Times past RT_NS_MAX (146 years) come only from a damaged calibration:
 * capped, so that converting them is defined and the sums of a call's
 * times (ts + 2, ts + wait) cannot wrap. */
#define RT_NS_MAX ((uint64_t)1 << 62)

static uint64_t floor_ns(double ns)
{
    if (!(ns > 0))                          /* NaN too */
        return 0;
    if (ns >= (double)RT_NS_MAX)
        return RT_NS_MAX;
    return (uint64_t)ns;                    /* truncation: the floor of a positive */
}

void rt_trace_out_events(rt_trace_out *o, rt_trace_job *job, int idx, const rt_trace_img *img)
{
    rt_trace_inst *in = &job->inst[idx];
    const rt_trace_func *fn = funcs_of(img);
    const rt_trace_rec *r = (const rt_trace_rec *)((const char *)img + img->recs);
    const rt_trace_stat *dropped = (const rt_trace_stat *)((const char *)img + img->stats);
    int32_t pid = in->pid, tid = in->slot + 1;
    int me_task = img->task, me = img->inst;
    struct rt_trace_total *tot = NULL;
    if (img->dropped) {
        tot = calloc((size_t)img->nfuncs, sizeof *tot);
        for (int f = 0; tot && f < img->nfuncs; f++) {
            tot[f].func = (uint32_t)f;
            tot[f].calls = dropped[f].calls;
            tot[f].msgs = dropped[f].msgs;
            tot[f].bytes = dropped[f].bytes;
            tot[f].dur_ns = (double)dropped[f].ticks * in->ns_per_tick;
            tot[f].wait_ns = (double)dropped[f].wait_ticks * in->ns_per_tick;
            tot[f].copy_ns = (double)dropped[f].copy_ticks * in->ns_per_tick;
        }
    }
    uint64_t prev_end = 0, events = 0;
    for (uint64_t k = 0; k < img->used;) {
        const rt_trace_rec *rec = &r[k];
        uint64_t next = k + 1 + rec->ncont;
        if (next > img->used || rec->func >= (uint32_t)img->nfuncs)
            break;                      /* damaged: what follows cannot be read */
        const rt_trace_ext *ext = rec->flags & RT_F_EXT ? (const rt_trace_ext *)&r[k + 1] : NULL;
        uint32_t nx = ext ? 1u : 0u;
        const rt_trace_times *times =
            rec->flags & RT_F_TIMES ? (const rt_trace_times *)&r[k + 1 + nx++] : NULL;
        const rt_trace_pair *pairs = (const rt_trace_pair *)&r[k + 1 + nx];
        uint32_t npairs = rec->flags & RT_F_PAIRS ? rec->seq : 0;
        if (nx + rt_trace_pair_slots(npairs) > rec->ncont)
            break;
        const rt_trace_func *f = &fn[rec->func];
        uint64_t dur = ext ? ext->dur : rec->dur;
        uint64_t bytes = ext ? ext->bytes : rec->bytes;
        const char *err = NULL;
        char errbuf[64];
        if (ext && ext->err) {
            err = rt_trace_img_text(img, ext->text);
            if (!err) {
                snprintf(errbuf, sizeof errbuf, "error %d", ext->err);
                err = errbuf;
            }
        }
        /* Integer ns, monotonic per instance, and at least 2 ns per call so
         * that a flow fits strictly inside it. */
        uint64_t ts = floor_ns(ns_of(in, rec->t0)), end = floor_ns(ns_of(in, rec->t0 + dur));
        if (ts < prev_end)
            ts = prev_end;
        if (end < ts + 2)
            end = ts + 2;
        prev_end = end;
        /* within the event as written (ts may have moved to prev_end) */
        uint64_t wait = times ? floor_ns((double)times->wait * in->ns_per_tick) : 0;
        uint64_t copy = times ? floor_ns((double)times->copy * in->ns_per_tick) : 0;
        if (copy > end - ts)
            copy = end - ts;
        if (wait > end - ts - copy)
            wait = end - ts - copy;
        /* A flow starts at its send's first nanosecond and ends at its
         * receive's last, strictly inside both: the runtimes read the
         * send's start before its message could be seen and the receive's
         * end after it was, so the arrow goes forward however long either
         * process was descheduled (docs/tracing.md §2.4). */
        uint64_t arrived = end - 1;
        events++;

        event_sep(o);
        puts_(o, "{" KEY(PH) STR(RT_TF_PH_CALL) "," KEY(TS));
        put_us(o, ts);
        puts_(o, "," KEY(DUR));
        put_us(o, end - ts);
        puts_(o, "," KEY(PID));
        put_i64(o, pid);
        puts_(o, "," KEY(TID));
        put_i64(o, tid);
        puts_(o, "," KEY(NAME));
        put_str(o, rt_trace_img_str(img, f->name));
        puts_(o, "," KEY(CAT) "\"");
        puts_(o, cat_names[f->cat]);
        puts_(o, "\"");
        int peer_task = f->peer_task >= 0 ? f->peer_task : me_task;
        uint64_t msgs = 0;
        const char *msg = f->msg ? rt_trace_img_str(img, f->msg) : NULL;
        if (msg || err || img->waits_timed) {
            puts_(o, "," KEY(ARGS) "{");
            const char *sep = "";
            if (msg) {
                puts_(o, KEY(MSG));
                put_str(o, msg);
                sep = ",";
            }
            if (f->cat == RT_CAT_SEND || f->cat == RT_CAT_RECV || f->cat == RT_CAT_COLL) {
                puts_(o, sep);
                puts_(o, KEY(BYTES));
                put_u64(o, bytes);
                sep = ",";
            }
            if (f->cat == RT_CAT_COLL && f->rooted) {
                puts_(o, "," KEY(ROOT));
                put_inst_name(o, me_task, f->root);
            }
            if (npairs && f->cat != RT_CAT_WAIT) {
                puts_(o, "," KEY(PEER) "[");
                for (uint32_t p = 0; p < npairs; p++) {
                    if (p)
                        puts_(o, ",");
                    put_inst_name(o, peer_task, pairs[p].inst);
                }
                puts_(o, "]");
                msgs = f->cat == RT_CAT_SEND ? npairs : 0;
            } else if (rec->peer >= 0 && f->cat != RT_CAT_WAIT) {
                puts_(o, "," KEY(PEER));
                put_inst_name(o, peer_task, rec->peer);
                msgs = f->cat == RT_CAT_SEND || f->cat == RT_CAT_RECV;
            }
            if (rec->flags & RT_F_ANYPOST) {
                puts_(o, "," KEY(MSGS) "1");
                msgs = 1;
            }
            if (img->waits_timed) {
                puts_(o, sep);
                puts_(o, KEY(WAIT_US));
                put_us(o, wait);
                sep = ",";
            }
            if (copy) {             /* timed copies only: those of large messages */
                puts_(o, "," KEY(COPY_US));
                put_us(o, copy);
            }
            if (err) {
                puts_(o, sep);
                puts_(o, KEY(ERROR));
                put_str(o, err);
            }
            puts_(o, "}");
        }
        puts_(o, "}");
        if (tot) {
            struct rt_trace_total *t = &tot[rec->func];
            t->calls++;
            t->msgs += msgs;
            t->bytes += f->cat == RT_CAT_COLL ? bytes : bytes * msgs;
            t->dur_ns += (double)(end - ts);
            t->wait_ns += (double)wait;
            t->copy_ns += (double)copy;
        }
        /* flows: sends start them, receives and completions end them */
        if (f->cat == RT_CAT_SEND && !(ext && ext->err)) {
            if (npairs)
                for (uint32_t p = 0; p < npairs; p++)
                    flow(o, 1, ts + 1, pid, tid,
                         flow_id(me_task, me, peer_task, pairs[p].inst, f->channel, pairs[p].seq));
            else if (rec->peer >= 0)
                flow(o, 1, ts + 1, pid, tid,
                     flow_id(me_task, me, peer_task, rec->peer, f->channel, rec->seq));
        } else if (f->cat == RT_CAT_RECV && rec->peer >= 0 && !(ext && ext->err) &&
                   !(rec->flags & (RT_F_PAIRS | RT_F_POSTED))) {
            flow(o, 0, arrived, pid, tid,
                 flow_id(peer_task, rec->peer, me_task, me, f->channel, rec->seq));
        } else if (f->cat == RT_CAT_WAIT) {
            for (uint32_t p = 0; p < npairs; p++)
                flow(o, 0, arrived, pid, tid,
                     flow_id(peer_task, pairs[p].inst, me_task, me, f->channel, pairs[p].seq));
        }
        k = next;
    }
    in->events = events;
    if (tot) {
        /* only the functions that were called */
        int32_t n = 0;
        for (int f = 0; f < img->nfuncs; f++)
            if (tot[f].calls)
                tot[n++] = tot[f];
        in->totals = tot;
        in->ntotals = n;
    }
}

/* ---------------------------------------------------------------- otherData */

static const char *const end_names[] = {
#define RT_X(id, name) [RT_INST_##id] = name,
    RT_TF_ENDS(RT_X)
#undef RT_X
};

static void put_totals(rt_trace_out *o, const rt_trace_inst *in)
{
    const rt_trace_img *h = in->head;
    const rt_trace_func *fn = funcs_of(h);
    puts_(o, "," KEY(TOTALS) "[");
    for (int32_t i = 0; i < in->ntotals; i++) {
        const struct rt_trace_total *t = &in->totals[i];
        const rt_trace_func *f = &fn[t->func];
        puts_(o, i ? ",\n  {" KEY(NAME) : "\n  {" KEY(NAME));
        put_str(o, rt_trace_img_str(h, f->name));
        if (f->msg) {
            puts_(o, "," KEY(MSG));
            put_str(o, rt_trace_img_str(h, f->msg));
        }
        puts_(o, "," KEY(CAT) "\"");
        puts_(o, cat_names[f->cat]);
        puts_(o, "\"," KEY(CALLS));
        put_u64(o, t->calls);
        puts_(o, "," KEY(MSGS));
        put_u64(o, t->msgs);
        puts_(o, "," KEY(BYTES));
        put_u64(o, t->bytes);
        puts_(o, "," KEY(DUR_US));
        put_us(o, floor_ns(t->dur_ns));
        if (h->waits_timed) {
            puts_(o, "," KEY(WAIT_US));
            put_us(o, floor_ns(t->wait_ns));
        }
        if (t->copy_ns >= 1) {
            puts_(o, "," KEY(COPY_US));
            put_us(o, floor_ns(t->copy_ns));
        }
        puts_(o, "}");
    }
    puts_(o, "]");
}

static void other_data(rt_trace_out *o, const rt_trace_job *job)
{
    const rt_trace_img *any = NULL;
    for (int i = 0; i < job->ninst && !any; i++)
        any = job->inst[i].head;
    puts_(o, "\n],\n" KEY(OTHER_DATA) "{" KEY(FORMAT) STR(RT_TF_FORMAT) "," KEY(VERSION)
             RT_TF_TEXT(RT_TF_VERSION) "," KEY(SPEC));
    put_str(o, any ? rt_trace_img_str(any, any->spec) : "?");
    char hash[24];
    snprintf(hash, sizeof hash, "%016llx", any ? (unsigned long long)any->spec_hash : 0ull);
    puts_(o, "," KEY(SPEC_HASH) "\"");
    puts_(o, hash);
    puts_(o, "\"," KEY(RUNTIME));
    put_str(o, job->runtime);
    if (job->command) {
        puts_(o, "," KEY(COMMAND));
        put_str(o, job->command);
    }
    if (job->clock) {
        puts_(o, "," KEY(CLOCK));
        put_str(o, job->clock);
    }
    if (job->host_clocks) {
        puts_(o, "," KEY(HOST_CLOCKS));
        put_str(o, job->host_clocks);
    }
    puts_(o, "," KEY(BUFFER_EVENTS));
    put_u64(o, job->buffer_events);
    puts_(o, job->ended_by_error ? "," KEY(END) STR(RT_TF_END_ERROR) "," KEY(ERROR)
                                 : "," KEY(END) STR(RT_TF_END_NORMAL));
    if (job->ended_by_error)
        put_str(o, job->error && *job->error ? job->error : "the job ended by an error");
    puts_(o, "," KEY(INSTANCES) "[");
    for (int i = 0; i < job->ninst; i++) {
        const rt_trace_inst *in = &job->inst[i];
        puts_(o, i ? ",\n {" KEY(NAME) : "\n {" KEY(NAME));
        put_track_name(o, in);
        puts_(o, "," KEY(PID));
        put_i64(o, in->pid);
        puts_(o, "," KEY(TID));
        put_i64(o, in->slot + 1);
        puts_(o, "," KEY(EVENTS));
        put_u64(o, in->end == RT_INST_LOST ? 0 : in->events);
        puts_(o, "," KEY(DROPPED));
        put_u64(o, in->head && in->end != RT_INST_LOST ? in->head->dropped : 0);
        puts_(o, "," KEY(END) "\"");
        puts_(o, end_names[in->end]);
        puts_(o, "\"");
        if (in->totals && in->end != RT_INST_LOST)
            put_totals(o, in);
        puts_(o, "}");
    }
    puts_(o, "]}}\n");
}

static void free_out(rt_trace_out *o, rt_trace_job *job)
{
    for (int i = 0; i < job->ninst; i++) {
        free(job->inst[i].totals);
        job->inst[i].totals = NULL;
    }
    for (int t = 0; t < o->ntasks; t++)
        free(o->task_names[t]);
    free(o->task_names);
    free(o->tmp);
    free(o->path);
    free(o);
}

int rt_trace_out_close(rt_trace_out *o, rt_trace_job *job, char *why, size_t len)
{
    other_data(o, job);
    flush(o);
    int rc = 0;
    const char *written = o->tmp ? o->tmp : o->path;
    if (o->failed) {
        snprintf(why, len, "cannot write '%s': %s", written, strerror(o->failed));
        rc = -1;
    }
    if (close(o->fd) < 0 && !rc) {
        snprintf(why, len, "cannot write '%s': %s", written, strerror(errno));
        rc = -1;
    }
    if (!rc && o->tmp && rename(o->tmp, o->path) < 0) {
        snprintf(why, len, "cannot rename '%s' to '%s': %s", o->tmp, o->path, strerror(errno));
        rc = -1;
    }
    if (rc && o->tmp)
        unlink(o->tmp);
    free_out(o, job);
    return rc;
}

void rt_trace_out_abandon(rt_trace_out *o, rt_trace_job *job)
{
    close(o->fd);
    if (o->tmp)
        unlink(o->tmp);
    free_out(o, job);
}

/* ---------------------------------------------------------------- paths */

int rt_trace_request(const char **file, uint64_t *slots, char *why, size_t len)
{
    const char *f = getenv("MDL_TRACE");
    if (!f || !*f)
        return 0;
    *file = f;
    *slots = RT_TRACE_DEFAULT_SLOTS;
    const char *b = getenv("MDL_TRACE_BUFFER");
    if (b && *b) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(b, &end, 10);
        if (errno || end == b || *end || v < 1 || strchr(b, '-')) {
            snprintf(why, len, "MDL_TRACE_BUFFER=%s is not a number of events between 1 and 2^25",
                     b);
            return -1;
        }
        if (v > RT_TRACE_MAX_SLOTS) {
            snprintf(why, len, "MDL_TRACE_BUFFER=%s is more than 2^25 events: at most 1 GiB of "
                     "trace per instance, kept in the node's memory while the job runs", b);
            return -1;
        }
        *slots = v;
    }
    return 1;
}

char *rt_trace_abspath(const char *path)
{
    /* its directory resolved (".", "..", symbolic links): one file has one
     * name, which the MPI runtime's parts are named after */
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    char real[PATH_MAX];
    int ok = dir && realpath(dir, real) != NULL;
    free(dir);
    if (ok) {
        const char *base = slash ? slash + 1 : path;
        size_t n = strlen(real) + strlen(base) + 2;
        char *p = malloc(n);
        if (p)
            snprintf(p, n, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", base);
        return p;
    }
    if (path[0] == '/')
        return strdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return strdup(path);
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", cwd, path);
    return p;
}

int rt_trace_writable(const char *path, char *why, size_t len)
{
    size_t n = strlen(path);
    if (n == 0 || path[n - 1] == '/') {
        snprintf(why, len, "MDL_TRACE=%s is not a file name", path);
        return -1;
    }
    char *dir = strdup(path);
    if (!dir) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    int rc = access(dir, W_OK | X_OK);
    if (rc < 0)
        snprintf(why, len, "cannot write the trace to '%s': %s: %s", path, dir, strerror(errno));
    free(dir);
    return rc < 0 ? -1 : 0;
}
