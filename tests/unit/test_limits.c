/* test_limits.c — the pieces added for large inputs: the name table
 * behind task and const lookups, shortened long names in messages, and
 * pairing that looks only at the peer task's receives. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "unit.h"

static void test_symtab(void)
{
    mdl_arena *a = mdl_arena_new();
    enum { N = 10000 };
    mdl_symtab *t = mdl_symtab_new(a, N + 1);
    static char names[N][16];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "t%d", i);
        mdl_symtab_add(t, names[i], &names[i]);
    }
    int found = 0;
    for (int i = 0; i < N; i++)
        found += mdl_symtab_get(t, names[i]) == &names[i];
    CU_ASSERT_EQUAL(found, N);
    CU_ASSERT_PTR_NULL(mdl_symtab_get(t, "t10000"));
    CU_ASSERT_PTR_NULL(mdl_symtab_get(t, ""));
    CU_ASSERT_PTR_NULL(mdl_symtab_get(t, NULL));
    /* a second entry of a name does not replace the first (a scan of the
     * list in order finds the first) */
    mdl_symtab_add(t, "t5", names[0]);
    CU_ASSERT_PTR_EQUAL(mdl_symtab_get(t, "t5"), &names[5]);
    mdl_arena_free(a);
}

static void test_empty_symtab(void)
{
    mdl_arena *a = mdl_arena_new();
    mdl_symtab *t = mdl_symtab_new(a, 0);
    CU_ASSERT_PTR_NULL(mdl_symtab_get(t, "x"));
    mdl_symtab_add(t, "x", t);
    CU_ASSERT_PTR_EQUAL(mdl_symtab_get(t, "x"), t);
    mdl_arena_free(a);
}

/* A name of more than 200 bytes is shown as its first 64 bytes, "...",
 * its last 16; one of 200 is shown whole. */
static void test_long_names_shortened(void)
{
    char long_name[302], ok_name[201], src[1024], want[256];
    memset(long_name, 'a', 300);
    long_name[299] = 'z';
    long_name[300] = '\0';
    memset(ok_name, 'b', 200);
    ok_name[200] = '\0';
    snprintf(src, sizeof src, "Task %s(i) uses { int x; } sends { m to %s = sequence{x}; }\n",
             ok_name, long_name);
    mdl_unit_front u;
    mdl_unit_check(&u, src);
    snprintf(want, sizeof want, "names unknown task '%.64s...%.15sz'", long_name, long_name);
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&u), want));
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&u), ok_name));
    mdl_unit_free(&u);
}

/* Pairing by rule 2 and 3 within each peer task, with tasks in between
 * and a duplicate task name (its messages are not anyone's peer). */
static void test_pairing_per_task(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "Task a connected with b uses { int x; double d; }\n"
        "  sends { m to b = sequence{x}; n to b = sequence{d}; }\n"
        "Task c(i) uses { int y; }\n"
        "Task b connected with a uses { int x; double d; }\n"
        "  receives { m from a = sequence{x}; other from a = sequence{d}; }\n");
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u), "");
    mdl_msg *m = s->tasks.v[0]->sends.v[0], *n = s->tasks.v[0]->sends.v[1];
    CU_ASSERT_PTR_EQUAL(m->pair, s->tasks.v[2]->recvs.v[0]);
    CU_ASSERT_PTR_EQUAL(n->pair, s->tasks.v[2]->recvs.v[1]);
    CU_ASSERT_NOT_EQUAL(m->channel, n->channel);
    mdl_unit_free(&u);
}

static const mdl_unit_test tests[] = {
    { "symtab", test_symtab },
    { "empty_symtab", test_empty_symtab },
    { "long_names_shortened", test_long_names_shortened },
    { "pairing_per_task", test_pairing_per_task },
    { NULL, NULL },
};
MDL_UNIT_SUITE("limits", tests)
