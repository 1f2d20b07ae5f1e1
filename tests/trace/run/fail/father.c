/* father MODE: sends every son the go, then collects BATCHES results of
 * two longs from each, from MDL_ANY.  MODE "badrank": the first receive
 * names son 7, which does not exist (run with MDL_ERRORS=return). */
#include <stdio.h>
#include <string.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS || argc < 2)
        return 2;
    int sons = MDL_sonSize(t), errors = 0;
    t->k = BATCHES;
    MDL_SendTo_son_go(t);
    if (strcmp(argv[1], "badrank") == 0 && MDL_RecvFrom_son_res(t, 7, 0, 1) < 0)
        errors++;
    long sum = 0;
    for (int n = 0; n < sons * BATCHES; n++) {
        if (MDL_RecvFrom_son_res(t, MDL_ANY, 0, 1) < 0)
            return 1;
        sum += t->r[0] + t->r[1];
    }
    printf("father: sum %ld, %d error(s) returned\n", sum, errors);
    MDL_End(t);
    return 0;
}
