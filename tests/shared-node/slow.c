/* Two instances: after a Barrier and a message from instance 0 to 1,
 * instance 0 waits until the file named by argv[1] exists (the test does
 * what it does to the job's trace parts meanwhile), then makes a call that
 * fails (no instance 7 of p: with MDL_ERRORS=return it returns
 * MDL_ERR_RANK, and its error text is recorded); both end after a second
 * Barrier.  Without argv[1] it does not wait. */
#include <unistd.h>

#include "pMDL.h"

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    MDL_Barrier(t);
    if (MDL_MyRank(t) == 0)
        MDL_SendTo_p_s(t, 1);
    else
        MDL_RecvFrom_p_r(t, 0);
    if (MDL_MyRank(t) == 0) {
        for (int i = 0; argc > 1 && i < 600 && access(argv[1], F_OK) != 0; i++)
            usleep(50000);
        MDL_SendTo_p_s(t, 7);
    }
    MDL_Barrier(t);
    MDL_End(t);
    return 0;
}
