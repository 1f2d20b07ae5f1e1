/* err_truncate: receives V[0..3] while V[0..7] is sent: must not return. */
#include <stdio.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int rc = MDL_RecvFrom_son_data(t, 0, 0, 3);
    printf("father: truncated receive returned %d\n", rc);
    MDL_End(t);
    return 0;
}
