/* err_short: 4 elements arrive for a receive of 8, then 8 for 8. */
#include <stdio.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int rc = MDL_RecvFrom_son_data(t, 0, 0, 7);
    if (rc != MDL_ERR_TRUNCATE) {
        fprintf(stderr, "father: short message returned %d\n", rc);
        return 1;
    }
    if (MDL_RecvFrom_son_data(t, 0, 0, 7) != 0)
        return 1;
    for (int j = 0; j < 8; j++)
        if (t->V[j] != 10 + j)
            return 1;
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    printf("err_short: OK\n");
    return 0;
}
