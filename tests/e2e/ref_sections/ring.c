#include <stdio.h>
#include "ringMDL.h"

int main(int argc, char **argv)
{
    struct ring *t;
    MDL_Init(&t, &argc, &argv);
    int dims[1] = {0};
    MDL_Grid_Create(t, dims);
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0;
    int west = (me + n - 1) % n, east = (me + 1) % n;
    if (t->West_Neighbor != west || t->East_Neighbor != east) { printf("%d: periodic neighbours %d %d\n", me, t->West_Neighbor, t->East_Neighbor); bad = 1; }
    for (int i = 0; i < 100; i++) t->V[i] = (float)(me * 1000 + i);
    for (int i = 0; i < 50; i++)
        for (int j = 0; j < 60; j++) t->M[i][j] = me * 10000 + i * 100 + j;
    /* async receive posted first, completed later */
    int rr = MDL_RecvFrom_ring_range(t, 2, 5);
    if (rr < 0) { printf("%d: async receive returned %d\n", me, rr); bad = 1; }
    MDL_SendTo_ring_elem(t);
    MDL_SendTo_ring_block(t);
    MDL_RecvFrom_ring_elem(t);
    MDL_RecvFrom_ring_block(t);
    if (t->one != (float)(west * 1000 + 7)) { printf("%d: elem %g\n", me, t->one); bad = 1; }
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 6; j++)
            if (t->B[i][j] != west * 10000 + (4 + i) * 100 + 30 + j) { printf("%d: block[%d][%d]=%d\n", me, i, j, t->B[i][j]); bad = 1; i = 7; break; }
    MDL_elemWait(t); MDL_blockWait(t);
    t->lo = 3; t->hi = 40; t->k = 10;
    MDL_SendTo_ring_col(t);
    MDL_RecvFrom_ring_col(t);
    MDL_colWait(t);
    for (int i = 3; i <= 40; i++)
        if (t->M[i][11] != west * 10000 + i * 100 + 10) { printf("%d: col %d = %d\n", me, i, t->M[i][11]); bad = 1; break; }
    if (t->M[2][11] != me * 10000 + 211 || t->M[41][11] != me * 10000 + 4111) { printf("%d: col overrun\n", me); bad = 1; }
    MDL_SendTo_ring_range(t, 90, 93);
    MDL_rangeWait(t);     /* wait for the async receive (same name) */
    for (int i = 0; i < 4; i++)
        if (t->W[2 + i] != (float)(east * 1000 + 90 + i)) { printf("%d: range W[%d]=%g\n", me, 2 + i, t->W[2 + i]); bad = 1; }
    /* family broadcast: everyone but the sender gets the stamp */
    MDL_Barrier(t);
    if (me == 0) { t->stamp = 3.5; MDL_SendTo_ring_every(t); MDL_everyWait(t); }
    else {
        int from = MDL_RecvFrom_ring_every(t, MDL_ANY);
        if (from != 0 || t->stamp != 3.5) { printf("%d: every from %d %g\n", me, from, t->stamp); bad = 1; }
    }
    /* sync send within the family, no peer: blocking sends in a cycle are
       not guaranteed to progress (§3.3), so even instances send first */
    if (n > 1) {
        int from = -1;
        double mine = me;
        t->stamp = mine;
        if (me % 2 == 0) { MDL_SendTo_ring_all(t, east); from = MDL_RecvFrom_ring_all(t, MDL_ANY); }
        else { from = MDL_RecvFrom_ring_all(t, MDL_ANY); double got = t->stamp; t->stamp = mine; MDL_SendTo_ring_all(t, east); t->stamp = got; }
        if (from != west || t->stamp != west) { printf("%d: all from %d stamp %g\n", me, from, t->stamp); bad = 1; }
    }
    MDL_Barrier(t);
    printf("sections %d %s\n", me, bad ? "FAILED" : "ok");
    MDL_End(t);
    return bad;
}
