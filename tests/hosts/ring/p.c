/* A ring of 4: instance r sends 64 KiB to r+1 and receives from r-1;
 * even instances send first, odd ones receive first, so no sync send
 * waits for a sender.  Every byte is checked. */
#include <stdio.h>
#include "pMDL.h"

enum { N = 4 };

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), from = (me + N - 1) % N, bad = 0;
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 65536; i++)
            t->blob[i] = (char)(me * 31 + i + k);
        if (me % 2 == 0)
            MDL_SendTo_p_big(t, (me + 1) % N);
        MDL_RecvFrom_p_big(t, from);
        for (int i = 0; i < 65536; i++)
            bad |= t->blob[i] != (char)(from * 31 + i + k);
        if (me % 2 == 1) {
            for (int i = 0; i < 65536; i++)
                t->blob[i] = (char)(me * 31 + i + k);
            MDL_SendTo_p_big(t, (me + 1) % N);
        }
    }
    /* before MDL_End: MPICH's MPI_Finalize may hang across hosts */
    printf("p[%d]: %s\n", me, bad ? "wrong data" : "ok");
    fflush(stdout);
    MDL_End(t);
    return bad;
}
