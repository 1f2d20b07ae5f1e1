/* fault_return: instance 1 sends V[0..7] twice; instance 0 receives the
 * first into V[0..3] (too small: MDL_ERR_TRUNCATE), tries bounds outside
 * V (MDL_ERR_BOUNDS, nothing consumed), then receives the second whole.
 * Then Sbarrier with bad lists, MDL_Init twice and a call after MDL_End,
 * all returning their codes. */
#include <limits.h>
#include <stdio.h>
#include "wMDL.h"

#define CANARY 0x5a5a5a5a

static int bad;

static void want(int got, int code, const char *what)
{
    if (got != code) {
        printf("fault_return: %s returned %d, expected %d\n", what, got, code);
        bad = 1;
    }
}

/* canaries intact, V[lo..hi] equal to -1 */
static void untouched(const struct w *t, int lo, int hi, const char *after)
{
    for (int j = 0; j < 4; j++)
        if (t->pre[j] != CANARY || t->post[j] != CANARY) {
            printf("fault_return: canary overwritten after %s\n", after);
            bad = 1;
            return;
        }
    for (int j = lo; j <= hi; j++)
        if (t->V[j] != -1) {
            printf("fault_return: V[%d] = %d written by %s\n", j, t->V[j], after);
            bad = 1;
        }
}

int main(int argc, char **argv)
{
    struct w *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS || MDL_FamilySize(t) != 2)
        return 1;
    int me = MDL_MyRank(t);
    if (me == 1) {
        for (int j = 0; j < 8; j++)
            t->V[j] = 10 + j;
        want(MDL_SendTo_w_part(t, 0, 0, 7), MDL_SUCCESS, "first send");
        want(MDL_SendTo_w_part(t, 0, 0, 7), MDL_SUCCESS, "second send");
    } else {
        for (int j = 0; j < 4; j++)
            t->pre[j] = t->post[j] = CANARY;
        for (int j = 0; j < 8; j++)
            t->V[j] = -1;
        want(MDL_RecvFrom_w_part(t, 1, 0, 3), MDL_ERR_TRUNCATE, "receive of 4 for 8");
        untouched(t, 4, 7, "the truncated receive");
        for (int j = 0; j < 4; j++)
            t->V[j] = -1;
        want(MDL_RecvFrom_w_part(t, 1, 4, 11), MDL_ERR_BOUNDS, "receive into V[4..11]");
        want(MDL_RecvFrom_w_part(t, 1, -2, 5), MDL_ERR_BOUNDS, "receive into V[-2..5]");
        want(MDL_RecvFrom_w_part(t, 1, 5, 2), MDL_ERR_BOUNDS, "receive into V[5..2]");
        untouched(t, 0, 7, "the receives out of bounds");
        want(MDL_RecvFrom_w_part(t, 1, 0, 7), 1, "receive of 8");
        for (int j = 0; j < 8; j++)
            want(t->V[j], 10 + j, "received value");
        untouched(t, 0, -1, "the receive of 8");
        const int out[] = { 0, 2 }, neg[] = { -1, 0 }, dup[] = { 0, 1, 0 };
        want(MDL_Sbarrier(t, out, 2), MDL_ERR_RANK, "Sbarrier with 2");
        want(MDL_Sbarrier(t, neg, 2), MDL_ERR_RANK, "Sbarrier with -1");
        want(MDL_Sbarrier(t, dup, 3), MDL_ERR_RANK, "Sbarrier with a duplicate");
        /* a wrong, huge count: the list is read up to its first bad entry */
        want(MDL_Sbarrier(t, out + 1, INT_MAX), MDL_ERR_RANK, "Sbarrier of INT_MAX");
        struct w *again = t;
        want(MDL_Init(&again, &argc, &argv), MDL_ERR_STATE, "second MDL_Init");
        if (again != t) {
            printf("fault_return: the second MDL_Init changed the task pointer\n");
            bad = 1;
        }
    }
    const int far[] = { 7 };
    want(MDL_SendTo_w_ml(t, far, INT_MAX), MDL_ERR_RANK, "multicast send of INT_MAX");
    want(MDL_Mcast_mc(t, far, INT_MAX), MDL_ERR_RANK, "Mcast of INT_MAX");
    want(MDL_Barrier(t), MDL_SUCCESS, "barrier");
    struct w saved = *t;    /* keeps the runtime handle past MDL_End */
    want(MDL_End(t), MDL_SUCCESS, "MDL_End");
    want(MDL_Barrier(&saved), MDL_ERR_STATE, "MDL_Barrier after MDL_End");
    want(MDL_MyRank(&saved), MDL_ERR_STATE, "MDL_MyRank after MDL_End");
    if (bad)
        return 1;
    if (me == 0)
        printf("fault_return: OK\n");
    return 0;
}
