/* input.h — the spec file and -D definitions, as medleyc reads them. */
#ifndef MEDLEY_INPUT_H
#define MEDLEY_INPUT_H

#include <stddef.h>

#include "arena.h"
#include "ast.h"

typedef struct mdl_define {
    const char *name;           /* points into the argument, up to '=' */
    size_t namelen;
    long long value;
} mdl_define;

/* NAME=VALUE with NAME an identifier and VALUE a decimal integer that fits
 * a long long; 0, or -1 when arg is not of that form. */
int mdl_define_parse(const char *arg, mdl_define *d);

/* Overrides the spec's const NAME by each definition, or adds it. */
void mdl_defines_apply(mdl_spec *spec, mdl_arena *arena, const mdl_define *defs, int ndefs);

/* The whole file (it may contain NUL bytes), up to 2 GiB; NULL with errno
 * set on failure.  The caller frees it. */
char *mdl_read_spec_file(const char *path, size_t *len);

#endif
