/* ping: answer every ping of the father (the last son gets one more). */
#include <stdio.h>
#include "sonMDL.h"

static int answer(struct son *t)
{
    if (MDL_RecvFrom_father_ping(t, 0) != 0)
        return 1;
    t->reply = 2 * t->value + 1;
    t->who = MDL_MyRank(t);
    t->sum = 0;
    for (int j = 0; j < 4; j++)
        t->sum += t->V[j];
    return MDL_SendTo_father_pong(t, 0) != MDL_SUCCESS;
}

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), n = MDL_FamilySize(t);
    if (MDL_fatherSize(t) != 1 || me < 0 || me >= n) {
        fprintf(stderr, "son: rank %d of %d\n", me, n);
        return 1;
    }
    int rc = answer(t);
    if (!rc && n > 1 && me == n - 1)
        rc = answer(t);
    MDL_End(t);
    return rc;
}
