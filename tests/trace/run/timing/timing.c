/* Two instances.  Instance 0 computes 300 ms, then sends `small`; instance
 * 1's receive waits for it.  Then instance 1 computes 300 ms before it
 * receives `big`, and instance 0's sync send of it waits meanwhile.  Both
 * waits must be inside the calls' events; the computations outside.  A
 * wait lasts the other's computation less how late the waiting instance
 * reached its call: on a loaded machine 33 ms late was seen, so the test
 * asks half the computation (tests/suite-trace-run.sh). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include "pMDL.h"

static void compute_300ms(void)
{
    struct timespec t = { 0, 300000000 };
    nanosleep(&t, NULL);
}

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t);
    if (me == 0) {
        t->x = 42.5;
        compute_300ms();
        MDL_SendTo_p_small(t, 1);
        t->blob[65535] = 7;
        MDL_SendTo_p_big(t, 1);
    } else {
        MDL_RecvFrom_p_small(t, 0);
        compute_300ms();
        MDL_RecvFrom_p_big(t, 0);
    }
    int bad = me == 1 && (t->x != 42.5 || t->blob[65535] != 7);
    MDL_End(t);
    if (bad)
        fprintf(stderr, "p[%d]: wrong data\n", me);
    return bad;
}
