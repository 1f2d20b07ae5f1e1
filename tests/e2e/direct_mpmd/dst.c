/* direct_mpmd receiver: posts the large receive, blocks in the small one,
 * then waits for the large one and checks it. */
#include <stdio.h>
#include "dstMDL.h"

int main(int argc, char **argv)
{
    struct dst *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    if (MDL_RecvFrom_src_big(t, 0) != 0 || MDL_RecvFrom_src_tiny(t, 0) != 0 || MDL_bigWait(t))
        return 1;
    long bad = t->x != 42;
    for (int k = 0; k < N; k++)
        bad += t->B[k] != 0.5 * k;
    t->s = 1;
    if (MDL_Allreduce_sum(t) || t->t != 1 || MDL_End(t) != MDL_SUCCESS)
        return 1;
    printf("direct_mpmd: %ld wrong\n", bad);
    return bad != 0;
}
