/* mpi_trace.c — MDL_TRACE on the MPI runtime (docs/tracing.md): every
 * instance records into an image mapped from a file of its own
 * (rt_trace_parts.h); at MDL_End world rank 0 receives the images one by
 * one and writes the job's file, and each process removes its part (the
 * fatal path: mpi_trace_job.c); a job killed leaves its parts for
 * mdltrace --recover.  A process reads its own image only through the
 * recorder's snapshot (rt_trace_snapshot), never from the part, which
 * others may write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mpi_rt.h"
#include "tracefile/rt_trace_parts.h"
#include "trace/rt_trace.h"

#define CHUNK (1 << 30)         /* bytes per message: MPI counts are int */

int mpi_trace_wanted(mdl_rt *rt)
{
    const char *file;
    uint64_t slots;
    int want = rt_trace_request(&file, &slots, rt->trace.why, sizeof rt->trace.why);
    if (want <= 0)
        return want ? MPI_TRACE_BAD : MPI_TRACE_OFF;
    if (rt_trace_writable(file, rt->trace.why, sizeof rt->trace.why) < 0 ||
        rt_trace_parts_usable(rt->trace.why, sizeof rt->trace.why) < 0)
        return MPI_TRACE_BAD;
    rt->trace.path = rt_trace_abspath(file);
    rt->trace.slots = slots;
    if (!rt->trace.path)
        snprintf(rt->trace.why, sizeof rt->trace.why, "out of memory");
    return rt->trace.path ? MPI_TRACE_ON : MPI_TRACE_BAD;
}

int mpi_trace_agree(mdl_rt *rt, const unsigned long long *all, int stride)
{
    const char *const fn = MDL_FN_NAME(INIT);
    int on = 0, off = 0, bad = -1;
    for (int r = 0; r < rt->job.world_size; r++) {
        unsigned long long w = all[stride * r + 2];
        on += w == MPI_TRACE_ON;
        off += w == MPI_TRACE_OFF;
        if (w == MPI_TRACE_BAD && bad < 0)
            bad = r;
    }
    if (bad >= 0) {
        if (all[stride * rt->job.world_rank + 2] == MPI_TRACE_BAD)
            return rt_fail(rt, fn, MDL_ERR_LAUNCH, "%s", rt->trace.why);
        return rt_fail(rt, fn, MDL_ERR_LAUNCH, "process %d of the job cannot trace (MDL_TRACE)",
                       bad);
    }
    if (on && off) {
        int with = -1, without = -1;
        for (int r = 0; r < rt->job.world_size; r++) {
            if (all[stride * r + 2] == MPI_TRACE_ON && with < 0)
                with = r;
            if (all[stride * r + 2] == MPI_TRACE_OFF && without < 0)
                without = r;
        }
        return rt_fail(rt, fn, MDL_ERR_LAUNCH,
                       "MDL_TRACE is set for process %d but not for process %d: set it for the "
                       "whole job (mpiexec -genv MDL_TRACE FILE)", with, without);
    }
    rt->trace.on = on > 0;
    return 0;
}

/* The image: this process's part, mapped shared (it stays in memory
 * even if the process is killed). */
static void *trace_alloc(mdl_rt *rt, size_t size, void *arg, char *why, size_t len)
{
    (void)arg;
    void *p;
    if (rt_trace_part_create(rt->trace.path, rt->trace.job, rt->job.world_rank,
                             rt->job.world_size, size, &p, why, len) < 0)
        return NULL;
    rt->trace.size = size;
    return p;
}

int mpi_trace_start(mdl_rt *rt)
{
    /* the job's id, which names every part: rank 0's */
    uint64_t job = rt->job.world_rank == 0 ? rt_trace_part_new_job() : 0;
    int mpirc = MPI_Bcast(&job, 1, MPI_UINT64_T, 0, rt->job.world);
    if (mpirc != MPI_SUCCESS)
        return mpi_fail(rt, MDL_FN_NAME(INIT), mpirc, "MPI_Bcast");
    rt->trace.job = job;
    rt_trace_parts_sweep(rt->trace.path, job, rt->job.world_rank, rt->job.world_size);
    /* MPI waits inside MPICH: every call is stamped at entry and exit */
    int clock = rt_trace_tsc_usable() ? RT_CLOCK_TSC : RT_CLOCK_MONO;
    char why[512];
    int rc = rt_trace_attach(rt, rt->trace.slots, rt->job.world_rank, clock, 0, trace_alloc, NULL,
                             why, sizeof why);
    if (!rc && rt_trace_part_publish(rt->trace.path, job, rt->job.world_rank, why, sizeof why))
        rc = MDL_ERR_LAUNCH;
    if (rc) {
        rt_trace_part_remove(rt->trace.path, job, rt->job.world_rank);
        return rt_fail(rt, MDL_FN_NAME(INIT), rc, "%s", why);
    }
    rt->trace.img = rt->c.tr->img;
    /* One moment every process agrees on, for processes on other hosts,
     * whose CLOCK_MONOTONIC has another origin. */
    mpirc = MPI_Barrier(rt->job.world);
    if (mpirc != MPI_SUCCESS)
        return mpi_fail(rt, MDL_FN_NAME(INIT), mpirc, "MPI_Barrier");
    rt_trace_clock(rt->c.tr, 0);
    return mpi_clock_measure(rt, 0);
}

void mpi_trace_free(mdl_rt *rt)
{
    if (rt->trace.img)
        munmap(rt->trace.img, rt->trace.size);
    if (rt->trace.path)         /* made by rt_trace_parts_usable, maybe left empty */
        rt_trace_parts_done();
    free(rt->trace.path);
    mpi_clock_free(rt);
    rt->trace.img = NULL;
    rt->trace.path = NULL;
    rt->trace.on = 0;
}

/* ---------------------------------------------------------------- writing */

static void warn(mdl_rt *rt, const char *why)
{
    fprintf(stderr, "%s[%d]: MDL_End: the trace was not written: %s\n", rt->c.who.task,
            rt->c.who.inst, why);
    fflush(stderr);
}

static int send_bytes(mdl_rt *rt, const char *p, uint64_t n, int tag)
{
    int mpirc = MPI_SUCCESS;
    do {
        int k = n > CHUNK ? CHUNK : (int)n;
        mpirc = MPI_Send(p, k, MPI_BYTE, 0, tag, rt->job.world);
        p += k;
        n -= (uint64_t)k;
    } while (n && mpirc == MPI_SUCCESS);
    return mpirc;
}

static int recv_bytes(mdl_rt *rt, char *p, uint64_t n, int from, int tag)
{
    int mpirc = MPI_SUCCESS;
    do {
        int k = n > CHUNK ? CHUNK : (int)n;
        mpirc = MPI_Recv(p, k, MPI_BYTE, from, tag, rt->job.world, MPI_STATUS_IGNORE);
        p += k;
        n -= (uint64_t)k;
    } while (n && mpirc == MPI_SUCCESS);
    return mpirc;
}

/* Rank 0's part: every head first (the tracks), then each process's
 * records, written and freed before the next one's are received, so that
 * rank 0 never holds more than one process's records besides its own. */
static int gather_and_write(mdl_rt *rt, rt_trace_img **heads, uint64_t *recbytes,
                            rt_trace_inst *insts)
{
    const char *const fn = MDL_FN_NAME(END);
    int tag = rt->tags.trace, n = rt->job.world_size, mpirc = MPI_SUCCESS;
    char why[512] = "";
    heads[0] = mpi_trace_own_image(rt, why, sizeof why);
    for (int r = 1; r < n && mpirc == MPI_SUCCESS; r++) {
        uint64_t sz[2];
        /* waits for process r to reach MDL_End (a hang report names it) */
        rt_block_begin();
        mpirc = MPI_Recv(sz, 2, MPI_UINT64_T, r, tag, rt->job.world, MPI_STATUS_IGNORE);
        rt_block_end();
        if (mpirc != MPI_SUCCESS)
            break;
        /* sizes its recorder counted: a head of names and tables, records
         * of at most the largest buffer */
        if (sz[0] < sizeof(rt_trace_img) || sz[0] > RT_TRACE_MAX_HEAD ||
            sz[1] > (uint64_t)RT_TRACE_MAX_SLOTS * sizeof(rt_trace_rec))
            return rt_fail(rt, fn, MDL_ERR_INTERN, "the trace of process %d is damaged: it "
                           "says it has %llu + %llu bytes", r, (unsigned long long)sz[0],
                           (unsigned long long)sz[1]);
        if (!(heads[r] = malloc(sz[0] + sz[1] + 1)))
            return rt_fail_oom(rt, fn);
        recbytes[r] = sz[1];
        mpirc = recv_bytes(rt, (char *)heads[r], sz[0], r, tag);
        const char *bad = rt_trace_img_check(heads[r], sz[0], 0);
        if (!bad && sz[1] != heads[r]->used * sizeof(rt_trace_rec))
            bad = "its records do not match its head";
        if (bad && !*why)
            snprintf(why, sizeof why, "the trace of process %d is damaged: %s", r, bad);
    }
    if (mpirc != MPI_SUCCESS)
        return mpi_fail(rt, fn, mpirc, "receiving the traces");
    rt_trace_job job;
    mpi_trace_job(rt, &job, insts);
    for (int r = 0; r < n; r++)
        insts[r].head = heads[r];
    rt_trace_out *o = NULL;
    char *host_clocks = NULL;
    if (!*why) {
        /* hosts measured: every clock is on rank 0's already */
        int aligned = mpi_clock_apply(rt, heads, &host_clocks);
        job.host_clocks = host_clocks;
        rt_trace_set_clocks(&job, aligned ? NULL : heads[0]);
        o = rt_trace_out_open(rt->trace.path, why, sizeof why);
    }
    if (o)
        rt_trace_out_meta(o, &job);
    for (int r = 0; r < n && mpirc == MPI_SUCCESS; r++) {
        if (r > 0)
            mpirc = recv_bytes(rt, (char *)heads[r] + heads[r]->recs, recbytes[r], r, tag);
        if (o && mpirc == MPI_SUCCESS)
            rt_trace_out_events(o, &job, r, heads[r]);
        /* The records written are given back (the head stays for the
         * tables): else rank 0 would end holding every process's records.
         * The writer keeps copies of the task names it read from the
         * heads, so a head may move. */
        void *h = r > 0 && heads[r] ? realloc(heads[r], heads[r]->recs) : NULL;
        if (h)
            insts[r].head = heads[r] = h;
    }
    if (mpirc != MPI_SUCCESS) {
        if (o)
            rt_trace_out_abandon(o, &job);
        free(host_clocks);
        return mpi_fail(rt, fn, mpirc, "receiving the traces");
    }
    if (!o || rt_trace_out_close(o, &job, why, sizeof why) < 0)
        warn(rt, why);
    free(host_clocks);
    return 0;
}

/* MDL_End: each process sends rank 0 its head, then its records; rank 0
 * writes.  Every process of the job is in MDL_End. */
int mpi_trace_collect(mdl_rt *rt)
{
    const char *const fn = MDL_FN_NAME(END);
    int tag = rt->tags.trace, n = rt->job.world_size;
    int rc = mpi_clock_measure(rt, 1);
    if (rc)
        return rc;
    if (rt->job.world_rank != 0) {
        uint64_t sizes[2];
        rt_trace_img *img = rt_trace_snapshot(rt->c.tr, &sizes[0], &sizes[1]);
        if (!img)
            return rt_fail_oom(rt, fn);
        rt_block_begin();       /* rank 0 takes the traces one process at a time */
        int mpirc = MPI_Send(sizes, 2, MPI_UINT64_T, 0, tag, rt->job.world);
        if (mpirc == MPI_SUCCESS)
            mpirc = send_bytes(rt, (const char *)img, sizes[0], tag);
        if (mpirc == MPI_SUCCESS)
            mpirc = send_bytes(rt, (const char *)img + sizes[0], sizes[1], tag);
        rt_block_end();
        free(img);
        if (mpirc != MPI_SUCCESS)
            return mpi_fail(rt, fn, mpirc, "sending the trace");
        rt_trace_part_remove(rt->trace.path, rt->trace.job, rt->job.world_rank);
        return 0;
    }
    rt_trace_inst *insts = calloc((size_t)n, sizeof *insts);
    rt_trace_img **heads = calloc((size_t)n, sizeof *heads);
    uint64_t *recbytes = calloc((size_t)n, sizeof *recbytes);
    rc = insts && heads && recbytes ? gather_and_write(rt, heads, recbytes, insts)
                                    : rt_fail_oom(rt, fn);
    if (!rc)
        rt_trace_part_remove(rt->trace.path, rt->trace.job, 0);
    for (int r = 0; heads && r < n; r++)
        free(heads[r]);
    free(heads);
    free(insts);
    free(recbytes);
    return rc;
}
