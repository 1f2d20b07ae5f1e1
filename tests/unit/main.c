/* main.c — the CUnit runner: one line per test for tests/run.sh.
 *
 * Suites come from MDL_UNIT_SUITE constructors in the tests/unit/test_*.c
 * files (see unit.h); this file also holds the helpers that compile a spec
 * in memory with captured diagnostics. */
#include <CUnit/CUnit.h>
#include <CUnit/TestRun.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse.h"
#include "unit.h"

enum { MAX_SUITES = 64 };
static struct {
    const char *name;
    const mdl_unit_test *tests;
} suites[MAX_SUITES];
static int nsuites;

void mdl_unit_register(const char *suite, const mdl_unit_test *tests)
{
    if (nsuites == MAX_SUITES) {
        fprintf(stderr, "unit: more than %d suites; raise MAX_SUITES\n", MAX_SUITES);
        exit(1);
    }
    suites[nsuites].name = suite;
    suites[nsuites].tests = tests;
    nsuites++;
}

mdl_spec *mdl_unit_parse_n(mdl_unit_front *u, const char *src, size_t len)
{
    memset(u, 0, sizeof *u);
    u->arena = mdl_arena_new();
    u->diag = mdl_diag_new("t.mdl", src, len);
    u->out = open_memstream(&u->buf, &u->size);
    if (!u->out)
        abort();
    mdl_diag_set_output(u->diag, u->out);
    u->spec = mdl_parse("t.mdl", src, len, u->arena, u->diag);
    return u->spec;
}

mdl_spec *mdl_unit_parse(mdl_unit_front *u, const char *src)
{
    return mdl_unit_parse_n(u, src, strlen(src));
}

mdl_spec *mdl_unit_check(mdl_unit_front *u, const char *src)
{
    mdl_unit_parse(u, src);
    if (mdl_error_count(u->diag) == 0)
        mdl_check(u->spec, u->diag, u->arena);
    return u->spec;
}

const char *mdl_unit_diags(mdl_unit_front *u)
{
    fflush(u->out);
    return u->buf ? u->buf : "";
}

void mdl_unit_free(mdl_unit_front *u)
{
    mdl_diag_free(u->diag);
    mdl_arena_free(u->arena);
    if (u->out)
        fclose(u->out);
    free(u->buf);
    memset(u, 0, sizeof *u);
}

static void on_test_complete(const CU_pTest test, const CU_pSuite suite,
                             const CU_pFailureRecord fail)
{
    if (!fail) {
        printf("PASS: unit/%s/%s\n", suite->pName, test->pName);
    } else {
        printf("FAIL: unit/%s/%s: %s:%u: %s\n", suite->pName, test->pName,
               fail->strFileName ? fail->strFileName : "?",
               fail->uiLineNumber,
               fail->strCondition ? fail->strCondition : "?");
    }
    fflush(stdout);
}

static void on_suite_init_failure(const CU_pSuite suite)
{
    printf("FAIL: unit/%s: suite initialisation failed\n", suite->pName);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    for (int s = 0; s < nsuites; s++) {
        CU_pSuite suite = CU_add_suite(suites[s].name, NULL, NULL);
        if (!suite)
            return 2;
        for (const mdl_unit_test *t = suites[s].tests; t->name; t++)
            if (!CU_add_test(suite, t->name, t->fn))
                return 2;
    }
    CU_set_test_complete_handler(on_test_complete);
    CU_set_suite_init_failure_handler(on_suite_init_failure);
    CU_run_all_tests();
    CU_cleanup_registry();
    /* Failures are reported line by line; a non-zero status would count
     * them twice in tests/run.sh. */
    return 0;
}
