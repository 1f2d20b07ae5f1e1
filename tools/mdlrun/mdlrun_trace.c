/* mdlrun_trace.c — MDL_TRACE on the shared-memory runtime: mdlrun writes
 * the job's one trace file (docs/tracing.md) once every instance has been
 * reaped, from the images the instances kept in the job's segment
 * (rt_trace_image.h).  An image outlives its process, so the file is
 * written however the job ended: normally, by a reported error, a death,
 * a timeout or a signal to mdlrun.
 *
 * mdlrun also owns the job's clock: it chooses the ticks (the TSC when it
 * is invariant) and calibrates them against CLOCK_MONOTONIC from its start
 * to the end of the job; 0 in the file is its start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mdl.h"
#include "mdlrun.h"
#include "tracefile/rt_trace_write.h"

/* The command line as a shell would take it back. */
static char *command_text(int argc, char **argv)
{
    size_t n = 8;
    for (int i = 1; i < argc; i++)
        n += 3 + 4 * strlen(argv[i]);
    char *s = malloc(n), *p = s;
    if (!s)
        return NULL;
    p += sprintf(p, "mdlrun");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int plain = *a != '\0';
        for (const char *c = a; *c && plain; c++)
            plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%",
                           *c) != NULL;
        *p++ = ' ';
        if (plain) {
            p += sprintf(p, "%s", a);
            continue;
        }
        *p++ = '\'';
        for (const char *c = a; *c; c++)
            p += *c == '\'' ? sprintf(p, "'\\''") : sprintf(p, "%c", *c);
        *p++ = '\'';
        *p = '\0';
    }
    return s;
}

int mdlrun_trace_setup(struct mdlrun_job *job, int argc, char **argv, int *status)
{
    const char *file;
    uint64_t slots;
    char why[512];
    int want = rt_trace_request(&file, &slots, why, sizeof why);
    if (want == 0)
        return 0;
    if (want < 0 || rt_trace_writable(file, why, sizeof why) < 0) {
        mdlrun_err("%s", why);
        *status = MDLRUN_EXIT_USAGE;
        return -1;
    }
    job->trace.path = rt_trace_abspath(file);
    job->trace.command = command_text(argc, argv);
    if (!job->trace.path) {
        mdlrun_err("out of memory");
        *status = MDLRUN_EXIT_FAIL;
        return -1;
    }
    job->trace.slots = slots;
    job->trace.clock = rt_trace_tsc_usable() ? RT_CLOCK_TSC : RT_CLOCK_MONO;
    job->trace.ns0 = rt_trace_read_clock(RT_CLOCK_MONO);
    job->trace.tick0 = rt_trace_read_clock((uint32_t)job->trace.clock);
    return 0;
}

void mdlrun_trace_header(struct mdlrun_job *job)
{
    job->hdr->trace_slots = job->trace.path ? job->trace.slots : 0;
    job->hdr->trace_clock = (uint32_t)job->trace.clock;
}

void mdlrun_trace_free(struct mdlrun_job *job)
{
    free(job->trace.path);
    free(job->trace.command);
    job->trace.path = job->trace.command = NULL;
}

/* ---------------------------------------------------------------- reading */

/* The head of slot s's image (checked), malloc'd, or NULL. */
static rt_trace_img *read_head(const struct mdlrun_job *job, unsigned s, const char **bad)
{
    uint64_t off = __atomic_load_n(&job->hdr->slots[s].trace, __ATOMIC_ACQUIRE);
    rt_trace_img h;
    *bad = NULL;
    if (!off)
        return NULL;
    if (pread(job->fd, &h, sizeof h, (off_t)off) != (ssize_t)sizeof h ||
        h.magic != RT_TRACE_MAGIC || h.recs < sizeof h || h.recs > RT_TRACE_MAX_HEAD) {
        *bad = "not a trace image";
        return NULL;
    }
    rt_trace_img *img = malloc(h.recs);
    if (!img || pread(job->fd, img, h.recs, (off_t)off) != (ssize_t)h.recs) {
        free(img);
        *bad = "cannot be read";
        return NULL;
    }
    if ((*bad = rt_trace_img_check(img, h.recs, 0)) != NULL ||
        img->slot != (int32_t)s) {
        if (!*bad)
            *bad = "belongs to another slot";
        free(img);
        return NULL;
    }
    return img;
}

/* The whole image: the head and its records. */
static rt_trace_img *read_all(const struct mdlrun_job *job, unsigned s, const rt_trace_img *head)
{
    uint64_t off = job->hdr->slots[s].trace;
    uint64_t n = head->recs + head->used * sizeof(rt_trace_rec);
    rt_trace_img *img = malloc(n);
    if (!img)
        return NULL;
    memcpy(img, head, head->recs);
    uint64_t want = n - head->recs;
    if (want && pread(job->fd, (char *)img + head->recs, want, (off_t)(off + head->recs)) !=
                    (ssize_t)want) {
        free(img);
        return NULL;
    }
    /* the records counted in the head, whatever the image says now */
    img->used = head->used;
    return img;
}

static int instance_end(const struct mdlrun_job *job, unsigned s, const rt_trace_img *h)
{
    const struct mdlrun_inst *in = &job->inst[s];
    if (!h)
        return RT_INST_LOST;
    if (in->reaped && WIFEXITED(in->ws) && WEXITSTATUS(in->ws) == 0 &&
        job->hdr->slots[s].state == MDL_SLOT_ENDED && h->end == RT_END_NORMAL)
        return RT_INST_NORMAL;
    /* Killed by a signal of its own (a crash, a kill), not by mdlrun's
     * tear-down: its memory may be damaged, so its records are not
     * trusted. */
    if (in->reaped && WIFSIGNALED(in->ws) && !in->torn && h->end != RT_END_ERROR)
        return RT_INST_LOST;
    return RT_INST_ERROR;
}

void mdlrun_trace_write(struct mdlrun_job *job, int status)
{
    if (!job->trace.path)
        return;
    unsigned n = job->nslots;
    struct mdlrun_trace *tr = &job->trace;
    rt_trace_inst *insts = calloc(n, sizeof *insts);
    rt_trace_img **heads = calloc(n, sizeof *heads);
    char why[600] = "out of memory";
    if (!insts || !heads)
        goto fail;

    /* the rate of the ticks, over at least a millisecond */
    unsigned long long ns1 = rt_trace_read_clock(RT_CLOCK_MONO);
    while (ns1 < tr->ns0 + 1000000)
        ns1 = rt_trace_read_clock(RT_CLOCK_MONO);
    unsigned long long tick1 = rt_trace_read_clock((uint32_t)tr->clock);
    double rate = tick1 > tr->tick0 ? (double)(ns1 - tr->ns0) / (double)(tick1 - tr->tick0) : 1.0;

    /* each slot's task and instance: families are slots grouped by task,
     * in slot order (as the library numbers them) */
    for (unsigned s = 0; s < n; s++) {
        rt_trace_inst *in = &insts[s];
        const struct mdlrun_inst *li = &job->inst[s];
        const char *bad;
        heads[s] = read_head(job, s, &bad);
        if (bad) {
            char name[96];
            mdlrun_err("the trace of %s is damaged (%s): left out",
                       mdlrun_name(job, s, name, sizeof name), bad);
        }
        int32_t task = __atomic_load_n(&job->hdr->slots[s].task, __ATOMIC_ACQUIRE);
        in->slot = (int32_t)s;
        in->task = task;
        in->inst = (int32_t)li->index;
        in->prog = job->groups[li->group].name;
        if (task >= 0) {
            in->inst = 0;
            for (unsigned k = 0; k < s; k++)
                in->inst += job->hdr->slots[k].task == task;
        }
        if (heads[s] && (heads[s]->task != task || heads[s]->inst != in->inst)) {
            free(heads[s]);
            heads[s] = NULL;
        }
        in->head = heads[s];
        in->end = instance_end(job, s, heads[s]);
        in->tick_at = tr->tick0;
        in->ns_at = 0;
        in->ns_per_tick = rate;
    }
    const char *error = rt_trace_first_error(heads, (int)n);
    rt_trace_job job_ = {
        .runtime = "shm",
        .command = tr->command,
        .buffer_events = tr->slots,
        .ended_by_error = status != 0,
        .error = error ? error : job->first_error,
        .ninst = (int)n,
        .inst = insts,
    };
    char clock[160];
    if (tr->clock == RT_CLOCK_TSC)
        snprintf(clock, sizeof clock, "TSC (%.3f GHz) calibrated against CLOCK_MONOTONIC over "
                 "the job by mdlrun; 0 = mdlrun's start", 1.0 / rate);
    else
        snprintf(clock, sizeof clock, "CLOCK_MONOTONIC; 0 = mdlrun's start");
    job_.clock = clock;

    rt_trace_out *o = rt_trace_out_open(tr->path, why, sizeof why);
    if (!o)
        goto fail;
    rt_trace_out_meta(o, &job_);
    /* the waits instances were asleep in when the job was torn down: their
     * calls, which they could not record */
    struct mdlrun_open_wait *open = calloc(n, sizeof *open);
    if (open && mdlrun_open_waits(job, open) < 0) {
        free(open);
        open = NULL;
    }
    for (unsigned s = 0; s < n; s++) {
        if (!heads[s] || insts[s].end == RT_INST_LOST)
            continue;
        rt_trace_img *all = read_all(job, s, heads[s]);
        int func = all && open && open[s].text[0] && all->end == RT_END_RUNNING
                       ? rt_trace_img_func(all, open[s].fn)
                       : -1;
        if (func >= 0) {
            uint64_t since = open[s].since_ns > tr->ns0 ? open[s].since_ns - tr->ns0 : 0;
            uint64_t t0 = tr->tick0 + (uint64_t)((double)since / rate);
            all = rt_trace_img_add_unfinished(all, (uint32_t)func, t0, tick1, MDL_ERR_PEER,
                                              open[s].text);
        }
        if (!all) {
            free(open);
            rt_trace_out_abandon(o, &job_);
            snprintf(why, sizeof why, "cannot read the records of slot %u", s);
            goto fail;
        }
        rt_trace_out_events(o, &job_, (int)s, all);
        free(all);
    }
    free(open);
    if (rt_trace_out_close(o, &job_, why, sizeof why) < 0)
        goto fail;
    for (unsigned s = 0; s < n; s++)
        free(heads[s]);
    free(heads);
    free(insts);
    return;
fail:
    mdlrun_err("the trace was not written: %s", why);
    for (unsigned s = 0; heads && s < n; s++)
        free(heads[s]);
    free(heads);
    free(insts);
}
