/* Two instances play ping-pong (spec.mdl): ROUNDS round trips of `small`
 * received blocking, BIG_ROUNDS of `big`, ROUNDS of `tick` received by
 * an async receive and its Wait.  Each reply carries the value it got, so
 * a message taken out of order shows. */
#include <stdio.h>
#include "pMDL.h"

#define ROUNDS 300
#define BIG_ROUNDS 20

static int bad;

static void expect(const char *what, double got, double want)
{
    if (got != want && !bad++)
        fprintf(stderr, "pingpong: %s: got %g, want %g\n", what, got, want);
}

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), other = 1 - me;
    for (int k = 0; k < ROUNDS; k++) {
        if (me == 0) {
            t->x = k;
            MDL_SendTo_p_small(t, other);
            MDL_RecvFrom_p_small_in(t, other);
            expect("small back", t->x, k);
        } else {
            MDL_RecvFrom_p_small_in(t, other);
            expect("small", t->x, k);
            MDL_SendTo_p_small(t, other);
        }
    }
    for (int k = 0; k < BIG_ROUNDS; k++) {
        if (me == 0) {
            t->blob[k] = (char)k;
            MDL_SendTo_p_big(t, other);
            MDL_RecvFrom_p_big_in(t, other);
        } else {
            MDL_RecvFrom_p_big_in(t, other);
            MDL_SendTo_p_big(t, other);
        }
        expect("big", t->blob[k], k);
    }
    for (int k = 0; k < ROUNDS; k++) {
        if (me == 0) {
            t->x = k;
            MDL_SendTo_p_tick(t, other);
            MDL_RecvFrom_p_later(t, other);
            MDL_laterWait(t);
            expect("later back", t->y, k);
        } else {
            MDL_RecvFrom_p_later(t, other);
            MDL_laterWait(t);
            expect("later", t->y, k);
            t->x = t->y;
            MDL_SendTo_p_tick(t, other);
        }
    }
    MDL_End(t);
    return bad != 0;
}
