/* recover.c — mdltrace --recover (recover.h).  The parts are the MPI
 * runtime's own trace buffers, read with its reader (rt_trace_parts.h)
 * and written with the writer every job uses (rt_trace_write.h), so a
 * recovered file is what the job would have written had its instance
 * reported an error: every process's calls up to the one it was in. */
#include "recover.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracefile/rt_trace_parts.h"
#include "util.h"

/* The rank of a directory entry named "<base><rank>", or -1. */
static int part_rank(const char *entry, const char *base)
{
    size_t n = strlen(base);
    if (strncmp(entry, base, n) != 0)
        return -1;
    const char *d = entry + n;
    char *end;
    errno = 0;
    long r = strtol(d, &end, 10);
    if (*d < '0' || *d > '9' || *end || errno || r > 1 << 24)
        return -1;
    return (int)r;
}

/* The number of processes: one more than the highest part (0: none). */
static int count_parts(const char *trace)
{
    char *pre = rt_trace_part_prefix(trace);
    if (!pre)
        return 0;
    /* the directory of the parts, and the start of their names */
    char *a = mt_xstrdup(pre), *b = mt_xstrdup(pre);
    const char *dir = dirname(a), *base = basename(b);
    free(pre);
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        int r = part_rank(e->d_name, base);
        if (r >= n)
            n = r + 1;
    }
    if (d)
        closedir(d);
    free(a);
    free(b);
    return n;
}

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
    char *abs = absolute(trace);
    int n = count_parts(abs);
    free(abs);
    if (n == 0)
        return;
    if (was_read)
        fprintf(out, "mdltrace: note: an MPI job run with MDL_TRACE=%s did not end and left its "
                "buffers on this host: this file may be from an earlier run; 'mdltrace --recover "
                "%s' writes that job's trace over it\n", trace, trace);
    else
        fprintf(out, "mdltrace: note: an MPI job run with MDL_TRACE=%s did not end and left its "
                "buffers: 'mdltrace --recover %s' writes its trace from them\n", trace, trace);
}

int mt_recover(const char *trace, FILE *out)
{
    char *abs = absolute(trace);
    int n = count_parts(abs);
    if (n == 0) {
        fprintf(stderr, "mdltrace: error: no part of '%s' (%s) to recover: the buffers an MPI "
                "job run with MDL_TRACE=%s leaves on this host when it does not end\n", trace, abs,
                trace);
        free(abs);
        return 2;
    }
    rt_trace_inst *insts = mt_xcalloc((size_t)n, sizeof *insts);
    rt_trace_img **imgs = mt_xcalloc((size_t)n, sizeof *imgs);
    int *idle = mt_xcalloc((size_t)n, sizeof *idle), nidle = 0;
    int status = 2;
    const rt_trace_img *first = NULL;
    int found = 0;
    for (int r = 0; r < n; r++) {
        char why[600];
        rt_trace_inst *in = &insts[r];
        in->slot = r;
        in->task = -1;
        in->inst = r;
        in->prog = "process";
        in->end = RT_INST_LOST;
        int in_call;
        if (!(imgs[r] = rt_trace_part_read(abs, r, 0, &in_call, why, sizeof why))) {
            fprintf(stderr, "mdltrace: process %d is left out: %s\n", r, why);
            continue;
        }
        const rt_trace_img *h = imgs[r];
        if (first && (h->spec_hash != first->spec_hash || h->clock != first->clock)) {
            fprintf(stderr, "mdltrace: process %d is left out: its part is from another job\n",
                    r);
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
    char why[600];
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
            rt_trace_part_remove(abs, r);
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
    free(abs);
    return status;
}
