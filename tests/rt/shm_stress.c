/* Stress of the shared-memory runtime.
 *   shm_stress a2a ITER     every instance sends to every instance (itself
 *                           included) ITER rounds, alternating a small
 *                           (eager) and a 20 KiB (rendezvous) message, all
 *                           received with MDL_ANY; per-pair order, contents
 *                           (checksums) and counts are checked.  Meant for
 *                           64 instances on 2 cores.
 *   shm_stress million N    instance 0 sends N small messages to instance 1,
 *                           which checks they arrive in order, none lost or
 *                           duplicated.
 *   shm_stress fair N       instances 1.. each send N (<= 1000) messages to
 *                           instance 0, which receives them with MDL_ANY once
 *                           all are sent (it sleeps meanwhile): the senders
 *                           are served in turn (no starvation), each in order.
 *   shm_stress behind N     instance 0 sends N (<= 1000) messages on one
 *                           channel, then one on another, which instance 1
 *                           (out of the runtime meanwhile) receives first: it
 *                           must not sleep while messages it has not taken
 *                           are pending (their wake-up was spent before it
 *                           slept).  5 rounds; the fastest such receive must
 *                           take well under the 100 ms sleep timeout
 *                           (found by the SPIN model, docs/runtime-shm.md).
 *   shm_stress coll N       N Allreduce (one double, and 1000 doubles), Bcast
 *                           and Barrier rounds over the family, checked.
 *   shm_stress die 0        instance 1 is killed while instance 0 waits for
 *                           it: the job must end at once, not hang. */
#include "shm_rtt.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#define BIGN 5000               /* ints: 20 KB, above the eager threshold */

struct T {
    int seq, src, rseq, rsrc;
    int sbig[BIGN], rbig[BIGN];
    mdl_rt *mdl_rt_;
};
typedef struct T T;

static const mdl_item_desc s_msg[] = {ITEM(T, seq, t_int, 0, 0), ITEM(T, src, t_int, 0, 0),
                                      ITEM(T, sbig, t_int, 1, 0, BIGN)};
static const mdl_item_desc r_msg[] = {ITEM(T, rseq, t_int, 0, 0), ITEM(T, rsrc, t_int, 0, 0),
                                      ITEM(T, rbig, t_int, 1, 0, BIGN)};
static const mdl_item_desc s_seq[] = {ITEM(T, seq, t_int, 0, 0)};

/* sizes at the call: 16 ints (eager) or BIGN (rendezvous) */
static const mdl_msg_desc msgs[] = {
    MSG("m", 0, 1, 1, 0, 0, MDL_PEER_ONE, s_msg, 1, NULL),
    MSG("m_r", 1, 0, 0, 0, 0, MDL_PEER_ONE, r_msg, 1, NULL),
    MSG("one", 2, 1, 0, 1, 0, MDL_PEER_ONE, s_seq, 0, NULL),
    MSG("one_r", 3, 0, 0, 1, 0, MDL_PEER_ONE, s_seq, 0, NULL),
};
static const mdl_msg_desc *const msgp[] = {&msgs[0], &msgs[1], &msgs[2], &msgs[3]};
/* pointer buffers (outside the segment): caps unknown */
static const mdl_coll_desc colls[] = {
    {"ar", "MDL_Allreduce_ar", 0, MDL_COLL_ALLREDUCE, 0, MDL_SUM, &t_double, -1, -1, 0, -1, -1},
    {"bc", "MDL_Bcast_bc", 1, MDL_COLL_BCAST, 0, 0, &t_int, BIGN, BIGN, 0, -1, -1},
    {"sum", "MDL_Allreduce_sum", 2, MDL_COLL_ALLREDUCE, 0, MDL_SUM, &t_long, -1, -1, 0, -1, -1},
};
static const mdl_coll_desc *const collp[] = {&colls[0], &colls[1], &colls[2]};
static const char *const tasks[] = {"t"};
static const mdl_task_desc desc = {
    MDL_ABI, "shm_stress.mdl", 0x5157, 1, tasks, 0, 0, {0, 0, 0}, 2, 4, msgp, 3, collp, sizeof(T), 0,
    0, NULL, 0, NULL, /* no run-time-sized variables */
};

static int val(int src, int seq, int k)
{
    return (src * 7919 + seq * 104729 + k * 31) ^ 0x2545f491;
}

int main(int argc, char **argv)
{
    T *t;
    mdl_rt *rt;
    CHECK(argc == 3);
    long iters = atol(argv[2]);
    CHECK(mdl_init(&desc, &argc, &argv, (void **)&t, &rt) == 0);
    int me = mdl_my_rank(rt), n = mdl_task_size(rt, 0);
    if (strcmp(argv[1], "million") == 0) {
        CHECK(n == 2);
        if (me == 0)
            for (long i = 0; i < iters; i++) {
                t->seq = (int)i;
                CHECK(mdl_send(rt, &msgs[2], t, 1, NULL, 0, NULL) == 0);
            }
        else
            for (long i = 0; i < iters; i++)
                CHECK(mdl_recv(rt, &msgs[3], t, 0, NULL) == 0 && t->seq == (int)i);
        CHECK(mdl_barrier(rt) == 0);
        CHECK(mdl_end(rt, t) == 0);
        if (me == 1)
            printf("million ok: %ld messages in order\n", iters);
        return 0;
    }
    if (strcmp(argv[1], "coll") == 0) {
        static double in[1000], out[1000];
        const mdl_coll_desc *ar = &colls[0], *bc = &colls[1];
        for (long i = 0; i < iters; i++) {
            in[0] = me + i;
            CHECK(mdl_collective(rt, ar, in, out, 1, NULL, NULL, NULL, 0) == 0);
            CHECK(out[0] == (double)n * (n - 1) / 2 + (double)n * i);
            for (int k = 0; k < 1000; k++)
                in[k] = k + me;
            CHECK(mdl_collective(rt, ar, in, out, 1000, NULL, NULL, NULL, 0) == 0);
            CHECK(out[999] == 999.0 * n + (double)n * (n - 1) / 2);
            if (me == 0)
                t->sbig[0] = (int)i;
            CHECK(mdl_collective(rt, bc, t->sbig, t->rbig, 16, NULL, NULL, NULL, 0) == 0);
            CHECK(t->rbig[0] == (int)i);
            CHECK(mdl_barrier(rt) == 0);
        }
        CHECK(mdl_end(rt, t) == 0);
        if (me == 0)
            printf("coll ok: %d instances, %ld rounds\n", n, iters);
        return 0;
    }
    if (strcmp(argv[1], "die") == 0) {
        if (me == 1)
            raise(SIGKILL);
        if (me == 0)
            mdl_recv(rt, &msgs[3], t, 1, NULL);
        else
            mdl_barrier(rt);
        CHECK(!"a wait for a dead instance returned");
    }
    if (strcmp(argv[1], "behind") == 0) {
        CHECK(n == 2 && iters <= 1000);
        long b[] = {0, 15};     /* 16 ints: eager */
        double best = 1e9;
        for (int round = 0; round < 5; round++) {
            if (me == 0) {
                for (long i = 0; i < iters; i++) {
                    t->seq = (int)i;
                    CHECK(mdl_send(rt, &msgs[2], t, 1, NULL, 0, NULL) == 0);
                }
                t->seq = -round;
                t->src = 0;
                CHECK(mdl_send(rt, &msgs[0], t, 1, NULL, 0, b) == 0);
                CHECK(mdl_wait(rt, &msgs[0]) == 0);
            } else {
                usleep(100000);         /* everything is sent meanwhile */
                struct timespec t0, t1;
                clock_gettime(CLOCK_MONOTONIC, &t0);
                CHECK(mdl_recv(rt, &msgs[1], t, 0, b) == 0 && t->rseq == -round);
                clock_gettime(CLOCK_MONOTONIC, &t1);
                double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
                best = s < best ? s : best;
                for (long i = 0; i < iters; i++)
                    CHECK(mdl_recv(rt, &msgs[3], t, 0, NULL) == 0 && t->seq == (int)i);
            }
            CHECK(mdl_barrier(rt) == 0);
        }
        CHECK(mdl_end(rt, t) == 0);
        if (me == 1) {
            printf("behind: fastest receive behind %ld messages: %.1f ms\n", iters, best * 1e3);
            CHECK(best < 0.05);
            printf("behind ok\n");
        }
        return 0;
    }
    if (strcmp(argv[1], "fair") == 0) {
        CHECK(n >= 3 && iters <= 1000);
        if (me > 0) {
            for (long i = 0; i < iters; i++) {
                t->seq = (int)i;
                CHECK(mdl_send(rt, &msgs[2], t, 0, NULL, 0, NULL) == 0);
            }
        }
        if (me == 0) {
            /* Stay out of the runtime while the senders send (1000 messages
             * take well under a millisecond; no send waits), so that every
             * message is waiting before the first receive. */
            usleep(300000);
            long *got = calloc((size_t)n, sizeof(long));
            for (long i = 0; i < iters * (n - 1); i++) {
                int from = mdl_recv(rt, &msgs[3], t, MDL_ANY, NULL);
                CHECK(from > 0 && from < n && t->seq == got[from]);
                got[from]++;
                /* after a tenth of everything, every sender has been served */
                if (i == iters * (n - 1) / 10)
                    for (int s = 1; s < n; s++)
                        CHECK(got[s] >= iters / 40);
            }
            free(got);
        }
        CHECK(mdl_barrier(rt) == 0);
        CHECK(mdl_end(rt, t) == 0);
        if (me == 0)
            printf("fair ok\n");
        return 0;
    }
    int *next = calloc((size_t)n, sizeof(int));   /* expected seq per sender */
    long sums[2] = {0, 0}, tot[2];                 /* sent, received */
    for (long it = 0; it < iters; it++) {
        int len = it % 2 ? BIGN : 16;
        long b[] = {0, len - 1};
        t->seq = (int)it;
        t->src = me;
        for (int i = 0; i < len; i++) {
            t->sbig[i] = val(me, (int)it, i);
            sums[0] += (long)n * (t->sbig[i] & 0xffff);   /* it goes to n instances */
        }
        /* n sends of one message in flight, to everybody, starting at me+1 */
        for (int k = 1; k <= n; k++)
            CHECK(mdl_send(rt, &msgs[0], t, (me + k) % n, NULL, 0, b) == 0);
        for (int k = 0; k < n; k++) {
            int from = mdl_recv(rt, &msgs[1], t, MDL_ANY, b);
            CHECK(from >= 0 && from < n && from == t->rsrc);
            CHECK(t->rseq == next[from]);  /* per pair: in order, no loss, no duplicate */
            next[from]++;
            for (int i = 0; i < len; i++) {
                CHECK(t->rbig[i] == val(from, t->rseq, i));
                sums[1] += t->rbig[i] & 0xffff;
            }
        }
        CHECK(mdl_wait(rt, &msgs[0]) == 0);
        CHECK(mdl_barrier(rt) == 0);
    }
    for (int s = 0; s < n; s++)
        CHECK(next[s] == iters);
    free(next);
    /* family-wide checksums (pointer buffers, outside the segment) */
    CHECK(mdl_collective(rt, &colls[2], sums, tot, 2, NULL, NULL, NULL, 0) == 0);
    CHECK(tot[0] == tot[1] && tot[0] > 0);
    CHECK(mdl_end(rt, t) == 0);
    if (me == 0)
        printf("a2a ok: %d instances, %ld rounds\n", n, iters);
    return 0;
}
