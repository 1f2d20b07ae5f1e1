/* err_grid: asks for its coordinates before the grid exists. */
#include <stdio.h>
#include "gMDL.h"

int main(int argc, char **argv)
{
    struct g *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int c[2];
    int rc = MDL_Grid_Mycoords(t, c);
    printf("err_grid: Mycoords returned %d\n", rc);    /* not reached */
    MDL_End(t);
    return 0;
}
