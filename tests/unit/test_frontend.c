/* test_frontend.c — the front end as a library (medley/frontend.h), as
 * medleyc and mdltrace --spec use it: a spec file loaded with -D values,
 * checked, and asked; unreadable files and specs with errors. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"
#include "unit.h"

/* Writes src to a new temporary file; its path is in path. */
static int write_spec(char *path, const char *src)
{
    strcpy(path, "/tmp/medley-unit-front.XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    size_t n = strlen(src);
    int ok = write(fd, src, n) == (ssize_t)n;
    close(fd);
    return ok ? 0 : -1;
}

static const char *spec_src =
    "const N = 4;\n"
    "Task a connected with b\nuses { vector<double>[N] V; }\n"
    "sends { m to b = sequence{V}; }\n"
    "Task b(i) connected with a\nuses { vector<double>[N] V; }\n"
    "receives { m from a = sequence{V}; }\n";

static void test_load_check_query(void)
{
    char path[64];
    CU_ASSERT_EQUAL_FATAL(write_spec(path, spec_src), 0);
    mdl_define d;
    CU_ASSERT_EQUAL_FATAL(mdl_define_parse("N=6", &d), 0);
    mdl_front *plain = mdl_front_load(path, NULL, 0, NULL);
    mdl_front *defined = mdl_front_load(path, &d, 1, NULL);
    unlink(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
    CU_ASSERT_PTR_NOT_NULL_FATAL(defined);
    CU_ASSERT_EQUAL(mdl_front_check(plain), 0);
    CU_ASSERT_EQUAL(mdl_front_check(defined), 0);
    const mdl_spec *s = mdl_front_spec(defined);
    CU_ASSERT_EQUAL_FATAL(s->tasks.n, 2);
    const mdl_task *a = s->tasks.v[0], *b = s->tasks.v[1];
    CU_ASSERT_EQUAL(a->vars.v[0]->nelems, 6);                   /* -D N=6 */
    CU_ASSERT_EQUAL(mdl_front_spec(plain)->tasks.v[0]->vars.v[0]->nelems, 4);
    CU_ASSERT_EQUAL(mdl_type_size(&a->vars.v[0]->type), 8);
    CU_ASSERT_TRUE(a->single);
    CU_ASSERT_FALSE(b->single);
    CU_ASSERT_TRUE(mdl_task_connected(a, b));
    CU_ASSERT_EQUAL(s->nchannels, 1);
    CU_ASSERT_STRING_EQUAL(a->sends.v[0]->fn_name, "MDL_SendTo_b_m");
    CU_ASSERT_STRING_EQUAL(b->recvs.v[0]->fn_name, "MDL_RecvFrom_a_m");
    /* what the programs of a job must agree on includes the extents */
    CU_ASSERT_NOT_EQUAL(mdl_spec_hash(s), mdl_spec_hash(mdl_front_spec(plain)));
    mdl_front_free(plain);
    mdl_front_free(defined);
}

static void test_unreadable(void)
{
    errno = 0;
    CU_ASSERT_PTR_NULL(mdl_front_load("/nonexistent/medley/x.mdl", NULL, 0, NULL));
    CU_ASSERT_EQUAL(errno, ENOENT);
}

/* Errors of the parse or of the checks are counted and printed where the
 * caller says; a parse error leaves the checks out. */
static void test_errors(void)
{
    static const struct {
        const char *src, *text;
    } cases[] = {
        /* one error: the unknown task would be the checks' */
        { "Task a\nuses { int n; }\nsends { m to b = sequence{n} }\n",
          "error: expected ';' after message definition" },
        { "Task a\nuses { int n; }\nsends { m to b = sequence{n}; }\n",
          "error: message 'm' of task 'a' names unknown task 'b'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[64], *out = NULL;
        size_t len = 0;
        CU_ASSERT_EQUAL_FATAL(write_spec(path, cases[i].src), 0);
        FILE *diag = open_memstream(&out, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(diag);
        mdl_front *f = mdl_front_load(path, NULL, 0, diag);
        unlink(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(mdl_front_check(f), 1);
        fclose(diag);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, cases[i].text));
        if (!strstr(out, cases[i].text))
            fprintf(stderr, "diagnostics: %s\n", out);
        mdl_front_free(f);
        free(out);
    }
}

/* A back end's refusals (medleyc --fortran's) go through the spec's
 * diagnostics: the form of the checks' messages, counted with them. */
static void test_back_end_errors(void)
{
    char path[64], *out = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL_FATAL(write_spec(path, spec_src), 0);
    FILE *diag = open_memstream(&out, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(diag);
    mdl_front *f = mdl_front_load(path, NULL, 0, diag);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(mdl_front_check(f), 0);
    CU_ASSERT_EQUAL(mdl_front_errors(f), 0);
    const mdl_task *a = mdl_front_spec(f)->tasks.v[0], *b = mdl_front_spec(f)->tasks.v[1];
    mdl_front_error(f, &b->loc, "task 'b' is refused");
    mdl_front_note(f, a->loc, "task 'a' is here");
    mdl_front_error(f, NULL, "no place");
    CU_ASSERT_EQUAL(mdl_front_errors(f), 2);
    fclose(diag);
    char want[128], note[128];
    snprintf(want, sizeof want, "%s:%d:%d: error: task 'b' is refused", path, b->loc.line,
             b->loc.col);
    snprintf(note, sizeof note, "%s:%d:%d: note: task 'a' is here", path, a->loc.line,
             a->loc.col);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, note));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "medleyc: error: no place"));
    if (!strstr(out, want))
        fprintf(stderr, "diagnostics: %s\n", out);
    unlink(path);
    mdl_front_free(f);
    free(out);
}

static const mdl_unit_test tests[] = {
    { "load_check_query", test_load_check_query },
    { "unreadable", test_unreadable },
    { "errors", test_errors },
    { "back_end_errors", test_back_end_errors },
    { NULL, NULL },
};
MDL_UNIT_SUITE("frontend", tests)
