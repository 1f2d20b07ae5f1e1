/* validate.h — `mdltrace --check`: the file against the format contract
 * of docs/tracing.md. */
#ifndef MDLTRACE_VALIDATE_H
#define MDLTRACE_VALIDATE_H

#include "trace.h"

/* After mt_trace_read(…, check = 1) and mt_trace_finish: reports each
 * problem as a warning; returns how many were found here. */
long long mt_validate(mt_trace *t);

#endif
