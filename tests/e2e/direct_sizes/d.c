/* direct_sizes: instance 1 sends 64 KiB eight times; instance 0 receives
 * with the wrong size each time (each an error it gets back), then
 * with the right one; two async sends in flight, the first of 128 KiB
 * for a receive of 64 KiB; async too small (twice), then right. */
#include <stdio.h>
#include "dMDL.h"

int main(int argc, char **argv)
{
    struct d *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            t->A[i][j] = i * N + j;
    /* the receive: 32 KiB, 192 bytes (24 doubles), 8 bytes (a double: the
     * announcement's size on this channel), 16 bytes, a column of 16
     * doubles (strided), 128 KiB, then 64 KiB */
    static const int rows[] = { 32, 0, 0, 0, 16, N, 64 }, cols[] = { N, 24, 1, 2, 1, N, N };
    enum { NRECV = sizeof rows / sizeof *rows };
    int bad = 0;
    for (int k = 0; k < NRECV; k++) {
        if (me == 1) {
            bad += MDL_SendTo_d_blk(t, 0, 0, 63, 0, N - 1) != MDL_SUCCESS;
            continue;
        }
        int rc = MDL_RecvFrom_d_blk(t, 1, 0, rows[k] ? rows[k] - 1 : 0, 0, cols[k] - 1);
        bad += k < NRECV - 1 ? rc != MDL_ERR_TRUNCATE : rc != 1;
    }
    /* two async sends in flight, the first too large for its receive:
     * the Wait reports it, and the second's sender is not left waiting */
    if (me == 1) {
        bad += MDL_SendTo_d_ablk(t, 0, 0, N - 1, 0, N - 1) ||
               MDL_SendTo_d_ablk(t, 0, 0, 63, 0, N - 1) || MDL_ablkWait(t);
    } else {
        bad += MDL_RecvFrom_d_ablk(t, 1, 0, 63, 0, N - 1) != 1 ||
               MDL_RecvFrom_d_ablk(t, 1, 64, N - 1, 0, N - 1) != 1;
        bad += MDL_ablkWait(t) != MDL_ERR_TRUNCATE;
    }
    /* async: too small (32 rows, one double), then right */
    static const int arows[] = { 32, 1, 64 }, acols[] = { N, 1, N };
    for (int k = 0; k < 3; k++) {
        if (me == 1) {
            bad += MDL_SendTo_d_ablk(t, 0, 0, 63, 0, N - 1) || MDL_ablkWait(t);
            continue;
        }
        bad += MDL_RecvFrom_d_ablk(t, 1, 0, arows[k] - 1, 0, acols[k] - 1) != 1;
        bad += MDL_ablkWait(t) != (k == 2 ? MDL_SUCCESS : MDL_ERR_TRUNCATE);
    }
    if (me == 0)
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < N; j++)
                bad += t->B[i][j] != i * N + j;
    if (MDL_End(t) != MDL_SUCCESS || bad) {
        fprintf(stderr, "d %d: %d wrong\n", me, bad);
        return 1;
    }
    if (me == 0)
        printf("d ok\n");
    return 0;
}
