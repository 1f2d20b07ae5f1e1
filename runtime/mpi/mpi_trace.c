/* mpi_trace.c — MDL_TRACE on the MPI runtime (docs/tracing.md): every
 * instance records into an image mapped from a file of its own
 * (rt_trace_parts.h); at MDL_End world rank 0 receives the images one by
 * one and writes the job's file, and each process removes its part.  On
 * the fatal path (MPI_Abort follows, and takes the other processes down)
 * the failing instance writes the file from its own image and the parts
 * of the others on its host; a job killed leaves its parts for mdltrace
 * --recover. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mpi_rt.h"
#include "tracefile/rt_trace_parts.h"
#include "trace/rt_trace.h"

#define CHUNK (1 << 30)         /* bytes per message: MPI counts are int */

int mpi_trace_wanted(mdl_rt *rt)
{
    const char *file;
    uint64_t slots;
    int want = rt_trace_request(&file, &slots, rt->trace_why, sizeof rt->trace_why);
    if (want <= 0)
        return want ? MPI_TRACE_BAD : MPI_TRACE_OFF;
    if (rt_trace_writable(file, rt->trace_why, sizeof rt->trace_why) < 0)
        return MPI_TRACE_BAD;
    rt->trace_path = rt_trace_abspath(file);
    rt->trace_slots = slots;
    if (!rt->trace_path)
        snprintf(rt->trace_why, sizeof rt->trace_why, "out of memory");
    return rt->trace_path ? MPI_TRACE_ON : MPI_TRACE_BAD;
}

int mpi_trace_agree(mdl_rt *rt, const unsigned long long *all, int stride)
{
    const char *const fn = MDL_FN_NAME(INIT);
    int on = 0, off = 0, bad = -1;
    for (int r = 0; r < rt->world_size; r++) {
        unsigned long long w = all[stride * r + 2];
        on += w == MPI_TRACE_ON;
        off += w == MPI_TRACE_OFF;
        if (w == MPI_TRACE_BAD && bad < 0)
            bad = r;
    }
    if (bad >= 0) {
        if (all[stride * rt->world_rank + 2] == MPI_TRACE_BAD)
            return rt_fail(rt, fn, MDL_ERR_LAUNCH, "%s", rt->trace_why);
        return rt_fail(rt, fn, MDL_ERR_LAUNCH, "process %d of the job cannot trace (MDL_TRACE)",
                       bad);
    }
    if (on && off) {
        int with = -1, without = -1;
        for (int r = 0; r < rt->world_size; r++) {
            if (all[stride * r + 2] == MPI_TRACE_ON && with < 0)
                with = r;
            if (all[stride * r + 2] == MPI_TRACE_OFF && without < 0)
                without = r;
        }
        return rt_fail(rt, fn, MDL_ERR_LAUNCH,
                       "MDL_TRACE is set for process %d but not for process %d: set it for the "
                       "whole job (mpiexec -genv MDL_TRACE FILE)", with, without);
    }
    rt->trace_on = on > 0;
    return 0;
}

/* The image: FILE.part.<rank>, mapped shared (written back by the kernel
 * even if the process is killed). */
static void *trace_alloc(mdl_rt *rt, size_t size, void *arg, char *why, size_t len)
{
    (void)arg;
    char *part = rt_trace_part_path(rt->trace_path, rt->world_rank);
    int fd = part ? open(part, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1;
    void *p = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, (off_t)size) == 0)
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        snprintf(why, len, "cannot make the trace buffer %s: %s", part ? part : "",
                 part ? strerror(errno) : "out of memory");
        if (fd >= 0)
            unlink(part);
    } else {
        rt->trace_size = size;
    }
    if (fd >= 0)
        close(fd);
    free(part);
    return p == MAP_FAILED ? NULL : p;
}

int mpi_trace_start(mdl_rt *rt)
{
    /* parts a larger job killed earlier left with the same file name:
     * not this job's, and mdltrace --recover must not take them */
    for (int r = rt->world_size; rt->world_rank == 0; r++)
        if (rt_trace_part_remove(rt->trace_path, r) != 0)
            break;
    int clock = rt_trace_tsc_usable() ? RT_CLOCK_TSC : RT_CLOCK_MONO;
    int rc = rt_trace_attach(rt, rt->trace_slots, rt->world_rank, clock, trace_alloc, NULL);
    if (rc)
        return rc;
    rt->trace_img = rt->c.tr->img;
    /* One moment every process agrees on, for processes on other hosts,
     * whose CLOCK_MONOTONIC has another origin. */
    int mpirc = MPI_Barrier(rt->world);
    if (mpirc != MPI_SUCCESS)
        return rt_mpi_fail(rt, MDL_FN_NAME(INIT), mpirc, "MPI_Barrier");
    rt_trace_clock(rt->trace_img, 0);
    return 0;
}

void mpi_trace_free(mdl_rt *rt)
{
    if (rt->trace_img)
        munmap(rt->trace_img, rt->trace_size);
    free(rt->trace_path);
    rt->trace_img = NULL;
    rt->trace_path = NULL;
    rt->trace_on = 0;
}

/* ---------------------------------------------------------------- writing */

static void init_job(mdl_rt *rt, rt_trace_job *job, rt_trace_inst *insts)
{
    memset(job, 0, sizeof *job);
    job->runtime = "mpi";
    job->clock = rt->trace_img->clock == RT_CLOCK_TSC ? MPI_TRACE_CLOCK_TSC : MPI_TRACE_CLOCK_MONO;
    job->buffer_events = rt->trace_slots;
    job->ninst = rt->world_size;
    job->inst = insts;
    for (int r = 0; r < rt->world_size; r++) {
        insts[r] = (rt_trace_inst){ 0 };
        insts[r].slot = r;
        insts[r].task = rt->task_of[r];
        insts[r].inst = rt->inst_of[r];
        insts[r].end = RT_INST_NORMAL;
    }
}

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
        mpirc = MPI_Send(p, k, MPI_BYTE, 0, tag, rt->world);
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
        mpirc = MPI_Recv(p, k, MPI_BYTE, from, tag, rt->world, MPI_STATUS_IGNORE);
        p += k;
        n -= (uint64_t)k;
    } while (n && mpirc == MPI_SUCCESS);
    return mpirc;
}

/* Rank 0's part: every head first (the tracks), then each process's
 * records, written and freed before the next one's are received, so that
 * rank 0 never holds more than one process's records. */
static int gather_and_write(mdl_rt *rt, rt_trace_img **heads, uint64_t *recbytes,
                            rt_trace_inst *insts)
{
    const char *const fn = MDL_FN_NAME(END);
    int tag = rt->tag_trace, n = rt->world_size, mpirc = MPI_SUCCESS;
    char why[512] = "";
    heads[0] = rt->trace_img;
    for (int r = 1; r < n && mpirc == MPI_SUCCESS; r++) {
        uint64_t sz[2];
        /* waits for process r to reach MDL_End (a hang report names it) */
        rt_block_begin();
        mpirc = MPI_Recv(sz, 2, MPI_UINT64_T, r, tag, rt->world, MPI_STATUS_IGNORE);
        rt_block_end();
        if (mpirc != MPI_SUCCESS)
            break;
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
        return rt_mpi_fail(rt, fn, mpirc, "receiving the traces");
    rt_trace_job job;
    init_job(rt, &job, insts);
    for (int r = 0; r < n; r++)
        insts[r].head = heads[r];
    rt_trace_set_clocks(&job, rt->trace_img);
    rt_trace_out *o = *why ? NULL : rt_trace_out_open(rt->trace_path, why, sizeof why);
    if (o)
        rt_trace_out_meta(o, &job);
    for (int r = 0; r < n && mpirc == MPI_SUCCESS; r++) {
        if (r > 0)
            mpirc = recv_bytes(rt, (char *)heads[r] + heads[r]->recs, recbytes[r], r, tag);
        if (o && mpirc == MPI_SUCCESS)
            rt_trace_out_events(o, &job, r, heads[r]);
        if (r > 0) {
            /* the head stays for otherData */
            void *h = realloc(heads[r], heads[r]->recs);
            if (h)
                insts[r].head = heads[r] = h;
        }
    }
    if (mpirc != MPI_SUCCESS) {
        if (o)
            rt_trace_out_abandon(o, &job);
        return rt_mpi_fail(rt, fn, mpirc, "receiving the traces");
    }
    if (!o || rt_trace_out_close(o, &job, why, sizeof why) < 0)
        warn(rt, why);
    return 0;
}

/* MDL_End: each process sends rank 0 its head, then its records; rank 0
 * writes.  Every process of the job is in MDL_End. */
int mpi_trace_collect(mdl_rt *rt)
{
    const char *const fn = MDL_FN_NAME(END);
    int tag = rt->tag_trace, n = rt->world_size;
    rt_trace_img *img = rt->trace_img;
    if (rt->world_rank != 0) {
        uint64_t sizes[2] = { img->recs, img->used * sizeof(rt_trace_rec) };
        rt_block_begin();       /* rank 0 takes the traces one process at a time */
        int mpirc = MPI_Send(sizes, 2, MPI_UINT64_T, 0, tag, rt->world);
        if (mpirc == MPI_SUCCESS)
            mpirc = send_bytes(rt, (const char *)img, sizes[0], tag);
        if (mpirc == MPI_SUCCESS)
            mpirc = send_bytes(rt, (const char *)img + img->recs, sizes[1], tag);
        rt_block_end();
        if (mpirc != MPI_SUCCESS)
            return rt_mpi_fail(rt, fn, mpirc, "sending the trace");
        rt_trace_part_remove(rt->trace_path, rt->world_rank);
        return 0;
    }
    rt_trace_inst *insts = calloc((size_t)n, sizeof *insts);
    rt_trace_img **heads = calloc((size_t)n, sizeof *heads);
    uint64_t *recbytes = calloc((size_t)n, sizeof *recbytes);
    int rc = insts && heads && recbytes ? gather_and_write(rt, heads, recbytes, insts)
                                        : rt_fail_oom(rt, fn);
    if (!rc)
        rt_trace_part_remove(rt->trace_path, 0);
    for (int r = 1; heads && r < n; r++)
        free(heads[r]);
    free(heads);
    free(insts);
    free(recbytes);
    return rc;
}

/* MPI waits inside MPICH: every call is stamped at entry and exit. */
const int be_stamps_late = 0;

/* The fatal path (MPI_Abort follows): this instance's calls and those the
 * others of its host have recorded so far, read from their parts (the
 * call each is in is not recorded); processes on other hosts are lost.
 * The parts written into the file are removed. */
void be_trace_fatal(mdl_rt *rt)
{
    if (!rt->trace_img || !rt->trace_path)
        return;
    int n = rt->world_size, me = rt->world_rank;
    rt_trace_inst *insts = calloc((size_t)n, sizeof *insts);
    rt_trace_img **parts = calloc((size_t)n, sizeof *parts);
    if (!insts || !parts) {
        free(insts);
        free(parts);
        return;
    }
    rt_trace_job job;
    init_job(rt, &job, insts);
    char why[512];
    for (int r = 0; r < n; r++) {
        if (r != me)
            parts[r] = rt_trace_part_read(rt->trace_path, r, 1, NULL, why, sizeof why);
        insts[r].head = r == me ? rt->trace_img : parts[r];
        insts[r].end = !insts[r].head ? RT_INST_LOST
                       : insts[r].head->end == RT_END_NORMAL ? RT_INST_NORMAL
                                                             : RT_INST_ERROR;
    }
    rt_trace_set_clocks(&job, rt->trace_img);
    job.ended_by_error = 1;
    const rt_trace_img *img = rt->trace_img;
    if (img->error_text >= 0)
        job.error = (const char *)img + img->texts + (size_t)img->error_text * RT_TEXT;
    rt_trace_out *o = rt_trace_out_open(rt->trace_path, why, sizeof why);
    if (o) {
        rt_trace_out_meta(o, &job);
        for (int r = 0; r < n; r++)
            if (insts[r].head)
                rt_trace_out_events(o, &job, r, insts[r].head);
    }
    if (o && rt_trace_out_close(o, &job, why, sizeof why) == 0) {
        for (int r = 0; r < n; r++)
            if (insts[r].head)
                rt_trace_part_remove(rt->trace_path, r);
    } else {
        fprintf(stderr, "%s[%d]: the trace was not written: %s\n", rt->c.who.task,
                rt->c.who.inst, why);
        fflush(stderr);
    }
    for (int r = 0; r < n; r++)
        free(parts[r]);
    free(parts);
    free(insts);
}
