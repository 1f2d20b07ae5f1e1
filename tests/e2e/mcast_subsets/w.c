/* mcast_subsets: v holds 10*rank + j everywhere; after each Mcast the
 * listed instances hold the root's values, the others are unchanged. */
#include <stdio.h>
#include "wMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "w %d: %s\n", me, what);
    return 1;
}

static void reset(struct w *t)
{
    for (int j = 0; j < 4; j++) {
        t->v[j] = 10 * me + j;
        t->r[j] = -1;
    }
}

static int listed(const int *l, int n)
{
    for (int i = 0; i < n; i++)
        if (l[i] == me)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    struct w *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t);
    if (n < 3)
        return fail("needs 3 instances");

    /* root 1 not listed: its own r stays untouched */
    const int l1[] = { n - 1, 0 };
    reset(t);
    if (MDL_Mcast_mc(t, l1, 2) != MDL_SUCCESS)
        return fail("Mcast {n-1, 0}");
    for (int j = 0; j < 4; j++)
        if (t->r[j] != (listed(l1, 2) ? 10 + j : -1) || t->v[j] != 10 * me + j)
            return fail("Mcast {n-1, 0} values");

    /* root listed: it gets its own values too */
    const int l2[] = { 2, 1 };
    reset(t);
    if (MDL_Mcast_mc(t, l2, 2) != MDL_SUCCESS)
        return fail("Mcast {2, 1}");
    for (int j = 0; j < 4; j++)
        if (t->r[j] != (listed(l2, 2) ? 10 + j : -1))
            return fail("Mcast {2, 1} values");

    /* empty list: nothing happens anywhere */
    reset(t);
    if (MDL_Mcast_mc(t, l2, 0) != MDL_SUCCESS || t->r[0] != -1)
        return fail("Mcast {}");

    /* table, in place, root 0 */
    t->tbl[0] = n - 1;
    t->tbl[1] = 1;
    reset(t);
    if (MDL_Mcast_mt(t) != MDL_SUCCESS)
        return fail("Mcast table");
    for (int j = 0; j < 4; j++)
        if (t->v[j] != (me == 0 || listed(t->tbl, 2) ? j : 10 * me + j))
            return fail("Mcast table values");

    /* subset barriers: {0, n-1} then {1, 2}; others are not involved */
    const int b1[] = { 0, n - 1 }, b2[] = { 2, 1 };
    if (listed(b1, 2) && MDL_Sbarrier(t, b1, 2) != MDL_SUCCESS)
        return fail("Sbarrier {0, n-1}");
    if (listed(b2, 2) && MDL_Sbarrier(t, b2, 2) != MDL_SUCCESS)
        return fail("Sbarrier {2, 1}");
    if (MDL_Barrier(t) != MDL_SUCCESS)
        return fail("Barrier");
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    if (me == 0)
        printf("mcast_subsets: OK\n");
    return 0;
}
