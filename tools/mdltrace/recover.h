/* recover.h — mdltrace --recover: the trace of an MPI job that did not end
 * (killed, or torn down by its launcher), written from the buffers its
 * processes left on this host, their parts (runtime/tracefile/
 * rt_trace_parts.h; docs/tracing.md §5.3). */
#ifndef MDLTRACE_RECOVER_H
#define MDLTRACE_RECOVER_H

#include <stdio.h>

/* Writes `trace` from its parts and removes them.  0, or 2 with the
 * reason on stderr. */
int mt_recover(const char *trace, FILE *out);

/* When parts of `trace` exist, says so and to recover: `trace` was read
 * (an earlier run's, perhaps) or could not be. */
void mt_recover_note(const char *trace, int was_read, FILE *out);

#endif
