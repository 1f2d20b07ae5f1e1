/* rt_stop.c — the line of a process stopped by SIGTERM: which call it was
 * in and whom it waited for, with the hosts (docs/runtime-mpi.md, Faults).
 *
 * A launcher that loses a host ends the job by signalling the survivors
 * (Open MPI: SIGCONT, then SIGTERM a second later); until now they died
 * without a word.  The transport installs the handler once MDL_Init has
 * succeeded, only where the program ignores nothing: over the default
 * action, or chained to a handler found there (the program's, the MPI's).
 * It reads the current call (rt_now, rt_call.c, as the hang reports do),
 * builds its line without stdio or malloc and writes it with one write(2),
 * then lets the signal do what it did before: the previous handler, or the
 * default action (the process ends by SIGTERM, as without medley, once
 * the other processes of its host have written theirs: see host_said).  The
 * host of every instance comes from the transport (rt_stop_hosts), copied
 * before the handler exists: the handler only reads.  In a job that spans
 * hosts the line also names the instances of other hosts that are gone
 * (rt_probe.c asks their kernels, within 300 ms): "; lost: f[2], f[3]
 * (mdlh2)". */
#include "rt_layer.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STOP_PAUSE_NS 100000000L    /* 100 ms: host_said, no shared memory */
#define STOP_WAIT_NS 1000000000L    /* 1 s: host_said, the longest wait */
#define STOP_POLL_NS 1000000L       /* 1 ms */

static struct {
    int installed;
    int busy;                   /* a handler is writing or pausing */
    struct sigaction before;    /* what SIGTERM did before */
    const mdl_task_desc *d;
    mdl_who who;
    int *fam_size;              /* [ntasks], a copy: MDL_End frees the runtime's */
    int *first;                 /* [ntasks] the first entry of each task in host */
    int *rank;                  /* per instance, as host: its world rank, -1: unknown */
    char (*host)[RT_HOST_NAME_BYTES];   /* per instance, task by task; NULL: unknown */
    int nranks;
    char (*rank_task)[RT_TASK_NAME_BYTES];  /* per world rank; NULL: only d's names */
    unsigned *said;             /* in the host's shared memory: this line written */
    unsigned **peers_said;      /* [npeers], the host peers' */
    int npeers;
} stop;

/* The host of instance inst of task, NULL if not known. */
static const char *host_of(int task, int inst)
{
    if (!stop.host || task < 0 || task >= stop.d->ntasks || inst < 0 ||
        inst >= stop.fam_size[task] || !stop.host[stop.first[task] + inst][0])
        return NULL;
    return stop.host[stop.first[task] + inst];
}

/* "f[2]" */
static void add_instance(rt_text *t, const char *task, int inst)
{
    rt_text_str(t, task);
    rt_text_str(t, "[");
    rt_text_int(t, inst);
    rt_text_str(t, "]");
}

/* " (mdlh2)" */
static void add_host_name(rt_text *t, const char *h)
{
    rt_text_str(t, " (");
    rt_text_str(t, h);
    rt_text_str(t, ")");
}

static void add_host(rt_text *t, int task, int inst)
{
    const char *h = host_of(task, inst);
    if (h)
        add_host_name(t, h);
}

/* The name of the task of world rank r: from the descriptor, which names
 * only this task and those it is connected with, else as exchanged. */
static const char *task_name(int task, int r)
{
    if (stop.d->tasks[task])
        return stop.d->tasks[task];
    return stop.rank_task && r < stop.nranks && stop.rank_task[r][0] ? stop.rank_task[r] : "?";
}

/* "; lost: f[2], f[3] (mdlh2), g[0] (mdlh3)": the instances the probe
 * found gone, task by task, each run of one host followed by its name;
 * nothing when none is or nothing is known. */
static void add_lost(rt_text *t)
{
    const unsigned char *lost = stop.rank ? rt_probe_lost() : NULL;
    const char *sep = "; lost: ", *host = NULL;
    for (int task = 0; lost && task < stop.d->ntasks; task++)
        for (int inst = 0; inst < stop.fam_size[task]; inst++) {
            int r = stop.rank[stop.first[task] + inst];
            if (r < 0 || !lost[r])
                continue;
            const char *h = host_of(task, inst);
            if (host && (!h || strcmp(h, host) != 0))
                add_host_name(t, host);
            host = h;
            rt_text_str(t, sep);
            add_instance(t, task_name(task, r), inst);
            sep = ", ";
        }
    if (host)
        add_host_name(t, host);
}

/* The line, written with one write(2). */
static void say_stopped(void)
{
    int shown[RT_LIST_SHOWN];
    rt_call k;
    rt_call_now(&k, shown);
    char line[4096], fn[160], peer[256];
    rt_text t = { line, sizeof line - 1, 0 };
    add_instance(&t, stop.who.task, stop.who.inst);
    add_host(&t, stop.d->self, stop.who.inst);
    rt_text_str(&t, ": stopped by SIGTERM ");
    if (!k.fn && !k.wait) {
        rt_text_str(&t, "before its first MeDLey call");
    } else {
        rt_text_str(&t, k.blocked ? "in " : "after ");
        rt_text_str(&t, rt_call_fn(&k, fn, sizeof fn));
        rt_call_peer(&k, stop.d, stop.fam_size, peer, sizeof peer);
        if (k.blocked && peer[0]) {
            int task, inst = rt_call_peer_inst(&k, stop.d, stop.fam_size, &task);
            rt_text_str(&t, ", waiting for ");
            rt_text_str(&t, peer);
            add_host(&t, task, inst);
        }
    }
    add_lost(&t);
    line[t.at++] = '\n';     /* room kept: len is one short of the line */
    ssize_t written = write(STDERR_FILENO, line, t.at);
    (void)written;              /* nothing to do about a closed stderr here */
}

/* Before this process dies: the launcher SIGKILLs the others as soon as
 * the first one has died of its SIGTERM (Open MPI's daemon 1-2 ms later,
 * Hydra at once), and on a loaded machine another process of the host may
 * not have had a CPU yet to write its line: so until every host peer has
 * written its own (their words `said`), at most STOP_WAIT_NS, as long as
 * Open MPI's daemon gives them before its own SIGKILL (a peer that got no
 * SIGTERM, or has no handler, never says).  Without the shared words, a
 * fixed pause, which a loaded machine may outlast. */
static void host_said(void)
{
    unsigned **peers = __atomic_load_n(&stop.peers_said, __ATOMIC_ACQUIRE);
    int n = peers ? stop.npeers : 0;
    if (!peers) {
        struct timespec pause = { 0, STOP_PAUSE_NS };
        nanosleep(&pause, NULL);
        return;
    }
    uint64_t until = mdl_mono_ns() + STOP_WAIT_NS;
    for (int i = 0; i < n && mdl_mono_ns() < until;) {
        if (__atomic_load_n(peers[i], __ATOMIC_ACQUIRE)) {
            i++;
            continue;
        }
        struct timespec poll = { 0, STOP_POLL_NS };
        nanosleep(&poll, NULL);
    }
}

static void on_term(int sig, siginfo_t *info, void *ctx)
{
    int saved = errno;
    /* One line while a handler runs: SIGTERM is blocked only in the thread
     * that took it, so a second one may run this handler in another thread
     * meanwhile (seen: diag/sigterm on MPICH, a process's line twice). */
    int mine = !__atomic_exchange_n(&stop.busy, 1, __ATOMIC_SEQ_CST);
    if (mine) {
        say_stopped();
        unsigned *said = __atomic_load_n(&stop.said, __ATOMIC_ACQUIRE);
        if (said)
            __atomic_store_n(said, 1, __ATOMIC_RELEASE);
    }
    if (stop.before.sa_flags & SA_SIGINFO) {
        stop.before.sa_sigaction(sig, info, ctx);
    } else if (stop.before.sa_handler != SIG_DFL) {
        stop.before.sa_handler(sig);
    } else {
        host_said();
        /* the default action, once this handler returns (SIGTERM is
         * blocked until then) */
        sigaction(SIGTERM, &stop.before, NULL);
        raise(SIGTERM);
    }
    /* a chained handler let the process live: the next SIGTERM speaks (only
     * the handler that spoke frees the line: another that ran meanwhile
     * would let a third SIGTERM speak twice) */
    if (mine)
        __atomic_store_n(&stop.busy, 0, __ATOMIC_SEQ_CST);
    errno = saved;
}

void rt_stop_hosts(const mdl_task_desc *d, const int *fam_size, int n, const int *task_of,
                   const int *inst_of, const char *ids, size_t stride)
{
    if (stop.installed)
        return;
    rt_stop_end();
    int all = 0;
    for (int t = 0; t < d->ntasks; t++)
        all += fam_size[t];
    stop.fam_size = malloc(2 * sizeof(int) * (size_t)d->ntasks);
    stop.host = calloc((size_t)(all ? all : 1), sizeof *stop.host);
    stop.rank = malloc(sizeof(int) * (size_t)(all ? all : 1));
    if (!stop.fam_size || !stop.host || !stop.rank) {
        rt_stop_end();
        return;
    }
    stop.first = stop.fam_size + d->ntasks;
    for (int t = 0, at = 0; t < d->ntasks; at += fam_size[t], t++) {
        stop.fam_size[t] = fam_size[t];
        stop.first[t] = at;
    }
    for (int i = 0; i < all; i++)
        stop.rank[i] = -1;
    for (int r = 0; r < n; r++) {
        const char *id = ids + (size_t)r * stride;
        size_t len = strcspn(id, "\n");
        if (task_of[r] < 0 || task_of[r] >= d->ntasks || inst_of[r] >= fam_size[task_of[r]])
            continue;
        stop.rank[stop.first[task_of[r]] + inst_of[r]] = r;
        char *h = stop.host[stop.first[task_of[r]] + inst_of[r]];
        memcpy(h, id, len < RT_HOST_NAME_BYTES - 1 ? len : RT_HOST_NAME_BYTES - 1);
    }
}

void rt_stop_task_names(int n, const char *names, size_t stride)
{
    if (stop.installed || !stop.fam_size ||
        !(stop.rank_task = calloc((size_t)n, sizeof *stop.rank_task)))
        return;
    stop.nranks = n;
    for (int r = 0; r < n; r++) {
        const char *s = names + (size_t)r * stride;
        size_t len = strnlen(s, RT_TASK_NAME_BYTES - 1);
        memcpy(stop.rank_task[r], s, len);
    }
}

void rt_stop_share(unsigned *said, unsigned *const *peers_said, int n)
{
    unsigned **was = stop.peers_said, **copy = NULL;
    if (said && n > 0 && (copy = malloc(sizeof *copy * (size_t)n)))
        memcpy(copy, peers_said, sizeof *copy * (size_t)n);
    /* a handler reads said, then peers_said and npeers: gone first */
    __atomic_store_n(&stop.peers_said, NULL, __ATOMIC_RELEASE);
    __atomic_store_n(&stop.said, copy ? said : NULL, __ATOMIC_RELEASE);
    stop.npeers = copy ? n : 0;
    __atomic_store_n(&stop.peers_said, copy, __ATOMIC_RELEASE);
    free(was);
}

void rt_stop_start(const mdl_task_desc *d, mdl_who who)
{
    struct sigaction sa, was;
    if (stop.installed || sigaction(SIGTERM, NULL, &was) != 0 ||
        (!(was.sa_flags & SA_SIGINFO) && was.sa_handler == SIG_IGN))
        return;
    stop.d = d;
    stop.who = who;
    stop.before = was;
    stop.busy = 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_term;
    /* a handler chained to keeps the flags and mask it was set with */
    sa.sa_flags = SA_SIGINFO | (was.sa_flags & SA_RESTART);
    sa.sa_mask = was.sa_mask;
    stop.installed = sigaction(SIGTERM, &sa, NULL) == 0;
}

void rt_stop_end(void)
{
    if (stop.installed) {
        struct sigaction now;
        /* put back only our own: a handler the program set since stays */
        if (sigaction(SIGTERM, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) &&
            now.sa_sigaction == on_term)
            sigaction(SIGTERM, &stop.before, NULL);
        stop.installed = 0;
    }
    free(stop.fam_size);
    free(stop.host);
    free(stop.rank);
    free(stop.rank_task);
    rt_stop_share(NULL, NULL, 0);
    stop.fam_size = stop.first = stop.rank = NULL;
    stop.host = NULL;
    stop.rank_task = NULL;
    stop.nranks = 0;
    rt_probe_end();
}
