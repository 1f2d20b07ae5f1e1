/* Sends worker w the Job in jobs[w] (a single run-time index), the cells
 * to all workers, and receives each Job back into its slot, changed by
 * the worker as agreed (seed + 100). */
#include <stdio.h>
#include "bossMDL.h"
#include "common.h"

int main(int argc, char **argv)
{
    struct boss *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int n = MDL_workerSize(t), bad = 0;
    for (int w = 0; w < 4; w++)
        fill_job(&t->jobs[w], 50 + w);
    for (int c = 0; c < 3; c++)
        fill_cell(&t->board[c], 7 * c);
    for (int w = 0; w < n; w++) {
        t->slot = w;
        if (MDL_SendTo_worker_job(t, w) != MDL_SUCCESS)
            return 1;
    }
    if (MDL_SendTo_worker_cells(t) != MDL_SUCCESS || MDL_jobWait(t) || MDL_cellsWait(t))
        return 1;
    for (int w = 0; w < n; w++) {
        t->slot = w;
        if (MDL_RecvFrom_worker_back(t, w) != w)
            return 1;
        struct Job want;
        fill_job(&want, 50 + w + 100);
        if (!same_job(&t->jobs[w], &want)) {
            printf("boss: job %d came back wrong (id %d)\n", w, t->jobs[w].id);
            bad = 1;
        }
    }
    /* the slots no worker had are untouched */
    for (int w = n; w < 4; w++) {
        struct Job want;
        fill_job(&want, 50 + w);
        if (!same_job(&t->jobs[w], &want)) {
            printf("boss: slot %d was overwritten\n", w);
            bad = 1;
        }
    }
    if (!bad)
        printf("forward_struct ok with %d workers\n", n);
    MDL_End(t);
    return bad;
}
