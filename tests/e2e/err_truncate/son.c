/* err_truncate: sends 8 elements. */
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    for (int j = 0; j < 8; j++)
        t->V[j] = j;
    MDL_SendTo_father_data(t, 0, 0, 7);
    MDL_End(t);
    return 0;
}
