/* async_many, boss: jobs[4k..4k+3] to worker k, all sends in flight
 * together; then one async MDL_ANY receive at a time, polled with Test. */
#include <stdio.h>
#include "bossMDL.h"

int main(int argc, char **argv)
{
    struct boss *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int n = MDL_workerSize(t);
    if (n < 1 || n > NW)
        return 1;
    for (int j = 0; j < 4 * NW; j++)
        t->jobs[j] = j * j;
    for (int k = 0; k < n; k++)
        if (MDL_SendTo_worker_job(t, k, 4 * k, 4 * k + 3) != MDL_SUCCESS)
            return 1;
    if (MDL_jobWait(t) != MDL_SUCCESS || MDL_jobTest(t) != 1)
        return 1;
    int seen[NW] = { 0 };
    for (int k = 0; k < n; k++) {
        if (MDL_RecvFrom_worker_done(t, MDL_ANY) <= MDL_ERR_FIRST)
            return 1;
        int done;
        while ((done = MDL_doneTest(t)) == 0)
            ;
        if (done != 1 || t->who < 0 || t->who >= n || seen[t->who]) {
            fprintf(stderr, "boss: Test %d, who %d\n", done, t->who);
            return 1;
        }
        seen[t->who] = 1;
        int w = t->who, want = 0;
        for (int j = 4 * w; j < 4 * w + 4; j++)
            want += j * j;
        if (t->res != want) {
            fprintf(stderr, "boss: worker %d answered %d, expected %d\n", w, t->res, want);
            return 1;
        }
    }
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    printf("async_many: OK\n");
    return 0;
}
