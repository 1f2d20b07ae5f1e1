#include <stdio.h>
#include <stdlib.h>
#include "workerMDL.h"

int main(int argc, char **argv)
{
    struct worker *t;
    MDL_Init(&t, &argc, &argv);
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0;
    if (n < 2 || n > MAXI) { printf("need 2..%d instances\n", MAXI); return 1; }
    /* tabled mcast from 0 to the even instances */
    int m = 0;
    for (int r = 0; r < n; r += 2) t->table[m++] = r;
    if (m < MAXI) t->table[m] = -1;      /* the list ends at the first negative entry */
    for (int k = 0; k < 5; k++) { t->params[k] = me == 0 ? 1.5 * k : -1; t->got[k] = -7; }
    int in = (me % 2 == 0);
    /* every instance calls; only the listed ones receive */
    MDL_Mcast_tab(t);
    for (int k = 0; k < 5; k++) {
        double expect = in ? 1.5 * k : -7;
        if (t->got[k] != expect) { printf("%d: tab got[%d]=%g expected %g\n", me, k, t->got[k], expect); bad = 1; break; }
    }
    /* mcast without table from 1 to {1, n-1} */
    int insts[2] = {1, n - 1};
    for (int k = 0; k < 5; k++) { t->params[k] = me == 1 ? 10.0 + k : -1; t->got[k] = -7; }
    int listed = (me == 1 || me == n - 1);
    if (listed) MDL_Mcast_free1(t, insts, n - 1 == 1 ? 1 : 2);
    for (int k = 0; k < 5; k++) {
        double expect = listed ? 10.0 + k : -7;
        if (t->got[k] != expect) { printf("%d: free got[%d]=%g expected %g\n", me, k, t->got[k], expect); bad = 1; break; }
    }
    /* scatter */
    if (me == 0)
        for (int i = 0; i < n * SEG; i++) t->all[i] = 100 + i;
    MDL_Scatter_sc(t);
    for (int i = 0; i < SEG; i++)
        if (t->part[i] != 100 + me * SEG + i) { printf("%d: scatter %d = %d\n", me, i, t->part[i]); bad = 1; }
    /* scatterv from 1: instance r gets r+1 ints */
    int off = 0;
    for (int r = 0; r < n; r++) { t->counts[r] = r + 1; t->displs[r] = off; off += r + 1 + 1; }
    if (me == 1) {
        t->vall = malloc(sizeof(int) * (size_t)off);
        for (int i = 0; i < off; i++) t->vall[i] = 1000 + i;
    }
    MDL_ScatterV_scv(t);
    for (int i = 0; i <= me; i++)
        if (t->vpart[i] != 1000 + t->displs[me] + i) { printf("%d: scatterv %d = %d\n", me, i, t->vpart[i]); bad = 1; }
    free(t->vall);
    t->vall = NULL;
    /* subset barrier of the odd instances */
    int odd[MAXI], no = 0;
    for (int r = 1; r < n; r += 2) odd[no++] = r;
    if (me % 2 == 1 && MDL_Sbarrier(t, odd, no) != MDL_SUCCESS) { printf("%d: sbarrier\n", me); bad = 1; }
    MDL_syncWithFamily(t);
    printf("mcast %d %s\n", me, bad ? "FAILED" : "ok");
    MDL_End(t);
    return bad;
}
