/* Bcast, Allreduce, Alltoall on the generated stubs. */
#include "cMDL.h"
#include "../bench.h"
#include "coll.h"

enum { BC, AR, AA };
static const char *const names[] = { "bcast", "allreduce", "alltoall" };

static int run(struct c *t, int op)
{
    switch (op) {
    case BC: return MDL_Bcast_bc(t);
    case AR: return MDL_Allreduce_ar(t);
    default: return MDL_Alltoall_aa(t);
    }
}

int main(int argc, char **argv)
{
    struct c *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), np = MDL_FamilySize(t), bad = 0;
    int quick = bench_quick(), nb = quick ? COLL_QUICK_BATCHES : COLL_BATCHES;
    for (int op = BC; op <= AA; op++)
        for (int s = 0; s < COLL_NSIZES; s++) {
            long bytes = coll_bytes[s];
            t->n = (int)(bytes / 8);
            t->nblk = t->n / np;
            int iters = coll_iters(bytes, quick);
            double tb[BENCH_MAXBATCH];
            for (int b = -1; b < nb; b++) {
                for (int k = 0; k < t->n; k++)
                    t->a[k] = me + k;
                MDL_Barrier(t);
                double t0 = bench_now();
                for (int k = 0; k < iters; k++)
                    bad |= run(t, op) != MDL_SUCCESS;
                t->tv[0] = -t0;
                t->tv[1] = bench_now();
                MDL_Reduce_tm(t);
                if (b >= 0)
                    tb[b] = (t->tr[1] + t->tr[0]) / iters;
            }
            /* one check per operation: element k of the result */
            long k = t->n - 1;
            double want = op == BC ? (double)k
                        : op == AR ? (double)np * k + np * (np - 1) / 2.0
                        : (double)(np - 1) + (double)me * t->nblk + (k % t->nblk);
            double got = op == BC ? t->a[k] : t->b[k];
            if (got != want) {
                fprintf(stderr, "coll %s: instance %d: got %g want %g\n", names[op], me, got,
                        want);
                bad = 1;
            }
            if (me == 0)
                bench_emit("coll", names[op], bytes, tb, nb);
        }
    MDL_End(t);
    return bad;
}
