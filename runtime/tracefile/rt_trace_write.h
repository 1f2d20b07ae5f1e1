/* rt_trace_write.h — the job's trace file (docs/tracing.md §2) from the
 * instances' images (rt_trace_image.h), spelled as rt_trace_format.h says
 * (readers of the file get that through this header too).  Used where the
 * job ends: by mdlrun for the shared-memory runtime, by world rank 0 (or
 * by an instance on the fatal path) for MPI.  Nothing here knows either
 * runtime.
 *
 * The file is written in three steps so that a writer never needs every
 * instance's records at once: the metadata (from the images' heads), then
 * each instance's events, then otherData.  It goes to a temporary file
 * next to the target (mkstemp: nothing planted there is followed), renamed
 * over it at the end: a reader never sees half a trace.  A target that is
 * a device, a FIFO or a link of the user's own is written through
 * (common/safe_files.h: one another user planted is refused). */
#ifndef MDL_RT_TRACE_WRITE_H
#define MDL_RT_TRACE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_trace_image.h"

/* How an instance ended (rt_trace_format.h). */
enum rt_inst_end {
#define RT_X(id, name) RT_INST_##id,
    RT_TF_ENDS(RT_X)
#undef RT_X
};

typedef struct rt_trace_inst {
    const rt_trace_img *head;   /* its image (at least the head, checked), or
                                   NULL: nothing of it can be collected */
    int32_t slot;               /* job-wide number: tid - 1 */
    int32_t task, inst;         /* task -1: unknown (it died before MDL_Init) */
    const char *prog;           /* task unknown: the program, to name it */
    int end;                    /* enum rt_inst_end */
    /* its ticks as ns since the job's origin:
       ns = ns_at + (tick - tick_at) * ns_per_tick */
    uint64_t tick_at;
    double ns_at, ns_per_tick;
    /* set by the writer */
    int32_t pid;                /* its process in the file: task + 1 */
    uint64_t events;
    struct rt_trace_total *totals;  /* when it dropped calls */
    int32_t ntotals;
} rt_trace_inst;

typedef struct rt_trace_job {
    const char *runtime;        /* "mpi" or "shm" */
    const char *command;        /* how the job was started, or NULL */
    const char *clock;          /* the clock and its origin, or NULL */
    uint64_t buffer_events;
    int ended_by_error;
    const char *error;          /* the first error reported (ended_by_error) */
    int ninst;
    rt_trace_inst *inst;        /* every instance of the job, by slot */
} rt_trace_job;

typedef struct rt_trace_out rt_trace_out;

/* Opens the temporary file.  NULL on failure, with the reason in why. */
rt_trace_out *rt_trace_out_open(const char *path, char *why, size_t len);
/* The tracks: every instance, from the heads. */
void rt_trace_out_meta(rt_trace_out *o, rt_trace_job *job);
/* Instance i's calls and flows; img holds its records (checked). */
void rt_trace_out_events(rt_trace_out *o, rt_trace_job *job, int i, const rt_trace_img *img);
/* otherData, then the rename.  Returns 0, or -1 with the reason in why
 * (nothing is left behind).  Frees o. */
int rt_trace_out_close(rt_trace_out *o, rt_trace_job *job, char *why, size_t len);
/* Gives up: the temporary file is removed.  Frees o. */
void rt_trace_out_abandon(rt_trace_out *o, rt_trace_job *job);

/* A reading of the clock of the ticks (enum rt_trace_clock), for the
 * writers that calibrate them: the TSC, or CLOCK_MONOTONIC in ns. */
uint64_t rt_trace_read_clock(uint32_t clock);

/* The text of the first error (by the clock) an instance reported itself
 * among n images (NULL ones skipped), or NULL. */
const char *rt_trace_first_error(rt_trace_img *const *imgs, int n);

/* When process pid started (clock ticks after boot), 0 if unknown (it
 * does not exist or is a zombie, or no /proc). */
uint64_t rt_trace_proc_start(int pid);

/* The id of the function called `name` in img, or -1. */
int rt_trace_img_func(const rt_trace_img *img, const char *name);

/* img (malloc'd, records up to `used`) with one call more: func from t0
 * to t1 (ticks), failed with `err` and `text` — the call an instance was
 * in when its job ended under it, which it could not record (blocked all
 * along, for a runtime that times its waits).  The new
 * image, or NULL when out of memory (img freed). */
rt_trace_img *rt_trace_img_add_unfinished(rt_trace_img *img, uint32_t func, uint64_t t0,
                                          uint64_t t1, int err, const char *text);

/* MDL_TRACE and MDL_TRACE_BUFFER of the environment: 0 when no trace is
 * asked for; 1 with the file (not yet checked) and the record slots per
 * instance; -1 with the reason in why. */
#define RT_TRACE_DEFAULT_SLOTS (1u << 18)       /* 8 MiB of records */
#define RT_TRACE_MAX_SLOTS     (1u << 25)       /* 1 GiB, in memory: MDL_TRACE_BUFFER's cap */
#define RT_TRACE_MAX_HEAD      (64u << 20)      /* an image's names and tables: KiB in practice */
int rt_trace_request(const char **file, uint64_t *slots, char *why, size_t len);

/* A path made absolute against the current directory (so that the file
 * lands where the job was started even if a program changes directory),
 * its directory resolved by realpath when it exists (so that every
 * spelling of one file gives one name); malloc'd, NULL when out of
 * memory. */
char *rt_trace_abspath(const char *path);

/* Whether a file can be created at path (its directory exists and is
 * writable).  0, or -1 with the reason in why. */
int rt_trace_writable(const char *path, char *why, size_t len);

#endif
