/* Ping-pong, the hand-written MPI (mpi.c's loop) and the stubs (pp.c's)
 * side by side in one job: the same two processes, on the same cores,
 * alternate batches of each in ABBA order, so that where the launcher
 * placed the processes, and the load of the moment, weigh on both alike.
 * Between separate jobs of one program the 8 B time moves by more than the
 * 5 % the target allows (docs/performance.md "The ping-pong side by side").
 * Instance 0 prints, per size, the median over the pairs of adjacent
 * batches of (stubs' time / hand-written time), and the ratio of the two
 * variants' best batches:
 *     pingpong side <bytes> <median ratio> <best ratio>
 * The hand-written exchange has its own communicator, so its messages
 * never meet the stubs'. */
#include <stdio.h>
#include <string.h>
#include "../bench.h"
#include "pingpong.h"
#include "pp_mpi.h"
#include "pp_mdl.h"

#define SIDE_SPLIT 4            /* batches of each variant per batch of pp.c */

static char buf[PP_MAX];        /* the hand-written exchange's; the stubs' is t->buf */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct pp *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS || MDL_FamilySize(t) != 2)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int me;
    MPI_Comm_rank(comm, &me);
    memset(buf, me + 1, sizeof buf);
    memset(t->buf, me + 1, sizeof t->buf);
    int nb = SIDE_SPLIT * (bench_quick() ? PP_QUICK_BATCHES : PP_BATCHES);
    for (long size = PP_MIN; size <= PP_MAX; size = pp_next(size)) {
        int iters = pp_iters(size);
        double tb[2][SIDE_SPLIT * PP_BATCHES], ratio[SIDE_SPLIT * PP_BATCHES];
        for (int b = -1; b < nb; b++)           /* batch -1 warms both up */
            for (int i = 0; i < 2; i++) {
                int v = b & 1 ? 1 - i : i;      /* A B, B A, A B … */
                MPI_Barrier(comm);
                double t0 = bench_now();
                if (v == 0)
                    pp_mpi_trips(buf, comm, me, size, iters);
                else
                    pp_mdl_trips(t, me, size, iters);
                if (b >= 0)
                    tb[v][b] = (bench_now() - t0) / (2.0 * iters);
            }
        for (int b = 0; b < nb; b++)
            ratio[b] = tb[1][b] / tb[0][b];
        double best[2];
        for (int v = 0; v < 2; v++) {
            best[v] = tb[v][0];
            for (int b = 1; b < nb; b++)
                best[v] = tb[v][b] < best[v] ? tb[v][b] : best[v];
        }
        if (me == 0) {
            printf("pingpong side %ld %.4f %.4f\n", size, bench_median(ratio, nb), best[1] / best[0]);
            fflush(stdout);
        }
    }
    /* both buffers end with instance 0's bytes, bounced back and forth */
    int bad_mpi = buf[0] != 1 || buf[PP_MAX - 1] != 1;
    int bad_mdl = t->buf[0] != 1 || t->buf[PP_MAX - 1] != 1;
    if (bad_mpi || bad_mdl)
        fprintf(stderr, "pingpong side: rank %d: wrong data (%s)\n", me,
                bad_mpi && bad_mdl ? "both" : bad_mpi ? "hand-written MPI" : "stubs");
    MPI_Comm_free(&comm);
    MDL_End(t);
    MPI_Finalize();
    return bad_mpi || bad_mdl;
}
