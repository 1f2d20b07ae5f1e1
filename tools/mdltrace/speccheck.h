/* speccheck.h — `mdltrace --spec`: bytes per call against the spec. */
#ifndef MDLTRACE_SPECCHECK_H
#define MDLTRACE_SPECCHECK_H

#include <stdio.h>

#include "frontend.h"
#include "trace.h"

/* Prints one line per function called; 0 when every fixed size matches,
 * 1 when one differs or a function is not in the spec, 2 when the spec
 * cannot be read or has errors (messages on stderr). */
int mt_spec_check(const mt_trace *t, const char *spec_path, const mdl_define *defs,
                  int ndefs, FILE *out);

#endif
