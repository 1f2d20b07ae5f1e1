/* err_spec: MDL_Init must not succeed with a son built from another spec
 * (fatal by default: the job stops). */
#include <stdio.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    int rc = MDL_Init(&t, &argc, &argv);
    printf("father: MDL_Init returned %d\n", rc);
    if (rc == MDL_SUCCESS)
        MDL_End(t);
    return 0;
}
