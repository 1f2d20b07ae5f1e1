/* collectives: every operation of the spec, values checked on every
 * instance that receives something. */
#include <stdio.h>
#include "bodyMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "body %d: %s\n", me, what);
    return 1;
}

static void set_mine(struct body *t, int r)
{
    for (int k = 0; k < 2; k++) {
        t->mine[k].x = r;
        t->mine[k].y = k;
        t->mine[k].z = -r;
        t->mine[k].m = 10 * r + k;
    }
}

static int is_particle(const struct Particle *p, int r, int k)
{
    return p->x == r && p->y == k && p->z == -r && p->m == 10 * r + k;
}

int main(int argc, char **argv)
{
    struct body *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t);
    if (n != NP)
        return fail("launch with -n NP");

    /* Bcast in place: the root's A reaches every A */
    for (int j = 0; j < 2 * NP; j++)
        t->A[j] = me == 0 ? 100 + j : 0;
    if (MDL_Bcast_b(t) != MDL_SUCCESS)
        return fail("Bcast");
    for (int j = 0; j < 2 * NP; j++)
        if (t->A[j] != 100 + j)
            return fail("Bcast values");

    /* Gather at 0, then Allgather */
    set_mine(t, me);
    if (MDL_Gather_g(t) != MDL_SUCCESS)
        return fail("Gather");
    if (me == 0)
        for (int r = 0; r < NP; r++)
            for (int k = 0; k < 2; k++)
                if (!is_particle(&t->all[2 * r + k], r, k))
                    return fail("Gather values");
    for (int j = 0; j < 2 * NP; j++)
        t->all[j].m = -1;
    if (MDL_Allgather_ag(t) != MDL_SUCCESS)
        return fail("Allgather");
    for (int r = 0; r < NP; r++)
        for (int k = 0; k < 2; k++)
            if (!is_particle(&t->all[2 * r + k], r, k))
                return fail("Allgather values");

    /* reductions */
    t->force = me + 1;
    t->total = -1;
    if (MDL_Reduce_r(t) != MDL_SUCCESS)
        return fail("Reduce");
    if (me == 1 && t->total != NP * (NP + 1) / 2)
        return fail("Reduce value at the root");
    if (MDL_Allreduce_amax(t) != MDL_SUCCESS || t->total != NP)
        return fail("Allreduce max");
    if (MDL_Allreduce_amin(t) != MDL_SUCCESS || t->total != 1)
        return fail("Allreduce min");

    /* Scatter: two elements each */
    for (int j = 0; j < 2 * NP; j++)
        t->A[j] = me == 0 ? 200 + j : -1;
    t->S[0] = t->S[1] = -1;
    if (MDL_Scatter_sc(t) != MDL_SUCCESS)
        return fail("Scatter");
    if (t->S[0] != 200 + 2 * me || t->S[1] != 201 + 2 * me)
        return fail("Scatter values");

    /* Alltoall: block j of instance i goes to block i of instance j */
    for (int j = 0; j < 2 * NP; j++) {
        t->A[j] = 1000 * me + j;
        t->B[j] = -1;
    }
    if (MDL_Alltoall_a2a(t) != MDL_SUCCESS)
        return fail("Alltoall");
    for (int j = 0; j < NP; j++)
        for (int k = 0; k < 2; k++)
            if (t->B[2 * j + k] != 1000 * j + 2 * me + k)
                return fail("Alltoall values");

    /* GatherV: instance r sends counts[r] particles to all[displs[r]...] */
    for (int r = 0; r < NP; r++) {
        t->counts[r] = 1 + r % 2;
        t->displs[r] = 2 * (NP - 1 - r);
    }
    set_mine(t, me);
    for (int j = 0; j < 2 * NP; j++)
        t->all[j].m = -1;
    if (MDL_GatherV_gv(t) != MDL_SUCCESS)
        return fail("GatherV");
    if (me == 0)
        for (int r = 0; r < NP; r++)
            for (int k = 0; k < 2; k++) {
                const struct Particle *p = &t->all[t->displs[r] + k];
                if (k < t->counts[r] ? !is_particle(p, r, k) : p->m != -1)
                    return fail("GatherV values");
            }

    /* Bcast of a scalar from root 1 */
    t->n = me == 1 ? 77 : 0;
    if (MDL_Bcast_bn(t) != MDL_SUCCESS || t->n != 77)
        return fail("Bcast from 1");

    if (MDL_Barrier(t) != MDL_SUCCESS)
        return fail("Barrier");
    if (me == 0)
        printf("collectives ok\n");
    MDL_End(t);
    return 0;
}
