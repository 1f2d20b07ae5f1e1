/* Ping-pong, hand-written MPI: the reference (OSU-style Send/Recv). */
#include <string.h>
#include "../bench.h"
#include "pingpong.h"
#include "pp_mpi.h"

static char buf[PP_MAX];

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n != 2)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(buf, me + 1, sizeof buf);
    int nb = bench_quick() ? PP_QUICK_BATCHES : PP_BATCHES;
    for (long size = PP_MIN; size <= PP_MAX; size = pp_next(size)) {
        int iters = pp_iters(size);
        double tb[BENCH_MAXBATCH];
        for (int b = -1; b < nb; b++) {
            double t0 = bench_now();
            pp_mpi_trips(buf, MPI_COMM_WORLD, me, size, iters);
            if (b >= 0)
                tb[b] = (bench_now() - t0) / (2.0 * iters);
        }
        if (me == 0)
            bench_emit("pingpong", "oneway", size, tb, nb);
    }
    /* both buffers end with instance 0's bytes, bounced back and forth */
    int bad = buf[0] != 1 || buf[PP_MAX - 1] != 1;
    MPI_Finalize();
    return bad;
}
