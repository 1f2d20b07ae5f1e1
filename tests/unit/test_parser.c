/* test_parser.c — the AST built for each construct of reference §3. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define NO_ERRORS(u)                                                        \
    do {                                                                    \
        CU_ASSERT_EQUAL(mdl_error_count((u)->diag), 0);                     \
        CU_ASSERT_STRING_EQUAL(mdl_unit_diags(u), "");                      \
    } while (0)

static int is_int(const mdl_expr *e, long long v)
{
    return e && e->kind == MDL_E_INT && e->ival == v;
}

static int is_name(const mdl_expr *e, const char *n)
{
    return e && e->kind == MDL_E_NAME && strcmp(e->name, n) == 0;
}

static void test_consts(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u, "const N = 1024;\n"
                                     "CONST M = (N + 2) * -3 / 2 - 1;\n"
                                     "const int K = +4;\n");
    NO_ERRORS(&u);
    CU_ASSERT_EQUAL_FATAL(s->consts.n, 3);
    mdl_const *n = s->consts.v[0], *m = s->consts.v[1];
    CU_ASSERT_STRING_EQUAL(n->name, "N");
    CU_ASSERT_EQUAL(n->loc.line, 1);
    CU_ASSERT_EQUAL(n->loc.col, 7);
    CU_ASSERT(is_int(n->value, 1024));
    CU_ASSERT_EQUAL(n->from_cmdline, 0);
    /* ((N + 2) * -3 / 2) - 1 */
    mdl_expr *e = m->value;
    CU_ASSERT_EQUAL_FATAL(e->kind, MDL_E_SUB);
    CU_ASSERT(is_int(e->r, 1));
    CU_ASSERT_EQUAL_FATAL(e->l->kind, MDL_E_DIV);
    CU_ASSERT(is_int(e->l->r, 2));
    mdl_expr *mul = e->l->l;
    CU_ASSERT_EQUAL_FATAL(mul->kind, MDL_E_MUL);
    CU_ASSERT_EQUAL(mul->l->kind, MDL_E_ADD);
    CU_ASSERT(is_name(mul->l->l, "N"));
    CU_ASSERT(is_int(mul->l->r, 2));
    CU_ASSERT_EQUAL(mul->r->kind, MDL_E_NEG);
    CU_ASSERT(is_int(mul->r->l, 3));
    /* the location spans the whole expression */
    CU_ASSERT_EQUAL(e->loc.col, 11);
    CU_ASSERT_EQUAL(e->loc.end_col, 30);
    CU_ASSERT(is_int(s->consts.v[2]->value, 4));
    mdl_unit_free(&u);
}

static void test_structs(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u,
        "struct S { double x, y; int a[3]; struct T t; T u[2][N]; double *p; };\n"
        "typedef struct { double re, im; } Complex;\n"
        "typedef struct Tag { unsigned long long n; } Named;\n");
    NO_ERRORS(&u);
    CU_ASSERT_EQUAL_FATAL(s->structs.n, 3);
    mdl_struct *st = s->structs.v[0];
    CU_ASSERT_STRING_EQUAL(st->tag, "S");
    CU_ASSERT_PTR_NULL(st->typedef_name);
    CU_ASSERT_EQUAL_FATAL(st->fields.n, 6);
    mdl_field **f = st->fields.v;
    CU_ASSERT_STRING_EQUAL(f[0]->name, "x");
    CU_ASSERT_EQUAL(f[0]->type.basic, MDL_B_DOUBLE);
    CU_ASSERT_STRING_EQUAL(f[1]->name, "y");
    CU_ASSERT_EQUAL(f[1]->type.basic, MDL_B_DOUBLE);
    CU_ASSERT_EQUAL(f[2]->type.basic, MDL_B_INT);
    CU_ASSERT_EQUAL_FATAL(f[2]->dims.n, 1);
    CU_ASSERT(is_int(f[2]->dims.v[0], 3));
    CU_ASSERT_EQUAL(f[3]->type.basic, MDL_B_NONE);
    CU_ASSERT_STRING_EQUAL(f[3]->type.name, "T");
    CU_ASSERT_EQUAL(f[3]->type.struct_keyword, 1);
    CU_ASSERT_EQUAL(f[4]->type.struct_keyword, 0);
    CU_ASSERT_STRING_EQUAL(f[4]->type.name, "T");
    CU_ASSERT_EQUAL_FATAL(f[4]->dims.n, 2);
    CU_ASSERT(is_name(f[4]->dims.v[1], "N"));
    CU_ASSERT_EQUAL(f[5]->is_pointer, 1);
    CU_ASSERT_PTR_NULL(s->structs.v[1]->tag);
    CU_ASSERT_STRING_EQUAL(s->structs.v[1]->typedef_name, "Complex");
    CU_ASSERT_EQUAL(s->structs.v[1]->fields.n, 2);
    CU_ASSERT_STRING_EQUAL(s->structs.v[2]->tag, "Tag");
    CU_ASSERT_STRING_EQUAL(s->structs.v[2]->typedef_name, "Named");
    CU_ASSERT_EQUAL(s->structs.v[2]->fields.v[0]->type.basic, MDL_B_ULLONG);
    mdl_unit_free(&u);
}

static void test_task_preambles(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u,
        "Task a\n"
        "Task b(i)\n"
        "Task c(k) connected with setof(a, b)\n"
        "task d connected with b\n"
        "Task e(i) connected with grid(N) of e\n"
        "Task f(i) connected with grid(2, periodic)\n"
        "Task g(i) connected with grid(3, periodic(1,0,0))\n"
        "Task h(i) connected with grid\n");
    NO_ERRORS(&u);
    CU_ASSERT_EQUAL_FATAL(s->tasks.n, 8);
    mdl_task **t = s->tasks.v;
    CU_ASSERT_STRING_EQUAL(t[0]->name, "a");
    CU_ASSERT_EQUAL(t[0]->multi, 0);
    CU_ASSERT_EQUAL(t[0]->conn, MDL_C_NONE);
    CU_ASSERT_EQUAL(t[1]->multi, 1);
    CU_ASSERT_STRING_EQUAL(t[1]->index_var, "i");
    CU_ASSERT_EQUAL(t[2]->conn, MDL_C_SETOF);
    CU_ASSERT_EQUAL_FATAL(t[2]->conn_names.n, 2);
    CU_ASSERT_STRING_EQUAL(t[2]->conn_names.v[1], "b");
    CU_ASSERT_EQUAL(t[2]->conn_locs.v[1].line, 3);
    CU_ASSERT_EQUAL(t[2]->conn_locs.v[1].col, 35);
    CU_ASSERT_EQUAL(t[3]->conn, MDL_C_TASK);
    CU_ASSERT_EQUAL(t[3]->multi, 0);
    CU_ASSERT_STRING_EQUAL(t[3]->conn_names.v[0], "b");
    CU_ASSERT_EQUAL(t[4]->conn, MDL_C_GRID);
    CU_ASSERT(is_name(t[4]->grid_dims_expr, "N"));
    CU_ASSERT_STRING_EQUAL(t[4]->grid_of, "e");
    CU_ASSERT_EQUAL(t[4]->periodic_given, 0);
    CU_ASSERT(is_int(t[5]->grid_dims_expr, 2));
    CU_ASSERT_EQUAL(t[5]->periodic_given, 1);
    CU_ASSERT_EQUAL(t[5]->periodic_exprs.n, 0);
    CU_ASSERT_EQUAL(t[6]->periodic_given, 1);
    CU_ASSERT_EQUAL_FATAL(t[6]->periodic_exprs.n, 3);
    CU_ASSERT(is_int(t[6]->periodic_exprs.v[0], 1));
    CU_ASSERT(is_int(t[6]->periodic_exprs.v[2], 0));
    CU_ASSERT_EQUAL(t[7]->conn, MDL_C_GRID);
    CU_ASSERT_PTR_NULL(t[7]->grid_dims_expr);
    mdl_unit_free(&u);
}

static void test_uses(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u,
        "Task a uses {\n"
        "  int i, j; unsigned long n; long long c; short int sh; unsigned char uc;\n"
        "  vector<float>[100] V;\n"
        "  matrix<int>[50,60] M; matrix<int>[50][60] M2;\n"
        "  matrix<double>[N+2,N+2] U;\n"
        "  Particle ps[MAX]; struct Particle qs[MAX];\n"
        "  int a[3][4]; int *counts; double *p, q;\n"
        "}\n");
    NO_ERRORS(&u);
    mdl_task *t = s->tasks.v[0];
    CU_ASSERT_EQUAL_FATAL(t->vars.n, 16);
    mdl_var **v = t->vars.v;
    CU_ASSERT_STRING_EQUAL(v[1]->name, "j");
    CU_ASSERT_EQUAL(v[1]->form, MDL_V_SCALAR);
    CU_ASSERT_EQUAL(v[1]->type.basic, MDL_B_INT);
    CU_ASSERT_EQUAL(v[1]->loc.line, 2);
    CU_ASSERT_EQUAL(v[1]->loc.col, 10);
    CU_ASSERT_EQUAL(v[2]->type.basic, MDL_B_ULONG);
    CU_ASSERT_EQUAL(v[3]->type.basic, MDL_B_LLONG);
    CU_ASSERT_EQUAL(v[4]->type.basic, MDL_B_SHORT);
    CU_ASSERT_EQUAL(v[5]->type.basic, MDL_B_UCHAR);
    CU_ASSERT_STRING_EQUAL(v[6]->name, "V");
    CU_ASSERT_EQUAL(v[6]->form, MDL_V_VECTOR);
    CU_ASSERT_EQUAL(v[6]->type.basic, MDL_B_FLOAT);
    CU_ASSERT_EQUAL_FATAL(v[6]->dims.n, 1);
    CU_ASSERT(is_int(v[6]->dims.v[0], 100));
    for (int k = 7; k <= 8; k++) {
        CU_ASSERT_EQUAL(v[k]->form, MDL_V_MATRIX);
        CU_ASSERT_EQUAL_FATAL(v[k]->dims.n, 2);
        CU_ASSERT(is_int(v[k]->dims.v[0], 50));
        CU_ASSERT(is_int(v[k]->dims.v[1], 60));
    }
    CU_ASSERT_EQUAL(v[9]->type.basic, MDL_B_DOUBLE);
    CU_ASSERT_EQUAL(v[9]->dims.v[0]->kind, MDL_E_ADD);
    CU_ASSERT_EQUAL(v[10]->form, MDL_V_ARRAY);
    CU_ASSERT_EQUAL(v[10]->type.basic, MDL_B_NONE);
    CU_ASSERT_STRING_EQUAL(v[10]->type.name, "Particle");
    CU_ASSERT_EQUAL(v[10]->type.struct_keyword, 0);
    CU_ASSERT(is_name(v[10]->dims.v[0], "MAX"));
    CU_ASSERT_EQUAL(v[11]->type.struct_keyword, 1);
    CU_ASSERT_EQUAL(v[12]->form, MDL_V_ARRAY);
    CU_ASSERT_EQUAL(v[12]->dims.n, 2);
    CU_ASSERT_EQUAL(v[13]->form, MDL_V_POINTER);
    CU_ASSERT_EQUAL(v[13]->dims.n, 0);
    CU_ASSERT_EQUAL(v[14]->form, MDL_V_POINTER);
    CU_ASSERT_STRING_EQUAL(v[15]->name, "q");
    CU_ASSERT_EQUAL(v[15]->form, MDL_V_SCALAR);
    CU_ASSERT_EQUAL(v[15]->type.basic, MDL_B_DOUBLE);
    mdl_unit_free(&u);
}

static void test_bad_type_words(void)
{
    mdl_unit_front u;
    mdl_unit_parse(&u, "Task a uses { long double x; signed unsigned y; }");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&u),
                                  "t.mdl:1:15: error: 'long double' is not supported"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&u),
                                  "t.mdl:1:30: error: invalid combination of type words"));
    mdl_unit_free(&u);
}

static void test_peers(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u,
        "Task a sends {\n"
        "  m1 to A = sequence{i};\n"
        "  m2 to {A} = sequence{i};\n"
        "  m3 to [A] = sequence{i};\n"
        "  m4 = sequence{i};\n"
        "  m5 to North_Neighbor = sequence{i};\n"
        "  m6 to Neighbor[-2][0][+1] = sequence{i};\n"
        "}\n"
        "receives { r1 from {A} = sequence{i}; r2 = sequence{i} matches m4;\n"
        "  r3 from Neighbor[1][N-1] = sequence{i}; }\n");
    NO_ERRORS(&u);
    mdl_task *t = s->tasks.v[0];
    CU_ASSERT_EQUAL_FATAL(t->sends.n, 6);
    CU_ASSERT_EQUAL_FATAL(t->recvs.n, 3);
    mdl_msg **m = t->sends.v;
    CU_ASSERT_STRING_EQUAL(m[0]->name, "m1");
    CU_ASSERT_EQUAL(m[0]->is_send, 1);
    CU_ASSERT_EQUAL(m[0]->peer_kind, MDL_P_ONE);
    CU_ASSERT_STRING_EQUAL(m[0]->peer, "A");
    CU_ASSERT_EQUAL(m[0]->peer_loc.line, 2);
    CU_ASSERT_EQUAL(m[0]->peer_loc.col, 9);
    CU_ASSERT_EQUAL(m[1]->peer_kind, MDL_P_ALL);
    CU_ASSERT_STRING_EQUAL(m[1]->peer, "A");
    CU_ASSERT_EQUAL(m[2]->peer_kind, MDL_P_SUBSET);
    CU_ASSERT_EQUAL(m[3]->peer_kind, MDL_P_NONE);
    CU_ASSERT_PTR_NULL(m[3]->peer);
    /* a named neighbour stays ONE; sema turns it into NEIGHBOR */
    CU_ASSERT_EQUAL(m[4]->peer_kind, MDL_P_ONE);
    CU_ASSERT_STRING_EQUAL(m[4]->peer, "North_Neighbor");
    CU_ASSERT_EQUAL(m[5]->peer_kind, MDL_P_NEIGHBOR);
    CU_ASSERT_STRING_EQUAL(m[5]->peer, "Neighbor");
    CU_ASSERT_EQUAL_FATAL(m[5]->offset_exprs.n, 3);
    CU_ASSERT_EQUAL(m[5]->offset_exprs.v[0]->kind, MDL_E_NEG);
    CU_ASSERT(is_int(m[5]->offset_exprs.v[0]->l, 2));
    CU_ASSERT(is_int(m[5]->offset_exprs.v[1], 0));
    CU_ASSERT(is_int(m[5]->offset_exprs.v[2], 1));
    mdl_msg **r = t->recvs.v;
    CU_ASSERT_EQUAL(r[0]->is_send, 0);
    CU_ASSERT_EQUAL(r[0]->peer_kind, MDL_P_ALL);
    CU_ASSERT_PTR_NULL(r[0]->matches);
    CU_ASSERT_STRING_EQUAL(r[1]->matches, "m4");
    CU_ASSERT_EQUAL(r[1]->matches_loc.line, 9);
    CU_ASSERT_EQUAL(r[1]->matches_loc.col, 64);
    CU_ASSERT_EQUAL(r[2]->peer_kind, MDL_P_NEIGHBOR);
    CU_ASSERT_EQUAL(r[2]->offset_exprs.n, 2);
    CU_ASSERT_EQUAL(r[2]->offset_exprs.v[1]->kind, MDL_E_SUB);
    mdl_unit_free(&u);
}

static void test_sync_async(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u,
        "Task a\n"
        "receives { r0 = sequence{i}; async { r1 = sequence{i}; } r2 = sequence{i}; }\n"
        "sends { s0 = sequence{i}; SYNC { s1 = sequence{i}; s2 = sequence{i}; }\n"
        "        async { s3 = sequence{i}; } s4 = sequence{i}; }\n");
    NO_ERRORS(&u);
    mdl_task *t = s->tasks.v[0];
    CU_ASSERT_EQUAL_FATAL(t->recvs.n, 3);
    CU_ASSERT_EQUAL_FATAL(t->sends.n, 5);
    CU_ASSERT_EQUAL(t->recvs.v[0]->is_async, 0);
    CU_ASSERT_EQUAL(t->recvs.v[1]->is_async, 1);
    CU_ASSERT_EQUAL(t->recvs.v[2]->is_async, 0);
    CU_ASSERT_EQUAL(t->sends.v[0]->is_async, 1);
    CU_ASSERT_EQUAL(t->sends.v[1]->is_async, 0);
    CU_ASSERT_EQUAL(t->sends.v[2]->is_async, 0);
    CU_ASSERT_EQUAL(t->sends.v[3]->is_async, 1);
    CU_ASSERT_EQUAL(t->sends.v[4]->is_async, 1);
    CU_ASSERT_STRING_EQUAL(t->sends.v[4]->name, "s4");
    mdl_unit_free(&u);
}

static void test_items(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u,
        "Task a sends { m = sequence{V, V[7], M[4..10][30..35],\n"
        "  U[INFi,SUPi][SUPj], U[INFi-1][INFj,SUPj], V[..], p[0..n-1], 1, N*2}; }\n");
    NO_ERRORS(&u);
    mdl_msg *m = s->tasks.v[0]->sends.v[0];
    CU_ASSERT_EQUAL_FATAL(m->items.n, 9);
    mdl_item **it = m->items.v;
    CU_ASSERT_EQUAL(m->content_loc.line, 1);
    CU_ASSERT_EQUAL(m->content_loc.col, 20);
    CU_ASSERT_EQUAL(m->content_loc.end_line, 2);
    CU_ASSERT_EQUAL(it[0]->kind, MDL_IT_REF);
    CU_ASSERT_STRING_EQUAL(it[0]->name, "V");
    CU_ASSERT_EQUAL(it[0]->idx.n, 0);
    CU_ASSERT_EQUAL_FATAL(it[1]->idx.n, 1);
    CU_ASSERT_EQUAL(it[1]->idx.v[0]->kind, MDL_IX_SINGLE);
    CU_ASSERT(is_int(it[1]->idx.v[0]->lo, 7));
    CU_ASSERT_PTR_NULL(it[1]->idx.v[0]->hi);
    CU_ASSERT_EQUAL(it[1]->loc.col, 32);
    CU_ASSERT_EQUAL(it[1]->loc.end_col, 35);
    CU_ASSERT_EQUAL_FATAL(it[2]->idx.n, 2);
    CU_ASSERT_EQUAL(it[2]->idx.v[0]->kind, MDL_IX_RANGE);
    CU_ASSERT(is_int(it[2]->idx.v[0]->lo, 4));
    CU_ASSERT(is_int(it[2]->idx.v[0]->hi, 10));
    CU_ASSERT(is_int(it[2]->idx.v[1]->hi, 35));
    CU_ASSERT_EQUAL(it[3]->idx.v[0]->kind, MDL_IX_RANGE);
    CU_ASSERT(is_name(it[3]->idx.v[0]->lo, "INFi"));
    CU_ASSERT(is_name(it[3]->idx.v[0]->hi, "SUPi"));
    CU_ASSERT_EQUAL(it[3]->idx.v[1]->kind, MDL_IX_SINGLE);
    CU_ASSERT_EQUAL(it[4]->idx.v[0]->lo->kind, MDL_E_SUB);
    CU_ASSERT_EQUAL(it[4]->idx.v[1]->kind, MDL_IX_RANGE);
    CU_ASSERT_EQUAL(it[5]->idx.v[0]->kind, MDL_IX_RUNTIME);
    CU_ASSERT_PTR_NULL(it[5]->idx.v[0]->lo);
    CU_ASSERT_EQUAL(it[6]->idx.v[0]->hi->kind, MDL_E_SUB);
    CU_ASSERT_EQUAL(it[7]->kind, MDL_IT_EXPR);
    CU_ASSERT(is_int(it[7]->expr, 1));
    CU_ASSERT_EQUAL(it[8]->kind, MDL_IT_EXPR);
    CU_ASSERT_EQUAL(it[8]->expr->kind, MDL_E_MUL);
    mdl_unit_free(&u);
}

static void test_collectives(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u,
        "Task a collectives {\n"
        "  Bcast(0) { m3 = sequence{a, b, n}; }\n"
        "  Gather { m1 = sequence{p, p, c}; m2 = sequence{q, q, 2}; }\n"
        "  Mcast(0, table) { m4 = sequence{v, v, 1}; }\n"
        "  reduce(N-1) { m5 = sequence{f, ft, 1, MDL_SUM}; }\n"
        "  ALLGATHERV { m6 = sequence{p, p, cs, ds}; }\n"
        "  Bcazt() { m7 = sequence{a, b, 1}; };\n"
        "}\n");
    NO_ERRORS(&u);
    mdl_task *t = s->tasks.v[0];
    CU_ASSERT_EQUAL_FATAL(t->colls.n, 6);
    mdl_coll **c = t->colls.v;
    CU_ASSERT_EQUAL(c[0]->kind, MDL_CO_BCAST);
    CU_ASSERT(is_int(c[0]->root, 0));
    CU_ASSERT_EQUAL(c[0]->loc.line, 2);
    CU_ASSERT_EQUAL(c[0]->loc.col, 3);
    CU_ASSERT_EQUAL_FATAL(c[0]->msgs.n, 1);
    mdl_msg *m = c[0]->msgs.v[0];
    CU_ASSERT_STRING_EQUAL(m->name, "m3");
    CU_ASSERT_EQUAL(m->is_send, 0);
    CU_ASSERT_EQUAL(m->peer_kind, MDL_P_NONE);
    CU_ASSERT_EQUAL(m->items.n, 3);
    CU_ASSERT_EQUAL(c[1]->kind, MDL_CO_GATHER);
    CU_ASSERT_PTR_NULL(c[1]->root);
    CU_ASSERT_EQUAL(c[1]->msgs.n, 2);
    CU_ASSERT_EQUAL(c[1]->msgs.v[1]->items.v[2]->kind, MDL_IT_EXPR);
    CU_ASSERT_EQUAL(c[2]->kind, MDL_CO_MCAST);
    CU_ASSERT_STRING_EQUAL(c[2]->table, "table");
    CU_ASSERT_EQUAL(c[2]->table_loc.col, 12);
    CU_ASSERT_EQUAL(c[3]->kind, MDL_CO_REDUCE);
    CU_ASSERT_STRING_EQUAL(c[3]->kind_name, "reduce");
    CU_ASSERT_EQUAL(c[3]->root->kind, MDL_E_SUB);
    CU_ASSERT_EQUAL(c[3]->msgs.v[0]->items.v[3]->kind, MDL_IT_REF);
    CU_ASSERT_STRING_EQUAL(c[3]->msgs.v[0]->items.v[3]->name, "MDL_SUM");
    CU_ASSERT_EQUAL(c[4]->kind, MDL_CO_ALLGATHERV);
    /* an unknown operation is not a syntax error */
    CU_ASSERT_EQUAL(c[5]->kind, MDL_CO_UNKNOWN);
    CU_ASSERT_STRING_EQUAL(c[5]->kind_name, "Bcazt");
    CU_ASSERT_PTR_NULL(c[5]->root);
    mdl_unit_free(&u);
}

static void test_sections_any_order(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u,
        "Task a collectives { Bcast { m = sequence{x, x, 1}; } }\n"
        "  receives { r = sequence{x}; } uses { int x; } sends { s = sequence{x}; }\n"
        "Task b { uses { int y; } };\n"
        "Task c uses { int z; };\n"
        "Task d(i); uses { int w; }; sends { s = sequence{w}; };\n"
        "  receives { r = sequence{w}; };\n");
    NO_ERRORS(&u);
    CU_ASSERT_EQUAL_FATAL(s->tasks.n, 4);
    CU_ASSERT_EQUAL(s->tasks.v[3]->recvs.n, 1);
    CU_ASSERT_EQUAL(s->tasks.v[3]->multi, 1);
    mdl_task *t = s->tasks.v[0];
    CU_ASSERT_EQUAL(t->colls.n, 1);
    CU_ASSERT_EQUAL(t->recvs.n, 1);
    CU_ASSERT_EQUAL(t->vars.n, 1);
    CU_ASSERT_EQUAL(t->sends.n, 1);
    CU_ASSERT_EQUAL(s->tasks.v[1]->vars.n, 1);
    CU_ASSERT_EQUAL(s->tasks.v[2]->vars.n, 1);
    mdl_unit_free(&u);
}

static void test_missing_semicolons(void)
{
    mdl_unit_front u;
    mdl_unit_parse(&u,
        "const N = 10\n"
        "Task a uses { int i\n"
        "  double f; }\n"
        "sends { m1 = sequence{i}\n"
        "  m2 = sequence{i}; }\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 3);
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u),
        "t.mdl:1:13: error: expected ';' after constant definition\n"
        "    1 | const N = 10\n"
        "      |             ^\n"
        "t.mdl:2:20: error: expected ';' after declaration\n"
        "    2 | Task a uses { int i\n"
        "      |                    ^\n"
        "t.mdl:4:25: error: expected ';' after message definition\n"
        "    4 | sends { m1 = sequence{i}\n"
        "      |                         ^\n");
    mdl_unit_free(&u);
}

static void test_error_recovery(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u,
        "Task a uses { int i; }\n"
        "sends { m1 to = sequence{i};\n"
        "  m2 = sequense{i};\n"
        "  m3 = sequence{i}; }\n"
        "Task b uses { int j; }\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 2);
    const char *d = mdl_unit_diags(&u);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:2:15: error: unexpected '=', expected identifier, '{' or '['\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:3:8: error: unexpected identifier 'sequense', expected 'sequence'\n"));
    /* parsing went on after both errors */
    CU_ASSERT_EQUAL_FATAL(s->tasks.n, 2);
    CU_ASSERT_EQUAL(s->tasks.v[0]->sends.n, 1);
    CU_ASSERT_STRING_EQUAL(s->tasks.v[1]->name, "b");
    mdl_unit_free(&u);
}

static void test_peer_keywords(void)
{
    mdl_unit_front u;
    mdl_unit_parse(&u, "Task a sends { m from b = sequence{i}; }\n"
                       "receives { r to b = sequence{i}; }\n"
                       "sends { s = sequence{i} matches r; }\n"
                       "sends { n to Nieghbor[1][0] = sequence{i}; }\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 4);
    const char *d = mdl_unit_diags(&u);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:1:18: error: a send names its peer with 'to', not 'from'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:2:14: error: a receive names its peer with 'from', not 'to'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:3:33: error: 'matches' belongs to a receive"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:4:14: error: only 'Neighbor' takes offsets"));
    mdl_unit_free(&u);
}

static void test_deep_nesting(void)
{
    int depth = 50000;
    size_t n = 2 * (size_t)depth + 32;
    char *src = malloc(n);
    char *p = src + sprintf(src, "const N = ");
    memset(p, '(', (size_t)depth);
    p += depth;
    *p++ = '1';
    memset(p, ')', (size_t)depth);
    p += depth;
    strcpy(p, ";");
    mdl_unit_front u;
    mdl_unit_parse(&u, src);
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&u), "error: expression too deeply nested"));
    mdl_unit_free(&u);

    /* a long left-leaning chain is refused too: later stages recurse */
    p = src + sprintf(src, "const N = ");
    for (int i = 0; i < depth / 2 - 8; i++)
        p += sprintf(p, "1+");
    strcpy(p, "1;");
    mdl_unit_parse(&u, src);
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&u), "t.mdl:1:11: error: expression too deeply nested"));
    mdl_unit_free(&u);
    free(src);
}

static void test_empty_spec(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_parse(&u, "// nothing\n/* at all */\n");
    NO_ERRORS(&u);
    CU_ASSERT_EQUAL(s->tasks.n, 0);
    CU_ASSERT_STRING_EQUAL(s->path, "t.mdl");
    mdl_unit_free(&u);
}

static void test_unexpected_eof(void)
{
    mdl_unit_front u;
    mdl_unit_parse(&u, "Task a uses { int i;\n\n");
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u),
        "t.mdl:1:21: error: unexpected end of file, expected identifier, "
        "type name, 'struct', 'vector', 'matrix' or '}'\n"
        "    1 | Task a uses { int i;\n"
        "      |                     ^\n");
    mdl_unit_free(&u);
}

static const mdl_unit_test tests[] = {
    { "consts", test_consts },
    { "structs", test_structs },
    { "task_preambles", test_task_preambles },
    { "uses", test_uses },
    { "bad_type_words", test_bad_type_words },
    { "peers", test_peers },
    { "sync_async", test_sync_async },
    { "items", test_items },
    { "collectives", test_collectives },
    { "sections_any_order", test_sections_any_order },
    { "missing_semicolons", test_missing_semicolons },
    { "error_recovery", test_error_recovery },
    { "peer_keywords", test_peer_keywords },
    { "deep_nesting", test_deep_nesting },
    { "empty_spec", test_empty_spec },
    { "unexpected_eof", test_unexpected_eof },
    { NULL, NULL },
};
MDL_UNIT_SUITE("parser", tests)
