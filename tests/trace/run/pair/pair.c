/* Two instances swap 64 KiB ROUNDS times, completed by the one Wait of
 * the name, then ROUNDS times more by polling its one Test.  Instance 1
 * computes 5 ms before it posts, so instance 0's completions wait. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include "pMDL.h"

#define ROUNDS 3

static void compute_5ms(void)
{
    struct timespec t = { 0, 5000000 };
    nanosleep(&t, NULL);
}

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), other = 1 - me, bad = 0;
    for (int r = 0; r < 2 * ROUNDS; r++) {
        for (int k = 0; k < 8192; k++)
            t->out[k] = 1000.0 * me + r + k;
        if (me == 1)
            compute_5ms();
        MDL_RecvFrom_p_swap(t, other);
        MDL_SendTo_p_swap(t, other);
        if (r < ROUNDS) {
            if (MDL_swapWait(t) != MDL_SUCCESS)
                bad = 1;
        } else {
            int done;
            while ((done = MDL_swapTest(t)) == 0)
                ;
            bad |= done != 1;
        }
        for (int k = 0; k < 8192; k++)
            bad |= t->in[k] != 1000.0 * other + r + k;
    }
    MDL_End(t);
    if (bad)
        fprintf(stderr, "p[%d]: wrong data or result\n", me);
    return bad;
}
