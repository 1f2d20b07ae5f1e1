/* son MODE: BATCHES results of two longs to the father.  MODE "truncate":
 * son 1's sixth result is four longs (the father's receive holds two);
 * "kill": son 2 kills itself (SIGKILL) before its sixth. */
#include <signal.h>
#include <string.h>
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS || argc < 2)
        return 2;
    int me = MDL_MyRank(t);
    MDL_RecvFrom_father_go(t, 0);
    for (int b = 0; b < t->k; b++) {
        t->r[0] = me;
        t->r[1] = b;
        if (b == 5 && me == 2 && strcmp(argv[1], "kill") == 0)
            raise(SIGKILL);
        int hi = b == 5 && me == 1 && strcmp(argv[1], "truncate") == 0 ? 3 : 1;
        MDL_SendTo_father_res(t, 0, 0, hi);
    }
    MDL_End(t);
    return 0;
}
