/* unreceived_net, a sender: argv[1] small messages to r[0], then MDL_End. */
#include <stdio.h>
#include <stdlib.h>
#include "sMDL.h"

int main(int argc, char **argv)
{
    struct s *t;
    if (argc < 2 || MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    for (int k = atoi(argv[1]); k > 0; k--) {
        t->x = k;
        if (MDL_SendTo_r_m(t, 0) != MDL_SUCCESS)
            return 1;
    }
    printf("s: end %d\n", MDL_End(t));
    return 0;
}
