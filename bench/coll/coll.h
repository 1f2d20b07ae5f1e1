/* Sizes and iterations of the collective benchmark, shared by all
 * variants.  Bytes are per instance: the Bcast/Allreduce vector, the whole
 * Alltoall send buffer (nblk = bytes / 8 / instances per block). */
#ifndef MAXC
#define MAXC (131072)   /* = the spec's const */
#endif
#define COLL_BATCHES 3
#define COLL_QUICK_BATCHES 2

static const long coll_bytes[] = { 8 * 4, MAXC * 8 };   /* small: one double per block of 4 */
#define COLL_NSIZES 2

/* MPICH needs tens of milliseconds per collective with 4 busy-waiting
 * processes on 2 cores: few iterations. */
static inline int coll_iters(long bytes, int quick)
{
    int it = bytes <= 4096 ? 10 : 4;
    return quick ? it / 2 : it;
}
