/* emit.h — code generation from a checked spec.
 *
 * Every output is first written to a temporary file in outdir and renamed
 * into place only when all of them were written: on any failure nothing
 * is left behind (no half-written outputs). */
#ifndef MEDLEY_EMIT_H
#define MEDLEY_EMIT_H

#include "../medley/frontend.h"

/* Writes <spec>MDL_common.h (the spec-wide header), and TMDL.h, TMDL.c
 * and TMDL.hh (the C++ class binding) for every task.  Returns 0, or -1 after printing
 * "medleyc: error: …" (I/O) to stderr. */
int mdl_emit_c(const mdl_spec *spec, const char *outdir);

/* Writes the communication graph in Graphviz dot. Same contract. */
int mdl_emit_dot(const mdl_spec *spec, const char *path);

/* Both (the graph when dot is not NULL) as one set, with the Fortran
 * modules when `fortran` (<spec>MDL_common.f90, TMDL.f90 per task): a
 * failure writing any of them leaves none, so a graph that cannot be
 * written does not leave the C files behind. */
int mdl_emit_all(const mdl_spec *spec, const char *outdir, const char *dot, int fortran);

/* medleyc --fortran: the names of the checked spec the Fortran modules
 * cannot take (too long, a leading '_', two differing only in case, …),
 * reported through the front end's diagnostics as errors before anything
 * is written.  Returns their number. */
int mdl_check_fortran(mdl_front *front);

#endif
