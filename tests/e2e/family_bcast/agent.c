/* family_bcast: each instance broadcasts (100 + rank, rank/2 ...), then
 * takes n-1 messages with MDL_ANY: all from other instances, each once,
 * each with its sender's values. */
#include <stdio.h>
#include "agentMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "agent %d: %s\n", me, what);
    return 1;
}

int main(int argc, char **argv)
{
    struct agent *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t);
    if (n > 16)
        return fail("at most 16 instances");
    t->v = 100 + me;
    for (int j = 0; j < 3; j++)
        t->x[j] = me / 2.0 + j;
    if (MDL_SendTo_agent_news(t) != MDL_SUCCESS)
        return fail("broadcast");
    int seen[16] = { 0 };
    for (int k = 0; k < n - 1; k++) {
        int from = MDL_RecvFrom_agent_news(t, MDL_ANY);
        if (from < 0 || from >= n || from == me || seen[from])
            return fail("receive: sender is itself, repeated or invalid");
        seen[from] = 1;
        if (t->v != 100 + from || t->x[0] != from / 2.0 || t->x[2] != from / 2.0 + 2)
            return fail("values");
    }
    if (MDL_newsWait(t) != MDL_SUCCESS)    /* after the receives: no cycle of waits */
        return fail("Wait");
    if (MDL_Barrier(t) != MDL_SUCCESS || MDL_End(t) != MDL_SUCCESS)
        return 1;
    if (me == 0)
        printf("family_bcast: OK\n");
    return 0;
}
