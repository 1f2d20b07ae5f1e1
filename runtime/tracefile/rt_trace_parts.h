/* rt_trace_parts.h — where the MPI runtime keeps each process's trace
 * while the job runs: its image (rt_trace_image.h) is a file of its own,
 * its part (below), mapped shared, so that what a process recorded
 * outlives it.  The instance that reports a fatal error adds the other
 * processes' calls to the file it writes, and `mdltrace --recover FILE`
 * writes the trace of a job that was killed (docs/tracing.md §5.3).
 * Nothing here calls MPI: mdltrace links it too. */
#ifndef MDL_RT_TRACE_PARTS_H
#define MDL_RT_TRACE_PARTS_H

#include <stddef.h>

#include "rt_trace_write.h"

/* Where the parts of the trace FILE (an absolute path) are: the start of
 * their paths, the rank follows; malloc'd (NULL: out of memory).  In
 * /dev/shm, the node's memory, when it is a writable directory:
 * /dev/shm/mdltrace.<uid>.<FILE with each / as %>.part.  — no file system
 * traffic however many processes trace, and a process killed leaves its
 * part in memory, not half written back to a parallel file system.  Else
 * (or when that name would be too long) next to FILE: FILE.part. */
char *rt_trace_part_prefix(const char *file);

/* The part of `rank`: the prefix and the rank, malloc'd. */
char *rt_trace_part_path(const char *file, int rank);

/* Removes the part of `rank`.  0, or -1 (none, or out of memory). */
int rt_trace_part_remove(const char *file, int rank);

/* Part `rank` of FILE, read whole into memory: the head checked, the
 * records up to the `used` its head said.  A part whose process has not
 * ended gets the end of its clock calibration sampled now, which only
 * this host can do: a part written on another host is refused; and the
 * call it was in, if any, is added as a call that failed with "had not
 * returned when the job ended", lasting until now if its process is
 * `alive` (the job is being ended under it), else no time (when it
 * stopped is not known); *in_call (when in_call is not NULL) says whether
 * it was in one.  NULL with the reason in why. */
rt_trace_img *rt_trace_part_read(const char *file, int rank, int alive, int *in_call, char *why,
                                  size_t len);

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
