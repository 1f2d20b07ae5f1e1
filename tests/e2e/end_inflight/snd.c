/* end_inflight sender: four async sends, MDL_End at once (no Wait), then
 * the pointer data is overwritten and freed: the receiver, which receives
 * a second later, must still get every value.  argv[1] = "twice" sends
 * every message twice (several in flight per message). */
#include <stdlib.h>
#include <string.h>
#include "sndMDL.h"

#define NBIG 131072
#define NSMALL 16

int main(int argc, char **argv)
{
    struct snd *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int rounds = argc > 1 && strcmp(argv[1], "twice") == 0 ? 2 : 1;
    t->p = malloc(NBIG * sizeof(double));
    t->q = malloc(NSMALL * sizeof(int));
    if (!t->p || !t->q)
        return 1;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < NBIG; k++) {
            t->big[k] = 1.0 + k + r;
            t->p[k] = -2.0 * k - r;
        }
        for (int k = 0; k < NSMALL; k++) {
            t->small[k] = 3 * k + r;
            t->q[k] = 1000 + k + r;
        }
        if (MDL_SendTo_rcv_v(t, 0) || MDL_SendTo_rcv_pv(t, 0, 0, NBIG - 1) ||
            MDL_SendTo_rcv_sv(t, 0) || MDL_SendTo_rcv_sp(t, 0, 0, NSMALL - 1))
            return 1;
        if (r + 1 < rounds && (MDL_vWait(t) || MDL_pvWait(t) || MDL_svWait(t) || MDL_spWait(t)))
            return 1;
    }
    double *p = t->p;
    int *q = t->q;
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    memset(p, 0xff, NBIG * sizeof(double));
    memset(q, 0xff, NSMALL * sizeof(int));
    free(p);
    free(q);
    return 0;       /* silent: mpiexec may merge two instances' lines */
}
