/* Each instance receives from the other before sending to it: the job
 * hangs in MDL_RecvFrom_d_r on both, after one Barrier each. */
#include "dMDL.h"

int main(int argc, char **argv)
{
    struct d *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int other = 1 - MDL_MyRank(t);
    MDL_Barrier(t);
    MDL_RecvFrom_d_r(t, other);
    MDL_SendTo_d_s(t, other);
    MDL_End(t);
    return 0;
}
