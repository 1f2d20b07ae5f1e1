/* err_return: bad instance numbers return MDL_ERR_RANK, then a normal
 * exchange still works. */
#include <stdio.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int sons = MDL_sonSize(t);
    t->value = 1;
    int rc1 = MDL_SendTo_son_ping(t, sons);
    int rc2 = MDL_SendTo_son_ping(t, -5);
    int rc3 = MDL_RecvFrom_son_pong(t, sons + 3);
    if (rc1 != MDL_ERR_RANK || rc2 != MDL_ERR_RANK || rc3 != MDL_ERR_RANK) {
        fprintf(stderr, "father: got %d %d %d, expected MDL_ERR_RANK (%d)\n", rc1, rc2, rc3,
                MDL_ERR_RANK);
        return 1;
    }
    t->value = 41;
    if (MDL_SendTo_son_ping(t, 0) != MDL_SUCCESS || MDL_RecvFrom_son_pong(t, 0) != 0 ||
        t->value != 42) {
        fprintf(stderr, "father: exchange after the errors failed\n");
        return 1;
    }
    printf("errors returned: %s\n", MDL_Error_string(rc1));
    MDL_End(t);
    return 0;
}
