/* father [crash]: sends `go` to every son; with "crash", dies of SIGKILL
 * right after MDL_Init instead, leaving the sons blocked in their receive. */
#include <signal.h>
#include <string.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    if (argc > 1 && strcmp(argv[1], "crash") == 0)
        raise(SIGKILL);
    for (int k = 0; k < MDL_sonSize(t); k++) {
        t->x = 100 + k;
        if (MDL_SendTo_son_go(t, k) != MDL_SUCCESS)
            return 1;
    }
    MDL_End(t);
    return 0;
}
