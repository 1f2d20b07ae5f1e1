/* The monotonic clock as medley reads it everywhere: the trace's clock
 * without a TSC, the shm runtime's waits, the hang watch, the SIGTERM
 * line's wait, the probe's deadlines, mdlrun.  clock_gettime is
 * async-signal-safe, so the signal handlers may read it too. */
#ifndef MDL_CLOCK_H
#define MDL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns. */
static inline uint64_t mdl_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC in seconds. */
static inline double mdl_mono_seconds(void)
{
    return (double)mdl_mono_ns() * 1e-9;
}

#endif
