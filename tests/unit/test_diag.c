/* test_diag.c — message format, source quoting, carets, suggestions. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "unit.h"

typedef struct capture {
    mdl_diag *d;
    FILE *out;
    char *buf;
    size_t size;
} capture;

static void open_diag(capture *c, const char *path, const char *text)
{
    memset(c, 0, sizeof *c);
    c->d = mdl_diag_new(path, text, text ? strlen(text) : 0);
    c->out = open_memstream(&c->buf, &c->size);
    mdl_diag_set_output(c->d, c->out);
}

static const char *text_of(capture *c)
{
    fflush(c->out);
    return c->buf ? c->buf : "";
}

static void close_diag(capture *c)
{
    mdl_diag_free(c->d);
    fclose(c->out);
    free(c->buf);
}

static mdl_loc L(int line, int col, int end_line, int end_col)
{
    return (mdl_loc){ line, col, end_line, end_col };
}

static void test_error_format(void)
{
    capture c;
    open_diag(&c, "spec.mdl", "Task son\nsends {\n    oneShot to father = sequence{n};\n}\n");
    mdl_error(c.d, L(3, 5, 3, 11), "message '%s' has no matching receive in task '%s'",
              "oneShot", "father");
    CU_ASSERT_STRING_EQUAL(text_of(&c),
        "spec.mdl:3:5: error: message 'oneShot' has no matching receive in task 'father'\n"
        "    3 |     oneShot to father = sequence{n};\n"
        "      |     ^~~~~~~\n");
    CU_ASSERT_EQUAL(mdl_error_count(c.d), 1);
    CU_ASSERT_EQUAL(mdl_warning_count(c.d), 0);
    close_diag(&c);
}

static void test_warning_and_note(void)
{
    capture c;
    open_diag(&c, "a.mdl", "x\ny\n");
    mdl_warning(c.d, L(1, 1, 1, 1), "w %d", 1);
    mdl_note(c.d, L(2, 1, 2, 1), "here");
    CU_ASSERT_STRING_EQUAL(text_of(&c),
        "a.mdl:1:1: warning: w 1\n"
        "    1 | x\n"
        "      | ^\n"
        "a.mdl:2:1: note: here\n"
        "    2 | y\n"
        "      | ^\n");
    CU_ASSERT_EQUAL(mdl_warning_count(c.d), 1);
    CU_ASSERT_EQUAL(mdl_error_count(c.d), 0);
    close_diag(&c);
}

static void test_tabs_kept(void)
{
    capture c;
    open_diag(&c, "t.mdl", "\t\tm1 = x;\n");
    mdl_error(c.d, L(1, 3, 1, 4), "e");
    CU_ASSERT_STRING_EQUAL(text_of(&c),
        "t.mdl:1:3: error: e\n"
        "    1 | \t\tm1 = x;\n"
        "      | \t\t^~\n");
    close_diag(&c);
}

static void test_multiline_range(void)
{
    capture c;
    open_diag(&c, "t.mdl", "ab cde\nfg\n");
    /* only the first line is underlined, to its end */
    mdl_error(c.d, L(1, 4, 2, 2), "e");
    CU_ASSERT_STRING_EQUAL(text_of(&c),
        "t.mdl:1:4: error: e\n"
        "    1 | ab cde\n"
        "      |    ^~~\n");
    close_diag(&c);
}

static void test_utf8_alignment(void)
{
    capture c;
    open_diag(&c, "t.mdl", "// \xc3\xa9t\xc3\xa9\nx \xc3\xa9 @\n");
    mdl_error(c.d, L(2, 6, 2, 6), "e");
    /* é is two bytes but one column: the caret goes under '@' */
    CU_ASSERT_STRING_EQUAL(text_of(&c),
        "t.mdl:2:6: error: e\n"
        "    2 | x \xc3\xa9 @\n"
        "      |     ^\n");
    close_diag(&c);
}

static void test_no_location(void)
{
    capture c;
    open_diag(&c, "t.mdl", "x\n");
    mdl_error_noloc(c.d, "bad -D '%s'", "N=");
    mdl_error(c.d, L(0, 0, 0, 0), "from the command line");
    /* a line past the end of the text is not quoted */
    mdl_error(c.d, L(9, 1, 9, 1), "far");
    CU_ASSERT_STRING_EQUAL(text_of(&c),
        "medleyc: error: bad -D 'N='\n"
        "t.mdl: error: from the command line\n"
        "t.mdl:9:1: error: far\n");
    CU_ASSERT_EQUAL(mdl_error_count(c.d), 3);
    close_diag(&c);
}

static void test_long_line_window(void)
{
    size_t n = 100000;
    char *text = malloc(n + 2);
    memset(text, 'a', n);
    text[50000] = '@';
    text[n] = '\n';
    text[n + 1] = '\0';
    capture c;
    open_diag(&c, "t.mdl", text);
    mdl_error(c.d, L(1, 50001, 1, 50001), "e");
    const char *out = text_of(&c);
    /* a window around the column, not the megabyte line */
    CU_ASSERT(strlen(out) < 600);
    const char *src = strstr(out, "    1 | ...");
    const char *caret = strstr(out, "      |    ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(caret);
    size_t at_src = (size_t)(strchr(src, '@') - src);
    size_t at_caret = (size_t)(strchr(caret, '^') - caret);
    CU_ASSERT_EQUAL(at_src, at_caret);
    close_diag(&c);
    free(text);
}

static void test_error_limit_and_notes(void)
{
    capture c;
    open_diag(&c, "t.mdl", NULL);
    for (int i = 0; i < MDL_MAX_ERRORS; i++)
        mdl_error(c.d, L(1, 1, 1, 1), "e%d", i);
    mdl_note(c.d, L(1, 1, 1, 1), "shown");
    mdl_error(c.d, L(1, 1, 1, 1), "hidden");
    mdl_note(c.d, L(1, 1, 1, 1), "hidden note");
    mdl_warning(c.d, L(1, 1, 1, 1), "hidden warning");
    mdl_error(c.d, L(1, 1, 1, 1), "hidden too");
    const char *out = text_of(&c);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "note: shown"));
    CU_ASSERT_PTR_NULL(strstr(out, "hidden"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "medleyc: error: too many errors"));
    CU_ASSERT_PTR_NULL(strstr(strstr(out, "too many") + 1, "too many"));
    CU_ASSERT_EQUAL(mdl_error_count(c.d), MDL_MAX_ERRORS + 2);
    close_diag(&c);
}

static void test_suggest(void)
{
    static const char *const colls[] = {
        "Bcast", "Mcast", "Scatter", "ScatterV", "Gather", "GatherV",
        "Allgather", "AllgatherV", "Alltoall", "Reduce", "Allreduce",
    };
    int n = (int)(sizeof colls / sizeof *colls);
    CU_ASSERT_STRING_EQUAL(mdl_suggest("Bcazt", colls, n), "Bcast");
    CU_ASSERT_STRING_EQUAL(mdl_suggest("Gahter", colls, n), "Gather");   /* transposition */
    CU_ASSERT_STRING_EQUAL(mdl_suggest("gatherv", colls, n), "GatherV"); /* case only */
    CU_ASSERT_STRING_EQUAL(mdl_suggest("Alreduce", colls, n), "Allreduce");
    CU_ASSERT_PTR_NULL(mdl_suggest("Frobnicate", colls, n));
    CU_ASSERT_PTR_NULL(mdl_suggest("xy", colls, n));

    static const char *const names[] = { "oneShoot", "inMessage", "startMessage" };
    CU_ASSERT_STRING_EQUAL(mdl_suggest("oneShot", names, 3), "oneShoot");
    CU_ASSERT_STRING_EQUAL(mdl_suggest("inMesage", names, 3), "inMessage");
    /* short names: one edit is still allowed */
    static const char *const short_names[] = { "ab", "m1", "m2" };
    CU_ASSERT_STRING_EQUAL(mdl_suggest("m3", short_names, 3), "m1");   /* tie: first */
    CU_ASSERT_PTR_NULL(mdl_suggest("zz", short_names, 3));
    CU_ASSERT_PTR_NULL(mdl_suggest("x", names, 0));
}

/* Words matched like keywords: case is no typo, the canonical spelling
 * comes back (collective names, topologies, blocks, keywords). */
static void test_suggest_nocase(void)
{
    static const char *const colls[] = { "Bcast", "Gather", "GatherV", "Allreduce" };
    CU_ASSERT_STRING_EQUAL(mdl_suggest_nocase("GATHRE", colls, 4), "Gather");
    CU_ASSERT_STRING_EQUAL(mdl_suggest_nocase("allredcue", colls, 4), "Allreduce");
    CU_ASSERT_STRING_EQUAL(mdl_suggest_nocase("GatherVV", colls, 4), "GatherV");
    /* the word itself is no suggestion */
    CU_ASSERT_STRING_EQUAL(mdl_suggest_nocase("gather", colls, 4), "GatherV");
    static const char *const forms[] = { "setof", "grid" };
    CU_ASSERT_STRING_EQUAL(mdl_suggest_nocase("GIRD", forms, 2), "grid");
    CU_ASSERT_PTR_NULL(mdl_suggest_nocase("x", forms, 0));
}

static const mdl_unit_test tests[] = {
    { "suggest_nocase", test_suggest_nocase },
    { "error_format", test_error_format },
    { "warning_and_note", test_warning_and_note },
    { "tabs_kept", test_tabs_kept },
    { "multiline_range", test_multiline_range },
    { "utf8_alignment", test_utf8_alignment },
    { "no_location", test_no_location },
    { "long_line_window", test_long_line_window },
    { "error_limit_and_notes", test_error_limit_and_notes },
    { "suggest", test_suggest },
    { NULL, NULL },
};
MDL_UNIT_SUITE("diag", tests)
