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
    job->clock = rt->trace.img->clock == RT_CLOCK_TSC ? MPI_TRACE_CLOCK_TSC : MPI_TRACE_CLOCK_MONO;
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
    if (!insts || !parts) {
        free(insts);
        free(parts);
        return;
    }
    rt_trace_job job;
    mpi_trace_job(rt, &job, insts);
    char why[512];
    for (int r = 0; r < n; r++) {
        if (r != me)
            parts[r] = rt_trace_part_read(rt->trace.path, r, 1, NULL, why, sizeof why);
        insts[r].head = r == me ? rt->trace.img : parts[r];
        insts[r].end = !insts[r].head ? RT_INST_LOST
                       : insts[r].head->end == RT_END_NORMAL ? RT_INST_NORMAL
                                                             : RT_INST_ERROR;
    }
    rt_trace_set_clocks(&job, rt->trace.img);
    job.ended_by_error = 1;
    const rt_trace_img *img = rt->trace.img;
    if (img->error_text >= 0)
        job.error = (const char *)img + img->texts + (size_t)img->error_text * RT_TEXT;
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
                rt_trace_part_remove(rt->trace.path, r);
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
