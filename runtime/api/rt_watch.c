/* rt_watch.c — the hang watchdog of MDL_HANG_SECONDS, for both runtimes
 * (docs/debugging.md): it reports the current call (rt_call.c).
 *
 * The watchdog is a thread started by MDL_Init only when the variable is
 * set.  Every tenth of the period it looks at rt_now.blocked: a block
 * (a number the backend gives each time it blocks) seen for N seconds is
 * reported with one line on stderr, again after 2N, 4N, … seconds of the
 * same block, so a job hung for hours prints a handful of lines, not
 * thousands.  The thread reads rt_now and the descriptor's names, writes
 * to stderr with one write(2) per line, and never calls MPI or touches
 * the runtime's state: MDL_End stops it after the backend has finished. */
#include "rt_layer.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- the watchdog */

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    int running, stop;
    double seconds;             /* MDL_HANG_SECONDS */
    const mdl_task_desc *d;
    int *fam_size;              /* a copy: MDL_End frees the runtime's first */
    mdl_who who;
} dog = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

static void say(const char *line)
{
    size_t len = strlen(line);
    if (write(STDERR_FILENO, line, len) < 0)
        return;
}

/* One report of block b, `after` seconds long; nothing if the call has
 * moved on meanwhile. */
static void report(unsigned long b, double after)
{
    int shown[RT_LIST_SHOWN];
    rt_call k;
    rt_call_now(&k, shown);
    if (k.blocked != b || RT_GET(blocked) != b)
        return;
    char fn[160], peer[256], msg[256] = "", line[768];
    const char *name = rt_call_fn(&k, fn, sizeof fn);
    rt_call_peer(&k, dog.d, dog.fam_size, peer, sizeof peer);
    /* a call that is not the message's own function (MDL_End delivering
     * it) names the message */
    if (k.fn && k.m && k.m->fn && strcmp(k.fn, k.m->fn) != 0)
        snprintf(msg, sizeof msg, " (message %s, %s)", k.m->name, k.m->fn);
    snprintf(line, sizeof line, "%s[%d]: waiting %g s in %s%s%s%s\n", dog.who.task,
             dog.who.inst, after, name, peer[0] ? " for " : "", peer, msg);
    say(line);
}

static void *watch(void *unused)
{
    (void)unused;
    /* Looks ten times per period, at least every 100 ms: a report comes
     * at most that late. */
    double tick = dog.seconds / 10 < 0.1 ? dog.seconds / 10 : 0.1;
    unsigned long cur = 0;
    double since = 0, next = 0;
    pthread_mutex_lock(&dog.mu);
    while (!dog.stop) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        long ns = ts.tv_nsec + (long)(tick * 1e9);
        ts.tv_sec += ns / 1000000000L;
        ts.tv_nsec = ns % 1000000000L;
        pthread_cond_timedwait(&dog.cv, &dog.mu, &ts);
        if (dog.stop)
            break;
        unsigned long b = RT_GET(blocked);
        double t = mdl_mono_seconds();
        if (b != cur) {
            cur = b;
            since = t;
            next = dog.seconds;
        } else if (b && t - since >= next) {
            report(b, next);
            next *= 2;
        }
    }
    pthread_mutex_unlock(&dog.mu);
    return NULL;
}

void rt_watch_start(const mdl_task_desc *d, mdl_who who, const int *fam_size)
{
    RT_SET(blocked, 0);
    const char *e = getenv("MDL_HANG_SECONDS");
    if (!e || !*e || dog.running)
        return;
    char *end;
    double s = strtod(e, &end);
    if (*end || !(s > 0) || s > 1e9) {
        char line[256];
        snprintf(line, sizeof line, "%s[%d]: MDL_HANG_SECONDS=%.40s is not a positive number of "
                 "seconds: no hang reports\n", who.task, who.inst, e);
        say(line);
        return;
    }
    dog.seconds = s;
    dog.d = d;
    dog.fam_size = malloc((size_t)d->ntasks * sizeof(int));
    if (dog.fam_size)
        memcpy(dog.fam_size, fam_size, (size_t)d->ntasks * sizeof(int));
    dog.who = who;
    dog.stop = 0;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_destroy(&dog.cv);
    pthread_cond_init(&dog.cv, &ca);
    pthread_condattr_destroy(&ca);
    /* Signals stay with the program's threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    dog.running = pthread_create(&dog.thread, NULL, watch, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void rt_watch_stop(void)
{
    if (!dog.running)
        return;
    pthread_mutex_lock(&dog.mu);
    dog.stop = 1;
    pthread_cond_signal(&dog.cv);
    pthread_mutex_unlock(&dog.mu);
    pthread_join(dog.thread, NULL);
    dog.running = 0;
    free(dog.fam_size);
    dog.fam_size = NULL;
}
