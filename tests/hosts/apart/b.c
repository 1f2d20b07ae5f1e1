/* b takes part in the job only: it sleeps until it is killed. */
#define _DEFAULT_SOURCE     /* usleep */
#include <stdio.h>
#include <unistd.h>
#include "bMDL.h"

int main(int argc, char **argv)
{
    struct b *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    printf("b[%d]: running\n", MDL_MyRank(t));
    fflush(stdout);
    for (;;)
        usleep(100000);
}
