/* end_inflight receiver: receives a second after the sender has called
 * MDL_End, and checks every value; an async receive of a message never
 * sent is left to MDL_End. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "rcvMDL.h"

#define NBIG 131072
#define NSMALL 16

int main(int argc, char **argv)
{
    struct rcv *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int rounds = argc > 1 && strcmp(argv[1], "twice") == 0 ? 2 : 1;
    if (MDL_RecvFrom_snd_never(t, 0) != 0)     /* cancelled by MDL_End */
        return 1;
    nanosleep(&(struct timespec){ 1, 0 }, NULL);
    long bad = 0;
    for (int r = 0; r < rounds; r++) {
        if (MDL_RecvFrom_snd_v(t, 0) < 0 || MDL_RecvFrom_snd_pv(t, 0) < 0 ||
            MDL_RecvFrom_snd_sv(t, 0) < 0 || MDL_RecvFrom_snd_sp(t, 0) < 0)
            return 1;
        for (int k = 0; k < NBIG; k++)
            bad += t->big[k] != 1.0 + k + r || t->pbig[k] != -2.0 * k - r;
        for (int k = 0; k < NSMALL; k++)
            bad += t->small[k] != 3 * k + r || t->psmall[k] != 1000 + k + r;
    }
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    printf("rcv: %d rounds, %ld wrong values\n", rounds, bad);
    return 0;
}
