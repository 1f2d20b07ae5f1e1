/* parse.c — mdl_parse: one scanner (lexer.l) over the text, the parser
 * (parser.y) pulling its tokens.  Here rather than in either, so that the
 * parser calls the lexer and nothing calls back. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parser.tab.h"
#include "lexer.h"

mdl_spec *mdl_parse(const char *path, const char *text, size_t len,
                    mdl_arena *arena, mdl_diag *diag)
{
    mdl_pctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = arena;
    ctx.diag = diag;
    ctx.spec = mdl_alloc(arena, sizeof *ctx.spec);
    ctx.spec->path = mdl_strdup(arena, path ? path : "<input>");
    ctx.line = 1;
    ctx.col = 1;
    ctx.mode = -1;
    if (len > INT_MAX - 2) {
        mdl_loc start = { 1, 1, 1, 1 };
        mdl_error(diag, start, "spec too large (%zu bytes)", len);
        return ctx.spec;
    }
    yyscan_t scanner;
    if (yylex_init_extra(&ctx, &scanner) != 0) {
        fputs("medleyc: out of memory\n", stderr);
        exit(2);
    }
    ctx.scanner = scanner;
    YY_BUFFER_STATE buf = yy_scan_bytes(text ? text : "", (int)len, scanner);
    mdl_yyparse_run(&ctx);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);
    return ctx.spec;
}
