/* err_checks: the run-time checks, each returning its code,
 * then a normal exchange to show the instance is still usable. */
#include <stdio.h>
#include "wMDL.h"

static int me, bad;

static void want(int got, int code, const char *what)
{
    if (got != code) {
        fprintf(stderr, "w %d: %s returned %d, expected %d\n", me, what, got, code);
        bad = 1;
    }
}

int main(int argc, char **argv)
{
    struct w *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    if (MDL_FamilySize(t) != 2)
        return 1;
    int other = 1 - me;
    want(MDL_SendTo_w_part(t, other, 0, 8), MDL_ERR_BOUNDS, "section past the end");
    want(MDL_SendTo_w_part(t, other, -1, 2), MDL_ERR_BOUNDS, "negative bound");
    want(MDL_SendTo_w_part(t, 5, 0, 1), MDL_ERR_RANK, "send to instance 5");
    want(MDL_SendTo_w_part(t, MDL_ANY, 0, 1), MDL_ERR_RANK, "send to MDL_ANY");
    want(MDL_RecvFrom_w_part(t, 9, 0, 1), MDL_ERR_RANK, "receive from instance 9");
    const int dup[] = { 1, 1 }, out[] = { 0, 2 };
    want(MDL_SendTo_w_mc(t, dup, 2), MDL_ERR_RANK, "multicast with a duplicate");
    want(MDL_SendTo_w_mc(t, out, 2), MDL_ERR_RANK, "multicast out of range");
    want(MDL_Sbarrier(t, dup, 2), MDL_ERR_RANK, "Sbarrier with a duplicate");
    t->n = 5;    /* 2 x 5 elements do not fit in B[8] */
    want(MDL_Gather_g(t), MDL_ERR_BOUNDS, "Gather count");

    /* still usable: a real exchange, a multicast and the Gather */
    for (int j = 0; j < 8; j++)
        t->V[j] = me == 0 ? 10 + j : -1;
    if (me == 0) {
        want(MDL_SendTo_w_part(t, 1, 2, 5), MDL_SUCCESS, "send V[2..5]");
        t->who = 77;
        const int one[] = { 1 };
        want(MDL_SendTo_w_mc(t, one, 1), MDL_SUCCESS, "multicast to {1}");
    } else {
        want(MDL_RecvFrom_w_part(t, 0, 0, 3), 0, "receive V[0..3]");
        for (int j = 0; j < 8; j++)
            if (t->V[j] != (j < 4 ? 12 + j : -1))
                want(t->V[j], j < 4 ? 12 + j : -1, "received value");
        want(MDL_RecvFrom_w_mc(t, MDL_ANY), 0, "multicast receive");
        want(t->who, 77, "multicast value");
    }
    t->n = 4;
    for (int j = 0; j < 4; j++)
        t->A[j] = 100 * me + j;
    want(MDL_Gather_g(t), MDL_SUCCESS, "Gather of 4");
    if (me == 0)
        for (int j = 0; j < 8; j++)
            want(t->B[j], 100 * (j / 4) + j % 4, "Gather value");
    if (MDL_End(t) != MDL_SUCCESS || bad)
        return 1;
    if (me == 0)
        printf("err_checks: OK\n");
    return 0;
}
