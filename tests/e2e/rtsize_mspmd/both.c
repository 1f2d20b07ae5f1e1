/* One C program for both tasks of spec.mdl, both headers included: each
 * has a run-time-sized f (left's [r][c], right's [c][r]), and each view
 * macro, named with its task, indexes its own task's rows. */
#include <stdio.h>
#include <string.h>
#include "leftMDL.h"
#include "rightMDL.h"

enum { R = 2, C = 3 };

static int left_main(int argc, char **argv)
{
    struct left *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    t->r = R;
    t->c = C;
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return 1;
    double (*f)[t->c] = left_MDL_View_f(t);
    int bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            bad |= &f[i][j] != t->f + i * C + j;
            f[i][j] = 10 * i + j;
        }
    MDL_SendTo_right_m(t, 0);
    MDL_End(t);
    if (bad)
        fprintf(stderr, "left's view is not its storage\n");
    return bad;
}

static int right_main(int argc, char **argv)
{
    struct right *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    t->r = R;
    t->c = C;
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return 1;
    MDL_RecvFrom_left_m(t, 0);
    double (*f)[t->r] = right_MDL_View_f(t);
    int bad = 0;
    for (int i = 0; i < C; i++)
        for (int j = 0; j < R; j++) {
            int k = i * R + j;      /* the storage's element, left's f[k / C][k % C] */
            bad |= &f[i][j] != t->f + k || f[i][j] != 10 * (k / C) + k % C;
        }
    if (bad)
        printf("views WRONG\n");
    else
        printf("views ok: left f[%d][%d], right f[%d][%d]\n", R, C, C, R);
    MDL_End(t);
    return bad;
}

int main(int argc, char **argv)
{
    return argc > 1 && strcmp(argv[1], "left") == 0 ? left_main(argc, argv)
                                                     : right_main(argc, argv);
}
