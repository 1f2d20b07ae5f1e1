/* rt_trace_parts.h — where the MPI runtime keeps each process's trace
 * while the job runs: its image (rt_trace_image.h) is in a file of its
 * own, its part, mapped shared, so that what a process recorded outlives
 * it.  The instance that reports a fatal error adds the other processes'
 * calls to the file it writes, and `mdltrace --recover FILE` writes the
 * trace of a job that was killed (docs/tracing.md §5.3).  Nothing here
 * calls MPI: mdltrace links it too.
 *
 * Parts live in the user's private directory (common/safe_files.h:
 * /dev/shm/medley-<uid>, mode 0700; removed once empty by whoever removes
 * a part or is done with them, rt_trace_parts_done), named
 *     trace.<H>.<J>.<R>
 * H: FNV-1a of FILE's absolute path, J: the job's id (both 16 hex
 * digits), R: the world rank.  Two jobs, or two traces, never share a
 * name; the part's head names its trace in full, so that two paths of
 * one hash are told apart.  A part is created exclusively (a name already
 * taken is an error, never reused), mode 0600.
 *
 * Everything read from a part is checked before it is used — every
 * field of the head, every offset and count of the image: a part may be
 * half written, damaged, or from another build. */
#ifndef MDL_RT_TRACE_PARTS_H
#define MDL_RT_TRACE_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "rt_trace_write.h"

#define RT_TRACE_PART_MAGIC   0x4d444c5041525453ull     /* "MDLPARTS" */
#define RT_TRACE_PART_VERSION 1u
#define RT_TRACE_MAX_PROCS    (1 << 24)     /* processes of a job, as a part says */
#define RT_TRACE_MAX_PARTS    65536         /* parts of one trace on one host */

/* A part: this head, the trace's absolute path (NUL-terminated) after it,
 * then at `image` (whole pages) the image of `image_size` bytes. */
typedef struct rt_trace_part_head {
    uint64_t magic;
    uint32_t version;
    uint32_t path_len;          /* bytes of the path, its NUL not counted */
    uint64_t job;
    int32_t rank, size;         /* the process's world rank, the world's size */
    uint64_t image;
    uint64_t image_size;
} rt_trace_part_head;

/* Whether this process can make parts: its private directory is usable
 * (created if need be).  0, or -1 with the reason in why. */
int rt_trace_parts_usable(char *why, size_t len);

/* A new job id (random, never 0): world rank 0 draws it, every process
 * names its part with it. */
uint64_t rt_trace_part_new_job(void);

/* Creates the part of process `rank` (of `size`) of job `job`, tracing
 * to FILE (absolute), with room for an image of image_size bytes
 * reserved now (a full /dev/shm is an error here, not a SIGBUS when the
 * image is touched), and maps the image shared: *img.  0, or -1 with the
 * reason in why. */
int rt_trace_part_create(const char *file, uint64_t job, int rank, int size, size_t image_size,
                         void **img, char *why, size_t len);

/* Gives the part made by rt_trace_part_create the name readers list,
 * once its image is whole: a reader (mdltrace --recover while the job
 * starts) never meets a part whose image is still being written.  0, or
 * -1 with the reason in why. */
int rt_trace_part_publish(const char *file, uint64_t job, int rank, char *why, size_t len);

/* The end of this process's use of parts (its own removed, or never
 * made: a failed MDL_Init): the private directory removed if empty
 * (mdl_private_dir_release; another job's parts keep it). */
void rt_trace_parts_done(void);

/* Removes the part of `rank` of job `job`, published or not, then
 * rt_trace_parts_done.  0, or -1. */
int rt_trace_part_remove(const char *file, uint64_t job, int rank);

typedef struct rt_trace_part_id {
    uint64_t job;
    int32_t rank;
} rt_trace_part_id;

/* The parts of FILE on this host, found by listing the private directory
 * (names only: a part of another trace of the same hash is told apart
 * when it is read).  *ids malloc'd; their count, or -1 with the reason in
 * why (the directory refused, more than RT_TRACE_MAX_PARTS). */
int rt_trace_parts_list(const char *file, rt_trace_part_id **ids, char *why, size_t len);

/* Part (job, rank) of FILE read into memory and checked: the head, the
 * image's head, the records up to the `used` its head said.  A part whose
 * process has not ended gets the end of its clock calibration sampled
 * now, which only this host can do: a part written on another host is
 * refused; and the call it was in, if any, is added as a call that failed
 * with "had not returned when the job ended", lasting until now if its
 * process is `alive` (the job is being ended under it), else no time
 * (when it stopped is not known); *in_call (when not NULL) says whether
 * it was in one.  *size (when not NULL): the job's number of processes.
 * NULL with the reason (naming the part) in why. */
rt_trace_img *rt_trace_part_read(const char *file, uint64_t job, int rank, int alive,
                                 int *in_call, int *size, char *why, size_t len);

/* Only the head of part (job, rank) of FILE, checked, as it is now. */
rt_trace_img *rt_trace_part_read_head(const char *file, uint64_t job, int rank, int *size,
                                      char *why, size_t len);

/* The same as rt_trace_part_read from a part already open (`name` names
 * it in messages). */
rt_trace_img *rt_trace_part_load(int fd, const char *name, const char *file, uint64_t job,
                                 int rank, int alive, int *in_call, int *size, char *why,
                                 size_t len);

/* Whether part (job, rank) of FILE can be read and its process has ended
 * (it did, or was killed: its pid is gone, or is another process now). */
int rt_trace_part_stale(const char *file, uint64_t job, int rank);

/* At MDL_Init of job `job`: the parts of FILE that earlier jobs on this
 * host left and whose processes have ended are removed — those of
 * `rank`, and, for rank 0, those of ranks the job does not have — so
 * that mdltrace --recover finds this job's parts, not theirs. */
void rt_trace_parts_sweep(const char *file, uint64_t job, int rank, int size);

/* Each instance's ticks as ns since the job's origin, from its own
 * calibration; a process on another host than `ref` (when not NULL) is
 * aligned on the barrier of MDL_Init. */
void rt_trace_set_clocks(rt_trace_job *job, const rt_trace_img *ref);

/* The origin of the file's clock, for otherData. */
#define MPI_TRACE_CLOCK_TSC                                                                     \
    "TSC of each process calibrated against its CLOCK_MONOTONIC; processes on other hosts "     \
    "than rank 0 aligned at MDL_Init; 0 = the first MDL_Init"
#define MPI_TRACE_CLOCK_MONO                                                                    \
    "CLOCK_MONOTONIC; processes on other hosts than rank 0 aligned at MDL_Init; 0 = the "       \
    "first MDL_Init"

#endif
