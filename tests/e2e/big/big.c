/* big: instance 0 sends the whole matrix to 1, 1 sends a column to 0, then
 * both exchange their A at once (each receives the other's into B). */
#include <stdio.h>
#include "bigMDL.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "big %d: %s\n", me, what);
    return 1;
}

static double val(int who, int i, int j)
{
    return who * 1e7 + i * 1024.0 + j;
}

static void fill(struct big *t, int who)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            t->A[i][j] = who < 0 ? -1 : val(who, i, j);
}

int main(int argc, char **argv)
{
    struct big *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    if (MDL_FamilySize(t) != 2)
        return fail("launch with -n 2");
    int other = 1 - me;

    /* whole matrix, 0 -> 1 */
    fill(t, me == 0 ? 0 : -1);
    if (me == 0 ? MDL_SendTo_big_whole(t, 1) != MDL_SUCCESS : MDL_RecvFrom_big_whole(t, 0) != 0)
        return fail("whole");
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            if (t->A[i][j] != val(0, i, j))
                return fail("whole values");

    /* column 5 of 1 -> column 700 of 0 */
    fill(t, me == 1 ? 1 : -1);
    t->col = me == 1 ? 5 : 700;
    if (me == 1 ? MDL_SendTo_big_column(t, 0) != MDL_SUCCESS : MDL_RecvFrom_big_column(t, 1) != 1)
        return fail("column");
    if (me == 0)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < M; j++)
                if (t->A[i][j] != (j == 700 ? val(1, i, 5) : -1))
                    return fail("column values");

    /* both directions at once: the receive is posted before the send, and
       one Wait completes both */
    fill(t, me);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            t->B[i][j] = -1;
    int rc = MDL_RecvFrom_big_swap(t, other);
    if (rc <= MDL_ERR_FIRST && rc >= MDL_ERR_LAST)
        return fail("swap receive");
    if (MDL_SendTo_big_swap(t, other) != MDL_SUCCESS)
        return fail("swap send");
    int done;
    while ((done = MDL_swapTest(t)) == 0)
        ;
    if (done != 1 || MDL_swapWait(t) != MDL_SUCCESS)
        return fail("swap completion");
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            if (t->B[i][j] != val(other, i, j) || t->A[i][j] != val(me, i, j))
                return fail("swap values");
    if (me == 0)
        printf("big ok\n");
    MDL_End(t);
    return 0;
}
