/* A ring of 4 that runs until it is stopped from outside: instance r
 * sends to r+1 and receives from r-1 (even ones send first), for ever.
 * Once it has gone round 100 times, each says so: the test then kills
 * one host's processes, or takes its link down. */
#define _DEFAULT_SOURCE     /* usleep */
#include <stdio.h>
#include <unistd.h>
#include "fMDL.h"

enum { N = 4 };

int main(int argc, char **argv)
{
    struct f *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), from = (me + N - 1) % N, to = (me + 1) % N;
    for (long k = 0;; k++) {
        t->token = (int)k;
        if (me % 2 == 0)
            MDL_SendTo_f_m(t, to);
        MDL_RecvFrom_f_m(t, from);
        if (me % 2 == 1)
            MDL_SendTo_f_m(t, to);
        if (k == 100) {
            printf("f[%d]: running\n", me);
            fflush(stdout);
        }
        usleep(1000);
    }
}
