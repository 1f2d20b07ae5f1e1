/* direct_mpmd sender: 128 KiB, then a small message. */
#include "srcMDL.h"

int main(int argc, char **argv)
{
    struct src *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    for (int k = 0; k < N; k++)
        t->A[k] = 0.5 * k;
    t->x = 42;
    if (MDL_SendTo_dst_big(t, 0) || MDL_SendTo_dst_tiny(t, 0))
        return 1;
    return MDL_End(t) != MDL_SUCCESS;
}
