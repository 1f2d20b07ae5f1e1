/* Iterations of the oversubscribed benchmark, shared by all variants.
 * MPICH busy-waits: ~33 ms per iteration with 8 processes on 2 cores, so
 * iterations are few. */
#ifndef RN
#define RN (128)        /* = the spec's const */
#endif

static inline void ov_plan(int np, int quick, int *iters, int *batches)
{
    *iters = quick ? 2 : np <= 8 ? 8 : 4;
    *batches = quick ? 1 : 3;
}
