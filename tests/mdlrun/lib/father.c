/* father [crash|noend|sleep] [DIR]: sends `go` to every son; with "crash",
 * dies of SIGKILL right after MDL_Init instead, leaving the sons blocked in
 * their receive; with "noend", returns from main there without MDL_End;
 * with "sleep", sleeps there (until the job is torn down).  With DIR,
 * writes its pid to DIR/father.pid first. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "fatherMDL.h"

int main(int argc, char **argv)
{
    struct father *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    if (argc > 2) {
        char path[4096];
        snprintf(path, sizeof path, "%s/father.pid", argv[2]);
        FILE *f = fopen(path, "w");
        if (!f)
            return 1;
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
    }
    if (argc > 1 && strcmp(argv[1], "crash") == 0)
        raise(SIGKILL);
    if (argc > 1 && strcmp(argv[1], "noend") == 0)
        return 0;
    if (argc > 1 && strcmp(argv[1], "sleep") == 0)
        sleep(30);
    for (int k = 0; k < MDL_sonSize(t); k++) {
        t->x = 100 + k;
        if (MDL_SendTo_son_go(t, k) != MDL_SUCCESS)
            return 1;
    }
    MDL_End(t);
    return 0;
}
