/* son [DIR]: writes its pid to DIR/son<rank>.pid, receives `go` and
 * prints "son <rank> got <x>". */
#include <stdio.h>
#include <unistd.h>
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    if (argc > 1) {
        char path[4096];
        snprintf(path, sizeof path, "%s/son%d.pid", argv[1], MDL_MyRank(t));
        FILE *f = fopen(path, "w");
        if (!f)
            return 1;
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
    }
    if (MDL_RecvFrom_father_go(t, 0) != 0)
        return 1;
    printf("son %d got %d\n", MDL_MyRank(t), t->x);
    MDL_End(t);
    return 0;
}
