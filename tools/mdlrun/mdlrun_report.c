/* mdlrun_report.c — what mdlrun itself says: its own lines on stderr,
 * and the job's first failure, kept for the trace. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mdlrun.h"

void mdlrun_err(const char *fmt, ...)
{
    char buf[512] = "mdlrun: ";
    size_t len = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, sizeof buf - len - 1, fmt, ap);
    va_end(ap);
    len = strlen(buf);
    buf[len++] = '\n';
    /* One write per line: it does not interleave with the instances' output. */
    fflush(stdout);
    if (write(STDERR_FILENO, buf, len) < 0)
        return;
}

void mdlrun_keep_error(struct mdlrun_job *job, const char *text)
{
    if (!job->first_error[0])
        snprintf(job->first_error, sizeof job->first_error, "%s", text);
}
