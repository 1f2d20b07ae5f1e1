/* Ring + Allreduce on the generated stubs. */
#include "rMDL.h"
#include "../bench.h"
#include "oversub.h"

int main(int argc, char **argv)
{
    struct r *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), np = MDL_FamilySize(t), iters, nb, bad = 0;
    int right = (me + 1) % np, left = (me + np - 1) % np;
    ov_plan(np, bench_quick(), &iters, &nb);
    for (int k = 0; k < RN; k++)
        t->x[k] = me * 1000 + k;
    t->s = me;
    double tb[BENCH_MAXBATCH];
    for (int b = -1; b < nb; b++) {
        MDL_Barrier(t);
        double t0 = bench_now();
        for (int k = 0; k < iters; k++) {
            MDL_SendTo_r_hop(t, right);
            MDL_RecvFrom_r_hop(t, left);
            MDL_hopWait(t);
            MDL_Allreduce_sum(t);
        }
        if (b >= 0)
            tb[b] = (bench_now() - t0) / iters;
    }
    if (t->y[RN - 1] != left * 1000 + RN - 1 || t->tot != np * (np - 1) / 2.0) {
        fprintf(stderr, "oversub: instance %d: wrong data\n", me);
        bad = 1;
    }
    if (me == 0)
        bench_emit("oversub", "ring+allreduce", RN * 8, tb, nb);
    MDL_End(t);
    return bad;
}
