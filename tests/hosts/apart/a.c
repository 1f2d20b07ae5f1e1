/* Both instances of a wait for each other's message, which never comes:
 * each is in MDL_RecvFrom_a_m, waiting for the other, when stopped. */
#include <stdio.h>
#include "aMDL.h"

int main(int argc, char **argv)
{
    struct a *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    printf("a[%d]: running\n", MDL_MyRank(t));
    fflush(stdout);
    MDL_RecvFrom_a_m(t, 1 - MDL_MyRank(t));
    return 1;
}
