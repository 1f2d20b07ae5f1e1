/* fault_peer_dies: receives 8 messages (32 KiB each) from son 0 and checks
 * every element, prints the summary, then lets son 1 kill itself and waits
 * for a message from it that never comes. */
#include <stdio.h>
#include "fatherMDL.h"

#define N 8

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS || MDL_sonSize(t) != 2)
        return 1;
    int good = 0;
    for (int m = 0; m < N; m++) {
        if (MDL_RecvFrom_son_data(t, 0) != 0 || t->k != m)
            return 1;
        int ok = 1;
        for (int j = 0; j < 4096; j++)
            ok &= t->big[j] == m * 10000.0 + j;
        good += ok;
    }
    printf("father: %d of %d messages from son 0 intact\n", good, N);
    fflush(stdout);
    t->k = 1;
    MDL_SendTo_son_go(t, 1);
    MDL_RecvFrom_son_never(t, 1);    /* son 1 dies instead */
    printf("father: son 1 answered\n");
    MDL_End(t);
    return 0;
}
