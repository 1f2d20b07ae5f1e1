/* r: instance 0 sends 510 rows of 512 doubles (about 2 MiB) of a
 * variable sized at run time to instance 1, which checks them. */
#include <stdio.h>
#include "rMDL.h"

int main(int argc, char **argv)
{
    struct r *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), n = 512, bad = 0;
    t->n = n;
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return 1;
    if (me == 0) {
        for (long i = 0; i < (long)n * n; i++)
            t->big[i] = (double)i;
        if (MDL_SendTo_r_blk(t, 1, 0, n - 1) != MDL_SUCCESS)
            return 1;
    } else {
        if (MDL_RecvFrom_r_blk(t, 0, 0, n - 1) != 0)
            return 1;
        for (long i = 0; i < (long)n * n; i++)
            bad |= t->big[i] != (i >= n && i < (long)(n - 1) * n ? (double)i : 0);
        printf("rtsize: %s\n", bad ? "wrong" : "ok");
    }
    MDL_End(t);
    return bad;
}
