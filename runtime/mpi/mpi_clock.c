/* mpi_clock.c — MDL_TRACE on a job that spans hosts: each host's clock
 * against world rank 0's, so that rank 0 puts every event on its own
 * time line (docs/tracing.md §5.4).  Hosts of a cluster have clocks of
 * other origins, which drift apart.  At MDL_Init and again at MDL_End,
 * rank 0 exchanges a few messages with the lowest world rank of each
 * other host (its processes share its clock) and keeps the exchange of
 * least round trip (Cristian): the host's clock less rank 0's is its
 * reading less the middle of the round trip, within half the round trip.
 * Rank 0 then corrects each image's calibration for the offset, taken
 * linear in time between the two measurements.  On one host nothing is
 * exchanged but one int per process at MDL_Init (every process learns
 * whether the job spans hosts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_rt.h"
#include "trace/rt_trace.h"

/* Round trips per host and measurement: at least ROUNDS_MIN, then more
 * until the least is within 2 * GOAL_NS (a quick network reaches it at
 * once) or TRY_NS have passed.  A loaded machine deschedules one side now
 * and then, and a round trip it falls in takes milliseconds: among many,
 * some are quick. */
enum { ROUNDS_MIN = 8 };
#define GOAL_NS 10000.0         /* the uncertainty aimed at: 10 us */
#define TRY_NS 2000000000ULL    /* 2 s a host at most */

typedef struct mpi_clock_host {
    int leader;                 /* the host's lowest world rank */
    double off[2];              /* ns, the host's clock less rank 0's: at MDL_Init, MDL_End */
    double unc[2];              /* ns, half the least round trip */
    double at[2];               /* rank 0's clock (ns) then */
} mpi_clock_host;

/* Rank 0's side with the leader of host h: each message says whether
 * another round trip follows. */
static int ping(mdl_rt *rt, mpi_clock_host *h, int end)
{
    uint64_t best = UINT64_MAX, start = rt_trace_host_ns();
    int rc = MPI_SUCCESS;
    for (int k = 0; rc == MPI_SUCCESS; k++) {
        uint64_t theirs = 0, t0 = rt_trace_host_ns();
        int more = k < ROUNDS_MIN || ((double)best > 2 * GOAL_NS && t0 - start < TRY_NS);
        rc = MPI_Send(&more, 1, MPI_INT, h->leader, rt->tags.trace, rt->job.world);
        if (!more)
            break;
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(&theirs, 1, MPI_UINT64_T, h->leader, rt->tags.trace, rt->job.world,
                          MPI_STATUS_IGNORE);
        uint64_t t1 = rt_trace_host_ns();
        if (rc == MPI_SUCCESS && t1 - t0 < best) {
            best = t1 - t0;
            h->off[end] = (double)(int64_t)(theirs - t0) - (double)best / 2;
            h->at[end] = (double)t0 + (double)best / 2;
        }
    }
    h->unc[end] = (double)best / 2;
    return rc;
}

/* A host's leader's side: its clock, read between rank 0's two readings,
 * as long as rank 0 asks. */
static int pong(mdl_rt *rt)
{
    int rc, more = 0;
    do {
        rt_block_begin();       /* rank 0 measures the hosts one by one */
        rc = MPI_Recv(&more, 1, MPI_INT, 0, rt->tags.trace, rt->job.world, MPI_STATUS_IGNORE);
        rt_block_end();
        uint64_t mine = rt_trace_host_ns();
        if (rc == MPI_SUCCESS && more)
            rc = MPI_Send(&mine, 1, MPI_UINT64_T, 0, rt->tags.trace, rt->job.world);
    } while (rc == MPI_SUCCESS && more);
    return rc;
}

/* Everyone, once the hosts are measured.  The processes that took no part
 * wait without spinning: on a loaded node their busy wait would take the
 * processor from the round trips. */
static int measured(mdl_rt *rt, int took_part)
{
    MPI_Request all;
    int rc = MPI_Ibarrier(rt->job.world, &all), done = 0;
    const struct timespec nap = { 0, 20000 };
    while (rc == MPI_SUCCESS && !took_part && !done) {
        rc = MPI_Test(&all, &done, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && !done)
            nanosleep(&nap, NULL);
    }
    return rc == MPI_SUCCESS && took_part ? MPI_Wait(&all, MPI_STATUS_IGNORE) : rc;
}

/* Rank 0 at MDL_Init: the hosts, from every process's host leader. */
static int find_hosts(mdl_rt *rt, const int *leader)
{
    mpi_trace_state *s = &rt->trace;
    int n = rt->job.world_size;
    if (!(s->host_of = malloc(sizeof *s->host_of * (size_t)n)) ||
        !(s->hosts = calloc((size_t)n, sizeof *s->hosts)))
        return rt_fail_oom(rt, MDL_FN_NAME(INIT));
    /* a host's leader is its lowest rank: met before the others */
    for (int r = 0; r < n; r++) {
        if (leader[r] != r)
            s->host_of[r] = s->host_of[leader[r]];
        else if (r == 0)
            s->host_of[r] = -1;
        else
            s->hosts[s->host_of[r] = s->nhosts++].leader = r;
    }
    return 0;
}

int mpi_clock_measure(mdl_rt *rt, int end)
{
    const char *const fn = end ? MDL_FN_NAME(END) : MDL_FN_NAME(INIT);
    mpi_trace_state *s = &rt->trace;
    int me = rt->job.world_rank, rc = MPI_SUCCESS;
    if (!end) {
        int n = rt->job.world_size, *leader = malloc(sizeof *leader * (size_t)n);
        if (!leader)
            return rt_fail_oom(rt, fn);
        rc = MPI_Allgather(&rt->job.host_leader, 1, MPI_INT, leader, 1, MPI_INT, rt->job.world);
        for (int r = 0; rc == MPI_SUCCESS && r < n; r++)
            s->spans_hosts |= leader[r] != 0;
        int frc = rc == MPI_SUCCESS && me == 0 ? find_hosts(rt, leader) : 0;
        free(leader);
        if (rc != MPI_SUCCESS)
            return mpi_fail(rt, fn, rc, "MPI_Allgather");
        if (frc)
            return frc;
    }
    if (!s->spans_hosts)
        return 0;
    /* a process that leads its host, not rank 0's, answers rank 0 */
    int leads = me != 0 && rt->job.host_leader == me;
    if (leads)
        rc = pong(rt);
    for (int i = 0; me == 0 && i < s->nhosts && rc == MPI_SUCCESS; i++)
        rc = ping(rt, &s->hosts[i], end);
    if (rc == MPI_SUCCESS)
        rc = measured(rt, me == 0 || leads);
    return rc == MPI_SUCCESS ? 0 : mpi_fail(rt, fn, rc, "measuring the hosts' clocks");
}

/* A reading ns of host h's clock on rank 0's.  The offset is taken
 * linear in rank 0's time T: ns = T + off0 + rate (T - at0), solved for T
 * (an offset taken at ns - off0 instead would be wrong by rate^2 of the
 * time since MDL_Init: 40 us after 0.1 s at a drift of 2 %). */
static uint64_t on_rank0(const mpi_clock_host *h, uint64_t ns)
{
    double span = h->at[1] - h->at[0];
    double rate = span > 0 ? (h->off[1] - h->off[0]) / span : 0;
    return (uint64_t)(((double)ns - h->off[0] + rate * h->at[0]) / (1 + rate));
}

/* What was measured of host h, named `name`, appended to text. */
static void describe(char *text, size_t len, const mpi_clock_host *h, const char *name)
{
    size_t at = strlen(text);
    double drift = h->off[1] - h->off[0], unc = h->unc[0] + h->unc[1];
    snprintf(text + at, len - at,
             "%s%s (from rank %d): %+.1f us +- %.1f us at MDL_Init, %+.1f us +- %.1f us at "
             "MDL_End, a drift of %+.1f us in %.3f s%s%s", at ? "; " : "", name, h->leader,
             h->off[0] / 1e3, h->unc[0] / 1e3, h->off[1] / 1e3, h->unc[1] / 1e3, drift / 1e3,
             (h->at[1] - h->at[0]) / 1e9,
             drift > unc || -drift > unc ? " (more than the uncertainty: corrected linearly)" : "",
             h->unc[0] > GOAL_NS || h->unc[1] > GOAL_NS
                 ? " (not within the 10 us aimed at: a flow between hosts may point back by as much)"
                 : "");
}

int mpi_clock_apply(mdl_rt *rt, rt_trace_img **heads, char **text)
{
    mpi_trace_state *s = &rt->trace;
    *text = NULL;
    if (!s->nhosts)
        return 0;
    if (rt_trace_test_unaligned())
        return 1;
    for (int r = 1; r < rt->job.world_size; r++) {
        if (s->host_of[r] < 0 || !heads[r])
            continue;
        const mpi_clock_host *h = &s->hosts[s->host_of[r]];
        heads[r]->ns0 = on_rank0(h, heads[r]->ns0);
        heads[r]->ns1 = on_rank0(h, heads[r]->ns1);
    }
    size_t len = (size_t)s->nhosts * 448;
    if ((*text = malloc(len))) {
        **text = 0;
        for (int i = 0; i < s->nhosts; i++) {
            const rt_trace_img *lead = heads[s->hosts[i].leader];
            char name[sizeof lead->host + 1] = "?";
            if (lead)
                snprintf(name, sizeof name, "%.*s", (int)sizeof lead->host, lead->host);
            describe(*text, len, &s->hosts[i], name);
        }
    }
    return 1;
}

void mpi_clock_free(mdl_rt *rt)
{
    free(rt->trace.hosts);
    free(rt->trace.host_of);
    rt->trace.hosts = NULL;
    rt->trace.host_of = NULL;
    rt->trace.nhosts = 0;
    rt->trace.spans_hosts = 0;
}
