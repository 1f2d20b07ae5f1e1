#include <stdio.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    MDL_Init(&t, &argc, &argv);
    int sons = MDL_sonSize(t);
    t->number = 1000000;                       /* shots per son */
    MDL_RecvFrom_son_startMessage(t, 0);       /* box, coef from son 0 */
    MDL_SendTo_son_shootMessage(t);            /* broadcast `to {son}` */
    MDL_shootMessageWait(t);
    long in = 0;
    for (int k = 0; k < sons; k++) {
        int who = MDL_RecvFrom_son_inMessage(t, MDL_ANY);
        in += t->in;
        (void)who;
    }
    printf("pi ~ %f\n", t->coef * t->box * (double)in / ((double)sons * t->number));
    MDL_End(t);
    return 0;
}
