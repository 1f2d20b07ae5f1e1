/* mpi_trace_job.c — the MPI runtime's job as the trace file describes it
 * (mpi_trace_job: the instances and their world ranks), and the file
 * written on the fatal path (be_trace_fatal), where MPI_Abort follows and
 * takes the other processes down: the failing instance writes it from its
 * own image and the parts of the others on its host.  Nothing here
 * reports an error: this is what the error reporting calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_rt.h"
#include "tracefile/rt_trace_parts.h"
#include "trace/rt_trace.h"

void mpi_trace_job(mdl_rt *rt, rt_trace_job *job, rt_trace_inst *insts)
{
    memset(job, 0, sizeof *job);
    job->runtime = "mpi";
    job->clock = rt_trace_tsc ? MPI_TRACE_CLOCK_TSC : MPI_TRACE_CLOCK_MONO;
    job->buffer_events = rt->trace.slots;
    job->ninst = rt->job.world_size;
    job->inst = insts;
    for (int r = 0; r < rt->job.world_size; r++) {
        insts[r] = (rt_trace_inst){ 0 };
        insts[r].slot = r;
        insts[r].task = rt->job.task_of[r];
        insts[r].inst = rt->job.inst_of[r];
        insts[r].end = RT_INST_NORMAL;
    }
}

rt_trace_img *mpi_trace_own_image(mdl_rt *rt, char *why, size_t len)
{
    uint64_t head, records;
    rt_trace_img *img = rt_trace_snapshot(rt->c.tr, &head, &records);
    const char *bad = img ? rt_trace_img_check(img, head + records, 1) : "out of memory";
    if (bad) {
        snprintf(why, len, "the trace of process %d is damaged: %s", rt->job.world_rank, bad);
        free(img);
        return NULL;
    }
    return img;
}

/* The fatal path (MPI_Abort follows): this instance's calls and those the
 * others of its host have recorded so far, read from their parts (the
 * call each is in is not recorded); processes on other hosts are lost.
 * The parts written into the file are removed. */
void be_trace_fatal(mdl_rt *rt)
{
    if (!rt->trace.img || !rt->trace.path)
        return;
    int n = rt->job.world_size, me = rt->job.world_rank;
    rt_trace_inst *insts = calloc((size_t)n, sizeof *insts);
    rt_trace_img **parts = calloc((size_t)n, sizeof *parts);
    char why[512];
    rt_trace_img *mine = insts && parts ? mpi_trace_own_image(rt, why, sizeof why) : NULL;
    if (!mine) {
        if (insts && parts)
            fprintf(stderr, "%s[%d]: the trace was not written: %s\n", rt->c.who.task,
                    rt->c.who.inst, why);
        free(insts);
        free(parts);
        return;
    }
    rt_trace_job job;
    mpi_trace_job(rt, &job, insts);
    for (int r = 0; r < n; r++) {
        parts[r] = r == me ? mine
                           : rt_trace_part_read(rt->trace.path, rt->trace.job, r, 1, NULL, NULL,
                                                why, sizeof why);
        insts[r].head = parts[r];
        insts[r].end = !insts[r].head ? RT_INST_LOST
                       : insts[r].head->end == RT_END_NORMAL ? RT_INST_NORMAL
                                                             : RT_INST_ERROR;
    }
    rt_trace_set_clocks(&job, mine);
    job.ended_by_error = 1;
    job.error = rt_trace_img_text(mine, mine->error_text);
    rt_trace_out *o = rt_trace_out_open(rt->trace.path, why, sizeof why);
    if (o) {
        rt_trace_out_meta(o, &job);
        for (int r = 0; r < n; r++)
            if (insts[r].head)
                rt_trace_out_events(o, &job, r, insts[r].head);
    }
    if (o && rt_trace_out_close(o, &job, why, sizeof why) == 0) {
        for (int r = 0; r < n; r++)
            if (insts[r].head)
                rt_trace_part_remove(rt->trace.path, rt->trace.job, r);
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
