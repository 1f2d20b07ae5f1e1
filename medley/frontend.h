/* frontend.h — the compiler's front end as a library (libmedley_front.a):
 * load a spec, check it, ask the checked model.
 *
 * medleyc's driver and mdltrace --spec link it, and the emitters
 * (codegen/) read the model through this header.  The model is the tree
 * of ast.h with its "sema:" fields filled (medley/README.md lists the
 * checks that fill them); it lives until mdl_front_free. */
#ifndef MEDLEY_FRONTEND_H
#define MEDLEY_FRONTEND_H

#include <stddef.h>
#include <stdio.h>

#include "ast.h"

/* ---------------------------------------------------------------- load */

/* A -D NAME=VALUE of the command line: it overrides the spec's const
 * NAME, or adds it. */
typedef struct mdl_define {
    const char *name;           /* points into the argument, up to '=' */
    size_t namelen;
    long long value;
} mdl_define;

/* NAME=VALUE with NAME an identifier and VALUE a decimal integer that fits
 * a long long; 0, or -1 when arg is not of that form. */
int mdl_define_parse(const char *arg, mdl_define *d);

/* One spec and everything made from it. */
typedef struct mdl_front mdl_front;

/* Reads the file at path and parses it, then applies the definitions
 * when the parse found no error.  Diagnostics go to `diag` (NULL:
 * stderr).  NULL with errno set when the file cannot be read (nothing
 * printed). */
mdl_front *mdl_front_load(const char *path, const mdl_define *defs, int ndefs, FILE *diag);

/* --------------------------------------------------------------- check */

/* Runs the checks when the parse found no error.  Returns the number of
 * errors of the parse and the checks together: the model is complete,
 * and fit for code generation, only when it is 0. */
int mdl_front_check(mdl_front *f);

/* A back end may refuse a model the checks accepted (medleyc --fortran:
 * the names its Fortran modules cannot take).  It reports like a check,
 * through the spec's diagnostics (same form, counted with the others);
 * `at` NULL: no place in the spec (a -D constant). */
void mdl_front_error(mdl_front *f, const mdl_loc *at, const char *msg);
/* A note on the previous error: the other of a pair. */
void mdl_front_note(mdl_front *f, mdl_loc at, const char *msg);
/* The errors reported so far (parse, checks, back end). */
int mdl_front_errors(const mdl_front *f);

/* The model: checked once mdl_front_check returned 0. */
const mdl_spec *mdl_front_spec(const mdl_front *f);

void mdl_front_free(mdl_front *f);

/* ------------------------------------------------------------------- query
 * What the checked model answers besides its "sema:" fields (model.c,
 * spec_hash.c). */

/* Type of a typeref for messages: "double", "unsigned long", "Particle". */
const char *mdl_type_name(const mdl_typeref *t);
/* The same type (basic types compare by kind, structs by declaration). */
int mdl_same_type(const mdl_typeref *a, const mdl_typeref *b);
int mdl_is_int_type(const mdl_typeref *t);
/* Bytes of one element on LP64, as C lays it out: a basic type's size,
 * a struct's as check_types.c computed it (mdl_struct.size, with its
 * padding); -1 when unknown after an error. */
long long mdl_type_size(const mdl_typeref *t);

/* Whether task t may talk to `other` (the connection relation of
 * check_tasks.c, symmetric; t itself when its family talks to itself). */
int mdl_task_connected(const mdl_task *t, const mdl_task *other);

/* 64-bit FNV-1a of what makes the instances of one job compatible:
 * tasks, grids, messages, channels, peers and the layouts they carry.
 * The generated code puts it in every task descriptor, where MDL_Init
 * compares it, and traces record it. */
unsigned long long mdl_spec_hash(const mdl_spec *s);

#endif
