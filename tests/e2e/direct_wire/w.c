/* direct_wire: instance 1 sends, instance 0 receives; see spec.mdl. */
#include <stdio.h>
#include <string.h>
#include "wMDL.h"

int main(int argc, char **argv)
{
    struct w *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), bad = 0;
    for (int i = 0; i < N; i++)
        t->a[i] = (char)(i * 7 + 1);
    /* what instance 1 sends, a[0..last]; what instance 0 receives, b[0..rlast] */
    static const int last[] = { N - 1, N - 1, N - 1, 3, 7, 3, N - 1 };
    static const int rlast[] = { 2, 3, 7, 3, 7, 7, N - 1 };
    for (int k = 0; k < 7; k++) {
        if (me == 1) {
            bad += MDL_SendTo_w_v(t, 0, 0, last[k]) != MDL_SUCCESS;
            continue;
        }
        memset(t->b, 0, sizeof t->b);
        int rc = MDL_RecvFrom_w_v(t, 1, 0, rlast[k]);
        int agree = last[k] == rlast[k];
        bad += agree ? rc != 1 : rc != MDL_ERR_TRUNCATE;
        if (agree)
            bad += memcmp(t->b, t->a, (size_t)last[k] + 1) != 0;
    }
    int ended = MDL_End(t);
    if (ended != MDL_SUCCESS || bad)
        fprintf(stderr, "direct_wire: instance %d: %d wrong, MDL_End %d\n", me, bad, ended);
    else if (me == 0)
        printf("direct_wire ok\n");
    return ended != MDL_SUCCESS || bad;
}
