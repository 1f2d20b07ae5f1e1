/* unreceived, the sender: argv[1] is the case (b.c says what b does). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "aMDL.h"

int main(int argc, char **argv)
{
    struct a *t;
    if (argc < 2 || MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int c = atoi(argv[1]);
    switch (c) {
    case 1:                     /* two, b receives one */
    case 2:                     /* three, b receives none */
        for (int k = 1; k <= c + 1; k++) {
            t->x = k;
            MDL_SendTo_b_sm(t, 0);
            MDL_smWait(t);
        }
        MDL_SendTo_b_sl(t, 0);  /* b receives this one: after the others */
        break;
    case 3: {                   /* after b's MDL_End */
        struct timespec pause = { 0, 200000000 };
        nanosleep(&pause, NULL);
        MDL_SendTo_b_sm(t, 0);
        MDL_smWait(t);
        break;
    }
    case 4:                     /* a large one, then the one b receives */
        MDL_SendTo_b_sl(t, 0);
        MDL_SendTo_b_sm(t, 0);
        break;
    case 5:                     /* two for b's async receive, never waited */
        MDL_SendTo_b_sp(t, 0);
        MDL_SendTo_b_sp(t, 0);
        MDL_SendTo_b_sm(t, 0);
        break;
    }
    printf("a: end %d\n", MDL_End(t));
    return 0;
}
