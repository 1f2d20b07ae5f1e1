/* direct_wire_async: instance 1 sends, instance 0 receives; see spec.mdl. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "wMDL.h"

/* longer than the sender's patience (10 ms): it may withdraw its message */
static void late(void)
{
    struct timespec ts = { 0, 30 * 1000 * 1000 };
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    struct w *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), bad = 0;
    for (int i = 0; i < N; i++)
        t->a[i] = (char)(i * 7 + 1);
    if (me == 1) {
        /* 64 KiB twice, then 4 bytes */
        bad += MDL_SendTo_w_v(t, 0, 0, N - 1) != MDL_SUCCESS;
        bad += MDL_SendTo_w_v(t, 0, 0, N - 1) != MDL_SUCCESS;
        bad += MDL_SendTo_w_v(t, 0, 0, 3) != MDL_SUCCESS;
    } else {
        /* 4 bytes waited for at once, then late: each an announcement */
        bad += MDL_RecvFrom_w_v(t, 1, 0, 3) != 1;
        bad += MDL_vWait(t) != MDL_ERR_TRUNCATE;
        bad += MDL_RecvFrom_w_v(t, 1, 0, 3) != 1;
        late();
        bad += MDL_vWait(t) != MDL_ERR_TRUNCATE;
        /* 4 bytes, the message itself */
        memset(t->b, 0, sizeof t->b);
        bad += MDL_RecvFrom_w_v(t, 1, 0, 3) != 1 || MDL_vWait(t) != MDL_SUCCESS;
        bad += memcmp(t->b, t->a, 4) != 0;
    }
    int ended = MDL_End(t);
    if (ended != MDL_SUCCESS || bad)
        fprintf(stderr, "direct_wire_async: instance %d: %d wrong, MDL_End %d\n", me, bad, ended);
    else if (me == 0)
        printf("direct_wire_async ok\n");
    return ended != MDL_SUCCESS || bad;
}
