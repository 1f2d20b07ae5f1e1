/* A ring of 4: instance r sends 64 KiB to r+1 and receives from r-1.
 * An odd instance first tells r-1 `go`, receives its message (same
 * host), then sends to r+1 (the other host); an even one waits for `go`,
 * sends (same host), then receives from r-1 (the other host).  So every
 * same-host receive is posted before its message is sent.  Every byte
 * is checked. */
#include <stdio.h>
#include "pMDL.h"

enum { N = 4 };

static void fill(struct p *t, int me, int k)
{
    for (int i = 0; i < 65536; i++)
        t->blob[i] = (char)(me * 31 + i + k);
}

static int wrong(const struct p *t, int from, int k)
{
    int bad = 0;
    for (int i = 0; i < 65536; i++)
        bad |= t->blob[i] != (char)(from * 31 + i + k);
    return bad;
}

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), from = (me + N - 1) % N, to = (me + 1) % N, bad = 0;
    for (int k = 0; k < 3; k++) {
        if (me % 2 == 1) {
            MDL_SendTo_p_go(t, from);
            MDL_RecvFrom_p_big(t, from);
            bad |= wrong(t, from, k);
            fill(t, me, k);
            MDL_SendTo_p_big(t, to);
        } else {
            MDL_RecvFrom_p_go(t, to);
            fill(t, me, k);
            MDL_SendTo_p_big(t, to);
            MDL_RecvFrom_p_big(t, from);
            bad |= wrong(t, from, k);
        }
    }
    /* before MDL_End: MPICH's MPI_Finalize may hang across hosts */
    printf("p[%d]: %s\n", me, bad ? "wrong data" : "ok");
    fflush(stdout);
    MDL_End(t);
    return bad;
}
