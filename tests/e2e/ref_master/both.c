/* One executable for both tasks: the role is the first argument. */
#include <stdio.h>
#include <string.h>
#include "masterMDL.h"
#include "workerMDL.h"

static int run_master(int argc, char **argv)
{
    struct master *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS) return 1;
    int nw = MDL_workerSize(t), bad = 0;
    for (int w = 0; w < nw; w++) {
        t->job = 100 + w;
        MDL_SendTo_worker_hello(t, w);
    }
    /* every worker answers job*2 asynchronously */
    for (int k = 0; k < nw; k++) {
        t->result = -1;
        MDL_RecvFrom_worker_answer(t, MDL_ANY);
        int polls = 0;
        while (!MDL_answerTest(t)) polls++;
        if (MDL_answerWait(t) != MDL_SUCCESS) bad = 1;
        int w = (int)(t->result / 2) - 100;
        if (w < 0 || w >= nw || t->result != 2.0 * (100 + w)) { printf("answer %g\n", t->result); bad = 1; }
    }
    /* multicast to the odd workers */
    int n = 0;
    for (int w = 1; w < nw; w += 2) t->chosen[n++] = w;
    t->job = 7;
    MDL_SendTo_worker_pick(t, t->chosen, n);
    MDL_pickWait(t);
    for (int k = 0; k < n; k++) {
        int from = MDL_RecvFrom_worker_quad(t, MDL_ANY);
        if (from < 0 || from % 2 != 1) { printf("quad from %d\n", from); bad = 1; continue; }
        for (int j = 0; j < 4; j++)
            if (t->quad[j] != 7.0 * from + j) { printf("quad[%d]=%g from %d\n", j, t->quad[j], from); bad = 1; }
    }
    t->job = -1;
    MDL_SendTo_worker_stop(t);
    MDL_stopWait(t);
    printf("master %s (%d workers)\n", bad ? "FAILED" : "ok", nw);
    MDL_End(t);
    return bad;
}

static int run_worker(int argc, char **argv)
{
    struct worker *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS) return 1;
    int me = MDL_MyRank(t), bad = 0;
    if (MDL_RecvFrom_master_hello(t, 0) != 0) bad = 1;
    if (t->job != 100 + me) { printf("worker %d job %d\n", me, t->job); bad = 1; }
    t->result = 2.0 * t->job;
    MDL_SendTo_master_answer(t, 0);
    MDL_answerWait(t);
    if (me % 2 == 1) {
        MDL_RecvFrom_master_picked(t, 0);
        for (int j = 0; j < 4; j++) t->r[j] = t->job * me + j;
        MDL_SendTo_master_four(t, 0);
        MDL_fourWait(t);
    }
    MDL_RecvFrom_master_stop(t, MDL_ANY);
    if (t->job != -1) bad = 1;
    if (bad) printf("worker %d FAILED\n", me);
    MDL_End(t);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "master") == 0) return run_master(argc, argv);
    return run_worker(argc, argv);
}
