/* input.h — the spec file and -D definitions, as the front end reads them
 * (mdl_define and mdl_define_parse are public: frontend.h). */
#ifndef MEDLEY_INPUT_H
#define MEDLEY_INPUT_H

#include <stddef.h>

#include "arena.h"
#include "ast.h"
#include "frontend.h"

/* Overrides the spec's const NAME by each definition, or adds it. */
void mdl_defines_apply(mdl_spec *spec, mdl_arena *arena, const mdl_define *defs, int ndefs);

/* The whole file (it may contain NUL bytes), up to 2 GiB; NULL with errno
 * set on failure.  The caller frees it. */
char *mdl_read_spec_file(const char *path, size_t *len);

#endif
