/* big: MDL_Allocate asked for 2^61 bytes must refuse with one line and
 * leave every variable as it was (errors returned: MDL_ERRORS in env). */
#include <stdio.h>
#include "bigMDL.h"

int main(int argc, char **argv)
{
    struct big *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    t->m = 4;
    t->n = 2;
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return 1;
    double *small = t->small, *v = t->v;
    t->small[3] = 7.5;
    t->m = 8;
    t->n = 1L << 29;    /* (2^29)^2 doubles: 2^61 bytes, below PTRDIFF_MAX */
    int rc = MDL_Allocate(t);
    int same = t->small == small && t->v == v && t->small[3] == 7.5;
    t->m = 4;           /* the sizes storage was given for: usable again */
    t->n = 2;
    int again = MDL_SendTo_big_s(t, 0) == MDL_SUCCESS && MDL_RecvFrom_big_s(t, 0) == 0 &&
                MDL_sWait(t) == MDL_SUCCESS && t->v[3] == 7.5;
    printf("big: %s\n", rc == MDL_ERR_ARG && same && again ? "ok" : "wrong");
    MDL_End(t);
    return 0;
}
