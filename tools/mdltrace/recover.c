/* recover.c — mdltrace --recover (recover.h).  The parts are the MPI
 * runtime's own trace buffers, found and read with its reader
 * (rt_trace_parts.h) and written with the writer every job uses
 * (rt_trace_write.h), so a recovered file is what the job would have
 * written had its instance reported an error: every process's calls up to
 * the one it was in. */
#include "recover.h"

#include <stdlib.h>
#include <string.h>

#include "tracefile/rt_trace_parts.h"
#include "util.h"

/* The trace's absolute path, as the runtime named its parts after it. */
static char *absolute(const char *trace)
{
    char *abs = rt_trace_abspath(trace);
    if (!abs) {
        fputs("mdltrace: out of memory\n", stderr);
        exit(2);
    }
    return abs;
}

void mt_recover_note(const char *trace, int was_read, FILE *out)
{
    char *abs = absolute(trace), why[600];
    rt_trace_part_id *ids;
    int n = rt_trace_parts_list(abs, &ids, why, sizeof why);
    free(ids);
    free(abs);
    if (n <= 0)
        return;
    if (was_read)
        fprintf(out, "mdltrace: note: an MPI job run with MDL_TRACE=%s did not end and left its "
                "buffers on this host: this file may be from an earlier run; 'mdltrace --recover "
                "%s' writes that job's trace over it\n", trace, trace);
    else
        fprintf(out, "mdltrace: note: an MPI job run with MDL_TRACE=%s did not end and left its "
                "buffers: 'mdltrace --recover %s' writes its trace from them\n", trace, trace);
}

static int by_job_rank(const void *a, const void *b)
{
    const rt_trace_part_id *x = a, *y = b;
    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* When the job of ids[0..n-1] (one job's parts, by rank) started: the
 * latest MDL_Init its readable parts say (0: none is readable). */
static uint64_t job_start(const char *abs, const rt_trace_part_id *ids, int n)
{
    uint64_t start = 0;
    char why[600];
    for (int i = 0; i < n; i++) {
        rt_trace_img *h =
            rt_trace_part_read_head(abs, ids[i].job, ids[i].rank, NULL, why, sizeof why);
        if (h && h->ns0 > start)
            start = h->ns0;
        free(h);
    }
    return start;
}

/* The job to recover among the parts found (sorted): the one that
 * started last.  Earlier jobs of the same trace whose processes have all
 * ended are superseded, as a job's MDL_Init supersedes them: their parts
 * are removed, so that a second --recover does not write an older trace
 * over this one.  The chosen job's parts are moved to the front; their
 * count. */
static int choose_job(const char *trace, const char *abs, rt_trace_part_id *ids, int n)
{
    int best = 0, best_n = 0;
    uint64_t best_start = 0;
    for (int i = 0, k; i < n; i = k) {
        for (k = i; k < n && ids[k].job == ids[i].job; k++)
            ;
        uint64_t start = job_start(abs, ids + i, k - i);
        if (best_n == 0 || start > best_start) {
            best = i;
            best_n = k - i;
            best_start = start;
        }
    }
    for (int i = 0, k; i < n; i = k) {
        for (k = i; k < n && ids[k].job == ids[i].job; k++)
            ;
        if (i == best)
            continue;
        int ended = 1;
        for (int j = i; j < k && ended; j++)
            ended = rt_trace_part_stale(abs, ids[j].job, ids[j].rank);
        if (!ended)
            continue;
        for (int j = i; j < k; j++)
            rt_trace_part_remove(abs, ids[j].job, ids[j].rank);
        fprintf(stderr, "mdltrace: removed the buffers of an earlier job run with MDL_TRACE=%s "
                "(%d processes): a later one left its own\n", trace, k - i);
    }
    memmove(ids, ids + best, sizeof *ids * (size_t)best_n);
    return best_n;
}

/* Says which processes between `from` and `to` (inclusive) had no part. */
static void say_missing(int from, int to)
{
    if (from == to)
        fprintf(stderr, "mdltrace: process %d is left out: no buffer of it on this host\n",
                from);
    else if (from < to)
        fprintf(stderr, "mdltrace: processes %d to %d are left out: no buffer of them on this "
                "host\n", from, to);
}

int mt_recover(const char *trace, FILE *out)
{
    char *abs = absolute(trace), why[600];
    rt_trace_part_id *ids;
    int nids = rt_trace_parts_list(abs, &ids, why, sizeof why);
    if (nids < 0) {
        fprintf(stderr, "mdltrace: error: %s\n", why);
        free(abs);
        return 2;
    }
    if (nids == 0) {
        fprintf(stderr, "mdltrace: error: no part of '%s' (%s) to recover: the buffers an MPI "
                "job run with MDL_TRACE=%s leaves on this host when it does not end\n", trace, abs,
                trace);
        free(ids);
        free(abs);
        return 2;
    }
    qsort(ids, (size_t)nids, sizeof *ids, by_job_rank);
    nids = choose_job(trace, abs, ids, nids);
    uint64_t job_id = ids[0].job;

    /* the job's size, as its parts give it: rank 0's, else the first
     * readable one's */
    int n = 0, size;
    for (int i = 0; i < nids && !n; i++) {
        rt_trace_img *h =
            rt_trace_part_read_head(abs, job_id, ids[i].rank, &size, why, sizeof why);
        n = h ? size : 0;
        free(h);
    }
    if (!n) {
        for (int i = 0; i < nids; i++) {
            free(rt_trace_part_read_head(abs, job_id, ids[i].rank, NULL, why, sizeof why));
            fprintf(stderr, "mdltrace: process %d is left out: %s\n", ids[i].rank, why);
        }
        fprintf(stderr, "mdltrace: error: no part of '%s' could be read\n", trace);
        free(ids);
        free(abs);
        return 2;
    }
    rt_trace_inst *insts = mt_xcalloc((size_t)n, sizeof *insts);
    rt_trace_img **imgs = mt_xcalloc((size_t)n, sizeof *imgs);
    int *idle = mt_xcalloc((size_t)nids, sizeof *idle), nidle = 0;
    int status = 2;
    const rt_trace_img *first = NULL;
    int found = 0, next = 0;
    for (int r = 0; r < n; r++) {
        rt_trace_inst *in = &insts[r];
        in->slot = r;
        in->task = -1;
        in->inst = r;
        in->prog = "process";
        in->end = RT_INST_LOST;
    }
    for (int i = 0; i < nids; i++) {
        int r = ids[i].rank, in_call, psize;
        if (r >= n) {
            fprintf(stderr, "mdltrace: process %d is left out: the job had %d processes\n", r, n);
            continue;
        }
        rt_trace_inst *in = &insts[r];
        say_missing(next, r - 1);
        next = r + 1;
        imgs[r] = rt_trace_part_read(abs, job_id, r, 0, &in_call, &psize, why, sizeof why);
        if (!imgs[r]) {
            fprintf(stderr, "mdltrace: process %d is left out: %s\n", r, why);
            continue;
        }
        const rt_trace_img *h = imgs[r];
        const char *other = NULL;
        if (psize != n)
            other = "its buffer says the job had another number of processes";
        else if (first && (h->spec_hash != first->spec_hash || h->clock != first->clock))
            other = "its part is from another job";
        if (other) {
            fprintf(stderr, "mdltrace: process %d is left out: %s\n", r, other);
            free(imgs[r]);
            imgs[r] = NULL;
            continue;
        }
        if (h->pid > 0 && h->pid_start && rt_trace_proc_start(h->pid) == h->pid_start) {
            fprintf(stderr, "mdltrace: error: process %d of the job (pid %d) is still running: "
                    "recover its trace once the job has ended\n", r, (int)h->pid);
            goto done;
        }
        if (!first)
            first = h;
        found++;
        in->head = h;
        in->task = h->task;
        in->inst = h->inst;
        in->end = h->end == RT_END_NORMAL ? RT_INST_NORMAL : RT_INST_ERROR;
        /* one that ran outside the runtime: computing, or killed there */
        if (h->end == RT_END_RUNNING && !in_call)
            idle[nidle++] = r;
    }
    say_missing(next, n - 1);
    if (!found) {
        fprintf(stderr, "mdltrace: error: no part of '%s' could be read\n", trace);
        goto done;
    }
    const char *error = rt_trace_first_error(imgs, n);
    rt_trace_job job = {
        .runtime = "mpi",
        .command = NULL,
        .clock = first->clock == RT_CLOCK_TSC ? MPI_TRACE_CLOCK_TSC : MPI_TRACE_CLOCK_MONO,
        .buffer_events = first->cap,
        .ended_by_error = 1,
        .error = error ? error
                       : "the job did not end: its processes' buffers were recovered by "
                         "mdltrace --recover",
        .ninst = n,
        .inst = insts,
    };
    /* rank 0's host is the reference of the clocks, as at MDL_End */
    rt_trace_set_clocks(&job, imgs[0] ? imgs[0] : first);
    rt_trace_out *o = rt_trace_out_open(trace, why, sizeof why);
    if (o) {
        rt_trace_out_meta(o, &job);
        for (int r = 0; r < n; r++)
            if (imgs[r])
                rt_trace_out_events(o, &job, r, imgs[r]);
    }
    if (!o || rt_trace_out_close(o, &job, why, sizeof why) < 0) {
        fprintf(stderr, "mdltrace: error: %s\n", why);
        goto done;
    }
    for (int r = 0; r < n; r++)
        if (imgs[r])
            rt_trace_part_remove(abs, job_id, r);
    fprintf(out, "wrote %s: %d of %d processes recovered\n", trace, found, n);
    for (int i = 0; i < nidle; i++) {
        const rt_trace_img *h = imgs[idle[i]];
        fprintf(out, "%s%s[%d]%s", i ? ", " : "not in an MDL call when the job ended: ",
                rt_trace_img_task(h, h->task), h->inst, i + 1 == nidle ? "\n" : "");
    }
    status = 0;
done:
    for (int r = 0; r < n; r++)
        free(imgs[r]);
    free(imgs);
    free(insts);
    free(idle);
    free(ids);
    free(abs);
    return status;
}
