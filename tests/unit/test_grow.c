/* common/mdl_grow.h: the one way arrays grow (runtimes, trace files,
 * mdltrace) — doubling, and sizes that would overflow refused. */
#include <CUnit/CUnit.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "mdl_grow.h"

static void test_cap_doubles(void)
{
    CU_ASSERT_EQUAL(mdl_grow_cap(0, 1, 4, SIZE_MAX), 4);
    CU_ASSERT_EQUAL(mdl_grow_cap(0, 5, 4, SIZE_MAX), 8);
    CU_ASSERT_EQUAL(mdl_grow_cap(4, 5, 16, SIZE_MAX), 8);
    CU_ASSERT_EQUAL(mdl_grow_cap(8, 8, 16, SIZE_MAX), 8);       /* holds it already */
    CU_ASSERT_EQUAL(mdl_grow_cap(8, 100, 16, SIZE_MAX), 128);
    CU_ASSERT_EQUAL(mdl_grow_cap(0, 3, 0, SIZE_MAX), 4);        /* no first: from 1 */
}

/* The count's own type bounds the capacity: the last doubling stops at
 * max, and a need beyond it is refused rather than wrapped. */
static void test_cap_refuses_beyond_max(void)
{
    CU_ASSERT_EQUAL(mdl_grow_cap(1u << 30, (1u << 30) + 1, 4, INT_MAX), INT_MAX);
    CU_ASSERT_EQUAL(mdl_grow_cap(INT_MAX, (size_t)INT_MAX + 1, 4, INT_MAX), 0);
    CU_ASSERT_EQUAL(mdl_grow_cap(SIZE_MAX / 2 + 1, SIZE_MAX, 4, SIZE_MAX), SIZE_MAX);
}

static void test_resize_refuses_overflow(void)
{
    char *p = malloc(8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    memcpy(p, "abcdefg", 8);
    CU_ASSERT_PTR_NULL(mdl_resize(p, SIZE_MAX / 4 + 1, 4));    /* bytes wrap */
    CU_ASSERT_PTR_NULL(mdl_resize(p, 0, 4));                    /* mdl_grow_cap's refusal */
    CU_ASSERT_STRING_EQUAL(p, "abcdefg");                       /* p untouched, still ours */
    free(p);
}

static void test_grow_keeps_contents(void)
{
    int *v = NULL;
    size_t cap = 0;
    for (int i = 0; i < 1000; i++) {
        int *w = mdl_grow(v, &cap, (size_t)i + 1, sizeof *v, 4);
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        v = w;
        v[i] = i;
    }
    CU_ASSERT_EQUAL(cap, 1024);
    int ok = 1;
    for (int i = 0; i < 1000; i++)
        ok &= v[i] == i;
    CU_ASSERT(ok);
    CU_ASSERT_PTR_EQUAL(mdl_grow(v, &cap, 1024, sizeof *v, 4), v);    /* room: no call */
    free(v);
}

/* An element count whose bytes overflow size_t is refused, the array and
 * its capacity left as they were. */
static void test_grow_refuses_overflow(void)
{
    size_t cap = 4;
    double *v = malloc(cap * sizeof *v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_PTR_NULL(mdl_grow(v, &cap, SIZE_MAX / sizeof *v + 1, sizeof *v, 4));
    CU_ASSERT_EQUAL(cap, 4);
    free(v);
}

static const mdl_unit_test tests[] = {
    { "cap_doubles", test_cap_doubles },
    { "cap_refuses_beyond_max", test_cap_refuses_beyond_max },
    { "resize_refuses_overflow", test_resize_refuses_overflow },
    { "grow_keeps_contents", test_grow_keeps_contents },
    { "grow_refuses_overflow", test_grow_refuses_overflow },
    { NULL, NULL },
};
MDL_UNIT_SUITE("grow", tests)
