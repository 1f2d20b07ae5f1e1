/* async_many, worker: posts its receive, waits, answers with the sum. */
#include <stdio.h>
#include "workerMDL.h"

int main(int argc, char **argv)
{
    struct worker *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    for (int j = 0; j < 4 * NW; j++)
        t->jobs[j] = -1;
    if (MDL_RecvFrom_boss_job(t, 0, 0, 3) != 0 || MDL_jobWait(t) != MDL_SUCCESS)
        return 1;
    t->who = MDL_MyRank(t);
    t->res = 0;
    for (int j = 0; j < 4; j++)
        t->res += t->jobs[j];
    if (t->jobs[4] != -1)
        return 1;
    if (MDL_SendTo_boss_done(t, 0) != MDL_SUCCESS)
        return 1;
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    return 0;
}
