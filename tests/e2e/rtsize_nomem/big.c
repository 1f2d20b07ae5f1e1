/* big: asks for 2^62 bytes; MDL_Allocate must refuse with one line. */
#include <stdio.h>
#include "bigMDL.h"

int main(int argc, char **argv)
{
    struct big *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    t->n = 1L << 29;    /* (2^29)^2 doubles: 2^61 bytes, below PTRDIFF_MAX */
    MDL_Allocate(t);
    printf("big: MDL_Allocate returned\n");
    MDL_End(t);
    return 0;
}
