/* end_unreceived receiver: a second later it receives and checks the
 * message, or (argv[1] = "ignore") ends without receiving it. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "rcvMDL.h"

int main(int argc, char **argv)
{
    struct rcv *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    nanosleep(&(struct timespec){ 1, 0 }, NULL);
    if (argc > 1 && strcmp(argv[1], "ignore") == 0)
        return MDL_End(t) == MDL_SUCCESS ? 0 : 1;
    if (MDL_RecvFrom_snd_v(t, 0) < 0)
        return 1;
    long bad = 0;
    for (int k = 0; k < 131072; k++)
        bad += t->big[k] != k;
    printf("rcv: %ld wrong values\n", bad);
    return MDL_End(t) == MDL_SUCCESS ? 0 : 1;
}
