/* pi: a worker; sends PI_BATCHES counts with async sends. */
#include <stdio.h>
#include "sonMDL.h"
#include "common.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t);
    if (me == 0) {
        t->box = 1.0;
        t->coef = 4.0;
        if (MDL_SendTo_father_startMessage(t, 0) != MDL_SUCCESS)
            return 1;
    }
    if (MDL_RecvFrom_father_shootMessage(t, 0) != 0 || t->number != 20000) {
        fprintf(stderr, "son %d: number %d\n", me, t->number);
        return 1;
    }
    for (int b = 0; b < PI_BATCHES; b++) {
        /* the variables must not change while the async send is pending */
        if (b > 0 && MDL_oneShootWait(t) != MDL_SUCCESS)
            return 1;
        t->in = pi_hits(me, b, t->number);
        t->rank = me;
        if (MDL_SendTo_father_oneShoot(t, 0) != MDL_SUCCESS)
            return 1;
    }
    int done;
    while ((done = MDL_oneShootTest(t)) == 0)
        ;
    if (done != 1)
        return 1;
    MDL_End(t);
    return 0;
}
