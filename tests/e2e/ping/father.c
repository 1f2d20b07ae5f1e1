/* ping: the father sends (100 + k, V = {10k, 10k+1, ...}) to son k and checks
 * each answer: reply = 2 * value + 1, who = the sender, sum = sum of V. */
#include <stdio.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int sons = MDL_sonSize(t), bad = 0;
    if (MDL_MyRank(t) != 0 || MDL_FamilySize(t) != 1 || sons < 1) {
        fprintf(stderr, "father: rank %d family %d sons %d\n", MDL_MyRank(t),
                MDL_FamilySize(t), sons);
        return 1;
    }
    for (int k = 0; k < sons; k++) {
        t->value = 100 + k;
        for (int j = 0; j < 4; j++)
            t->V[j] = 10.0 * k + j;
        if (MDL_SendTo_son_ping(t, k) != MDL_SUCCESS)
            return 1;
    }
    int seen[64] = { 0 };
    for (int k = 0; k < sons; k++) {
        int from = MDL_RecvFrom_son_pong(t, MDL_ANY);
        if (from < 0 || from >= sons || from >= 64 || seen[from]++) {
            fprintf(stderr, "father: bad sender %d\n", from);
            return 1;
        }
        double want = 40.0 * from + 6.0;
        if (t->who != from || t->reply != 2 * (100 + from) + 1 || t->sum != want) {
            fprintf(stderr, "father: from %d got who %d reply %d sum %g\n", from, t->who,
                    t->reply, t->sum);
            bad = 1;
        }
    }
    /* a receive from one given instance returns that instance */
    if (!bad && sons > 1) {
        t->value = 7;
        MDL_SendTo_son_ping(t, sons - 1);
        if (MDL_RecvFrom_son_pong(t, sons - 1) != sons - 1 || t->reply != 15)
            bad = 1;
    }
    if (!bad)
        printf("ping ok with %d sons\n", sons);
    MDL_End(t);
    return bad;
}
