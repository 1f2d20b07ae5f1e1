/* types: basics to every son, structs to the even sons (multicast), one
 * async echo back from each even son. */
#include <stdio.h>
#include "fatherMDL.h"
#include "common.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int sons = MDL_sonSize(t);
    t->c = 'x'; t->sc = -100; t->uc = 200; t->s = -30000; t->us = 60000;
    t->i = -2000000000; t->u = 4000000000u; t->l = -3000000000L; t->ul = 9000000000UL;
    t->ll = -9000000000000000000LL; t->ull = 18000000000000000000ULL;
    t->f = 1.5f; t->d = -2.0e300;
    for (int k = 0; k < sons; k++)
        if (MDL_SendTo_son_basics(t, k) != MDL_SUCCESS)
            return 1;
    FILL_CELL(&t->blk.cells[0], 1);
    FILL_CELL(&t->blk.cells[1], 2);
    t->blk.s = -7;
    for (int k = 0; k < 4; k++)
        FILL_CELL(&t->cells[k], 10 + k);
    int even[32], n = 0;
    for (int k = 0; k < sons && n < 32; k += 2)
        even[n++] = k;
    if (MDL_SendTo_son_structs(t, even, n) != MDL_SUCCESS || MDL_structsWait(t) != MDL_SUCCESS)
        return 1;
    for (int k = 0; k < n; k++) {
        t->back = -1;
        /* an async receive is only posted here (its sender is not known yet,
           so only an error code is checked); the data is there after Wait */
        int rc = MDL_RecvFrom_son_echo(t, MDL_ANY);
        if ((rc <= MDL_ERR_FIRST && rc >= MDL_ERR_LAST) || MDL_echoWait(t) != MDL_SUCCESS)
            return 1;
        if (t->back != 2 + 11 - 7) {
            fprintf(stderr, "father: echo %d\n", t->back);
            return 1;
        }
    }
    printf("types ok with %d sons\n", sons);
    MDL_End(t);
    return 0;
}
