/* unit.h — the CUnit runner's registration API and front-end helpers.
 *
 * A test file registers its suite from a constructor, so adding a file to
 * tests/unit/ needs no edit anywhere else:
 *
 *     static void test_something(void) { CU_ASSERT_EQUAL(1 + 1, 2); }
 *     static const mdl_unit_test tests[] = {
 *         { "something", test_something },
 *         { NULL, NULL },
 *     };
 *     MDL_UNIT_SUITE("mysuite", tests)
 *
 * Each test prints one line: "PASS: unit/mysuite/something" or
 * "FAIL: unit/mysuite/something: file:line: condition".  See README.md. */
#ifndef MEDLEY_UNIT_H
#define MEDLEY_UNIT_H

#include <CUnit/CUnit.h>
#include <stdio.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"

typedef struct mdl_unit_test {
    const char *name;
    CU_TestFunc fn;
} mdl_unit_test;

/* tests: terminated by { NULL, NULL }; must outlive main (use a static). */
void mdl_unit_register(const char *suite, const mdl_unit_test *tests);

#define MDL_UNIT_SUITE(suite, tests)                                        \
    __attribute__((constructor)) static void mdl_unit_register_file(void)  \
    {                                                                       \
        mdl_unit_register((suite), (tests));                                \
    }

/* A spec compiled in memory, diagnostics captured instead of printed. */
typedef struct mdl_unit_front {
    mdl_arena *arena;
    mdl_diag *diag;
    mdl_spec *spec;
    FILE *out;
    char *buf;                  /* the diagnostics printed so far */
    size_t size;
} mdl_unit_front;

/* Parses src (NUL-terminated; the spec's path is "t.mdl"). */
mdl_spec *mdl_unit_parse(mdl_unit_front *u, const char *src);
/* Same for a buffer that may contain NUL bytes. */
mdl_spec *mdl_unit_parse_n(mdl_unit_front *u, const char *src, size_t len);
/* Parses, then runs mdl_check when parsing gave no error. */
mdl_spec *mdl_unit_check(mdl_unit_front *u, const char *src);
/* The diagnostics text so far ("" if none). */
const char *mdl_unit_diags(mdl_unit_front *u);
void mdl_unit_free(mdl_unit_front *u);

#endif
