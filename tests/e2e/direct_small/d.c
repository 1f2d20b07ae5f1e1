/* direct_small: instance 1 sends, instance 0 receives; see spec.mdl. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "dMDL.h"

/* longer than the sender's patience (10 ms): it withdraws its message */
static void late(void)
{
    struct timespec ts = { 0, 30 * 1000 * 1000 };
    nanosleep(&ts, NULL);
}

/* the first row's 8 values of B as sent from A's row `row` */
static int small_ok(struct d *t, int row)
{
    int bad = 0;
    for (int j = 0; j < 8; j++)
        bad += t->B[0][j] != row * N + j;
    memset(t->B, 0, sizeof t->B);
    return bad;
}

int main(int argc, char **argv)
{
    struct d *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            t->A[i][j] = i * N + j;
    if (me == 1) {
        /* 64 KiB four times sync, twice async */
        for (int k = 0; k < 4; k++)
            bad += MDL_SendTo_d_blk(t, 0, 0, 63, 0, N - 1) != MDL_SUCCESS;
        for (int k = 0; k < 2; k++)
            bad += MDL_SendTo_d_ablk(t, 0, 0, 63, 0, N - 1) || MDL_ablkWait(t);
        /* 64 bytes of a row: sync twice, async once; 64 KiB */
        bad += MDL_SendTo_d_blk(t, 0, 5, 5, 0, 7) != MDL_SUCCESS;
        bad += MDL_SendTo_d_blk(t, 0, 6, 6, 0, 7) != MDL_SUCCESS;
        bad += MDL_SendTo_d_ablk(t, 0, 7, 7, 0, 7) || MDL_ablkWait(t);
        bad += MDL_SendTo_d_blk(t, 0, 0, 63, 0, N - 1) != MDL_SUCCESS;
        /* 64 bytes of a column, sync and async, twice */
        for (int k = 0; k < 2; k++) {
            bad += MDL_SendTo_d_blk(t, 0, 10, 17, 3, 3) != MDL_SUCCESS;
            bad += MDL_SendTo_d_ablk(t, 0, 20, 27, 4, 4) || MDL_ablkWait(t);
        }
        /* 64 KiB async that the receiver never waits for, then 64 bytes */
        bad += MDL_SendTo_d_ablk(t, 0, 0, 63, 0, N - 1) || MDL_ablkWait(t);
        bad += MDL_SendTo_d_blk(t, 0, 8, 8, 0, 7) != MDL_SUCCESS;
    } else {
        /* sync: there at once, late, from any instance, then late again */
        bad += MDL_RecvFrom_d_blk(t, 1, 0, 0, 0, 7) != MDL_ERR_TRUNCATE;
        late();
        bad += MDL_RecvFrom_d_blk(t, 1, 0, 0, 0, 7) != MDL_ERR_TRUNCATE;
        bad += MDL_RecvFrom_d_blk(t, MDL_ANY, 0, 0, 0, 7) != MDL_ERR_TRUNCATE;
        late();
        bad += MDL_RecvFrom_d_blk(t, MDL_ANY, 0, 0, 0, 7) != MDL_ERR_TRUNCATE;
        /* async: waited at once, waited late */
        bad += MDL_RecvFrom_d_ablk(t, 1, 0, 0, 0, 7) != 1;
        bad += MDL_ablkWait(t) != MDL_ERR_TRUNCATE;
        bad += MDL_RecvFrom_d_ablk(t, 1, 0, 0, 0, 7) != 1;
        late();
        bad += MDL_ablkWait(t) != MDL_ERR_TRUNCATE;
        /* small messages through the same receives, then a large one */
        bad += MDL_RecvFrom_d_blk(t, 1, 0, 0, 0, 7) != 1 || small_ok(t, 5);
        bad += MDL_RecvFrom_d_blk(t, MDL_ANY, 0, 0, 0, 7) != 1 || small_ok(t, 6);
        bad += MDL_RecvFrom_d_ablk(t, 1, 0, 0, 0, 7) != 1 || MDL_ablkWait(t) || small_ok(t, 7);
        bad += MDL_RecvFrom_d_blk(t, 1, 0, 63, 0, N - 1) != 1;
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < N; j++)
                bad += t->B[i][j] != i * N + j;
        memset(t->B, 0, sizeof t->B);
        /* columns; the second time after receives whose bounds were
         * refused (the column once landed in a row then) */
        for (int k = 0; k < 2; k++) {
            if (k) {
                bad += MDL_RecvFrom_d_blk(t, 1, 0, 7, N, N) != MDL_ERR_BOUNDS;
                bad += MDL_RecvFrom_d_ablk(t, 1, 0, 7, N, N) != MDL_ERR_BOUNDS;
            }
            bad += MDL_RecvFrom_d_blk(t, 1, 0, 7, 5, 5) != 1;
            bad += MDL_RecvFrom_d_ablk(t, 1, 0, 7, 6, 6) != 1 || MDL_ablkWait(t);
            for (int i = 0; i < 8; i++)
                bad += t->B[i][5] != (10 + i) * N + 3 || t->B[i][6] != (20 + i) * N + 4;
            bad += t->B[0][7] != 0 || t->B[0][8] != 0;  /* nothing beside them */
            memset(t->B, 0, sizeof t->B);
        }
        /* posted, matched, never waited for: MDL_End releases its sender */
        bad += MDL_RecvFrom_d_ablk(t, 1, 0, 0, 0, 7) != 1;
        bad += MDL_RecvFrom_d_blk(t, 1, 0, 0, 0, 7) != 1 || small_ok(t, 8);
    }
    int ended = MDL_End(t);
    if (ended != MDL_SUCCESS || bad)
        fprintf(stderr, "direct_small: instance %d: %d wrong, MDL_End %d\n", me, bad, ended);
    else if (me == 0)
        printf("direct_small ok\n");
    return ended != MDL_SUCCESS || bad;
}
