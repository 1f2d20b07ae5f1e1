/* stress_rtgrid: a randomized differential stress test of run-time-sized
 * variables on a 2-D grid (not periodic).  From a seed every instance
 * draws the same schedule: per phase the tile's shape a x b and the
 * blocks' shape av x bv (1 to a dozen, odd, non-square; each kept or
 * drawn again), set by MDL_Allocate (a variable whose shape changed gets
 * new storage, which must be zero; one whose shape did not keeps it),
 * then:
 *   - the halo exchange of U, bounds naming the size variables: strided
 *     columns north and south, rows east and west;
 *   - a block of random shape and place of V to a random place of the
 *     north-east neighbour's W (bounds given at the call, empty ones too);
 *   - a piece of row 0 of V into a strided column of the east neighbour's W;
 *   - Bcast, Allgather, Scatter, Allreduce and Gather on the run-time-sized
 *     matrices M, S, G (counts, and a start inside U, drawn);
 *   - a size variable changed without MDL_Allocate: the call that uses it
 *     must be refused (MDL_ERR_STATE; MDL_ERRORS=return, see env), then
 *     the size set back.
 * Checked against a model: every element of every variable a message or
 * collective writes, and that nothing else was written.
 *
 * Two instances at least (Scatter's root is 1); the blocks travel only
 * between diagonal neighbours (four instances, 2 x 2).
 *
 * Seeds: "first count" on the command line (default 1 4), or
 * MDL_STRESS_SEEDS="first count"; phases per seed MDL_STRESS_ROUNDS
 * (default 8).  A failure names the seed, phase and step, so that
 * MDL_STRESS_SEEDS="<seed> 1" replays it. */
#include <stdio.h>
#include <string.h>

#include "../stress_common.h"
#include "gMDL.h"

static uint64_t rng, seed;
static int me, np, phase;
static const double mark = -1.0;

static int below(int n)
{
    return n <= 1 ? 0 : (int)(stress_next(&rng) % (uint64_t)n);
}

/* Element (i, j) of variable `var` (0 U, 1 V, 2 M, 3 G, 4 U again) of
 * instance `rank` in this seed and phase; exact in a double, and sums of
 * four of them too. */
static double val(int rank, int var, long i, long j)
{
    return (double)((stress_mix(seed, (uint64_t)phase * 8 + (uint64_t)var, (uint64_t)rank) &
                     0xFFFFF) << 20) + (double)(i * 4096 + j);
}

static int fail(const char *step, const char *what)
{
    fprintf(stderr, "g[%d]: seed %llu phase %d: %s: %s\n", me, (unsigned long long)seed, phase,
            step, what);
    return 1;
}

/* The instance at offset (dx, dy) of coordinates c, or MDL_PROC_NULL. */
static int neighbour(struct g *t, const int *dims, const int *c, int dx, int dy)
{
    int nc[2] = { c[0] + dx, c[1] + dy }, r;
    if (nc[0] < 0 || nc[0] >= dims[0] || nc[1] < 0 || nc[1] >= dims[1])
        return MDL_PROC_NULL;
    return MDL_Grid_Rank(t, nc, &r) == MDL_SUCCESS ? r : -1000;
}

static void fill(double *x, long n, int var)
{
    for (long k = 0; k < n; k++)
        x[k] = var < 0 ? mark : val(me, var, k, 0);
}

/* The halo exchange of U; every element of U checked. */
static int halo(struct g *t, const int *dims, const int *c)
{
    int a = t->a, b = t->b;
    double (*U)[b + 2] = (void *)t->U;
    for (int i = 0; i < a + 2; i++)
        for (int j = 0; j < b + 2; j++)
            U[i][j] = i >= 1 && i <= a && j >= 1 && j <= b ? val(me, 0, i, j) : mark;
    int north = neighbour(t, dims, c, 0, 1), south = neighbour(t, dims, c, 0, -1);
    int east = neighbour(t, dims, c, 1, 0), west = neighbour(t, dims, c, -1, 0);
    if (MDL_SendTo_g_n(t) < 0 || MDL_SendTo_g_s(t) < 0 || MDL_SendTo_g_e(t) < 0 ||
        MDL_SendTo_g_w(t) < 0)
        return fail("halo", "send");
    if (MDL_RecvFrom_g_n(t) != MDL_SUCCESS || MDL_RecvFrom_g_s(t) != MDL_SUCCESS ||
        MDL_RecvFrom_g_e(t) != MDL_SUCCESS || MDL_RecvFrom_g_w(t) != MDL_SUCCESS)
        return fail("halo", "receive");
    if (MDL_nWait(t) < 0 || MDL_sWait(t) < 0 || MDL_eWait(t) < 0 || MDL_wWait(t) < 0)
        return fail("halo", "wait");
    for (int i = 0; i < a + 2; i++)
        for (int j = 0; j < b + 2; j++) {
            int inside_i = i >= 1 && i <= a, inside_j = j >= 1 && j <= b;
            double want = mark;
            if (inside_i && inside_j)
                want = val(me, 0, i, j);
            else if (inside_i && j == 0 && south >= 0)
                want = val(south, 0, i, b);
            else if (inside_i && j == b + 1 && north >= 0)
                want = val(north, 0, i, 1);
            else if (inside_j && i == 0 && west >= 0)
                want = val(west, 0, a, j);
            else if (inside_j && i == a + 1 && east >= 0)
                want = val(east, 0, 1, j);
            if (U[i][j] != want)
                return fail("halo", "element");
        }
    return 0;
}

/* A block of V to the north-east neighbour's W, then a piece of V's row 0
 * into a column of the east neighbour's W; every element of W checked. */
static int blocks(struct g *t, const int *dims, const int *c)
{
    int av = t->av, bv = t->bv;
    double (*W)[bv] = (void *)t->W;
    fill(t->V, (long)av * bv, 1);
    fill(t->W, (long)av * bv, -1);
    int sw = neighbour(t, dims, c, -1, -1);
    int west = neighbour(t, dims, c, -1, 0);
    int h = below(av + 1), w = below(bv + 1);
    int vi = below(av - h + 1), vj = below(bv - w + 1);
    int wi = below(av - h + 1), wj = below(bv - w + 1);
    if (MDL_SendTo_g_blk(t, vi, vi + h - 1, vj, vj + w - 1) < 0 ||
        MDL_RecvFrom_g_blk(t, wi, wi + h - 1, wj, wj + w - 1) != MDL_SUCCESS ||
        MDL_blkWait(t) < 0)
        return fail("block", "send, receive or wait");
    for (int i = 0; i < av; i++)
        for (int j = 0; j < bv; j++) {
            int in = sw >= 0 && i >= wi && i < wi + h && j >= wj && j < wj + w;
            if (W[i][j] != (in ? val(sw, 1, (vi + i - wi) * (long)bv + vj + j - wj, 0) : mark))
                return fail("block", in ? "element" : "written outside the block");
            W[i][j] = mark;
        }
    int len = below((av < bv ? av : bv) + 1);
    int vl = below(bv - len + 1), wl = below(av - len + 1);
    if (MDL_SendTo_g_rc(t, vl, vl + len - 1) < 0 ||
        MDL_RecvFrom_g_rc(t, wl, wl + len - 1) != MDL_SUCCESS || MDL_rcWait(t) < 0)
        return fail("row into column", "send, receive or wait");
    for (int i = 0; i < av; i++)
        for (int j = 0; j < bv; j++) {
            int in = west >= 0 && j == 0 && i >= wl && i < wl + len;
            if (W[i][j] != (in ? val(west, 1, vl + i - wl, 0) : mark))
                return fail("row into column", in ? "element" : "written outside the column");
        }
    return 0;
}

/* Element k (row-major) of instance r's M, and of its U filled for the
 * Gather. */
static double mval(int r, long k)
{
    return val(r, 2, k, 0);
}

/* Collectives on the run-time-sized matrices; every element checked. */
static int collectives(struct g *t)
{
    long ab = (long)t->a * t->b, ub = (long)(t->a + 2) * (t->b + 2);
    fill(t->M, ab, 2);
    t->cnt = below((int)ab + 1);
    if (MDL_Bcast_bm(t) != MDL_SUCCESS)
        return fail("Bcast", "call");
    for (long k = 0; k < ab; k++)
        if (t->M[k] != mval(k < t->cnt ? 0 : me, k))
            return fail("Bcast", "element");
    fill(t->M, ab, 2);
    fill(t->G, np * ab, -1);
    if (MDL_Allgather_ag(t) != MDL_SUCCESS)
        return fail("Allgather", "call");
    for (long k = 0; k < np * ab; k++)
        if (t->G[k] != mval((int)(k / ab), k % ab))
            return fail("Allgather", "element");
    fill(t->G, np * ab, 3);
    fill(t->S, ab, -1);
    if (MDL_Scatter_sc(t) != MDL_SUCCESS)
        return fail("Scatter", "call");
    for (long k = 0; k < ab; k++)
        if (t->S[k] != val(1, 3, me * ab + k, 0))
            return fail("Scatter", "element");
    fill(t->S, ab, -1);
    t->cnt = below((int)ab + 1);
    if (MDL_Allreduce_ar(t) != MDL_SUCCESS)
        return fail("Allreduce", "call");
    for (long k = 0; k < ab; k++) {
        double want = k < t->cnt ? 0 : mark;
        for (int r = 0; k < t->cnt && r < np; r++)
            want += mval(r, k);
        if (t->S[k] != want)
            return fail("Allreduce", "element");
    }
    /* from U[1][1] on, across rows: its start is element b + 3 */
    fill(t->U, ub, 4);
    fill(t->G, np * ab, -1);
    t->cnt = below((int)ab + 1);
    if (MDL_Gather_ga(t) != MDL_SUCCESS)
        return fail("Gather", "call");
    for (long k = 0; me == 0 && k < np * ab; k++) {
        long r = k / (t->cnt ? t->cnt : 1), at = t->b + 3 + k % (t->cnt ? t->cnt : 1);
        if (t->G[k] != (k < np * t->cnt ? val((int)r, 4, at, 0) : mark))
            return fail("Gather", "element");
    }
    return 0;
}

/* A size changed without MDL_Allocate: the call using it is refused on
 * every instance (all draw the same), then the size is set back. */
static int stale_size(struct g *t)
{
    int *size, rc;
    switch (below(3)) {
    case 0:
        size = &t->a;
        ++*size;
        rc = MDL_SendTo_g_n(t);
        break;
    case 1:
        size = &t->bv;
        ++*size;
        rc = MDL_SendTo_g_blk(t, 0, 0, 0, 0);
        break;
    default:
        size = &t->np;
        ++*size;
        rc = MDL_Allgather_ag(t);
        break;
    }
    --*size;
    return rc == MDL_ERR_STATE ? 0 : fail("stale size", "call not refused");
}

static int zeroed(const double *x, long n)
{
    for (long k = 0; k < n; k++)
        if (x[k] != 0)
            return 0;
    return 1;
}

/* Shapes of this phase, drawn or kept, then MDL_Allocate; storage kept
 * when its shape is, new storage zeroed.  Phase 0 draws them all, so that
 * a seed run alone replays what it did after others. */
static int allocate(struct g *t)
{
    int was[4] = { t->a, t->b, t->av, t->bv };
    void *u = t->U, *v = t->V;
    double before[14 * 14];     /* U as the last phase left it (a, b <= 12) */
    long un = u ? (long)(t->a + 2) * (t->b + 2) : 0;
    if (u)
        memcpy(before, u, sizeof(double) * (size_t)un);
    if (phase == 0 || below(3)) {
        t->a = 1 + below(below(3) ? 12 : 2);
        t->b = 1 + below(below(3) ? 12 : 2);
    }
    if (phase == 0 || below(2)) {
        t->av = 1 + below(12);
        t->bv = 1 + below(12);
    }
    int same_tile = u && t->a == was[0] && t->b == was[1];
    int same_blk = v && t->av == was[2] && t->bv == was[3];
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return fail("MDL_Allocate", "refused");
    if ((same_tile && t->U != u) || (same_blk && t->V != v))
        return fail("MDL_Allocate", "storage moved though its shape did not change");
    if (same_tile && memcmp(before, t->U, sizeof(double) * (size_t)un) != 0)
        return fail("MDL_Allocate", "contents lost though the shape did not change");
    if (((uintptr_t)t->U | (uintptr_t)t->M | (uintptr_t)t->G | (uintptr_t)t->V) & 4095)
        return fail("MDL_Allocate", "storage not page-aligned");
    long ab = (long)t->a * t->b, vb = (long)t->av * t->bv;
    if ((!same_tile && !(zeroed(t->U, (long)(t->a + 2) * (t->b + 2)) && zeroed(t->M, ab) &&
                         zeroed(t->S, ab) && zeroed(t->G, np * ab))) ||
        (!same_blk && !(zeroed(t->V, vb) && zeroed(t->W, vb))))
        return fail("MDL_Allocate", "new storage not zeroed");
    return 0;
}

int main(int argc, char **argv)
{
    struct g *t;
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
        rng = stress_mix(seed, 0x96d, 0) | 1;
        for (phase = 0; phase < phases; phase++)
            if (allocate(t) || halo(t, dims, c) || blocks(t, dims, c) || collectives(t) ||
                stale_size(t))
                return 1;
        if (MDL_Barrier(t) != MDL_SUCCESS)
            return fail("barrier", "call");
    }
    if (me == 0)
        printf("g[0] ok: seeds %ld..%ld, %ld phases each, %d x %d instances\n", first,
               first + count - 1, phases, dims[0], dims[1]);
    MDL_End(t);
    return 0;
}
