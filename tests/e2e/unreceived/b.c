/* unreceived, the receiver, run with MDL_ERRORS=return,print: MDL_End
 * prints the message it never received and returns MDL_ERR_STATE, and
 * nothing waits for ever. */
#include <stdio.h>
#include <stdlib.h>
#include "bMDL.h"

int main(int argc, char **argv)
{
    struct b *t;
    if (argc < 2 || MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int c = atoi(argv[1]), bad = 0;
    switch (c) {
    case 1:
        bad = MDL_RecvFrom_a_m(t, 0) != 0 || t->x != 1;
        /* fall through */
    case 2:
        bad |= MDL_RecvFrom_a_large(t, 0) != 0;
        break;
    case 3:
        break;
    case 4:
        bad = MDL_RecvFrom_a_m(t, 0) != 0;
        break;
    case 5:
        MDL_RecvFrom_a_p(t, 0);
        bad = MDL_RecvFrom_a_m(t, 0) != 0;
        break;
    }
    printf("b: end %d%s\n", MDL_End(t), bad ? " (wrong receive)" : "");
    return 0;
}
