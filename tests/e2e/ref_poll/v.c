#include <stdio.h>
#include "vMDL.h"
int main(int argc, char **argv)
{
    struct v *t;
    MDL_Init(&t, &argc, &argv);
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0;
    for (int round = 0; round < 50; round++) {
        for (int k = 0; k < NV; k++) t->out[k] = round * 1000 + me * 100 + k;
        MDL_RecvFrom_v_rv(t, (me + n - 1) % n);
        MDL_SendTo_v_sv(t, (me + 1) % n);
        long polls = 0;
        while (!MDL_rvTest(t)) polls++;
        while (!MDL_svTest(t)) polls++;
        int w = (me + n - 1) % n;
        for (int k = 0; k < NV; k++)
            if (t->in[k] != round * 1000 + w * 100 + k) { bad = 1; break; }
    }
    printf("poll %d %s\n", me, bad ? "FAILED" : "ok");
    MDL_End(t);
    return bad;
}
