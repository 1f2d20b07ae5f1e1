/* fuzz_trace.h — what the trace fuzzers (fuzz_parts.c, fuzz_image.c) do
 * with an image their reader accepted: the job's trace written from it,
 * as mdltrace --recover and world rank 0 do.  Every image a reader
 * accepts must be safe for the writer.  The trace goes to /dev/null,
 * through its path (common/safe_files.h): the formatting runs, the disk
 * is not touched. */
#ifndef FUZZ_TRACE_H
#define FUZZ_TRACE_H

#include <stdio.h>
#include <stdlib.h>

#include "tracefile/rt_trace_parts.h"

static void fuzz_write_trace(const rt_trace_img *img)
{
    rt_trace_inst inst = { .head = img, .slot = 0, .task = img->task, .inst = img->inst,
                           .end = img->end == RT_END_NORMAL ? RT_INST_NORMAL : RT_INST_ERROR };
    rt_trace_img *const imgs[1] = { (rt_trace_img *)img };
    rt_trace_job job = { .runtime = "mpi", .buffer_events = img->cap, .ended_by_error = 1,
                         .error = rt_trace_first_error(imgs, 1), .ninst = 1, .inst = &inst };
    rt_trace_set_clocks(&job, img);
    char why[600];
    rt_trace_out *o = rt_trace_out_open("/dev/null", why, sizeof why);
    if (!o) {
        fprintf(stderr, "fuzz: %s\n", why);
        abort();
    }
    rt_trace_out_meta(o, &job);
    rt_trace_out_events(o, &job, 0, img);
    if (rt_trace_out_close(o, &job, why, sizeof why) < 0) {
        fprintf(stderr, "fuzz: %s\n", why);
        abort();
    }
}

#endif
