/* parse.h — turn spec text into an AST (lexer.l + parser.y). */
#ifndef MEDLEY_PARSE_H
#define MEDLEY_PARSE_H

#include "../medley/arena.h"
#include "../medley/ast.h"
#include "../medley/diag.h"

/* Parses text[0..len) (which may contain NUL bytes: they are reported).
 * Syntax errors go to diag; on errors the returned spec may be partial
 * (never NULL), and the caller stops before the semantic checks. */
mdl_spec *mdl_parse(const char *path, const char *text, size_t len,
                    mdl_arena *arena, mdl_diag *diag);

#endif
