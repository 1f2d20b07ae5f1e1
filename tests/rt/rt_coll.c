/* rt_coll.c — every collective, in place and not, with exact values; every
 * reduction operator on every numeric type.  SPMD, 3 or 4 instances:
 * mpiexec -n 4 ./rt_coll */
#include <string.h>

#include "rt_test.h"

typedef struct Particle {
    double x;
    int id;
} Particle;

static const mdl_field_desc particle_fields[] = {
    { MDL_T_DOUBLE, NULL, 1, offsetof(Particle, x) },
    { MDL_T_INT, NULL, 1, offsetof(Particle, id) },
};
static const mdl_type_desc td_particle = { "Particle", MDL_T_STRUCT, sizeof(Particle), 2,
                                           particle_fields };

typedef struct T {
    int a[16], b[16];
    int s2[2];
    double d2[2], e[16];
    int counts[4], displs[4];
    Particle parts[8], all[8];
    long long rin[4], rout[4];    /* raw storage for the reductions */
    void *rt;
} T;

static const char *const tasks[] = { "w" };

#define MAXC 300
static mdl_coll_desc C[MAXC];
static const mdl_coll_desc *CP[MAXC];
static int nc;

static const mdl_coll_desc *add(int kind, int root, int op, const mdl_type_desc *td, long scap,
                                long rcap, int in_place)
{
    mdl_coll_desc *c = &C[nc];
    *c = (mdl_coll_desc){ "c", "MDL_coll", nc, kind, root, op, td, scap, rcap, in_place, -1, -1 };
    CP[nc] = c;
    nc++;
    return c;
}

#define BASETYPES(X)                                                                     \
    X(MDL_T_CHAR, char) X(MDL_T_SCHAR, signed char) X(MDL_T_UCHAR, unsigned char)       \
    X(MDL_T_SHORT, short) X(MDL_T_USHORT, unsigned short) X(MDL_T_INT, int)              \
    X(MDL_T_UINT, unsigned) X(MDL_T_LONG, long) X(MDL_T_ULONG, unsigned long)            \
    X(MDL_T_LLONG, long long) X(MDL_T_ULLONG, unsigned long long) X(MDL_T_FLOAT, float)  \
    X(MDL_T_DOUBLE, double)

#define TD(b, ct) { #ct, b, sizeof(ct), 0, NULL },
static const mdl_type_desc basic[] = { BASETYPES(TD) };

static void store(int base, void *p, int i, long long v)
{
    switch (base) {
#define ST(b, ct) case b: ((ct *)p)[i] = (ct)v; break;
        BASETYPES(ST)
    }
}

static long long load(int base, const void *p, int i)
{
    switch (base) {
#define LD(b, ct) case b: return (long long)((const ct *)p)[i];
        BASETYPES(LD)
    }
    return -1;
}

/* element j of instance r's contribution: small enough for a char product */
static long long contrib(int j, int r, int n)
{
    return j == 0 ? r + 1 : j == 1 ? (r % 2) + 1 : n - r;
}

static long long expect(int op, int j, int n)
{
    long long acc = contrib(j, 0, n);
    for (int r = 1; r < n; r++) {
        long long v = contrib(j, r, n);
        switch (op) {
        case MDL_SUM: acc += v; break;
        case MDL_PROD: acc *= v; break;
        case MDL_MAX: acc = v > acc ? v : acc; break;
        case MDL_MIN: acc = v < acc ? v : acc; break;
        }
    }
    return acc;
}

int main(int argc, char **argv)
{
    /* descriptors first: the runtime builds struct types for them at init */
    const mdl_coll_desc *bc = add(MDL_COLL_BCAST, 1, 0, &td_int, 16, 16, 0);
    const mdl_coll_desc *bc_ip = add(MDL_COLL_BCAST, 0, 0, &td_int, 16, 16, 1);
    const mdl_coll_desc *mc = add(MDL_COLL_MCAST, 0, 0, &td_int, 16, 16, 0);
    const mdl_coll_desc *sc = add(MDL_COLL_SCATTER, 0, 0, &td_int, 16, 2, 0);
    const mdl_coll_desc *sc_ip = add(MDL_COLL_SCATTER, 1, 0, &td_int, 16, 16, 1);
    const mdl_coll_desc *scv = add(MDL_COLL_SCATTERV, 0, 0, &td_int, 16, 16, 0);
    const mdl_coll_desc *scv_ip = add(MDL_COLL_SCATTERV, 2, 0, &td_int, 16, 16, 1);
    const mdl_coll_desc *ga = add(MDL_COLL_GATHER, 1, 0, &td_int, 16, 16, 0);
    const mdl_coll_desc *ga_ip = add(MDL_COLL_GATHER, 0, 0, &td_int, 16, 16, 1);
    const mdl_coll_desc *gav = add(MDL_COLL_GATHERV, 0, 0, &td_particle, 8, 8, 0);
    const mdl_coll_desc *gav_ip = add(MDL_COLL_GATHERV, 1, 0, &td_particle, 8, 8, 1);
    const mdl_coll_desc *ag = add(MDL_COLL_ALLGATHER, 0, 0, &td_double, 2, 16, 0);
    const mdl_coll_desc *ag_ip = add(MDL_COLL_ALLGATHER, 0, 0, &td_double, 16, 16, 1);
    const mdl_coll_desc *agv = add(MDL_COLL_ALLGATHERV, 0, 0, &td_int, 16, 16, 0);
    const mdl_coll_desc *agv_ip = add(MDL_COLL_ALLGATHERV, 0, 0, &td_int, 16, 16, 1);
    const mdl_coll_desc *a2a = add(MDL_COLL_ALLTOALL, 0, 0, &td_int, 16, 16, 0);
    const mdl_coll_desc *a2a_ip = add(MDL_COLL_ALLTOALL, 0, 0, &td_int, 16, 16, 1);
    int first_red = nc;
    static const int ops[] = { MDL_SUM, MDL_PROD, MDL_MAX, MDL_MIN };
    for (int b = 0; b < NELEM(basic); b++)
        for (int o = 0; o < 4; o++) {
            long cap = (long)(sizeof(long long) * 4 / basic[b].size);
            add(MDL_COLL_ALLREDUCE, 0, ops[o], &basic[b], cap, cap, 0);
            add(MDL_COLL_ALLREDUCE, 0, ops[o], &basic[b], cap, cap, 1);
            add(MDL_COLL_REDUCE, 2, ops[o], &basic[b], cap, cap, 0);
            add(MDL_COLL_REDUCE, 0, ops[o], &basic[b], cap, cap, 1);
        }

    mdl_task_desc d = { MDL_ABI, "coll.mdl", 77, 1, tasks, 0, 0, { 0, 0, 0 }, 0, 0, NULL,
                        nc, CP, sizeof(T), 0, 0, NULL, 0, NULL };
    void *mem;
    mdl_rt *rt;
    CHECK_EQ(mdl_init(&d, &argc, &argv, &mem, &rt), 0);
    T *t = mem;
    int r = mdl_my_rank(rt), n = mdl_task_size(rt, 0);
    CHECK(n >= 3 && n <= 4);

    /* Bcast root 1: root's a -> everyone's b, the root's too */
    for (int j = 0; j < 16; j++)
        t->a[j] = r * 100 + j;
    CHECK_EQ(mdl_collective(rt, bc, t->a, t->b, 5, NULL, NULL, NULL, 0), 0);
    for (int j = 0; j < 5; j++)
        CHECK_EQ(t->b[j], 100 + j);
    CHECK_EQ(t->b[5], 0);
    CHECK_EQ(t->a[0], r * 100);
    CHECK_EQ(mdl_collective(rt, bc_ip, t->a, t->a, 4, NULL, NULL, NULL, 0), 0);
    for (int j = 0; j < 4; j++)
        CHECK_EQ(t->a[j], j);
    CHECK_EQ(t->a[4], r * 100 + 4);

    /* Mcast root 0 to {2, 0}: instance 1 (and 3) uninvolved */
    memset(t->b, 0, sizeof t->b);
    for (int j = 0; j < 16; j++)
        t->a[j] = r * 100 + j;
    const int members[] = { 2, 0 };
    CHECK_EQ(mdl_collective(rt, mc, t->a, t->b, 3, NULL, NULL, members, 2), 0);
    for (int j = 0; j < 3; j++)
        CHECK_EQ(t->b[j], r == 0 || r == 2 ? j : 0);

    /* Scatter root 0: segments of recv_cap = 2 */
    CHECK_EQ(mdl_collective(rt, sc, t->a, t->s2, -1, NULL, NULL, NULL, 0), 0);
    CHECK_EQ(t->s2[0], 2 * r);
    CHECK_EQ(t->s2[1], 2 * r + 1);
    /* in place, root 1: segment 16/n, each instance's at its own position */
    int seg = 16 / n;
    for (int j = 0; j < 16; j++)
        t->a[j] = r * 100 + j;
    CHECK_EQ(mdl_collective(rt, sc_ip, t->a, t->a, -1, NULL, NULL, NULL, 0), 0);
    for (int j = 0; j < 16; j++)
        CHECK_EQ(t->a[j], j >= r * seg && j < (r + 1) * seg ? 100 + j : r * 100 + j);

    /* ScatterV: counts k+1 at displs 3k */
    for (int k = 0; k < n; k++) {
        t->counts[k] = k + 1;
        t->displs[k] = 3 * k;
    }
    for (int j = 0; j < 16; j++)
        t->a[j] = r * 100 + j;
    memset(t->b, 0, sizeof t->b);
    CHECK_EQ(mdl_collective(rt, scv, t->a, t->b, -1, t->counts, t->displs, NULL, 0), 0);
    for (int j = 0; j < 16; j++)
        CHECK_EQ(t->b[j], j <= r ? 3 * r + j : 0);
    CHECK_EQ(mdl_collective(rt, scv_ip, t->a, t->a, -1, t->counts, t->displs, NULL, 0), 0);
    for (int j = 0; j < 16; j++)
        CHECK_EQ(t->a[j], j >= 3 * r && j < 3 * r + r + 1 ? 200 + j : r * 100 + j);

    /* Gather root 1, 3 elements each */
    for (int j = 0; j < 16; j++)
        t->a[j] = r * 10 + j;
    memset(t->b, 0, sizeof t->b);
    CHECK_EQ(mdl_collective(rt, ga, t->a, t->b, 3, NULL, NULL, NULL, 0), 0);
    for (int k = 0; k < n && r == 1; k++)
        for (int j = 0; j < 3; j++)
            CHECK_EQ(t->b[3 * k + j], k * 10 + j);
    if (r != 1)
        CHECK_EQ(t->b[0], 0);
    /* in place, root 0: each instance's block at 3*rank */
    for (int j = 0; j < 16; j++)
        t->a[j] = j / 3 == r ? 1000 + j : -1;
    CHECK_EQ(mdl_collective(rt, ga_ip, t->a, t->a, 3, NULL, NULL, NULL, 0), 0);
    for (int j = 0; j < 3 * n && r == 0; j++)
        CHECK_EQ(t->a[j], 1000 + j);

    /* GatherV of structs: instance k sends k+1 particles to displs 3k... of 8:
       use counts 1,2,1,2 at displs 0,1,3,4 */
    static const int gc[] = { 1, 2, 1, 2 }, gd[] = { 0, 1, 3, 4 };
    for (int k = 0; k < n; k++) {
        t->counts[k] = gc[k];
        t->displs[k] = gd[k];
    }
    memset(t->all, 0, sizeof t->all);
    for (int j = 0; j < 8; j++)
        t->parts[j] = (Particle){ r + j * 0.5, r * 10 + j };
    CHECK_EQ(mdl_collective(rt, gav, t->parts, t->all, -1, t->counts, t->displs, NULL, 0), 0);
    for (int k = 0; k < n && r == 0; k++)
        for (int j = 0; j < gc[k]; j++) {
            CHECK(t->all[gd[k] + j].x == k + j * 0.5);
            CHECK_EQ(t->all[gd[k] + j].id, k * 10 + j);
        }
    for (int j = 0; j < 8; j++)
        t->all[j] = (Particle){ -1, -1 };
    for (int j = 0; j < gc[r]; j++)
        t->all[gd[r] + j] = (Particle){ 0.25 * r, 7 * r + j };
    CHECK_EQ(mdl_collective(rt, gav_ip, t->all, t->all, -1, t->counts, t->displs, NULL, 0), 0);
    for (int k = 0; k < n && r == 1; k++)
        for (int j = 0; j < gc[k]; j++) {
            CHECK(t->all[gd[k] + j].x == 0.25 * k);
            CHECK_EQ(t->all[gd[k] + j].id, 7 * k + j);
        }

    /* Allgather: count = send_cap (2) */
    t->d2[0] = r;
    t->d2[1] = r + 0.5;
    CHECK_EQ(mdl_collective(rt, ag, t->d2, t->e, -1, NULL, NULL, NULL, 0), 0);
    for (int k = 0; k < n; k++)
        CHECK(t->e[2 * k] == k && t->e[2 * k + 1] == k + 0.5);
    for (int j = 0; j < 16; j++)
        t->e[j] = j / seg == r ? 3.0 * j : -1;
    CHECK_EQ(mdl_collective(rt, ag_ip, t->e, t->e, -1, NULL, NULL, NULL, 0), 0);
    for (int j = 0; j < seg * n; j++)
        CHECK(t->e[j] == 3.0 * j);

    /* AllgatherV: counts k+1 at displs 3k */
    for (int k = 0; k < n; k++) {
        t->counts[k] = k + 1;
        t->displs[k] = 3 * k;
    }
    for (int j = 0; j < 16; j++)
        t->a[j] = 50 * r + j;
    memset(t->b, 0, sizeof t->b);
    CHECK_EQ(mdl_collective(rt, agv, t->a, t->b, -1, t->counts, t->displs, NULL, 0), 0);
    for (int k = 0; k < n; k++)
        for (int j = 0; j <= k; j++)
            CHECK_EQ(t->b[3 * k + j], 50 * k + j);
    for (int j = 0; j < 16; j++)
        t->b[j] = j >= 3 * r && j <= 4 * r ? 9 * r + j : -5;
    CHECK_EQ(mdl_collective(rt, agv_ip, t->b, t->b, -1, t->counts, t->displs, NULL, 0), 0);
    for (int k = 0; k < n; k++)
        for (int j = 0; j <= k; j++)
            CHECK_EQ(t->b[3 * k + j], 9 * k + 3 * k + j);

    /* Alltoall, blocks of 2: block j of instance r -> block r of instance j */
    for (int j = 0; j < n; j++)
        for (int x = 0; x < 2; x++)
            t->a[2 * j + x] = r * 100 + j * 10 + x;
    CHECK_EQ(mdl_collective(rt, a2a, t->a, t->b, 2, NULL, NULL, NULL, 0), 0);
    for (int i = 0; i < n; i++)
        for (int x = 0; x < 2; x++)
            CHECK_EQ(t->b[2 * i + x], i * 100 + r * 10 + x);
    CHECK_EQ(mdl_collective(rt, a2a_ip, t->a, t->a, 2, NULL, NULL, NULL, 0), 0);
    for (int i = 0; i < n; i++)
        for (int x = 0; x < 2; x++)
            CHECK_EQ(t->a[2 * i + x], i * 100 + r * 10 + x);

    /* reductions: 4 variants x 4 operators x 13 types, 3 elements */
    for (int i = first_red; i < nc; i++) {
        const mdl_coll_desc *c = &C[i];
        int base = c->type->base;
        memset(t->rin, 0, sizeof t->rin);
        memset(t->rout, 0, sizeof t->rout);
        for (int j = 0; j < 3; j++)
            store(base, t->rin, j, contrib(j, r, n));
        void *out = c->in_place ? (void *)t->rin : (void *)t->rout;
        CHECK_EQ(mdl_collective(rt, c, t->rin, out, 3, NULL, NULL, NULL, 0), 0);
        if (c->kind == MDL_COLL_ALLREDUCE || r == c->root)
            for (int j = 0; j < 3; j++)
                if (load(base, out, j) != expect(c->op, j, n)) {
                    fprintf(stderr, "%s %s op %d in_place %d element %d: %lld, expected %lld\n",
                            c->kind == MDL_COLL_REDUCE ? "Reduce" : "Allreduce", c->type->name,
                            c->op, c->in_place, j, load(base, out, j), expect(c->op, j, n));
                    exit(3);
                }
    }

    CHECK_EQ(mdl_barrier(rt), 0);
    CHECK_EQ(mdl_end(rt, t), 0);
    if (r == 0)
        printf("rt_coll: OK\n");
    return 0;
}
