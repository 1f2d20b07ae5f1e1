/* mdlrun_watch.c — supervision of a running job and its tear-down.
 *
 * mdlrun blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP (those not ignored)
 * before starting anything and takes them with sigtimedwait here, so
 * there are no signal handlers and no race between a child's death and
 * the wait. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mdl_clock.h"
#include "mdlrun.h"

static int find_slot(const struct mdlrun_job *job, pid_t pid)
{
    for (unsigned s = 0; s < job->nslots; s++)
        if (job->inst[s].pid == pid)
            return (int)s;
    return -1;
}

/* Reports a failure of the job, kept as its first error (for the trace). */
static void report(struct mdlrun_job *job, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void report(struct mdlrun_job *job, const char *fmt, ...)
{
    char text[sizeof job->first_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    mdlrun_err("%s", text);
    mdlrun_keep_error(job, text);
}

/* Whether the reaped instance failed; if so, says why on stderr and
 * returns the exit status it gives mdlrun. */
static int failure(struct mdlrun_job *job, unsigned slot, pid_t pid, int ws)
{
    char name[96];
    mdlrun_name(job, slot, name, sizeof name);
    if (WIFSIGNALED(ws)) {
        int sig = WTERMSIG(ws);
        report(job, "%s (pid %d) killed by signal %d (%s)%s", name, (int)pid, sig,
               strsignal(sig), WCOREDUMP(ws) ? ", core dumped" : "");
        return 128 + sig;
    }
    if (WEXITSTATUS(ws) != 0) {
        report(job, "%s (pid %d) exited with status %d", name, (int)pid, WEXITSTATUS(ws));
        return WEXITSTATUS(ws);
    }
    /* The MPI runtime's words for the same fault (runtime/mpi/mpi_init.c). */
    if (__atomic_load_n(&job->hdr->slots[slot].state, __ATOMIC_ACQUIRE) != MDL_SLOT_ENDED) {
        report(job, "%s exited without calling MDL_End", name);
        return MDLRUN_EXIT_FAIL;
    }
    return 0;
}

/* Whether the reaped instance ended well: exit 0 after MDL_End. */
static int ended_well(const struct mdlrun_job *job, unsigned slot, int ws)
{
    return WIFEXITED(ws) && WEXITSTATUS(ws) == 0 &&
           __atomic_load_n(&job->hdr->slots[slot].state, __ATOMIC_ACQUIRE) == MDL_SLOT_ENDED;
}

/* The running instance whose fatal error stops the job (the library's
 * be_abort records it before it sets `aborting`), or -1. */
static int culprit(const struct mdlrun_job *job)
{
    uint32_t f = __atomic_load_n(&job->hdr->failed, __ATOMIC_ACQUIRE);
    if (f == 0 || f > job->nslots || job->inst[f - 1].pid <= 0)
        return -1;
    return (int)(f - 1);
}

/* Signals every running instance but `spare` (-1: none). */
static void signal_all(const struct mdlrun_job *job, int sig, int spare)
{
    for (unsigned s = 0; s < job->nslots; s++)
        if (job->inst[s].pid > 0 && (int)s != spare)
            kill(job->inst[s].pid, sig);
}

/* Tells the library the job is over, then asks every instance to stop.
 * With `wake`, instances blocked on their doorbell wake up, see `aborting`
 * and stop on MDL_ERR_PEER (another instance failed: theirs is a
 * consequence worth their trace).  Without (a deadlock, a timeout), they
 * are left asleep for the signal: the trace then shows the wait each was
 * in as mdlrun saw it (mdlrun_open_waits), not a failure that did not
 * happen.  The instance `spare` (-1: none) is leaving by itself and is
 * spared the signal: its own exit is the job's failure. */
static void tear_down(const struct mdlrun_job *job, int sig, int wake, int spare)
{
    __atomic_store_n(&job->hdr->aborting, 1u, __ATOMIC_SEQ_CST);
    for (unsigned s = 0; wake && s < job->nslots; s++) {
        uint32_t *bell = &job->hdr->slots[s].doorbell;
        __atomic_fetch_add(bell, 1u, __ATOMIC_SEQ_CST);
        syscall(SYS_futex, bell, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    }
    signal_all(job, sig, spare);
}

/* Ctrl-Z: the instances are sessions of their own (mdlrun_spawn.c), out
 * of the terminal's reach, so mdlrun stops them before itself, and
 * continues them when the shell continues it.  Returns the seconds the
 * job stood still, which --timeout does not count. */
static double suspend(const struct mdlrun_job *job)
{
    double stopped_at = mdl_mono_seconds();
    signal_all(job, SIGSTOP, -1);
    kill(getpid(), SIGSTOP);
    signal_all(job, SIGCONT, -1);
    return mdl_mono_seconds() - stopped_at;
}

int mdlrun_watch(struct mdlrun_job *job, int status)
{
    sigset_t set = job->stop_sigs;
    sigaddset(&set, SIGCHLD);
    if (job->suspendable)
        sigaddset(&set, SIGTSTP);

    int tearing = 0, killed = 0;
    int failing = 0;            /* a failure is reported or awaited */
    int blame = -1;             /* the culprit whose death is awaited */
    double kill_at = 0;
    double timeout_at = job->timeout > 0 ? mdl_mono_seconds() + job->timeout : 0;
    int stop_sig = 0;           /* non-zero: tear down with this signal */
    int wake = 1;               /* ... waking the instances asleep */
    if (status)
        stop_sig = SIGTERM;

    for (;;) {
        pid_t pid;
        int ws;
        while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
            int slot = find_slot(job, pid);
            if (slot < 0)
                continue;       /* a child mdlrun inherited through exec */
            job->inst[slot].pid = 0;
            job->inst[slot].reaped = 1;
            job->inst[slot].ws = ws;
            job->inst[slot].torn = tearing;
            job->running--;
            /* Once an instance has failed, or the job is being torn
             * down, deaths are its effect.  Peers stopped by an
             * instance's fatal error may be reaped before it: the job's
             * failure is then the culprit's, reported when it is reaped. */
            if ((!tearing && !failing) || slot == blame) {
                int c = blame >= 0 ? blame : culprit(job);
                if (c >= 0 && c != slot && !ended_well(job, (unsigned)slot, ws)) {
                    blame = c;
                    failing = 1;
                    stop_sig = SIGTERM;
                    continue;
                }
                int st = failure(job, (unsigned)slot, pid, ws);
                if (st) {
                    if (!status)
                        status = st;
                    failing = 1;
                    stop_sig = SIGTERM;
                }
                blame = -1;
            }
        }
        if (pid < 0 && errno != ECHILD && errno != EINTR) {
            mdlrun_err("waitpid: %s", strerror(errno));
            return MDLRUN_EXIT_FAIL;
        }
        if (job->running == 0 || (pid < 0 && errno == ECHILD))
            break;

        double t = mdl_mono_seconds();
        if (!tearing && timeout_at && t >= timeout_at) {
            report(job, "timeout after %g s: terminating the job", job->timeout);
            mdlrun_report_calls(job, t);
            status = MDLRUN_EXIT_TIMEOUT;
            stop_sig = SIGTERM;
            wake = 0;
        }
        if (!tearing && !stop_sig && mdlrun_deadlock(job, t)) {
            status = MDLRUN_EXIT_DEADLOCK;
            stop_sig = SIGTERM;
            wake = 0;
        }
        if (stop_sig && !tearing) {
            tear_down(job, stop_sig, wake, blame);
            tearing = 1;
            kill_at = t + MDLRUN_GRACE_MS / 1000.0;
        }
        if (tearing && !killed && t >= kill_at) {
            signal_all(job, SIGKILL, -1);
            killed = 1;
        }

        double wait_until = tearing ? (killed ? 0 : kill_at) : t + MDLRUN_TICK_MS / 1000.0;
        if (!tearing && timeout_at && timeout_at < wait_until)
            wait_until = timeout_at;
        struct timespec ts, *tsp = NULL;
        if (wait_until) {
            double d = wait_until - t;
            if (d < 0)
                d = 0;
            ts.tv_sec = (time_t)d;
            ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
            tsp = &ts;
        }
        siginfo_t info;
        int sig = sigtimedwait(&set, &info, tsp);
        if (sig == SIGTSTP) {
            double stood = suspend(job);
            if (timeout_at)
                timeout_at += stood;
        }
        else if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
            if (!tearing) {
                report(job, "%s: terminating the job", strsignal(sig));
                status = 128 + sig;
                stop_sig = sig;     /* forwarded as it came */
            } else if (!killed) {
                signal_all(job, SIGKILL, -1);   /* asked twice: no more grace */
                killed = 1;
            }
        }
    }
    return status;
}
