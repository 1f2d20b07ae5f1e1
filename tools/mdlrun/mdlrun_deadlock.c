/* mdlrun_deadlock.c — what the instances of a running job are waiting
 * for: exact deadlock detection and the --timeout report.
 *
 * The library publishes, in the segment, what a wait of an instance needs
 * when that wait goes to sleep (shm_job.h, mdl_shm_wait).  Every tick of
 * the watch loop this file looks at every instance:
 *
 *   live     running (not asleep in a wait, or rung since it went to
 *            sleep), or not yet through MDL_Init: it may still act;
 *   blocked  asleep in a wait, its doorbell not rung since the check that
 *            sent it to sleep (the library drains its rings before that
 *            check): nothing it waits for has happened;
 *   ended    MDL_End has returned, or the process has exited after it.
 *
 * A blocked instance can be woken if some instance it waits for
 * (ANY_OF, TASK) can act, or if all of them can (ALL_OF; FAMILY: every
 * family member not in the barrier); "can act" is live or, repeatedly,
 * wakeable.  The blocked instances left are deadlocked: no instance will
 * ever ring them.  A report needs the same deadlocked set, with the same
 * wait (epoch) and doorbell for each member, in two looks at least
 * MIN_GAP apart, so a wake-up in flight (a doorbell about to ring, an
 * instance about to run) never makes one: such an instance's doorbell,
 * epoch or count of messages taken changes in between.  docs/runtime-shm.md, "Deadlock detection",
 * gives the argument. */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdl_clock.h"
#include "mdlrun.h"

#define MIN_GAP 0.2             /* seconds between the two looks of a report */

enum { LIVE, BLOCKED, ENDED };

/* One instance as one look saw it. */
struct look_inst {
    int cls;
    int active;                 /* w is a consistent copy of an active wait */
    mdl_shm_wait w;
    uint32_t bell;              /* its doorbell */
    int32_t *list;              /* w.n entries (allocated when first needed) */
    int wake;                   /* can act, or be woken */
};

struct mdlrun_look {
    double at;                  /* when taken; 0: none */
    struct look_inst *inst;     /* nslots */
    int ndead;
};

struct mdlrun_scan {
    struct mdlrun_look look[2]; /* the previous and the current one */
    int cur;
};

static mdl_shm_wait *waits(const struct mdlrun_job *job)
{
    return (mdl_shm_wait *)(void *)((char *)job->hdr + mdl_shm_waits_offset(job->nslots));
}

static const int32_t *list_of(const struct mdlrun_job *job, unsigned slot)
{
    return (const int32_t *)(const void *)((const char *)job->hdr +
                                           mdl_shm_lists_offset(job->nslots)) +
           (size_t)slot * job->nslots;
}

void mdlrun_waits_init(struct mdlrun_job *job)
{
    mdl_shm_wait *w = waits(job);
    for (unsigned s = 0; s < job->nslots; s++)
        w[s].inst = -1;
}

const char *mdlrun_name(const struct mdlrun_job *job, unsigned slot, char *buf, size_t len)
{
    const mdl_shm_wait *w = &waits(job)[slot];
    int inst = __atomic_load_n(&w->inst, __ATOMIC_ACQUIRE);
    if (inst >= 0) {
        char task[MDL_SHM_NAME];
        memcpy(task, w->task_name, sizeof task);
        task[sizeof task - 1] = 0;
        snprintf(buf, len, "%s[%d]", task, inst);
    } else {
        const struct mdlrun_inst *in = &job->inst[slot];
        snprintf(buf, len, "%s[%u]", job->groups[in->group].name, in->index);
    }
    return buf;
}

/* A consistent copy of slot's wait record and list (sequence lock). */
static int read_wait(const struct mdlrun_job *job, unsigned slot, struct look_inst *li)
{
    const mdl_shm_wait *src = &waits(job)[slot];
    for (int tries = 0; tries < 1000; tries++) {
        uint32_t s1 = __atomic_load_n(&src->seq, __ATOMIC_ACQUIRE);
        if (s1 & 1) {
            sched_yield();
            continue;
        }
        memcpy(&li->w, src, sizeof li->w);
        uint32_t n = li->w.active && li->w.n <= job->nslots ? li->w.n : 0;
        if (n && !li->list && !(li->list = malloc((size_t)job->nslots * sizeof(int32_t))))
            return -1;
        if (n)
            memcpy(li->list, list_of(job, slot), n * sizeof(int32_t));
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&src->seq, __ATOMIC_RELAXED) == s1) {
            li->w.n = n;
            li->w.fn[sizeof li->w.fn - 1] = 0;
            return 0;
        }
    }
    return -1;
}

static void take_look(const struct mdlrun_job *job, struct mdlrun_look *lk, double now)
{
    lk->at = now;
    for (unsigned s = 0; s < job->nslots; s++) {
        struct look_inst *li = &lk->inst[s];
        const mdl_shm_slot *slot = &job->hdr->slots[s];
        int state = __atomic_load_n(&slot->state, __ATOMIC_ACQUIRE);
        li->cls = LIVE;
        li->active = read_wait(job, s, li) == 0 && li->w.active;
        /* the doorbell after the record: a ring in between reads as one */
        li->bell = __atomic_load_n(&slot->doorbell, __ATOMIC_SEQ_CST);
        if (job->inst[s].pid == 0 && state == MDL_SLOT_ENDED)
            li->cls = ENDED;    /* exited after MDL_End */
        else if (job->inst[s].pid > 0 && li->active && li->w.asleep && li->bell == li->w.bell)
            li->cls = BLOCKED;
        else if (state == MDL_SLOT_ENDED && li->w.left)
            li->cls = ENDED;
    }
}

static int task_of(const struct mdlrun_job *job, unsigned slot)
{
    return __atomic_load_n(&job->hdr->slots[slot].task, __ATOMIC_ACQUIRE);
}

/* In the family barrier of `task` (so not missing from it). */
static int in_barrier(const struct mdlrun_look *lk, unsigned x, int task)
{
    const struct look_inst *li = &lk->inst[x];
    return li->active && li->w.kind == MDL_AWAIT_FAMILY && li->w.task == task;
}

/* Whether blocked instance s can be woken, given the `wake` marks so far. */
static int wakeable(const struct mdlrun_job *job, const struct mdlrun_look *lk, unsigned s)
{
    const struct look_inst *li = &lk->inst[s];
    const mdl_shm_wait *w = &li->w;
    switch (w->kind) {
    case MDL_AWAIT_ANY_OF:
        if (w->n == 0)
            return 1;           /* nothing named: never judged */
        for (uint32_t i = 0; i < w->n; i++)
            if ((unsigned)li->list[i] < job->nslots && lk->inst[li->list[i]].wake)
                return 1;
        return 0;
    case MDL_AWAIT_ALL_OF:
        for (uint32_t i = 0; i < w->n; i++)
            if ((unsigned)li->list[i] >= job->nslots || !lk->inst[li->list[i]].wake)
                return 0;
        return 1;
    case MDL_AWAIT_TASK:
        for (unsigned x = 0; x < job->nslots; x++)
            if (x != s && task_of(job, x) == w->task && lk->inst[x].wake)
                return 1;
        return 0;
    case MDL_AWAIT_FAMILY:
        for (unsigned x = 0; x < job->nslots; x++)
            if (x != s && task_of(job, x) == w->task && !in_barrier(lk, x, w->task) &&
                !lk->inst[x].wake)
                return 0;
        return 1;
    }
    return 1;                   /* a kind this mdlrun does not know */
}

/* Marks what can act or be woken; returns the number deadlocked. */
static int solve(const struct mdlrun_job *job, struct mdlrun_look *lk)
{
    int nblocked = 0;
    for (unsigned s = 0; s < job->nslots; s++) {
        lk->inst[s].wake = lk->inst[s].cls == LIVE;
        nblocked += lk->inst[s].cls == BLOCKED;
    }
    if (nblocked == 0)
        return 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned s = 0; s < job->nslots; s++) {
            struct look_inst *li = &lk->inst[s];
            if (li->cls == BLOCKED && !li->wake && wakeable(job, lk, s)) {
                li->wake = 1;
                changed = 1;
            }
        }
    }
    int dead = 0;
    for (unsigned s = 0; s < job->nslots; s++)
        dead += lk->inst[s].cls == BLOCKED && !lk->inst[s].wake;
    return dead;
}

static int dead(const struct look_inst *li)
{
    return li->cls == BLOCKED && !li->wake;
}

/* ---------------------------------------------------------------- words */

struct text {
    char s[1024];
    size_t len;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
    if (t->len >= sizeof t->s)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->len, sizeof t->s - t->len, fmt, ap);
    va_end(ap);
    t->len += k > 0 ? (size_t)k : 0;
}

/* "d[1]", "d[1], which has ended (MDL_End)", or "d[1] (ended)" in a list. */
static void add_inst(struct text *t, const struct mdlrun_job *job, const struct mdlrun_look *lk,
                     unsigned x, int alone)
{
    char name[96];
    add(t, "%s", mdlrun_name(job, x, name, sizeof name));
    if (lk->inst[x].cls == ENDED)
        add(t, alone ? ", which has ended (MDL_End)" : " (ended)");
}

/* The instances of a list (or the members of a family barrier) to name:
 * for a report the ones that will never act (`stuck`), else all. */
static void add_whom(struct text *t, const struct mdlrun_job *job, const struct mdlrun_look *lk,
                     unsigned s, int stuck)
{
    const struct look_inst *li = &lk->inst[s];
    const mdl_shm_wait *w = &li->w;
    unsigned pick[8];
    unsigned np = 0, more = 0;
    int nended = 0, all = 0;
    switch (w->kind) {
    case MDL_AWAIT_TASK: {
        char task[MDL_SHM_NAME] = "?";
        unsigned members = 0, last = 0;
        for (unsigned x = 0; x < job->nslots; x++) {
            if (task_of(job, x) != w->task)
                continue;
            members++;
            last = x;
            if (__atomic_load_n(&waits(job)[x].inst, __ATOMIC_ACQUIRE) >= 0) {
                memcpy(task, waits(job)[x].task_name, sizeof task);
                task[sizeof task - 1] = 0;
                if (x != s) {
                    all++;
                    nended += lk->inst[x].cls == ENDED;
                }
            }
        }
        /* MDL_ANY from a family of one: that instance, by its name */
        if (members == 1 && __atomic_load_n(&waits(job)[last].inst,
                                                         __ATOMIC_ACQUIRE) >= 0) {
            add_inst(t, job, lk, last, 1);
            return;
        }
        add(t, "%s[any]", task);
        if (all && nended == all)
            add(t, all == 1 ? ", which has ended (MDL_End)" : ", all of which have ended (MDL_End)");
        return;
    }
    case MDL_AWAIT_FAMILY:
        for (unsigned x = 0; x < job->nslots; x++) {
            if (x == s || task_of(job, x) != w->task || in_barrier(lk, x, w->task) ||
                (stuck && lk->inst[x].wake))
                continue;
            if (np < 8)
                pick[np++] = x;
            else
                more++;
        }
        break;
    default:
        for (uint32_t i = 0; i < w->n; i++) {
            unsigned x = (unsigned)li->list[i];
            if (x >= job->nslots || (stuck && w->kind == MDL_AWAIT_ALL_OF && lk->inst[x].wake))
                continue;
            if (np < 8)
                pick[np++] = x;
            else
                more++;
        }
    }
    if (np == 0) {
        add(t, "the other instances");
        return;
    }
    if (w->kind == MDL_AWAIT_ANY_OF && np + more > 1)
        add(t, "any of ");
    for (unsigned i = 0; i < np; i++) {
        if (i)
            add(t, ", ");
        add_inst(t, job, lk, pick[i], np + more == 1);
    }
    if (more)
        add(t, " and %u more", more);
}

/* One line per deadlocked instance; the job's error (for the trace) is
 * the lines joined: "deadlock: d[0] waits …; d[1] waits …". */
static void report(struct mdlrun_job *job, const struct mdlrun_look *lk)
{
    struct text all = { .len = 0 };
    for (unsigned s = 0; s < job->nslots; s++) {
        if (!dead(&lk->inst[s]))
            continue;
        struct text t = { .len = 0 };
        char name[96];
        add(&t, "%s waits in %s for ", mdlrun_name(job, s, name, sizeof name), lk->inst[s].w.fn);
        add_whom(&t, job, lk, s, 1);
        mdlrun_err("deadlock: %s", t.s);
        add(&all, all.len ? "; %s" : "deadlock: %s", t.s);
    }
    mdlrun_keep_error(job, all.s);
}

/* ---------------------------------------------------------------- entry points */

static int scan_alloc(struct mdlrun_job *job)
{
    if (job->scan)
        return 0;
    struct mdlrun_scan *sc = calloc(1, sizeof *sc);
    if (!sc)
        return -1;
    for (int k = 0; k < 2; k++)
        if (!(sc->look[k].inst = calloc(job->nslots, sizeof *sc->look[k].inst))) {
            free(sc->look[0].inst);
            free(sc);
            return -1;
        }
    job->scan = sc;
    return 0;
}

/* The same deadlocked instances, each in the same wait with the same
 * doorbell, in both looks. */
static int confirmed(const struct mdlrun_job *job, const struct mdlrun_look *prev,
                     const struct mdlrun_look *cur)
{
    for (unsigned s = 0; s < job->nslots; s++) {
        const struct look_inst *a = &prev->inst[s], *b = &cur->inst[s];
        if (dead(b) != dead(a))
            return 0;
        if (dead(b) && (a->w.epoch != b->w.epoch || a->bell != b->bell ||
                        a->w.consumed != b->w.consumed))
            return 0;
    }
    return 1;
}

int mdlrun_deadlock(struct mdlrun_job *job, double now)
{
    if (scan_alloc(job) < 0)
        return 0;
    struct mdlrun_scan *sc = job->scan;
    struct mdlrun_look *prev = &sc->look[sc->cur];
    if (prev->at && now - prev->at < MIN_GAP)
        return 0;
    struct mdlrun_look *cur = &sc->look[1 - sc->cur];
    take_look(job, cur, now);
    cur->ndead = solve(job, cur);
    sc->cur = 1 - sc->cur;
    if (cur->ndead == 0 || !prev->at || prev->ndead != cur->ndead || !confirmed(job, prev, cur))
        return 0;
    report(job, cur);
    return 1;
}

void mdlrun_report_calls(struct mdlrun_job *job, double now)
{
    if (scan_alloc(job) < 0)
        return;
    struct mdlrun_look *lk = &job->scan->look[0];
    take_look(job, lk, now);
    solve(job, lk);
    uint64_t tnow = mdl_mono_ns();
    for (unsigned s = 0; s < job->nslots; s++) {
        const struct look_inst *li = &lk->inst[s];
        int state = __atomic_load_n(&job->hdr->slots[s].state, __ATOMIC_ACQUIRE);
        char name[96];
        mdlrun_name(job, s, name, sizeof name);
        if (job->inst[s].pid == 0)
            continue;           /* exited: reported as it happened, if at all */
        if (li->active) {
            struct text t = { .len = 0 };
            double secs = tnow > li->w.since_ns ? (double)(tnow - li->w.since_ns) * 1e-9 : 0;
            add(&t, "%s has been waiting %.1f s in %s for ", name, secs, li->w.fn);
            add_whom(&t, job, lk, s, 0);
            mdlrun_err("%s", t.s);
        } else if (state == MDL_SLOT_ENDED) {
            mdlrun_err("%s has called MDL_End", name);
        } else if (state == MDL_SLOT_STARTED) {
            mdlrun_err("%s has not called MDL_Init", name);
        } else {
            mdlrun_err("%s is not in an MDL call", name);
        }
    }
}

int mdlrun_open_waits(struct mdlrun_job *job, struct mdlrun_open_wait *out)
{
    if (scan_alloc(job) < 0)
        return -1;
    struct mdlrun_look *lk = &job->scan->look[0];
    take_look(job, lk, 0);
    for (unsigned s = 0; s < job->nslots; s++) {
        const struct look_inst *li = &lk->inst[s];
        out[s].text[0] = '\0';
        if (!li->active)
            continue;
        struct text t = { .len = 0 };
        char name[96];
        add(&t, "%s: %s: had not returned when the job ended (waiting for ",
            mdlrun_name(job, s, name, sizeof name), li->w.fn);
        add_whom(&t, job, lk, s, 0);
        add(&t, ")");
        snprintf(out[s].fn, sizeof out[s].fn, "%s", li->w.fn);
        snprintf(out[s].text, sizeof out[s].text, "%.*s", (int)sizeof out[s].text - 1, t.s);
        out[s].since_ns = li->w.since_ns;
    }
    return 0;
}

void mdlrun_scan_free(struct mdlrun_job *job)
{
    struct mdlrun_scan *sc = job->scan;
    if (!sc)
        return;
    for (int k = 0; k < 2; k++) {
        if (sc->look[k].inst)
            for (unsigned s = 0; s < job->nslots; s++)
                free(sc->look[k].inst[s].list);
        free(sc->look[k].inst);
    }
    free(sc);
    job->scan = NULL;
}
