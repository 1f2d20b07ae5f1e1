/* Instance 0 sends `big` to 1, 1 then to 2, and so on, the last back to
 * 0; each checks what it received.  Run with MDL_MPI_HOST set apart for
 * some processes (tests/suite-trace-run.sh), so that some of the passes
 * are between "hosts". */
#include <stdio.h>
#include "pMDL.h"

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0;
    if (me == 0) {
        t->blob[65535] = 1;
        MDL_SendTo_p_big(t, 1);
        MDL_RecvFrom_p_big(t, n - 1);
        bad = t->blob[65535] != n;
    } else {
        MDL_RecvFrom_p_big(t, me - 1);
        bad = t->blob[65535] != me;
        t->blob[65535] = (char)(me + 1);
        MDL_SendTo_p_big(t, (me + 1) % n);
    }
    MDL_End(t);
    if (bad)
        fprintf(stderr, "p[%d]: wrong data\n", me);
    return bad;
}
