/* unreceived_net, the receiver: MDL_End at once, nothing received. */
#include <stdio.h>
#include "rMDL.h"

int main(int argc, char **argv)
{
    struct r *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    printf("r: end %d\n", MDL_End(t));
    return 0;
}
