/* err_return: one normal ping/pong. */
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    if (MDL_RecvFrom_father_ping(t, 0) != 0)
        return 1;
    t->value++;
    if (MDL_SendTo_father_pong(t, 0) != MDL_SUCCESS)
        return 1;
    MDL_End(t);
    return 0;
}
