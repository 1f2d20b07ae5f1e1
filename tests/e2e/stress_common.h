/* stress_common.h — what the randomized stress tests share (stress_p2p,
 * stress_coll, stress_grid, and on run-time-sized variables stress_rtsize
 * and stress_rtgrid): the hash their values are derived from, the
 * random stream their schedules are drawn from, and the seeds given in
 * the environment.  Included as "../stress_common.h". */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* A hash of three numbers: the values of a message or a variable. */
static uint64_t stress_mix(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL ^
                 (c + 1) * 0x165667B19E3779F9ULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    return h ^ (h >> 29);
}

/* xorshift64: every instance that starts from one state draws the same
 * numbers (the state must not be 0). */
static uint64_t stress_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Number `field` (from 0) of the environment variable `name`, e.g. 1 of
 * MDL_STRESS_SEEDS="first count", or dflt when it is unset or short. */
static long stress_env_long(const char *name, int field, long dflt)
{
    const char *v = getenv(name);
    if (!v)
        return dflt;
    char *end;
    long x = dflt;
    for (int i = 0; i <= field; i++) {
        errno = 0;
        x = strtol(v, &end, 10);
        if (end == v || errno)
            return dflt;
        v = end;
    }
    return x;
}

/* The seeds and rounds of a run: seeds `first count` from the command
 * line (else 1 and dflt_count), rounds dflt_rounds; MDL_STRESS_SEEDS=
 * "first count" and MDL_STRESS_ROUNDS override them. */
static void stress_seeds(int argc, char **argv, long dflt_count, long dflt_rounds, long *first,
                         long *count, long *rounds)
{
    *first = stress_env_long("MDL_STRESS_SEEDS", 0, argc > 2 ? atol(argv[1]) : 1);
    *count = stress_env_long("MDL_STRESS_SEEDS", 1, argc > 2 ? atol(argv[2]) : dflt_count);
    *rounds = stress_env_long("MDL_STRESS_ROUNDS", 0, dflt_rounds);
}
