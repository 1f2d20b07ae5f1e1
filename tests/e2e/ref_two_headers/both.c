#include <stdio.h>
#include <string.h>
#include "masterMDL.h"
#include "workerMDL.h"
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "m") == 0) {
        struct master *t; MDL_Init(&t, &argc, &argv);
        for (int k = 0; k < N; k++) { t->pts[k].x = k; t->pts[k].y = -k; }
        MDL_SendTo_worker_go(t); MDL_goWait(t);
        int nw = MDL_workerSize(t), bad = 0;
        for (int k = 0; k < nw; k++) {
            int w = MDL_RecvFrom_worker_back(t, MDL_ANY);
            if (t->c.id != w || t->c.p.x != w * 6.0) bad = 1;
        }
        printf("two headers %s\n", bad ? "FAILED" : "ok");
        MDL_End(t); return bad;
    }
    struct worker *t; MDL_Init(&t, &argc, &argv);
    MDL_RecvFrom_master_go(t, 0);
    double s = 0; for (int k = 0; k < N; k++) s += t->pts[k].x;
    t->c.id = MDL_MyRank(t); t->c.p.x = s * t->c.id; t->c.p.y = 0;
    MDL_SendTo_master_back(t, 0); MDL_backWait(t);
    MDL_End(t); return 0;
}
