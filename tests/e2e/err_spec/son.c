/* err_spec: MDL_Init must not succeed with a father built from another spec
 * (fatal by default: the job stops). */
#include <stdio.h>
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    int rc = MDL_Init(&t, &argc, &argv);
    printf("son: MDL_Init returned %d\n", rc);
    if (rc == MDL_SUCCESS)
        MDL_End(t);
    return 0;
}
