/* Sizes and iteration counts of the ping-pong, shared by all variants:
 * 8 B, then the powers of 4 from 16 B to 4 MiB. */
#define PP_MIN 8L
#define PP_MAX 4194304L
#define PP_BATCHES 7
#define PP_QUICK_BATCHES 3

static inline long pp_next(long size)
{
    return size == 8 ? 16 : size * 4;
}

/* about 4 MiB moved per batch, at least 8 and at most 1000 round trips */
static inline int pp_iters(long size)
{
    long n = 4194304L / size;
    return n < 8 ? 8 : n > 1000 ? 1000 : (int)n;
}
