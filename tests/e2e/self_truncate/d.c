/* self_truncate: one instance posts an async receive of 2 doubles from
 * itself, then sends itself 4, by a sync send and by an async one: each
 * Wait must say MDL_ERR_TRUNCATE. */
#include <stdio.h>
#include "dMDL.h"

int main(int argc, char **argv)
{
    struct d *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int bad = MDL_RecvFrom_d_bysync(t, 0, 0, 1) != MDL_SUCCESS;
    bad += MDL_SendTo_d_bysync(t, 0, 0, 3) != MDL_SUCCESS;
    int by_sync = MDL_bysyncWait(t);
    bad += MDL_RecvFrom_d_byasync(t, 0, 0, 1) != MDL_SUCCESS;
    bad += MDL_SendTo_d_byasync(t, 0, 0, 3) != MDL_SUCCESS;
    int by_async = MDL_byasyncWait(t);
    MDL_End(t);
    if (bad || by_sync != MDL_ERR_TRUNCATE || by_async != MDL_ERR_TRUNCATE) {
        fprintf(stderr, "self_truncate: calls failed %d, Waits %d %d (want %d)\n", bad, by_sync,
                by_async, MDL_ERR_TRUNCATE);
        return 1;
    }
    printf("self_truncate: ok\n");
    return 0;
}
