/* fault_fatal <case>: instance 0 commits the fault named by <case>, the
 * other instance waits in a barrier; the fault must end the job. */
#include <stdio.h>
#include <string.h>
#include "wMDL.h"

int main(int argc, char **argv)
{
    struct w *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS || argc < 2)
        return 2;
    const char *c = argv[1];
    const int dup[] = { 1, 1 }, out[] = { 1, 2 };
    int rc = 0;
    if (strcmp(c, "after-end") == 0) {
        /* a copy of the struct keeps the runtime handle past MDL_End */
        struct w saved = *t;
        MDL_End(t);
        rc = MDL_Barrier(&saved);
        printf("fault_fatal: %s returned %d\n", c, rc);    /* not reached */
        return 0;
    }
    if (MDL_MyRank(t) == 0) {
        if (strcmp(c, "send-rank") == 0)
            rc = MDL_SendTo_w_part(t, 5, 0, 1);
        else if (strcmp(c, "recv-rank") == 0)
            rc = MDL_RecvFrom_w_part(t, -7, 0, 1);
        else if (strcmp(c, "send-bounds") == 0)
            rc = MDL_SendTo_w_part(t, 1, 0, 8);
        else if (strcmp(c, "recv-bounds") == 0)
            rc = MDL_RecvFrom_w_part(t, 1, -1, 3);
        else if (strcmp(c, "mcast-dup") == 0)
            rc = MDL_SendTo_w_mc(t, dup, 2);
        else if (strcmp(c, "mcast-range") == 0)
            rc = MDL_SendTo_w_mc(t, out, 2);
        else if (strcmp(c, "sbarrier-dup") == 0)
            rc = MDL_Sbarrier(t, dup, 2);
        else if (strcmp(c, "sbarrier-range") == 0)
            rc = MDL_Sbarrier(t, out, 2);
        else if (strcmp(c, "init-twice") == 0)
            rc = MDL_Init(&t, &argc, &argv);
        else
            return 2;
        printf("fault_fatal: %s returned %d\n", c, rc);    /* not reached */
    }
    MDL_Barrier(t);
    MDL_End(t);
    return 0;
}
