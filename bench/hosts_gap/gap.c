/* gap.c — a PMPI wrapper (LD_PRELOAD) that measures, per process, the time
 * from the end of an exchange to its first send to another process: from
 * the return of the last completing call (MPI_Wait, MPI_Waitall, MPI_Recv,
 * MPI_Barrier, MPI_Bcast, MPI_Reduce) to the start of the first
 * MPI_Isend, MPI_Issend, MPI_Send to another rank, or MPI_Start/
 * MPI_Startall, after it: the work a process does before its peer on the
 * other host can start receiving (docs/performance.md "Across hosts").
 * Prints, once at least GAP_MIN such sends were seen, at the first
 * MPI_Comm_free or MPI_Finalize after them (before it: MPICH may not
 * return from either across hosts), one line a process:
 *   gap rank R: n N median M p10 A p90 B ns; calls between C
 * C: the wrapped calls, on average, between the end of an exchange and
 * that send; and the distribution of the exchange's time, from one such
 * send to the next (a preempted exchange moves the tail, not the median):
 *   exchange rank R: median M p10 A p90 B p99 C ns
 * then (GAP_TRACE=K) the wrapped calls of 3 exchanges after
 * the K-th, in order: time from the end of the exchange before, call,
 * peer (or count), duration. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define GAP_MAX 400000
#define GAP_MIN 10
#define GAP_TRACE_MAX 256

static double gaps[GAP_MAX], periods[GAP_MAX];
static long ngaps, between, between_sum;
static double ended, last_sent;
static int armed;

static struct call {
    const char *fn;
    int peer;
    double t0, t1, since;
} trace[GAP_TRACE_MAX];
static int ntrace;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void traced(const char *fn, int peer, double t0)
{
    static long from = -1;
    if (from < 0)
        from = getenv("GAP_TRACE") ? atol(getenv("GAP_TRACE")) : 0;
    if (from > 0 && ngaps >= from && ngaps < from + 3 && ntrace < GAP_TRACE_MAX)
        trace[ntrace++] = (struct call){ fn, peer, t0, now_ns(), t0 - ended };
}

static void completed(const char *fn, int peer, double t0)
{
    traced(fn, peer, t0);
    ended = now_ns();
    armed = 1;
    between = 0;
}

static void sending(int dest, MPI_Comm comm)
{
    double t = now_ns();
    int me = -1;
    if (dest != MPI_PROC_NULL && comm != MPI_COMM_NULL)
        PMPI_Comm_rank(comm, &me);
    if (!armed)
        return;
    if (dest != MPI_PROC_NULL && dest == me) {
        between++;
        return;
    }
    if (ngaps < GAP_MAX) {
        if (ngaps)
            periods[ngaps - 1] = t - last_sent;
        gaps[ngaps++] = t - ended;
        between_sum += between;
        last_sent = t;
    }
    armed = 0;
}

int MPI_Isend(const void *b, int c, MPI_Datatype d, int dest, int tag, MPI_Comm comm,
              MPI_Request *r)
{
    double t0 = now_ns();
    sending(dest, comm);
    int rc = PMPI_Isend(b, c, d, dest, tag, comm, r);
    traced("Isend", dest, t0);
    return rc;
}

int MPI_Issend(const void *b, int c, MPI_Datatype d, int dest, int tag, MPI_Comm comm,
               MPI_Request *r)
{
    double t0 = now_ns();
    sending(dest, comm);
    int rc = PMPI_Issend(b, c, d, dest, tag, comm, r);
    traced("Issend", dest, t0);
    return rc;
}

int MPI_Send(const void *b, int c, MPI_Datatype d, int dest, int tag, MPI_Comm comm)
{
    double t0 = now_ns();
    sending(dest, comm);
    int rc = PMPI_Send(b, c, d, dest, tag, comm);
    traced("Send", dest, t0);
    return rc;
}

int MPI_Irecv(void *b, int c, MPI_Datatype d, int src, int tag, MPI_Comm comm, MPI_Request *r)
{
    double t0 = now_ns();
    between += armed;
    int rc = PMPI_Irecv(b, c, d, src, tag, comm, r);
    traced("Irecv", src, t0);
    return rc;
}

int MPI_Start(MPI_Request *r)
{
    double t0 = now_ns();
    sending(MPI_PROC_NULL, MPI_COMM_NULL);
    int rc = PMPI_Start(r);
    traced("Start", -1, t0);
    return rc;
}

int MPI_Startall(int n, MPI_Request *r)
{
    double t0 = now_ns();
    sending(MPI_PROC_NULL, MPI_COMM_NULL);
    int rc = PMPI_Startall(n, r);
    traced("Startall", n, t0);
    return rc;
}

int MPI_Testsome(int n, MPI_Request *r, int *outc, int *idx, MPI_Status *st)
{
    double t0 = now_ns();
    between += armed;
    int rc = PMPI_Testsome(n, r, outc, idx, st);
    traced("Testsome", n, t0);
    return rc;
}

int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st)
{
    double t0 = now_ns();
    between += armed;
    int rc = PMPI_Test(r, flag, st);
    traced("Test", -1, t0);
    return rc;
}

int MPI_Testall(int n, MPI_Request *r, int *flag, MPI_Status *st)
{
    double t0 = now_ns();
    between += armed;
    int rc = PMPI_Testall(n, r, flag, st);
    traced("Testall", n, t0);
    return rc;
}

int MPI_Request_get_status(MPI_Request r, int *flag, MPI_Status *st)
{
    double t0 = now_ns();
    between += armed;
    int rc = PMPI_Request_get_status(r, flag, st);
    traced("Request_get_status", -1, t0);
    return rc;
}

int MPI_Wait(MPI_Request *r, MPI_Status *st)
{
    double t0 = now_ns();
    int rc = PMPI_Wait(r, st);
    completed("Wait", -1, t0);
    return rc;
}

int MPI_Waitall(int n, MPI_Request *r, MPI_Status *st)
{
    double t0 = now_ns();
    int rc = PMPI_Waitall(n, r, st);
    completed("Waitall", n, t0);
    return rc;
}

int MPI_Recv(void *b, int c, MPI_Datatype d, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    double t0 = now_ns();
    int rc = PMPI_Recv(b, c, d, src, tag, comm, st);
    completed("Recv", src, t0);
    return rc;
}

int MPI_Barrier(MPI_Comm comm)
{
    double t0 = now_ns();
    int rc = PMPI_Barrier(comm);
    completed("Barrier", -1, t0);
    return rc;
}

int MPI_Bcast(void *b, int c, MPI_Datatype d, int root, MPI_Comm comm)
{
    double t0 = now_ns();
    int rc = PMPI_Bcast(b, c, d, root, comm);
    completed("Bcast", root, t0);
    return rc;
}

int MPI_Reduce(const void *s, void *r, int c, MPI_Datatype d, MPI_Op op, int root, MPI_Comm comm)
{
    double t0 = now_ns();
    int rc = PMPI_Reduce(s, r, c, d, op, root, comm);
    completed("Reduce", root, t0);
    return rc;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(void)
{
    static int done;
    int me = 0;
    if (done || ngaps < GAP_MIN)
        return;
    done = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int i = 0; i < ntrace; i++)
        fprintf(stderr, "trace rank %d: +%.0f ns %s(%d) %.0f ns\n", me, trace[i].since,
                trace[i].fn, trace[i].peer, trace[i].t1 - trace[i].t0);
    qsort(gaps, (size_t)ngaps, sizeof *gaps, by_value);
    fprintf(stderr, "gap rank %d: n %ld median %.0f p10 %.0f p90 %.0f ns; calls between %.2f\n",
            me, ngaps, gaps[ngaps / 2], gaps[ngaps / 10], gaps[ngaps * 9 / 10],
            (double)between_sum / (double)ngaps);
    long np = ngaps - 1;
    qsort(periods, (size_t)np, sizeof *periods, by_value);
    fprintf(stderr, "exchange rank %d: median %.0f p10 %.0f p90 %.0f p99 %.0f ns\n", me,
            periods[np / 2], periods[np / 10], periods[np * 9 / 10], periods[np * 99 / 100]);
}

int MPI_Comm_free(MPI_Comm *comm)
{
    report();
    return PMPI_Comm_free(comm);
}

int MPI_Finalize(void)
{
    report();
    return PMPI_Finalize();
}
