/* Ping-pong between instances 0 and 1 through the runtime interface (not a
 * test: a measurement, runtime independent).
 *   mdlrun -n 2 ./bench_pingpong      mpiexec -n 2 ./bench_pingpong
 *   mdlrun -n 2 ./bench_pingpong DIV [SIZE...]   iterations / DIV, given sizes
 * Prints, per message size, the one-way latency (half a round trip) and the
 * bandwidth: the best of 20 bursts, so that a machine shared with other
 * work still shows what the transport costs when both ends run. */
#include <time.h>

#include "shm_rtt.h"

#define MAXB (4 << 20)

struct T {
    char buf[MAXB];
    mdl_rt *mdl_rt_;
};
typedef struct T T;

static const mdl_item_desc it[] = {ITEM(T, buf, t_char, 1, 0, MAXB)};
static const mdl_msg_desc msgs[] = {
    MSG("ping", 0, 1, 0, 0, 0, MDL_PEER_ONE, it, 1, NULL),
    MSG("ping_r", 1, 0, 0, 0, 0, MDL_PEER_ONE, it, 1, NULL),
};
static const mdl_msg_desc *const msgp[] = {&msgs[0], &msgs[1]};
static const char *const tasks[] = {"t"};
static const mdl_task_desc desc = {
    MDL_ABI, "bench.mdl", 0xbe, 1, tasks, 0, 0, {0, 0, 0}, 1, 2, msgp, 0, NULL, sizeof(T), 0,
    0, NULL, 0, NULL, /* no run-time-sized variables */
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    T *t;
    mdl_rt *rt;
    CHECK(mdl_init(&desc, &argc, &argv, (void **)&t, &rt) == 0);
    int me = mdl_my_rank(rt);
    CHECK(mdl_task_size(rt, 0) == 2);
    long sizes[32] = {8, 64, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
                      262144, 1 << 20, 4 << 20};
    size_t nsizes = 13;
    if (argc > 2) {
        nsizes = 0;
        for (int a = 2; a < argc && nsizes < 32; a++)
            sizes[nsizes++] = atol(argv[a]);
    }
    memset(t->buf, me + 1, MAXB);
    if (me == 0)
        printf("%10s %12s %12s\n", "bytes", "latency_us", "MB/s");
    for (size_t s = 0; s < nsizes; s++) {
        CHECK(sizes[s] > 0 && sizes[s] <= MAXB);
        long b[] = {0, sizes[s] - 1};
        int iters = sizes[s] <= 65536 ? 20000 : sizes[s] <= (1 << 20) ? 1000 : 200;
        if (argc > 1)
            iters = iters / atoi(argv[1]) + 1;
        double lat = 1e9;
        for (int burst = 0; burst < 20; burst++) {
            double t0 = 0;
            int n = iters / 20 + 1;
            for (int i = -2; i < n; i++) {
                if (i == 0) {
                    CHECK(mdl_barrier(rt) == 0);
                    t0 = now();
                }
                if (me == 0) {
                    CHECK(mdl_send(rt, &msgs[0], t, 1, NULL, 0, b) == 0);
                    CHECK(mdl_recv(rt, &msgs[1], t, 1, b) == 1);
                } else {
                    CHECK(mdl_recv(rt, &msgs[1], t, 0, b) == 0);
                    CHECK(mdl_send(rt, &msgs[0], t, 0, NULL, 0, b) == 0);
                }
            }
            double l = (now() - t0) / n / 2;
            if (l < lat)
                lat = l;
        }
        if (me == 0)
            printf("%10ld %12.2f %12.1f\n", sizes[s], lat * 1e6, sizes[s] / lat / 1e6);
    }
    CHECK(mdl_end(rt, t) == 0);
    return 0;
}
