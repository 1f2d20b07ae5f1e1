/* stress_rtpgrid: a randomized stress test of a struct-typed variable
 * sized at run time on a periodic 2-D grid.  From a seed every instance
 * draws the same schedule: per phase the tile's shape a x b (1 to a
 * dozen, odd, non-square; kept or drawn again), set by MDL_Allocate (new
 * storage must be zero; kept storage keeps its contents), then:
 *   - the halo exchange of the struct matrix P, wrapping around both
 *     dimensions: strided columns north and south, rows east and west,
 *     one corner element to the north-east neighbour;
 *   - an Allgather of the run-time-sized struct vector R into G.
 * Every field of every element of P and G is checked: the ones written
 * and that nothing else was (the struct's padding is not compared).
 * With 2 or 3 instances a dimension is 1 or 2 wide: the neighbour on both
 * sides is one instance, or the instance itself.
 *
 * Seeds: "first count" on the command line (default 1 4), or
 * MDL_STRESS_SEEDS="first count"; phases per seed MDL_STRESS_ROUNDS
 * (default 8).  A failure names the seed, phase and step, so that
 * MDL_STRESS_SEEDS="<seed> 1" replays it. */
#include <stdio.h>
#include <string.h>

#include "../stress_common.h"
#include "pMDL.h"

typedef struct Q Q;

static uint64_t rng, seed;
static int me, np, phase;

static int below(int n)
{
    return n <= 1 ? 0 : (int)(stress_next(&rng) % (uint64_t)n);
}

/* Element k of variable `var` (0 P, 1 R) of instance `rank` in this seed
 * and phase: every field differs from element to element. */
static Q val(int rank, int var, long k)
{
    uint64_t h = stress_mix(seed, (uint64_t)phase * 4 + (uint64_t)var, (uint64_t)rank);
    Q q;
    memset(&q, 0, sizeof q);
    q.tag = (char)(1 + (h + (uint64_t)k) % 120);
    for (int c = 0; c < 3; c++)
        q.v[c] = (double)((h & 0xFFFFF) << 16) + (double)(k * 4 + c);
    q.id = (int)(h >> 40) ^ (int)k;
    return q;
}

static Q mark(void)
{
    Q q;
    memset(&q, 0, sizeof q);
    q.tag = -1;
    q.v[0] = q.v[1] = q.v[2] = -1.0;
    q.id = -1;
    return q;
}

static int same(Q x, Q y)
{
    return x.tag == y.tag && x.v[0] == y.v[0] && x.v[1] == y.v[1] && x.v[2] == y.v[2] &&
           x.id == y.id;
}

static int fail(const char *step, const char *what)
{
    fprintf(stderr, "p[%d]: seed %llu phase %d: %s: %s\n", me, (unsigned long long)seed, phase,
            step, what);
    return 1;
}

/* The instance at offset (dx, dy) of coordinates c, wrapped around. */
static int neighbour(struct p *t, const int *dims, const int *c, int dx, int dy)
{
    int nc[2] = { (c[0] + dx + dims[0]) % dims[0], (c[1] + dy + dims[1]) % dims[1] }, r;
    return MDL_Grid_Rank(t, nc, &r) == MDL_SUCCESS ? r : -1000;
}

/* The halo exchange of P; every element of P checked. */
static int halo(struct p *t, const int *dims, const int *c)
{
    int a = t->a, b = t->b;
    long w2 = b + 2;
    Q *P = t->P;
    for (int i = 0; i < a + 2; i++)
        for (int j = 0; j < b + 2; j++)
            P[i * w2 + j] = i >= 1 && i <= a && j >= 1 && j <= b ? val(me, 0, i * w2 + j) : mark();
    int north = neighbour(t, dims, c, 0, 1), south = neighbour(t, dims, c, 0, -1);
    int east = neighbour(t, dims, c, 1, 0), west = neighbour(t, dims, c, -1, 0);
    int sw = neighbour(t, dims, c, -1, -1);
    if (north < 0 || south < 0 || east < 0 || west < 0 || sw < 0)
        return fail("halo", "MDL_Grid_Rank");
    if (MDL_SendTo_p_n(t) < 0 || MDL_SendTo_p_s(t) < 0 || MDL_SendTo_p_e(t) < 0 ||
        MDL_SendTo_p_w(t) < 0 || MDL_SendTo_p_ne(t) < 0)
        return fail("halo", "send");
    if (MDL_RecvFrom_p_n(t) != MDL_SUCCESS || MDL_RecvFrom_p_s(t) != MDL_SUCCESS ||
        MDL_RecvFrom_p_e(t) != MDL_SUCCESS || MDL_RecvFrom_p_w(t) != MDL_SUCCESS ||
        MDL_RecvFrom_p_ne(t) != MDL_SUCCESS)
        return fail("halo", "receive");
    if (MDL_nWait(t) < 0 || MDL_sWait(t) < 0 || MDL_eWait(t) < 0 || MDL_wWait(t) < 0 ||
        MDL_neWait(t) < 0)
        return fail("halo", "wait");
    for (int i = 0; i < a + 2; i++)
        for (int j = 0; j < b + 2; j++) {
            int inside_i = i >= 1 && i <= a, inside_j = j >= 1 && j <= b;
            Q want = mark();
            if (inside_i && inside_j)
                want = val(me, 0, i * w2 + j);
            else if (inside_i && j == 0)
                want = val(south, 0, i * w2 + b);
            else if (inside_i && j == b + 1)
                want = val(north, 0, i * w2 + 1);
            else if (inside_j && i == 0)
                want = val(west, 0, a * w2 + j);
            else if (inside_j && i == a + 1)
                want = val(east, 0, 1 * w2 + j);
            else if (i == 0 && j == 0)
                want = val(sw, 0, a * w2 + b);
            if (!same(P[i * w2 + j], want))
                return fail("halo", inside_i || inside_j || (i == 0 && j == 0)
                                        ? "element"
                                        : "corner written that no message names");
        }
    return 0;
}

/* The Allgather of R into G; every element of G checked. */
static int gather(struct p *t)
{
    long a = t->a;
    for (long k = 0; k < a; k++)
        t->R[k] = val(me, 1, k);
    for (long k = 0; k < np * a; k++)
        t->G[k] = mark();
    if (MDL_Allgather_ag(t) != MDL_SUCCESS)
        return fail("Allgather", "call");
    for (long k = 0; k < np * a; k++)
        if (!same(t->G[k], val((int)(k / a), 1, k % a)))
            return fail("Allgather", "element");
    return 0;
}

static int zeroed(const Q *x, long n)
{
    static const Q zero;
    for (long k = 0; k < n; k++)
        if (memcmp(&x[k], &zero, sizeof zero) != 0)
            return 0;
    return 1;
}

/* The shape of this phase, drawn or kept, then MDL_Allocate.  Phase 0
 * draws it, so that a seed run alone replays what it did after others. */
static int allocate(struct p *t)
{
    int was[2] = { t->a, t->b };
    Q *u = t->P, before[14 * 14];     /* P as the last phase left it (a, b <= 12) */
    long un = u ? (long)(t->a + 2) * (t->b + 2) : 0;
    if (u)
        memcpy(before, u, sizeof(Q) * (size_t)un);
    if (phase == 0 || below(3)) {
        t->a = 1 + below(below(3) ? 12 : 2);
        t->b = 1 + below(below(3) ? 12 : 2);
    }
    int same_tile = u && t->a == was[0] && t->b == was[1];
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return fail("MDL_Allocate", "refused");
    if (same_tile && (t->P != u || memcmp(before, t->P, sizeof(Q) * (size_t)un) != 0))
        return fail("MDL_Allocate", "storage or contents lost though the shape did not change");
    /* R and G are sized by a alone: they keep their storage when only b changed */
    if ((!same_tile && !zeroed(t->P, (long)(t->a + 2) * (t->b + 2))) ||
        (t->a != was[0] && !(zeroed(t->R, t->a) && zeroed(t->G, (long)np * t->a))))
        return fail("MDL_Allocate", "new storage not zeroed");
    return 0;
}

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    np = MDL_FamilySize(t);
    int dims[2] = { 0, 0 }, c[2];
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS || MDL_Grid_Mycoords(t, c) != MDL_SUCCESS)
        return fail("grid", "create");
    long first, count, phases;
    stress_seeds(argc, argv, 4, 8, &first, &count, &phases);
    t->np = np;
    for (long sd = first; sd < first + count; sd++) {
        seed = (uint64_t)sd;
        rng = stress_mix(seed, 0x9e7, 0) | 1;
        for (phase = 0; phase < phases; phase++)
            if (allocate(t) || halo(t, dims, c) || gather(t))
                return 1;
        if (MDL_Barrier(t) != MDL_SUCCESS)
            return fail("barrier", "call");
    }
    if (me == 0)
        printf("p[0] ok: seeds %ld..%ld, %ld phases each, %d x %d instances\n", first,
               first + count - 1, phases, dims[0], dims[1]);
    MDL_End(t);
    return 0;
}
