/* report.h — the text report of `mdltrace FILE` and helpers the other
 * outputs share. */
#ifndef MDLTRACE_REPORT_H
#define MDLTRACE_REPORT_H

#include <stdio.h>

#include "trace.h"

/* The job in a few lines: spec, runtime, instances, how it ended, events
 * recorded and dropped, messages traced. */
void mt_report_header(const mt_trace *t, FILE *out);
/* Calls, messages, bytes and times per message, per task and in total. */
void mt_report_table(const mt_trace *t, int by_instance, FILE *out);

/* "father[0], son[0..2]", at most max_groups groups. */
void mt_inst_list(const mt_trace *t, FILE *out, size_t max_groups);
/* Whether an instance's figures come from the runtime's exact totals. */
int mt_uses_totals(const mt_trace *t, const mt_inst *in);
/* The instance an aggregate counts for, or -1 when it is not counted. */
int mt_agg_inst(const mt_trace *t, const mt_agg *a);

#endif
