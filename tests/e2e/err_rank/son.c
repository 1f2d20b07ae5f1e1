/* err_rank: waits for a ping that never comes; the job is torn down. */
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    MDL_RecvFrom_father_ping(t, 0);
    MDL_End(t);
    return 0;
}
