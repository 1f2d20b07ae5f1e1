/* diag.h — compiler diagnostics in the form editors and build tools parse:
 *
 *   spec.mdl:12:17: error: message 'oneShot' has no matching receive in task 'father'
 *      12 |     oneShot to father = sequence{n};
 *         |     ^~~~~~~
 *   spec.mdl:30:5: note: receives of task 'father' are here
 *
 * Every stage reports through these functions; none prints on its own.
 * Errors are counted so the driver can decide the exit status and refuse
 * to write outputs. */
#ifndef MEDLEY_DIAG_H
#define MEDLEY_DIAG_H

#include <stdio.h>

#include "ast.h"

typedef struct mdl_diag mdl_diag;

/* path: the name shown in messages; text/len: the whole source, kept to
 * quote lines under each diagnostic (may be NULL for command-line input). */
mdl_diag *mdl_diag_new(const char *path, const char *text, size_t len);
void mdl_diag_free(mdl_diag *d);
/* Where messages go (stderr by default); tests capture them. */
void mdl_diag_set_output(mdl_diag *d, FILE *out);

/* After this many errors the rest are counted but not printed (one line
 * says so), and the lexer stops reading: a binary file gives a short
 * report, not thousands of lines. */
#define MDL_MAX_ERRORS 20

void mdl_error(mdl_diag *d, mdl_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void mdl_warning(mdl_diag *d, mdl_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A note attaches to the previous error or warning (other side of a pair,
 * earlier declaration). */
void mdl_note(mdl_diag *d, mdl_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An error with no place in the spec (a bad -D): "medleyc: error: …". */
void mdl_error_noloc(mdl_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

int mdl_error_count(const mdl_diag *d);
int mdl_warning_count(const mdl_diag *d);

/* The candidate closest to `name` by edit distance, or NULL when none is
 * close enough to be a plausible typo: for "did you mean 'X'?". */
const char *mdl_suggest(const char *name, const char *const *candidates,
                        int ncandidates);
/* The same ignoring letter case, for words matched like keywords (a
 * different case is not a typo): returns one of the candidates as given,
 * so a message can show its canonical spelling. */
const char *mdl_suggest_nocase(const char *name, const char *const *candidates,
                               int ncandidates);

#endif
