#include <stdio.h>
#include "bossMDL.h"

int main(int argc, char **argv)
{
    struct boss *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    printf("boss: MDL_Init accepted %d instances\n", MDL_FamilySize(t));
    MDL_End(t);
    return 0;
}
