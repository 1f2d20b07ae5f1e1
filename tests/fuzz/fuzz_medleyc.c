/* fuzz_medleyc.c — libFuzzer harness: one input = one spec, run through
 * the stages of medleyc (parse, check, emit C and dot) as the driver does.
 *
 * Built by `make fuzz` with -fsanitize=fuzzer,address,undefined; a crash,
 * a sanitizer report, a leak, a slow input or a memory blow-up is a
 * finding (docs/robustness.md).  Diagnostics go to /dev/null: the text is
 * the golden tests' business, here only the behaviour matters.  Outputs go
 * to a private temporary directory emptied after every input, so the
 * writer (temporary files, renames) is exercised too. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "ast.h"
#include "check.h"
#include "diag.h"
#include "emit.h"
#include "parse.h"

static char outdir[] = "/tmp/medley_fuzz_XXXXXX";
static char dotpath[sizeof outdir + 16];
static FILE *devnull;

static void remove_outdir(void)
{
    DIR *d = opendir(outdir);
    if (!d)
        return;
    struct dirent *e;
    char path[sizeof outdir + 512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", outdir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!mkdtemp(outdir) || !(devnull = fopen("/dev/null", "w"))) {
        perror("fuzz_medleyc: setup");
        exit(1);
    }
    snprintf(dotpath, sizeof dotpath, "%s/graph.dot", outdir);
    atexit(remove_outdir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a private copy of exactly `size` bytes, so reading past the end is
     * an ASan report (the parser must not rely on a terminating NUL) */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);

    mdl_arena *arena = mdl_arena_new();
    mdl_diag *diag = mdl_diag_new("fuzz.mdl", text, size);
    mdl_diag_set_output(diag, devnull);
    mdl_spec *spec = mdl_parse("fuzz.mdl", text, size, arena, diag);
    if (mdl_error_count(diag) == 0)
        mdl_check(spec, diag, arena);
    if (mdl_error_count(diag) == 0) {
        mdl_emit_c(spec, outdir);
        mdl_emit_dot(spec, dotpath);
        remove_outdir();
    }
    mdl_diag_free(diag);
    mdl_arena_free(arena);
    free(text);
    return 0;
}
