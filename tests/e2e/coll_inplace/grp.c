/* coll_inplace: every in-place collective, values checked on every
 * instance that receives something, and the parts of each array that must
 * stay untouched checked too. */
#include <stdio.h>
#include "grpMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "grp %d: %s\n", me, what);
    return 1;
}

int main(int argc, char **argv)
{
    struct grp *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    if (MDL_FamilySize(t) != NP)
        return fail("launch with -n NP");

    /* Gather at 1: each instance's block already at B*rank */
    for (int j = 0; j < NP * B; j++)
        t->A[j] = j / B == me ? 100 * me + j : -1;
    if (MDL_Gather_g(t) != MDL_SUCCESS)
        return fail("Gather");
    for (int j = 0; j < NP * B; j++)
        if (t->A[j] != (me == 1 || j / B == me ? 100 * (j / B) + j : -1))
            return fail("Gather values");

    /* Scatter from 2: segment NP*B/NP = B, each lands at B*rank */
    for (int j = 0; j < NP * B; j++)
        t->D[j] = me == 2 ? 0.5 * j : -1;
    if (MDL_Scatter_sc(t) != MDL_SUCCESS)
        return fail("Scatter");
    for (int j = 0; j < NP * B; j++)
        if (t->D[j] != (me == 2 || j / B == me ? 0.5 * j : -1))
            return fail("Scatter values");

    /* Allgather: block NP/NP = 1 */
    for (int j = 0; j < NP; j++)
        t->L[j] = j == me ? 7L * me + 1 : -1;
    if (MDL_Allgather_ag(t) != MDL_SUCCESS)
        return fail("Allgather");
    for (int j = 0; j < NP; j++)
        if (t->L[j] != 7L * j + 1)
            return fail("Allgather values");

    /* Alltoall: block k of instance r goes to block r of instance k */
    for (int k = 0; k < NP; k++)
        for (int x = 0; x < B; x++)
            t->A[k * B + x] = 100 * me + 10 * k + x;
    if (MDL_Alltoall_a2a(t) != MDL_SUCCESS)
        return fail("Alltoall");
    for (int r = 0; r < NP; r++)
        for (int x = 0; x < B; x++)
            if (t->A[r * B + x] != 100 * r + 10 * me + x)
                return fail("Alltoall values");

    /* V forms: instance k has k+1 elements at displs 3k */
    for (int k = 0; k < NP; k++) {
        t->counts[k] = k + 1;
        t->displs[k] = 3 * k;
    }
    for (int j = 0; j < 10; j++)
        t->V[j] = j >= 3 * me && j <= 4 * me ? 50 * me + j : -1;
    if (MDL_GatherV_gv(t) != MDL_SUCCESS)
        return fail("GatherV");
    for (int j = 0; j < 10; j++) {
        int owner = j / 3, in = j % 3 <= owner && owner < NP;
        int want = (me == 0 || owner == me) && in ? 50 * owner + j : -1;
        if (t->V[j] != want)
            return fail("GatherV values");
    }
    for (int j = 0; j < 10; j++)
        t->V[j] = me == 1 ? 9 * j : -1;
    if (MDL_ScatterV_sv(t) != MDL_SUCCESS)
        return fail("ScatterV");
    for (int j = 0; j < 10; j++) {
        int owner = j / 3, in = j % 3 <= owner && owner < NP;
        int want = me == 1 || (owner == me && in) ? 9 * j : -1;
        if (t->V[j] != want)
            return fail("ScatterV values");
    }
    for (int j = 0; j < 10; j++)
        t->V[j] = j >= 3 * me && j <= 4 * me ? 11 * me + j : -1;
    if (MDL_AllgatherV_agv(t) != MDL_SUCCESS)
        return fail("AllgatherV");
    for (int j = 0; j < 10; j++) {
        int owner = j / 3, in = j % 3 <= owner && owner < NP;
        if (t->V[j] != (in ? 11 * owner + j : -1))
            return fail("AllgatherV values");
    }

    /* reductions in place */
    t->x = 1.5f * me;
    if (MDL_Reduce_r(t) != MDL_SUCCESS)
        return fail("Reduce");
    if (me == 2 && t->x != 1.5f * (NP - 1))
        return fail("Reduce value");
    for (int j = 0; j < 4; j++)
        t->S[j] = (short)(me + j);
    if (MDL_Allreduce_ar(t) != MDL_SUCCESS)
        return fail("Allreduce");
    for (int j = 0; j < 4; j++)
        if (t->S[j] != NP * (NP - 1) / 2 + NP * j)
            return fail("Allreduce values");

    /* Bcast in place from 1 */
    for (int j = 0; j < NP * B; j++)
        t->D[j] = me == 1 ? 3.0 * j : 0;
    if (MDL_Bcast_b(t) != MDL_SUCCESS)
        return fail("Bcast");
    for (int j = 0; j < NP * B; j++)
        if (t->D[j] != 3.0 * j)
            return fail("Bcast values");

    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    if (me == 0)
        printf("coll_inplace: OK\n");
    return 0;
}
