/* end_unreceived sender: one 1 MiB async send, then MDL_End at once;
 * prints the CPU time MDL_End used (it waits about a second for the
 * receiver: asleep, it uses next to none). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <time.h>
#include "sndMDL.h"

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    struct snd *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    for (int k = 0; k < 131072; k++)
        t->big[k] = k;
    if (MDL_SendTo_rcv_v(t, 0) != MDL_SUCCESS)
        return 1;
    double c0 = cpu();
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    double used = cpu() - c0;
    printf("snd: MDL_End %s\n", used < 0.3 ? "slept" : "spun");
    return 0;
}
