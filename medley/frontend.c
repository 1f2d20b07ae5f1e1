/* frontend.c — the front end as one object: the spec's text, its arena
 * and diagnostics, and the tree the parser (grammar/) builds and the
 * checks (check.c) complete. */
#include <stdlib.h>

#include "arena.h"
#include "check.h"
#include "diag.h"
#include "frontend.h"
#include "input.h"
#include "parse.h"

struct mdl_front {
    char *text;
    mdl_arena *arena;
    mdl_diag *diag;
    mdl_spec *spec;
};

mdl_front *mdl_front_load(const char *path, const mdl_define *defs, int ndefs, FILE *diag)
{
    size_t len;
    char *text = mdl_read_spec_file(path, &len);
    if (!text)
        return NULL;
    mdl_front *f = calloc(1, sizeof *f);
    if (!f) {
        fputs("medleyc: out of memory\n", stderr);
        exit(2);
    }
    f->text = text;
    f->arena = mdl_arena_new();
    f->diag = mdl_diag_new(path, text, len);
    if (diag)
        mdl_diag_set_output(f->diag, diag);
    f->spec = mdl_parse(path, text, len, f->arena, f->diag);
    if (mdl_error_count(f->diag) == 0)
        mdl_defines_apply(f->spec, f->arena, defs, ndefs);
    return f;
}

int mdl_front_check(mdl_front *f)
{
    if (mdl_error_count(f->diag) == 0)
        mdl_check(f->spec, f->diag, f->arena);
    return mdl_error_count(f->diag);
}

void mdl_front_error(mdl_front *f, const mdl_loc *at, const char *msg)
{
    if (at)
        mdl_error(f->diag, *at, "%s", msg);
    else
        mdl_error_noloc(f->diag, "%s", msg);
}

void mdl_front_note(mdl_front *f, mdl_loc at, const char *msg)
{
    mdl_note(f->diag, at, "%s", msg);
}

int mdl_front_errors(const mdl_front *f)
{
    return mdl_error_count(f->diag);
}

const mdl_spec *mdl_front_spec(const mdl_front *f)
{
    return f->spec;
}

void mdl_front_free(mdl_front *f)
{
    if (!f)
        return;
    mdl_diag_free(f->diag);
    mdl_arena_free(f->arena);
    free(f->text);
    free(f);
}
