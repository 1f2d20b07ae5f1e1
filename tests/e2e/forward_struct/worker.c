/* Receives its Job and the cells, checks them, sends the Job back with the
 * seed moved by 100, and gathers every worker's `mine` with Allgather. */
#include <stdio.h>
#include "workerMDL.h"
#include "common.h"

int main(int argc, char **argv)
{
    struct worker *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0;
    if (MDL_RecvFrom_boss_job(t, 0) != 0 || MDL_RecvFrom_boss_cells(t, 0) != 0)
        return 1;
    struct Job want;
    fill_job(&want, 50 + me);
    if (!same_job(&t->one, &want)) {
        printf("worker %d: job received wrong (id %d)\n", me, t->one.id);
        bad = 1;
    }
    for (int c = 0; c < 3; c++) {
        struct Cell cw;
        fill_cell(&cw, 7 * c);
        if (!same_cell(&t->board[c], &cw)) {
            printf("worker %d: cell %d received wrong\n", me, c);
            bad = 1;
        }
    }
    fill_job(&t->one, 50 + me + 100);
    if (MDL_SendTo_boss_back(t, 0) != MDL_SUCCESS || MDL_backWait(t) != MDL_SUCCESS)
        return 1;
    fill_job(&t->mine, 300 + me);
    if (MDL_Allgather_share(t) != MDL_SUCCESS)
        return 1;
    for (int k = 0; k < n; k++) {
        fill_job(&want, 300 + k);
        if (!same_job(&t->all[k], &want)) {
            printf("worker %d: Allgather entry %d wrong\n", me, k);
            bad = 1;
        }
    }
    MDL_End(t);
    return bad;
}
