/* pi: the sons' deterministic generator, shared so the father can check
 * every son's count exactly. */
#ifndef PI_COMMON_H
#define PI_COMMON_H
static long pi_hits(int rank, int batch, int number)
{
    unsigned long long s = 88172645463325252ULL ^ (unsigned long long)(rank * 1000 + batch + 1);
    long in = 0;
    for (int k = 0; k < number; k++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        double x = (double)(s >> 11) / 9007199254740992.0;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        double y = (double)(s >> 11) / 9007199254740992.0;
        in += x * x + y * y <= 1.0;
    }
    return in;
}
#define PI_BATCHES 3
#endif
