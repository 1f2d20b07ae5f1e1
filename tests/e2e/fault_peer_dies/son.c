/* fault_peer_dies: son 0 sends 8 numbered messages; son 1 waits for `go`
 * and dies of SIGKILL. */
#include <signal.h>
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    if (MDL_MyRank(t) == 0) {
        for (int m = 0; m < 8; m++) {
            t->k = m;
            for (int j = 0; j < 4096; j++)
                t->big[j] = m * 10000.0 + j;
            if (MDL_SendTo_father_data(t, 0) != MDL_SUCCESS || MDL_dataWait(t) != MDL_SUCCESS)
                return 1;
        }
    } else {
        MDL_RecvFrom_father_go(t, 0);
        raise(SIGKILL);
    }
    MDL_End(t);
    return 0;
}
