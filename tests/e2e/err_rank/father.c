/* err_rank: son number MDL_sonSize(t) does not exist: must not return. */
#include <stdio.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    t->value = 1;
    int rc = MDL_SendTo_son_ping(t, MDL_sonSize(t));
    printf("father: send to a missing son returned %d\n", rc);
    MDL_End(t);
    return 0;
}
