#include <stdio.h>
#include <stdlib.h>
#include "agentMDL.h"

int main(int argc, char **argv)
{
    struct agent *t;
    MDL_Init(&t, &argc, &argv);
    int me = MDL_MyRank(t), na = MDL_FamilySize(t), nc = MDL_clientsSize(t), bad = 0;
    if (MDL_controlSize(t) != 1) { printf("control size %d\n", MDL_controlSize(t)); bad = 1; }
    MDL_RecvFrom_control_cfg(t, 0);
    /* clients c with c % na == me talk to me */
    int mine_clients = 0;
    for (int c = 0; c < nc; c++) if (c % na == me) mine_clients++;
    t->p = malloc(8 * sizeof(double));
    int seen[64] = {0};
    for (int k = 0; k < mine_clients * NB; k++) {
        int from = MDL_RecvFrom_clients_req(t, MDL_ANY);
        if (from != t->who || from % na != me) { printf("agent %d: from %d who %d\n", me, from, t->who); bad = 1; }
        if (t->batch != seen[from]) { printf("agent %d: batch %d from %d, expected %d (order)\n", me, t->batch, from, seen[from]); bad = 1; }
        seen[from]++;
        t->n = 1 + t->batch % 8;
        for (int j = 0; j < t->n; j++) t->p[j] = t->val * t->scale + j;
        MDL_SendTo_clients_res(t, from);
        MDL_resWait(t);
        t->served++;
    }
    /* collectives */
    t->counts = malloc(sizeof(int) * (size_t)na);
    t->displs = malloc(sizeof(int) * (size_t)na);
    int off = 0;
    for (int r = 0; r < na; r++) { t->counts[r] = r + 1; t->displs[r] = off; off += r + 1; }
    for (int j = 0; j <= me; j++) t->mine[j] = 100 * me + j;
    MDL_AllgatherV_agv(t);
    for (int r = 0; r < na; r++)
        for (int j = 0; j <= r; j++)
            if (t->all[t->displs[r] + j] != 100 * r + j) { printf("agent %d: allgatherv\n", me); bad = 1; }
    t->prod = me + 2.0;
    MDL_Reduce_pr(t);
    MDL_Reduce_sv(t);
    if (me == 0) {
        double e = 1; for (int r = 0; r < na; r++) e *= r + 2.0;
        if (t->prodall != e) { printf("prod %g vs %g\n", t->prodall, e); bad = 1; }
        if (t->served_all != (long)nc * NB) { printf("served %ld\n", t->served_all); bad = 1; }
        MDL_SendTo_control_done(t, 0);
        MDL_doneWait(t);
    }
    if (na > 1) {
        t->total = me == 1 ? 4242 : -1;
        MDL_Bcast_bt(t);
        if (t->total != 4242) { printf("agent %d: bcast %d\n", me, t->total); bad = 1; }
    }
    t->mycount = 3;
    for (int j = 0; j < 3; j++) t->mine[j] = me * 3 + j;
    MDL_Gather_ga(t);
    if (me == 0)
        for (int j = 0; j < 3 * na; j++)
            if (t->all[j] != j) { printf("gather %d\n", j); bad = 1; }
    free(t->p); free(t->counts); free(t->displs);
    t->p = NULL; t->counts = t->displs = NULL;
    MDL_Barrier(t);
    printf("agent %d %s\n", me, bad ? "FAILED" : "ok");
    MDL_End(t);
    return bad;
}
