/* mdlrun.h — internals of the launcher mdlrun, shared by its files:
 *   mdlrun.c        main, the segment
 *   mdlrun_args.c   command line and program look-up
 *   mdlrun_spawn.c  starting one instance
 *   mdlrun_watch.c  supervision and tear-down
 *   mdlrun_trace.c  MDL_TRACE: the job's clock and trace file
 *   mdlrun_deadlock.c  what the instances wait for: deadlocks, --timeout
 *   mdlrun_report.c mdlrun's own messages, the job's first failure
 * Each file calls only files listed after it (tests/cycles.sh). */
#ifndef MDLRUN_H
#define MDLRUN_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "shm/shm_job.h"

/* Exit statuses of mdlrun itself (docs/man/mdlrun.1 lists them all). */
#define MDLRUN_EXIT_FAIL      1     /* instance failed without a status of its own, or system error */
#define MDLRUN_EXIT_USAGE     2
#define MDLRUN_EXIT_TIMEOUT   124   /* --timeout expired, as timeout(1) */
#define MDLRUN_EXIT_DEADLOCK  125   /* the instances left can never continue */
#define MDLRUN_EXIT_NOEXEC    126   /* found but cannot be executed, as shells */
#define MDLRUN_EXIT_NOTFOUND  127

/* Upper bound on a count of the command line: keeps every count in 32
 * bits.  The job's segment holds far fewer (mdlrun_args.c). */
#define MDLRUN_MAX_INSTANCES  65536u

/* Between SIGTERM and SIGKILL when the job is torn down: the whole job
 * must be gone within a second of a death. */
#define MDLRUN_GRACE_MS       500

/* How often the watch loop looks for a deadlock: one is reported after two
 * looks that agree (mdlrun_deadlock.c), within about a second. */
#define MDLRUN_TICK_MS        250

struct mdlrun_scan;

/* One ':'-separated program of the command line. */
struct mdlrun_group {
    char **argv;            /* points into main's argv; NULL-terminated copy */
    const char *name;       /* basename of argv[0], for messages */
    char *path;             /* resolved file to execute (malloc'd) */
    unsigned n;             /* instances */
    unsigned first_slot;    /* slots first_slot .. first_slot+n-1 */
};

/* Per-slot bookkeeping of the launcher (the segment's slots are shared). */
struct mdlrun_inst {
    pid_t pid;              /* 0: not started, or reaped */
    unsigned group;
    unsigned index;         /* instance number within its group */
    int reaped;             /* how it ended (ws), for the trace: */
    int ws;
    int torn;               /* reaped once the job was being torn down */
};

/* MDL_TRACE (mdlrun_trace.c): the trace of the whole job. */
struct mdlrun_trace {
    char *path;             /* absolute; NULL: no trace */
    unsigned long long slots;
    int clock;              /* enum rt_trace_clock */
    unsigned long long tick0, ns0;  /* the clock at the start */
    char *command;          /* the command line, as text */
};

struct mdlrun_job {
    struct mdlrun_group *groups;
    unsigned ngroups;
    unsigned nslots;
    double timeout;         /* seconds; 0: none */

    int fd;                 /* the memfd segment (FD_CLOEXEC in the launcher) */
    mdl_shm_header *hdr;    /* mapping of header + slots only */
    size_t map_len;
    int devnull;            /* stdin of every instance but slot 0, or -1 */

    struct mdlrun_inst *inst;   /* nslots */
    unsigned running;       /* started and not yet reaped */
    pid_t launcher;
    sigset_t orig_mask;     /* restored in instances before exec */
    sigset_t stop_sigs;     /* of SIGINT, SIGTERM, SIGHUP: those not ignored */
    int suspendable;        /* SIGTSTP not ignored: Ctrl-Z stops the whole job */
    struct mdlrun_scan *scan;   /* the deadlock detector's looks */
    char first_error[512];  /* the first failure mdlrun reported, or "" */
    struct mdlrun_trace trace;
};

/* Parses argv into job->groups.  Returns -1 when mdlrun must exit with
 * *status (usage error, --help, --version: all messages printed), else 0. */
int mdlrun_parse(int argc, char **argv, struct mdlrun_job *job, int *status);

/* Finds every group's program the way execvp would, so that a missing or
 * non-executable program is reported before anything starts.  Returns 0,
 * or the exit status after printing why. */
int mdlrun_resolve(struct mdlrun_job *job);

void mdlrun_free(struct mdlrun_job *job);

/* Starts instance `slot`.  Returns its pid, or -1 with errno set.  When
 * the child could not exec the program, *exec_err is its errno (and the
 * child is already reaped); otherwise *exec_err is 0. */
pid_t mdlrun_spawn(struct mdlrun_job *job, unsigned slot, int *exec_err);

/* Supervises the running job until every instance is reaped (tearing it
 * down on the first failure or on a signal to the launcher) and returns
 * mdlrun's exit status.  `status` non-zero means the job is already
 * failing (a launch failure) and is torn down at once with that status. */
int mdlrun_watch(struct mdlrun_job *job, int status);

/* mdlrun_deadlock.c.  The wait records start with no instance identified. */
void mdlrun_waits_init(struct mdlrun_job *job);
/* "task[inst]" once the instance's library has identified it, else
 * "program[index within its group]". */
const char *mdlrun_name(const struct mdlrun_job *job, unsigned slot, char *buf, size_t len);
/* One look at the job; returns 1 when a deadlock is confirmed (two looks
 * agree) and reported, one line per deadlocked instance. */
int mdlrun_deadlock(struct mdlrun_job *job, double now);
/* One line per running instance: the call it waits in, or none. */
void mdlrun_report_calls(struct mdlrun_job *job, double now);
/* The wait each instance was asleep in when the job ended, for the trace:
 * out[slot] is "task[i]: FN: had not returned when the job ended (waiting
 * for …)" with its function and start (CLOCK_MONOTONIC ns), or an empty
 * text when it was in none.  0, or -1 when out of memory. */
struct mdlrun_open_wait {
    char fn[MDL_SHM_FN];
    uint64_t since_ns;
    char text[256];             /* an error text of the trace (RT_TEXT) */
};
int mdlrun_open_waits(struct mdlrun_job *job, struct mdlrun_open_wait *out);
void mdlrun_scan_free(struct mdlrun_job *job);

/* MDL_TRACE: read and checked before anything starts (-1: mdlrun exits
 * with *status, the message printed); the header told; the job's file
 * written from the instances' images once every instance is reaped. */
int mdlrun_trace_setup(struct mdlrun_job *job, int argc, char **argv, int *status);
void mdlrun_trace_header(struct mdlrun_job *job);
void mdlrun_trace_write(struct mdlrun_job *job, int status);
void mdlrun_trace_free(struct mdlrun_job *job);

/* mdlrun_report.c.  Prints "mdlrun: " + the formatted message + newline
 * on stderr. */
void mdlrun_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Keeps text as the job's failure for the trace, unless one is kept. */
void mdlrun_keep_error(struct mdlrun_job *job, const char *text);

#endif
