/* Gathers each instance's row into M from row 1 on, broadcasts the second
 * half of D, and checks both; with more instances than M has rows from
 * row 1, every instance must get MDL_ERR_BOUNDS and M stays untouched. */
#include <stdio.h>
#include "gMDL.h"

int main(int argc, char **argv)
{
    struct g *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0;
    for (int c = 0; c < C; c++)
        t->row[c] = 10 * me + c;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            t->M[r][c] = -1;
    int rc = MDL_Gather_rows(t);
    if (n <= R - 1) {
        if (rc != MDL_SUCCESS) {
            printf("%d: Gather returned %d\n", me, rc);
            return 1;
        }
        for (int r = 0; me == 0 && r < R; r++)
            for (int c = 0; c < C; c++) {
                int want = r == 0 || r > n ? -1 : 10 * (r - 1) + c;
                if (t->M[r][c] != want) {
                    printf("M[%d][%d] = %d, want %d\n", r, c, t->M[r][c], want);
                    bad = 1;
                }
            }
    } else if (rc != MDL_ERR_BOUNDS || t->M[1][0] != -1) {
        printf("%d: Gather of %d rows into 3 returned %d\n", me, n, rc);
        bad = 1;
    }
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 2; c++)
                t->D[a][b][c] = me == 0 ? 100 * a + 10 * b + c : -1;
    if (MDL_Bcast_tail(t) != MDL_SUCCESS)
        return 1;
    for (int b = 0; b < 3; b++)
        for (int c = 0; c < 2; c++)
            bad |= t->D[1][b][c] != 100 + 10 * b + c || t->D[0][b][c] != (me ? -1 : 10 * b + c);
    int failed = bad;
    MDL_Barrier(t);
    if (me == 0 && !bad)
        printf("coll_partial ok on %d\n", n);
    MDL_End(t);
    return failed;
}
