/* Every collective on one SPMD family (any size >= 2, up to NMAX): values
 * checked on every instance, in-place variants, pointer (non-segment)
 * buffers, all reduction operators on several types, Mcast over a subset,
 * barriers over overlapping subsets, and a bounds error (MDL_ERRORS=return). */
#include "shm_rtt.h"

#define NMAX 16
#define C 6

struct T {
    double d[NMAX * C], d2[NMAX * C];
    int i[NMAX * C], i2[NMAX * C];
    double seg[C];
    int counts[NMAX], displs[NMAX];
    float f[C], f2[C];
    long l[C], l2[C];
    char c[C], c2[C];
    double *pd, *pd2;
    mdl_rt *mdl_rt_;
};
typedef struct T T;

/* The runtime takes only descriptors of the task's own table: its one
 * entry is filled before each call (coll). */
static mdl_coll_desc slot = {"Bcast", "Bcast", 0, MDL_COLL_BCAST, 0, 0, &t_double, 0, 0, 0, -1, -1};
static const mdl_coll_desc *const collp[] = {&slot};
static const char *const tasks[] = {"t"};
static const mdl_task_desc desc = {
    MDL_ABI, "rt_coll.mdl", 0x77, 1, tasks, 0, 0, {0, 0, 0}, 0, 0, NULL, 1, collp, sizeof(T), 0,
    0, NULL, 0, NULL, /* no run-time-sized variables */
};

static mdl_coll_desc cd(int kind, int root, int op, const mdl_type_desc *ty, long scap,
                        long rcap, int inplace)
{
    static const char *const names[] = {"Bcast", "Mcast", "Scatter", "ScatterV", "Gather",
                                        "GatherV", "Allgather", "AllgatherV", "Alltoall",
                                        "Reduce", "Allreduce"};
    mdl_coll_desc c = {names[kind], names[kind], 0, kind, root, op, ty, scap, rcap, inplace,
                       -1, -1};
    return c;
}

#define COLL(c, s, r, cnt, cs, ds) CHECK(coll(&(c), s, r, cnt, cs, ds, NULL, 0) == 0)
#define D(k) ((double)(k) * 0.5 + 1)

static mdl_rt *rt;

static int coll(const mdl_coll_desc *c, void *s, void *r, long cnt, const int *cs,
                const int *ds, const int *insts, int ni)
{
    slot = *c;
    return mdl_collective(rt, &slot, s, r, cnt, cs, ds, insts, ni);
}
static T *t;
static int me, n;

static void clear(void)
{
    for (int k = 0; k < NMAX * C; k++) {
        t->d[k] = -1;
        t->d2[k] = -1;
        t->i[k] = -1;
        t->i2[k] = -1;
    }
}

static void reductions(void)
{
    int root = n > 2 ? 2 : 0;
    for (int op = MDL_SUM; op <= MDL_MIN; op++) {
        for (int k = 0; k < C; k++) {
            t->i[k] = (me % 3 + 1) * (k + 1) * (k % 2 ? 1 : -1);
            t->d[k] = (me + 1) * 0.5 + k;
            t->f[k] = (float)(me + 2) * (k + 1);
            t->l[k] = (long)(me + 1) << (k + 2);
            t->c[k] = (char)(me + k);
        }
        long ei[C], el[C];
        double ed[C], ef[C];
        int ec[C];
        for (int k = 0; k < C; k++) {
            for (int r = 0; r < n; r++) {
                long vi = (long)(r % 3 + 1) * (k + 1) * (k % 2 ? 1 : -1);
                double vd = (r + 1) * 0.5 + k, vf = (double)(r + 2) * (k + 1);
                long vl = (long)(r + 1) << (k + 2);
                int vc = r + k;
                if (r == 0) {
                    ei[k] = vi; ed[k] = vd; ef[k] = vf; el[k] = vl; ec[k] = vc;
                    continue;
                }
#define APPLY(e, v) e = op == MDL_SUM ? e + v : op == MDL_PROD ? e * v : op == MDL_MAX ? (v > e ? v : e) : (v < e ? v : e)
                APPLY(ei[k], vi); APPLY(ed[k], vd); APPLY(ef[k], vf); APPLY(el[k], vl);
                APPLY(ec[k], vc);
            }
        }
        mdl_coll_desc ri = cd(MDL_COLL_REDUCE, root, op, &t_int, NMAX * C, NMAX * C, 0);
        mdl_coll_desc ad = cd(MDL_COLL_ALLREDUCE, 0, op, &t_double, NMAX * C, NMAX * C, 0);
        mdl_coll_desc af = cd(MDL_COLL_ALLREDUCE, 0, op, &t_float, C, C, 0);
        mdl_coll_desc al = cd(MDL_COLL_ALLREDUCE, 0, op, &t_long, C, C, 1);
        mdl_coll_desc ac = cd(MDL_COLL_REDUCE, 0, op, &t_char, C, C, 0);
        COLL(ri, t->i, t->i2, C, NULL, NULL);
        COLL(ad, t->d, t->d2, C, NULL, NULL);
        COLL(af, t->f, t->f2, C, NULL, NULL);
        COLL(al, t->l, t->l, C, NULL, NULL);
        COLL(ac, t->c, t->c2, C, NULL, NULL);
        for (int k = 0; k < C; k++) {
            if (me == root)
                CHECK(t->i2[k] == (int)ei[k]);
            CHECK(t->d2[k] == ed[k]);
            CHECK(t->f2[k] == (float)ef[k]);
            CHECK(t->l[k] == el[k]);
            if (me == 0 && op != MDL_PROD)
                CHECK(t->c2[k] == (char)ec[k]);
        }
        /* in place, and a pointer output */
        for (int k = 0; k < C; k++)
            t->d[k] = (me + 1) * 0.5 + k;
        mdl_coll_desc rip = cd(MDL_COLL_REDUCE, root, op, &t_double, NMAX * C, NMAX * C, 1);
        COLL(rip, t->d, t->d, C, NULL, NULL);
        if (me == root)
            for (int k = 0; k < C; k++)
                CHECK(t->d[k] == ed[k]);
        for (int k = 0; k < C; k++)
            t->pd[k] = (me + 1) * 0.5 + k;
        mdl_coll_desc ap = cd(MDL_COLL_ALLREDUCE, 0, op, &t_double, -1, -1, 0);
        COLL(ap, t->pd, t->pd2, C, NULL, NULL);
        for (int k = 0; k < C; k++)
            CHECK(t->pd2[k] == ed[k]);
    }
    /* a long vector: every instance reduces its own slice */
    for (int k = 0; k < NMAX * C; k++)
        t->d[k] = k * (me + 1);
    mdl_coll_desc big = cd(MDL_COLL_ALLREDUCE, 0, MDL_SUM, &t_double, NMAX * C, NMAX * C, 1);
    COLL(big, t->d, t->d, NMAX * C, NULL, NULL);
    for (int k = 0; k < NMAX * C; k++)
        CHECK(t->d[k] == (double)k * n * (n + 1) / 2);
}

int main(int argc, char **argv)
{
    CHECK(mdl_init(&desc, &argc, &argv, (void **)&t, &rt) == 0);
    me = mdl_my_rank(rt);
    n = mdl_task_size(rt, 0);
    CHECK(n >= 2 && n <= NMAX);
    t->pd = calloc(NMAX * C, sizeof(double));
    t->pd2 = calloc(NMAX * C, sizeof(double));

    /* Bcast from the last instance, normal and in place; pointer buffers */
    clear();
    if (me == n - 1)
        for (int k = 0; k < C; k++)
            t->d[k] = D(k);
    mdl_coll_desc b = cd(MDL_COLL_BCAST, n - 1, 0, &t_double, NMAX * C, NMAX * C, 0);
    COLL(b, t->d, t->d2, C, NULL, NULL);
    for (int k = 0; k < C; k++)
        CHECK(t->d2[k] == D(k));
    CHECK(t->d2[C] == -1);
    mdl_coll_desc bi = cd(MDL_COLL_BCAST, n - 1, 0, &t_double, NMAX * C, NMAX * C, 1);
    COLL(bi, t->d, t->d, C, NULL, NULL);
    for (int k = 0; k < C; k++)
        CHECK(t->d[k] == D(k));
    if (me == 0)
        for (int k = 0; k < C; k++)
            t->pd[k] = D(k + 5);
    mdl_coll_desc bp = cd(MDL_COLL_BCAST, 0, 0, &t_double, -1, -1, 0);
    COLL(bp, t->pd, t->pd2, C, NULL, NULL);
    for (int k = 0; k < C; k++)
        CHECK(t->pd2[k] == D(k + 5));

    /* Scatter: explicit count, derived count, in place */
    clear();
    if (me == 0)
        for (int k = 0; k < n * C; k++)
            t->d[k] = D(k);
    mdl_coll_desc s = cd(MDL_COLL_SCATTER, 0, 0, &t_double, NMAX * C, C, 0);
    COLL(s, t->d, t->seg, -1, NULL, NULL);
    for (int k = 0; k < C; k++)
        CHECK(t->seg[k] == D(me * C + k));
    mdl_coll_desc si = cd(MDL_COLL_SCATTER, 0, 0, &t_double, NMAX * C, NMAX * C, 1);
    COLL(si, t->d, t->d, C, NULL, NULL);
    for (int k = 0; k < C; k++)
        CHECK(t->d[me * C + k] == D(me * C + k));

    /* Gather to 1 (in place too), pointer receive at the root */
    clear();
    for (int k = 0; k < C; k++)
        t->d[k] = D(me * 100 + k);
    mdl_coll_desc g = cd(MDL_COLL_GATHER, 1, 0, &t_double, NMAX * C, NMAX * C, 0);
    COLL(g, t->d, t->d2, C, NULL, NULL);
    if (me == 1)
        for (int r = 0; r < n; r++)
            for (int k = 0; k < C; k++)
                CHECK(t->d2[r * C + k] == D(r * 100 + k));
    for (int k = 0; k < C; k++)
        t->pd[k] = D(me * 100 + k);
    mdl_coll_desc gp = cd(MDL_COLL_GATHER, 0, 0, &t_double, -1, -1, 0);
    COLL(gp, t->pd, t->pd2, C, NULL, NULL);
    if (me == 0)
        for (int r = 0; r < n; r++)
            for (int k = 0; k < C; k++)
                CHECK(t->pd2[r * C + k] == D(r * 100 + k));
    clear();
    for (int k = 0; k < C; k++)
        t->d[me * C + k] = D(me * 100 + k);
    mdl_coll_desc gi = cd(MDL_COLL_GATHER, 1, 0, &t_double, NMAX * C, NMAX * C, 1);
    COLL(gi, t->d, t->d, C, NULL, NULL);
    if (me == 1)
        for (int r = 0; r < n; r++)
            for (int k = 0; k < C; k++)
                CHECK(t->d[r * C + k] == D(r * 100 + k));

    /* Allgather: derived count, in place */
    clear();
    for (int k = 0; k < C; k++)
        t->seg[k] = D(me * 10 + k);
    mdl_coll_desc ag = cd(MDL_COLL_ALLGATHER, 0, 0, &t_double, C, NMAX * C, 0);
    COLL(ag, t->seg, t->d2, -1, NULL, NULL);
    for (int r = 0; r < n; r++)
        for (int k = 0; k < C; k++)
            CHECK(t->d2[r * C + k] == D(r * 10 + k));
    CHECK(t->d2[n * C] == -1);
    for (int k = 0; k < C; k++)
        t->d[me * C + k] = D(me * 10 + k);
    mdl_coll_desc agi = cd(MDL_COLL_ALLGATHER, 0, 0, &t_double, NMAX * C, NMAX * C, 1);
    COLL(agi, t->d, t->d, C, NULL, NULL);
    for (int r = 0; r < n; r++)
        for (int k = 0; k < C; k++)
            CHECK(t->d[r * C + k] == D(r * 10 + k));

    /* Alltoall, normal and in place (block j of i -> block i of j) */
    int cnt = C / 2;
    for (int in = 0; in < 2; in++) {
        clear();
        for (int j = 0; j < n; j++)
            for (int k = 0; k < cnt; k++)
                t->i[j * cnt + k] = me * 1000 + j * 10 + k;
        mdl_coll_desc aa = cd(MDL_COLL_ALLTOALL, 0, 0, &t_int, NMAX * C, NMAX * C, in);
        int *out = in ? t->i : t->i2;
        COLL(aa, t->i, out, cnt, NULL, NULL);
        for (int j = 0; j < n; j++)
            for (int k = 0; k < cnt; k++)
                CHECK(out[j * cnt + k] == j * 1000 + me * 10 + k);
    }

    /* V variants: counts k+1, a gap of one element between blocks */
    int total = 0;
    for (int r = 0; r < n; r++) {
        t->counts[r] = r + 1;
        t->displs[r] = total + 1;
        total += r + 2;
    }
    clear();
    for (int k = 0; k <= me; k++)
        t->i[k] = me * 100 + k;
    mdl_coll_desc gv = cd(MDL_COLL_GATHERV, 0, 0, &t_int, NMAX * C, NMAX * C, 0);
    COLL(gv, t->i, t->i2, -1, t->counts, t->displs);
    if (me == 0)
        for (int r = 0; r < n; r++) {
            CHECK(t->i2[t->displs[r] - 1] == -1);
            for (int k = 0; k <= r; k++)
                CHECK(t->i2[t->displs[r] + k] == r * 100 + k);
        }
    mdl_coll_desc agv = cd(MDL_COLL_ALLGATHERV, 0, 0, &t_int, NMAX * C, NMAX * C, 0);
    COLL(agv, t->i, t->i2, -1, t->counts, t->displs);
    for (int r = 0; r < n; r++) {
        CHECK(t->i2[t->displs[r] - 1] == -1);
        for (int k = 0; k <= r; k++)
            CHECK(t->i2[t->displs[r] + k] == r * 100 + k);
    }
    clear();
    for (int k = 0; k <= me; k++)
        t->i[t->displs[me] + k] = me * 100 + k;
    mdl_coll_desc agvi = cd(MDL_COLL_ALLGATHERV, 0, 0, &t_int, NMAX * C, NMAX * C, 1);
    COLL(agvi, t->i, t->i, -1, t->counts, t->displs);
    for (int r = 0; r < n; r++)
        for (int k = 0; k <= r; k++)
            CHECK(t->i[t->displs[r] + k] == r * 100 + k);
    clear();
    if (me == n - 1)
        for (int k = 0; k < total + 1; k++)
            t->i[k] = k * 3;
    mdl_coll_desc sv = cd(MDL_COLL_SCATTERV, n - 1, 0, &t_int, NMAX * C, NMAX * C, 0);
    COLL(sv, t->i, t->i2, -1, t->counts, t->displs);
    for (int k = 0; k <= me; k++)
        CHECK(t->i2[k] == (t->displs[me] + k) * 3);
    CHECK(t->i2[me + 1] == -1);

    reductions();

    /* Mcast from 0 to {1, n-1}: the others do not call it */
    clear();
    int list[] = {1, n - 1};
    if (me == 0)
        for (int k = 0; k < C; k++)
            t->d[k] = D(k + 77);
    if (me == 0 || me == 1 || me == n - 1) {
        mdl_coll_desc mc = cd(MDL_COLL_MCAST, 0, 0, &t_double, NMAX * C, NMAX * C, 0);
        CHECK(coll(&mc, t->d, t->d2, C, NULL, NULL, list, n > 2 ? 2 : 1) == 0);
        for (int k = 0; k < C; k++)    /* the root is not listed: its receive stays */
            CHECK(t->d2[k] == (me == 0 ? -1 : D(k + 77)));
    }

    /* subset barriers over overlapping subsets */
    for (int it = 0; it < 50; it++) {
        int even[NMAX], ne = 0, low[2] = {0, 1};
        for (int r = 0; r < n; r += 2)
            even[ne++] = r;
        if (me % 2 == 0)
            CHECK(mdl_sbarrier(rt, even, ne) == 0);
        if (me < 2)
            CHECK(mdl_sbarrier(rt, low, 2) == 0);
    }
    int dup[] = {me, me};
    CHECK(mdl_sbarrier(rt, dup, 2) == MDL_ERR_RANK);
    int other[] = {(me + 1) % n};
    CHECK(mdl_sbarrier(rt, other, 1) == 0);    /* not in the list: not involved */
    CHECK(mdl_barrier(rt) == 0);

    /* an error every instance sees: count beyond the variables */
    mdl_coll_desc e = cd(MDL_COLL_ALLREDUCE, 0, MDL_SUM, &t_double, C, C, 0);
    CHECK(coll(&e, t->seg, t->seg, C + 1, NULL, NULL, NULL, 0) == MDL_ERR_BOUNDS);
    /* and one only the root sees: the others learn it failed */
    mdl_coll_desc e2 = cd(MDL_COLL_GATHER, 0, 0, &t_double, C, me == 0 ? C : NMAX * C, 0);
    int rc = coll(&e2, t->seg, t->d2, C, NULL, NULL, NULL, 0);
    CHECK(rc == MDL_ERR_BOUNDS);
    CHECK(mdl_barrier(rt) == 0);

    free(t->pd);
    free(t->pd2);
    CHECK(mdl_end(rt, t) == 0);
    if (me == 0)
        printf("rt_coll ok\n");
    return 0;
}
