// Ping-pong in the C++ class binding (ppMDL.hh): the same exchange as pp.c,
// but the task is an object of the program (at namespace scope) instead of
// a struct MDL_Init allocates: on the shared-memory runtime it lies outside
// the job's segment (bench/cxx.sh, docs/generated-code.md).
#include <cstring>
#include "ppMDL.hh"
#include "../bench.h"
#include "pingpong.h"

static pp t;

int main(int argc, char **argv)
{
    if (t.MDL_Init(&argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = t.MDL_MyRank(), other = 1 - me;
    if (t.MDL_FamilySize() != 2)
        return 1;
    std::memset(t.buf, me + 1, sizeof t.buf);
    int nb = bench_quick() ? PP_QUICK_BATCHES : PP_BATCHES;
    for (long size = PP_MIN; size <= PP_MAX; size = pp_next(size)) {
        int iters = pp_iters(size);
        int hi = (int)size - 1;
        double tb[BENCH_MAXBATCH];
        for (int b = -1; b < nb; b++) {         // batch -1 warms up
            double t0 = bench_now();
            for (int k = 0; k < iters; k++) {
                if (me == 0) {
                    t.MDL_SendTo_pp_hop(other, 0, hi);
                    t.MDL_RecvFrom_pp_hop(other, 0, hi);
                } else {
                    t.MDL_RecvFrom_pp_hop(other, 0, hi);
                    t.MDL_SendTo_pp_hop(other, 0, hi);
                }
            }
            if (b >= 0)
                tb[b] = (bench_now() - t0) / (2.0 * iters);
        }
        if (me == 0)
            bench_emit("pingpong", "oneway", size, tb, nb);
    }
    int bad = t.buf[0] != 1 || t.buf[PP_MAX - 1] != 1;
    t.MDL_End();
    return bad;
}
