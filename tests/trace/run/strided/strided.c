/* Two instances: instance 0 sends its column 1 as 2, 8 and 16 KiB
 * strided messages, instance 1 receives each into its column 2 and checks
 * every element (tests/suite-trace-run.sh reads which were copied once). */
#include <stdio.h>
#include "pMDL.h"

/* Message k (0: s2k, 1: s8k, 2: s16k): instance 0 sends, 1 receives. */
static void transfer(struct p *t, int me, int k)
{
    switch (2 * k + me) {
    case 0: MDL_SendTo_p_s2k(t, 1); break;
    case 1: MDL_RecvFrom_p_s2k(t, 0); break;
    case 2: MDL_SendTo_p_s8k(t, 1); break;
    case 3: MDL_RecvFrom_p_s8k(t, 0); break;
    case 4: MDL_SendTo_p_s16k(t, 1); break;
    default: MDL_RecvFrom_p_s16k(t, 0); break;
    }
}

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), bad = 0;
    static const int rows[3] = { 256, 1024, 2048 };
    for (int k = 0; k < 3; k++) {
        for (int r = 0; r < 2048; r++) {
            t->M[r][1] = me == 0 ? 1000.0 * k + r : -1.0;
            t->M[r][2] = -2.0;
        }
        transfer(t, me, k);
        for (int r = 0; me == 1 && r < 2048; r++)
            bad += t->M[r][2] != (r < rows[k] ? 1000.0 * k + r : -2.0);
    }
    MDL_End(t);
    if (bad)
        fprintf(stderr, "p[%d]: %d wrong elements\n", me, bad);
    else if (me == 1)
        printf("strided: ok\n");
    return bad != 0;
}
