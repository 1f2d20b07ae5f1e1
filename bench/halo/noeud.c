/* Halo exchange on the generated stubs: halo_mdl.h's exchange, timed as
 * every benchmark program is (bench.h). */
#include "../bench.h"
#include "halo.h"
#include "halo_mdl.h"

static struct bench_each each;

int main(int argc, char **argv)
{
    struct noeud *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS || halo_mdl_init(t) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), np = MDL_FamilySize(t);
    int quick = bench_quick(), nb = quick ? HALO_QUICK_BATCHES : HALO_BATCHES;
    int iters = halo_iters(N, np, quick);
    double tb[BENCH_MAXBATCH];
    for (int b = -1; b < nb; b++) {
        MDL_Barrier(t);
        double t0 = each.last = bench_now();
        for (int k = 0; k < iters; k++) {
            halo_mdl_exchange(t);
            bench_each_mark(&each, b >= 0);
        }
        if (b >= 0)
            tb[b] = (bench_now() - t0) / iters;
    }
    int bad = halo_mdl_bad(t);
    if (bad)
        fprintf(stderr, "halo: instance %d: wrong halo\n", me);
    if (me == 0) {
        bench_emit("halo", "exchange", N, tb, nb);
        bench_emit_each("halo", "exchange", N, &each);
    }
    MDL_End(t);
    return bad;
}
