/* Sends to itself with ranges whose element count, byte size or offset
 * overflows; each must fail with MDL_ERR_BOUNDS and send nothing.  Then a
 * sane range goes through. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "aMDL.h"

int main(int argc, char **argv)
{
    struct a *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    double buf[4] = { 1, 2, 3, 4 };
    t->p = buf;
    static const long bad[][2] = {
        { 0, LONG_MAX },                /* hi - lo + 1 overflows a long */
        { 0, LONG_MAX / 4 },            /* elements x 8 bytes overflow */
        { LONG_MAX / 2, LONG_MAX / 2 }, /* the offset overflows */
        { LONG_MAX / 8, LONG_MAX / 8 }, /* offset + size beyond PTRDIFF_MAX */
    };
    int failed = 0;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        t->lo = bad[k][0];
        t->hi = bad[k][1];
        int rc = MDL_SendTo_a_m(t, 0);
        if (rc != MDL_ERR_BOUNDS) {
            printf("range %ld..%ld: %d, expected MDL_ERR_BOUNDS\n", t->lo, t->hi, rc);
            failed = 1;
        }
    }
    t->lo = 0;
    t->hi = 3;
    if (MDL_SendTo_a_m(t, 0) != MDL_SUCCESS)
        return 1;
    double got[4] = { 0 };
    t->p = got;
    if (MDL_RecvFrom_a_m(t, 0) != 0 || MDL_mWait(t) != MDL_SUCCESS)
        return 1;
    for (int i = 0; i < 4; i++)
        failed |= got[i] != buf[i];
    if (!failed)
        printf("err_span ok\n");
    MDL_End(t);
    return failed;
}
