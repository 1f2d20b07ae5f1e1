/* Monte Carlo pi, the supervisor: tells the sons how many shots to draw,
 * collects their hit counts batch by batch, prints pi and its error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "fatherMDL.h"

static const double pi_ref = 3.14159265358979323846;

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int sons = MDL_sonSize(t);
    t->number = argc > 1 ? atoi(argv[1]) : 100000;
    t->batches = BATCHES;

    MDL_RecvFrom_son_startMessage(t, 0);        /* box and coef from son 0 */
    MDL_SendTo_son_shootMessage(t);             /* broadcast to {son} */
    MDL_shootMessageWait(t);

    long long in = 0;
    int *share = calloc((size_t)sons, sizeof *share);
    for (int k = 0; k < sons * t->batches; k++) {
        int who = MDL_RecvFrom_son_inMessage(t, MDL_ANY);
        if (who < 0 || who != t->who) {
            fprintf(stderr, "father: batch from son %d claims to be from %d\n", who, t->who);
            return 1;
        }
        share[who]++;
        in += t->in;
    }
    double shots = (double)sons * t->batches * t->number;
    double pi = t->coef * t->box * (double)in / shots;
    printf("pi = %.6f\n", pi);
    printf("absolute error = %.2e (%.0f shots)\n", fabs(pi - pi_ref), shots);
    for (int s = 0; s < sons; s++)
        printf("son %d: %d of %d batches (%.0f%%)\n", s, share[s], sons * t->batches,
               100.0 * share[s] / (sons * t->batches));
    free(share);
    MDL_End(t);
    return 0;
}
