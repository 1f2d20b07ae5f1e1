/* Ping-pong on the generated stubs (the same source for both runtimes). */
#include <string.h>
#include "../bench.h"
#include "pingpong.h"
#include "pp_mdl.h"

int main(int argc, char **argv)
{
    struct pp *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t);
    if (MDL_FamilySize(t) != 2)
        return 1;
    memset(t->buf, me + 1, sizeof t->buf);
    int nb = bench_quick() ? PP_QUICK_BATCHES : PP_BATCHES;
    for (long size = PP_MIN; size <= PP_MAX; size = pp_next(size)) {
        int iters = pp_iters(size);
        double tb[BENCH_MAXBATCH];
        for (int b = -1; b < nb; b++) {         /* batch -1 warms up */
            double t0 = bench_now();
            pp_mdl_trips(t, me, size, iters);
            if (b >= 0)
                tb[b] = (bench_now() - t0) / (2.0 * iters);
        }
        if (me == 0)
            bench_emit("pingpong", "oneway", size, tb, nb);
    }
    /* both buffers end with instance 0's bytes, bounced back and forth */
    int bad = t->buf[0] != 1 || t->buf[PP_MAX - 1] != 1;
    MDL_End(t);
    return bad;
}
