/* check.h — the semantic analysis entry point.
 *
 * Runs every check (one concern per medley/check_*.c file, see
 * medley/README.md), reports through diag, and fills the "sema:" fields of
 * the AST.  -D overrides were already merged into spec->consts by the
 * driver.  Returns the number of errors; the tree is fit for code
 * generation only when it returns 0. */
#ifndef MEDLEY_CHECK_H
#define MEDLEY_CHECK_H

#include "arena.h"
#include "ast.h"
#include "diag.h"

int mdl_check(mdl_spec *spec, mdl_diag *diag, mdl_arena *arena);

#endif
