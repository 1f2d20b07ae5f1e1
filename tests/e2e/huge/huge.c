/* huge: instance 0 sends 2 GiB + 8 bytes to instance 1, which checks
 * its last byte (on Open MPI the receive was a size error). */
#include <stdio.h>
#include "hugeMDL.h"

int main(int argc, char **argv)
{
    struct huge *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), bad = 0;
    if (me == 0) {
        t->blob[sizeof t->blob / sizeof t->blob[0] - 1] = 42;
        MDL_SendTo_huge_blob(t, 1);
    } else {
        MDL_RecvFrom_huge_blob(t, 0);
        bad = t->blob[sizeof t->blob / sizeof t->blob[0] - 1] != 42;
    }
    MDL_End(t);
    if (bad)
        fprintf(stderr, "huge %d: wrong data\n", me);
    else if (me == 1)
        printf("huge: ok\n");
    return bad;
}
