/* stress_rtsize: a randomized differential stress test of run-time-sized
 * variables.  From a seed every instance draws the same schedule: per
 * round the shapes of A (r x c), B (rb x cb) and V (n), set by
 * MDL_Allocate (a variable whose shape changed gets new storage, which
 * must be zero; one whose shape did not keeps storage and contents), then
 * messages around the ring of instances: a block h x w from a random
 * place of A to a random place of B (rows, strided columns, whole rows,
 * single elements, empty ones), a slice of V into another place of the
 * receiver's V, then an Allreduce of V.  Checked: every element of every
 * block and slice, that nothing else of B or V was written, and the sum.
 *
 * Seeds: "first count" on the command line (default 1 4), or
 * MDL_STRESS_SEEDS="first count"; rounds per seed MDL_STRESS_ROUNDS
 * (default 8).  A failure names the seed, round and message. */
#include <stdio.h>
#include <string.h>

#include "../stress_common.h"
#include "sMDL.h"

static uint64_t rng;
static int me, np;

static int below(int n)
{
    return n <= 1 ? 0 : (int)(stress_next(&rng) % (uint64_t)n);
}

/* Element (i, j) of the sender's A in round `round` of seed `seed`. */
static double aval(uint64_t seed, int round, int sender, long i, long j)
{
    return (double)((stress_mix(seed, (uint64_t)round, (uint64_t)sender) & 0xFFFFF) << 20) +
           (double)(i * 4096 + j);
}

static int fail(uint64_t seed, int round, int k, const char *what)
{
    fprintf(stderr, "s[%d]: seed %llu round %d message %d: %s\n", me, (unsigned long long)seed,
            round, k, what);
    return 1;
}

/* One round; the shapes were drawn and allocated by the caller. */
static int round_run(struct s *t, uint64_t seed, int round)
{
    int r = t->r, c = t->c, rb = t->rb, cb = t->cb;
    long n = t->n;
    double (*A)[c] = (void *)t->A;
    double (*B)[cb] = (void *)t->B;
    const double mark = -1.0 - round;
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++)
            A[i][j] = aval(seed, round, me, i, j);
    for (int i = 0; i < rb; i++)
        for (int j = 0; j < cb; j++)
            B[i][j] = mark;
    int to = (me + 1) % np, from = (me + np - 1) % np;
    int nmsg = 1 + below(6);
    for (int k = 0; k < nmsg; k++) {
        /* the same draw on every instance: the block fits A and B */
        int h = below((r < rb ? r : rb) + 1), w = below((c < cb ? c : cb) + 1);
        if (below(4) == 0)
            h = h ? 1 : 0;              /* a row, strided nowhere */
        else if (below(4) == 0)
            w = w ? 1 : 0;              /* a strided column */
        int ai = below(r - h + 1), aj = below(c - w + 1);
        int bi = below(rb - h + 1), bj = below(cb - w + 1);
        if (MDL_SendTo_s_blk(t, to, ai, ai + h - 1, aj, aj + w - 1) != MDL_SUCCESS)
            return fail(seed, round, k, "send");
        if (MDL_RecvFrom_s_blk(t, from, bi, bi + h - 1, bj, bj + w - 1) != from)
            return fail(seed, round, k, "receive");
        if (MDL_blkWait(t) != MDL_SUCCESS)
            return fail(seed, round, k, "wait");
        for (int i = 0; i < rb; i++)
            for (int j = 0; j < cb; j++) {
                int in = i >= bi && i < bi + h && j >= bj && j < bj + w;
                double want = in ? aval(seed, round, from, ai + i - bi, aj + j - bj) : mark;
                if (B[i][j] != want)
                    return fail(seed, round, k, in ? "block element" : "written outside the block");
                B[i][j] = mark;
            }
    }
    /* a slice of V into another place of the receiver's V */
    long len = below((int)n / 2 + 1), at = below((int)(n - 2 * len) + 1);
    for (long i = 0; i < n; i++)
        t->V[i] = i >= at && i < at + len ? aval(seed, round, me, 7, i) : mark;
    if (MDL_SendTo_s_vec(t, to, (int)at, (int)(at + len - 1)) != MDL_SUCCESS ||
        MDL_RecvFrom_s_vec(t, from, (int)(at + len), (int)(at + 2 * len - 1)) != from ||
        MDL_vecWait(t) != MDL_SUCCESS)
        return fail(seed, round, nmsg, "vector");
    for (long i = 0; i < n; i++) {
        double want = i >= at && i < at + len ? aval(seed, round, me, 7, i)
                    : i >= at + len && i < at + 2 * len ? aval(seed, round, from, 7, i - len)
                    : mark;
        if (t->V[i] != want)
            return fail(seed, round, nmsg, "vector element");
    }
    for (long i = 0; i < n; i++)
        t->V[i] = (double)(me + 1) * (double)(i % 1000);
    if (MDL_Allreduce_sum(t) != MDL_SUCCESS)
        return fail(seed, round, nmsg + 1, "Allreduce");
    for (long i = 0; i < n; i++)
        if (t->S[i] != (double)np * (np + 1) / 2 * (double)(i % 1000))
            return fail(seed, round, nmsg + 1, "sum");
    return 0;
}

int main(int argc, char **argv)
{
    struct s *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    np = MDL_FamilySize(t);
    long first, count, rounds;
    stress_seeds(argc, argv, 4, 8, &first, &count, &rounds);
    for (long sd = first; sd < first + count; sd++) {
        rng = stress_mix((uint64_t)sd, 0x5eed, 0) | 1;
        for (int round = 0; round < rounds; round++) {
            int was[5] = { t->r, t->c, t->rb, t->cb, (int)t->n };
            void *pa = t->A, *pb = t->B, *pv = t->V;
            /* each shape kept or drawn again: small, thin, or large */
            static const int most[3] = { 8, 64, 400 };
            if (round == 0 || below(2)) {
                t->r = 1 + below(most[below(3)]);
                t->c = 1 + below(most[below(3)]);
            }
            if (round == 0 || below(2)) {
                t->rb = 1 + below(most[below(3)]);
                t->cb = 1 + below(most[below(3)]);
            }
            if (round == 0 || below(2))
                t->n = 2 + below(20000);
            if (MDL_Allocate(t) != MDL_SUCCESS)
                return fail((uint64_t)sd, round, -1, "MDL_Allocate");
            int same_a = t->r == was[0] && t->c == was[1];
            int same_b = t->rb == was[2] && t->cb == was[3], same_v = t->n == was[4];
            if ((same_a && t->A != pa) || (same_b && t->B != pb) || (same_v && t->V != pv))
                return fail((uint64_t)sd, round, -1, "storage moved though its shape did not change");
            if (!same_a)
                for (long i = 0; i < (long)t->r * t->c; i++)
                    if (t->A[i] != 0)
                        return fail((uint64_t)sd, round, -1, "new storage not zeroed");
            if (round_run(t, (uint64_t)sd, round))
                return 1;
        }
        if (MDL_Barrier(t) != MDL_SUCCESS)
            return fail((uint64_t)sd, (int)rounds, -1, "barrier");
    }
    if (me == 0)
        printf("s[0] ok: seeds %ld..%ld, %ld rounds each, %d instances\n", first,
               first + count - 1, rounds, np);
    MDL_End(t);
    return 0;
}
