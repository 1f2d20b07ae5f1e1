/* err_short: sends V[0..3], then V[0..7]. */
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    for (int j = 0; j < 8; j++)
        t->V[j] = 10 + j;
    if (MDL_SendTo_father_data(t, 0, 0, 3) != MDL_SUCCESS ||
        MDL_SendTo_father_data(t, 0, 0, 7) != MDL_SUCCESS)
        return 1;
    return MDL_End(t) == MDL_SUCCESS ? 0 : 1;
}
