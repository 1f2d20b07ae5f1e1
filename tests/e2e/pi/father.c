/* pi: the supervisor of reference §6, with every count checked. */
#include <stdio.h>
#include "fatherMDL.h"
#include "common.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int sons = MDL_sonSize(t);
    t->number = 20000;
    if (MDL_RecvFrom_son_startMessage(t, 0) != 0 || t->box != 1.0 || t->coef != 4.0) {
        fprintf(stderr, "father: bad startMessage box %g coef %g\n", t->box, t->coef);
        return 1;
    }
    if (MDL_SendTo_son_shootMessage(t) != MDL_SUCCESS || MDL_shootMessageWait(t) != MDL_SUCCESS)
        return 1;
    if (MDL_shootMessageTest(t) != 1) {
        fprintf(stderr, "father: Test after Wait is not 1\n");
        return 1;
    }
    long in = 0;
    int batches[64] = { 0 };
    for (int k = 0; k < sons * PI_BATCHES; k++) {
        int who = MDL_RecvFrom_son_inMessage(t, MDL_ANY);
        if (who < 0 || who >= sons || who >= 64 || t->rank != who) {
            fprintf(stderr, "father: sender %d says rank %d\n", who, t->rank);
            return 1;
        }
        /* messages of one sender arrive in order */
        long want = pi_hits(who, batches[who]++, t->number);
        if (t->in != want) {
            fprintf(stderr, "father: son %d batch %d: %ld, expected %ld\n", who,
                    batches[who] - 1, t->in, want);
            return 1;
        }
        in += t->in;
    }
    double pi = t->coef * t->box * (double)in / ((double)sons * PI_BATCHES * t->number);
    if (pi < 3.09 || pi > 3.19) {
        fprintf(stderr, "father: pi = %f\n", pi);
        return 1;
    }
    printf("pi ~ %.3f from %d sons\n", pi, sons);
    MDL_End(t);
    return 0;
}
