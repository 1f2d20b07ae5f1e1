/* test_check_tree.c — mdl_check on trees built by hand, as a parser that
 * recovered from errors (or a future front end) might leave them: NULL
 * names, expressions, items and entries everywhere.  The checks must not
 * crash and must not report anything about what is simply missing. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "unit.h"

typedef struct tree {
    mdl_arena *a;
    mdl_diag *d;
    FILE *out;
    char *buf;
    size_t size;
} tree;

static void tree_init(tree *t)
{
    t->a = mdl_arena_new();
    t->d = mdl_diag_new("t.mdl", NULL, 0);
    t->buf = NULL;
    t->out = open_memstream(&t->buf, &t->size);
    mdl_diag_set_output(t->d, t->out);
}

static void tree_free(tree *t)
{
    mdl_diag_free(t->d);
    mdl_arena_free(t->a);
    fclose(t->out);
    free(t->buf);
}

static mdl_expr *num(tree *t, long long v)
{
    mdl_expr *e = mdl_alloc(t->a, sizeof *e);
    e->kind = MDL_E_INT;
    e->ival = v;
    return e;
}

static void test_empty_and_null_entries(void)
{
    tree t;
    tree_init(&t);
    mdl_spec *s = mdl_alloc(t.a, sizeof *s);
    CU_ASSERT_EQUAL(mdl_check(s, t.d, t.a), 0);
    /* NULL entries in every list */
    MDL_VEC_PUSH(t.a, s->consts, (mdl_const *)NULL);
    MDL_VEC_PUSH(t.a, s->structs, (mdl_struct *)NULL);
    MDL_VEC_PUSH(t.a, s->tasks, (mdl_task *)NULL);
    CU_ASSERT_EQUAL(mdl_check(s, t.d, t.a), 0);
    tree_free(&t);
}

static void test_missing_parts(void)
{
    tree t;
    tree_init(&t);
    mdl_spec *s = mdl_alloc(t.a, sizeof *s);
    mdl_const *k = mdl_alloc(t.a, sizeof *k);            /* no name, no value */
    MDL_VEC_PUSH(t.a, s->consts, k);
    mdl_const *k2 = mdl_alloc(t.a, sizeof *k2);          /* no value */
    k2->name = "K";
    MDL_VEC_PUSH(t.a, s->consts, k2);

    mdl_struct *st = mdl_alloc(t.a, sizeof *st);         /* no names */
    mdl_field *f = mdl_alloc(t.a, sizeof *f);            /* unnamed, unresolvable */
    f->type.basic = MDL_B_NONE;
    MDL_VEC_PUSH(t.a, st->fields, f);
    MDL_VEC_PUSH(t.a, st->fields, (mdl_field *)NULL);
    MDL_VEC_PUSH(t.a, s->structs, st);

    mdl_task *a = mdl_alloc(t.a, sizeof *a);             /* unnamed task */
    MDL_VEC_PUSH(t.a, s->tasks, a);
    mdl_task *b = mdl_alloc(t.a, sizeof *b);
    b->name = "b";
    b->multi = 1;
    b->conn = MDL_C_GRID;                                /* no dims expr: 2 */
    b->periodic_given = 1;
    MDL_VEC_PUSH(t.a, b->periodic_exprs, (mdl_expr *)NULL);
    MDL_VEC_PUSH(t.a, b->periodic_exprs, num(&t, 1));
    mdl_var *v = mdl_alloc(t.a, sizeof *v);
    v->name = "v";
    v->type.basic = MDL_B_DOUBLE;
    v->form = MDL_V_VECTOR;
    MDL_VEC_PUSH(t.a, v->dims, (mdl_expr *)NULL);        /* size missing */
    MDL_VEC_PUSH(t.a, b->vars, v);
    MDL_VEC_PUSH(t.a, b->vars, (mdl_var *)NULL);
    mdl_msg *m = mdl_alloc(t.a, sizeof *m);              /* unnamed message */
    MDL_VEC_PUSH(t.a, b->sends, m);
    mdl_msg *m2 = mdl_alloc(t.a, sizeof *m2);
    m2->name = "m2";
    m2->is_send = 1;
    m2->peer_kind = MDL_P_NEIGHBOR;                      /* offsets missing */
    MDL_VEC_PUSH(t.a, m2->offset_exprs, (mdl_expr *)NULL);
    MDL_VEC_PUSH(t.a, m2->offset_exprs, num(&t, 1));
    MDL_VEC_PUSH(t.a, m2->items, (mdl_item *)NULL);
    MDL_VEC_PUSH(t.a, b->sends, m2);
    mdl_msg *m3 = mdl_alloc(t.a, sizeof *m3);
    m3->name = "m3";
    mdl_item *it = mdl_alloc(t.a, sizeof *it);           /* REF without a name */
    MDL_VEC_PUSH(t.a, m3->items, it);
    mdl_item *it2 = mdl_alloc(t.a, sizeof *it2);
    it2->name = "v";
    MDL_VEC_PUSH(t.a, it2->idx, (mdl_index *)NULL);
    MDL_VEC_PUSH(t.a, m3->items, it2);
    MDL_VEC_PUSH(t.a, b->recvs, m3);
    mdl_coll *co = mdl_alloc(t.a, sizeof *co);           /* unknown, no name */
    co->kind = MDL_CO_UNKNOWN;
    MDL_VEC_PUSH(t.a, co->msgs, (mdl_msg *)NULL);
    MDL_VEC_PUSH(t.a, b->colls, co);
    mdl_coll *co2 = mdl_alloc(t.a, sizeof *co2);
    co2->kind = MDL_CO_REDUCE;
    co2->kind_name = "Reduce";
    mdl_msg *cm = mdl_alloc(t.a, sizeof *cm);
    cm->name = "r";
    for (int i = 0; i < 4; i++) {
        mdl_item *ci = mdl_alloc(t.a, sizeof *ci);
        ci->kind = i == 2 ? MDL_IT_EXPR : MDL_IT_REF;   /* EXPR without expr */
        MDL_VEC_PUSH(t.a, cm->items, ci);
    }
    MDL_VEC_PUSH(t.a, co2->msgs, cm);
    MDL_VEC_PUSH(t.a, b->colls, co2);
    MDL_VEC_PUSH(t.a, s->tasks, b);

    mdl_check(s, t.d, t.a);
    /* Nothing missing is reported as if it were wrong (the parser has
     * reported it), and nothing depending on it. */
    CU_ASSERT_EQUAL(mdl_error_count(t.d), 0);
    CU_ASSERT_EQUAL(b->grid_ndims, 2);
    CU_ASSERT_EQUAL(v->nelems, -1);
    CU_ASSERT_PTR_NULL(m2->peer_task);
    CU_ASSERT_PTR_NULL(m3->pair);
    tree_free(&t);
}

static void test_bad_expression_kinds(void)
{
    tree t;
    tree_init(&t);
    mdl_spec *s = mdl_alloc(t.a, sizeof *s);
    mdl_const *k = mdl_alloc(t.a, sizeof *k);
    k->name = "K";
    k->value = mdl_alloc(t.a, sizeof *k->value);
    k->value->kind = (mdl_expr_kind)42;                  /* not a kind */
    MDL_VEC_PUSH(t.a, s->consts, k);
    mdl_const *k2 = mdl_alloc(t.a, sizeof *k2);
    k2->name = "K2";
    k2->value = mdl_alloc(t.a, sizeof *k2->value);
    k2->value->kind = MDL_E_ADD;                         /* operands missing */
    MDL_VEC_PUSH(t.a, s->consts, k2);
    mdl_check(s, t.d, t.a);
    CU_ASSERT_FALSE(k->evaluated);
    CU_ASSERT_FALSE(k2->evaluated);
    CU_ASSERT_EQUAL(mdl_error_count(t.d), 0);
    tree_free(&t);
}

static const mdl_unit_test tests[] = {
    { "empty_and_null_entries", test_empty_and_null_entries },
    { "missing_parts", test_missing_parts },
    { "bad_expression_kinds", test_bad_expression_kinds },
    { NULL, NULL },
};
MDL_UNIT_SUITE("check_tree", tests)
