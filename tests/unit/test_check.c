/* test_check.c — what the semantic checks fill in for the emitters:
 * constant values, sizes, the connection relation and single tasks,
 * neighbour offsets, section counts and run-time slots, pairs and
 * channels, collective arguments, function names.  Specs are parsed from
 * text (tests/unit/main.c helpers). */
#include <CUnit/CUnit.h>
#include <string.h>

#include "check.h"
#include "frontend.h"
#include "unit.h"

static mdl_task *task(mdl_spec *s, const char *name)
{
    for (int i = 0; s && i < s->tasks.n; i++)
        if (strcmp(s->tasks.v[i]->name, name) == 0)
            return s->tasks.v[i];
    return NULL;
}

static mdl_msg *msg(mdl_task *t, int send, const char *name)
{
    int n = send ? t->sends.n : t->recvs.n;
    for (int i = 0; i < n; i++) {
        mdl_msg *m = send ? t->sends.v[i] : t->recvs.v[i];
        if (strcmp(m->name, name) == 0)
            return m;
    }
    return NULL;
}

static mdl_msg *coll_msg(mdl_task *t, const char *name)
{
    for (int k = 0; k < t->colls.n; k++)
        for (int j = 0; j < t->colls.v[k]->msgs.n; j++)
            if (strcmp(t->colls.v[k]->msgs.v[j]->name, name) == 0)
                return t->colls.v[k]->msgs.v[j];
    return NULL;
}

static void test_consts(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "const B = A * (3 - 1) / -2;\n"     /* used before it is declared */
        "const A = 7;\n"
        "const BIG = 9223372036854775807;\n"
        "Task t(i) uses { int x; }\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 0);
    CU_ASSERT_TRUE(s->consts.v[0]->evaluated);
    CU_ASSERT_EQUAL(s->consts.v[0]->val, -7);
    CU_ASSERT_EQUAL(s->consts.v[1]->val, 7);
    CU_ASSERT_EQUAL(s->consts.v[2]->val, 9223372036854775807LL);
    mdl_unit_free(&u);
}

static void test_const_errors_all_reported(void)
{
    mdl_unit_front u;
    mdl_unit_check(&u,
        "const A = B;\nconst B = A;\n"
        "const Z = 1 / (2 - 2);\n"
        "const O = 9223372036854775807 + 1;\n"
        "const U = NOPE;\n"
        "Task t(i) uses { int x; }\n");
    const char *d = mdl_unit_diags(&u);
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 4);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:1:7: error: constant 'A' is defined in terms of itself"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:3:11: error: division by zero"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "error: integer overflow in constant expression"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:5:11: error: unknown constant 'NOPE'"));
    mdl_unit_free(&u);
}

static void test_var_sizes(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "const N = 4;\n"
        "Task t(i) uses { int a; vector<float>[N*25] v; matrix<int>[N+2, 3] m;"
        " double arr[2][3][4]; int *p; }\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 0);
    mdl_task *t = task(s, "t");
    CU_ASSERT_EQUAL(t->vars.v[0]->nelems, 1);
    CU_ASSERT_EQUAL(t->vars.v[1]->nelems, 100);
    CU_ASSERT_EQUAL(t->vars.v[1]->dimval[0], 100);
    CU_ASSERT_EQUAL(t->vars.v[2]->dimval[0], 6);
    CU_ASSERT_EQUAL(t->vars.v[2]->dimval[1], 3);
    CU_ASSERT_EQUAL(t->vars.v[2]->nelems, 18);
    CU_ASSERT_EQUAL(t->vars.v[3]->nelems, 24);
    CU_ASSERT_EQUAL(t->vars.v[4]->nelems, -1);
    mdl_unit_free(&u);
}

static void test_connections(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "Task father connected with setof(son)\nuses { int n; }\n"
        "Task son(i) connected with father\nuses { int n; }\n"
        "Task lone\nuses { int n; }\n"
        "Task g(i) connected with grid(3)\nuses { int n; }\n"
        "Task ag(i) connected with setof(ag, lone)\nuses { int n; }\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 0);
    mdl_task *f = task(s, "father"), *so = task(s, "son"), *l = task(s, "lone"),
             *g = task(s, "g"), *ag = task(s, "ag");
    CU_ASSERT_EQUAL(f->connected.n, 1);
    CU_ASSERT_PTR_EQUAL(f->connected.v[0], so);
    CU_ASSERT_EQUAL(so->connected.n, 2);            /* son and father */
    CU_ASSERT_EQUAL(l->connected.n, 1);             /* ag, by symmetry */
    CU_ASSERT_PTR_EQUAL(l->connected.v[0], ag);
    CU_ASSERT_EQUAL(g->connected.n, 1);
    CU_ASSERT_EQUAL(g->grid_ndims, 3);
    CU_ASSERT_EQUAL(ag->connected.n, 2);
    CU_ASSERT_EQUAL(ag->index, 4);
    CU_ASSERT_TRUE(mdl_task_connected(so, f));
    CU_ASSERT_FALSE(mdl_task_connected(f, f));
    CU_ASSERT_TRUE(mdl_task_connected(so, so));
    /* one instance: no `(i)`, no grid, not connected with itself */
    CU_ASSERT_TRUE(f->single);
    CU_ASSERT_TRUE(l->single);
    CU_ASSERT_FALSE(so->single);
    CU_ASSERT_FALSE(g->single);
    CU_ASSERT_FALSE(ag->single);
    mdl_unit_free(&u);
}

static void test_neighbors_and_pairs(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "Task n(i) connected with grid(2, periodic(1, 0))\n"
        "uses { vector<double>[4] a, b, c, d; }\n"
        "sends { s1 to North_West_Neighbor = sequence{a};\n"
        "        s2 to Neighbor[2][-1] = sequence{b}; }\n"
        "receives { r2 from Neighbor[-2][1] = sequence{c};\n"
        "           r1 from East_South_Neighbor = sequence{d}; }\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 0);
    mdl_task *t = task(s, "n");
    CU_ASSERT_EQUAL(t->periodic[0], 1);
    CU_ASSERT_EQUAL(t->periodic[1], 0);
    mdl_msg *s1 = msg(t, 1, "s1"), *s2 = msg(t, 1, "s2");
    mdl_msg *r1 = msg(t, 0, "r1"), *r2 = msg(t, 0, "r2");
    CU_ASSERT_EQUAL(s1->peer_kind, MDL_P_NEIGHBOR);
    CU_ASSERT_EQUAL(s1->offset[0], -1);
    CU_ASSERT_EQUAL(s1->offset[1], 1);
    CU_ASSERT_STRING_EQUAL(s1->neighbor_name, "North_West_Neighbor");
    CU_ASSERT_PTR_NULL(s2->neighbor_name);
    CU_ASSERT_EQUAL(s2->offset[0], 2);
    CU_ASSERT_EQUAL(s2->offset[1], -1);
    CU_ASSERT_PTR_EQUAL(s1->pair, r1);
    CU_ASSERT_PTR_EQUAL(r1->pair, s1);
    CU_ASSERT_PTR_EQUAL(s2->pair, r2);
    CU_ASSERT_EQUAL(s1->channel, 0);
    CU_ASSERT_EQUAL(r1->channel, 0);
    CU_ASSERT_EQUAL(s2->channel, 1);
    CU_ASSERT_EQUAL(r2->channel, 1);
    CU_ASSERT_PTR_EQUAL(s1->peer_task, t);
    mdl_unit_free(&u);
}

static void test_pairing_rules(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "Task father connected with setof(son)\n"
        "uses { int n; long in; int who; double box, coef; }\n"
        "sends { go to {son} = sequence{n}; }\n"
        "receives { start from son = sequence{box, coef};\n"
        "           inMessage from son = sequence{in, who}; }\n"
        "Task son(i) connected with father\n"
        "uses { int n; long hits; int me; double b[2]; }\n"
        "sends { oneShoot to father = sequence{hits, me};\n"
        "        start to father = sequence{b}; }\n"
        "receives { shots from father = sequence{n};\n"
        "           mine = sequence{n} matches peer; }\n"
        "sends { peer = sequence{n}; }\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 0);
    mdl_task *f = task(s, "father"), *so = task(s, "son");
    CU_ASSERT_PTR_EQUAL(msg(f, 1, "go")->pair, msg(so, 0, "shots"));        /* rule 3 */
    CU_ASSERT_PTR_EQUAL(msg(so, 1, "start")->pair, msg(f, 0, "start"));     /* rule 2 */
    CU_ASSERT_PTR_EQUAL(msg(so, 1, "oneShoot")->pair, msg(f, 0, "inMessage"));
    CU_ASSERT_PTR_EQUAL(msg(so, 0, "mine")->pair, msg(so, 1, "peer"));      /* rule 1 */
    /* channels in spec order of the sends: go, oneShoot, start, peer */
    CU_ASSERT_EQUAL(msg(f, 1, "go")->channel, 0);
    CU_ASSERT_EQUAL(msg(so, 1, "oneShoot")->channel, 1);
    CU_ASSERT_EQUAL(msg(so, 1, "start")->channel, 2);
    CU_ASSERT_EQUAL(msg(so, 1, "peer")->channel, 3);
    CU_ASSERT_EQUAL(msg(so, 0, "mine")->channel, 3);
    CU_ASSERT_EQUAL(s->nchannels, 4);
    CU_ASSERT_STRING_EQUAL(msg(f, 1, "go")->fn_name, "MDL_SendTo_son_go");
    CU_ASSERT_STRING_EQUAL(msg(f, 0, "inMessage")->fn_name, "MDL_RecvFrom_son_inMessage");
    CU_ASSERT_STRING_EQUAL(msg(so, 1, "peer")->fn_name, "MDL_SendTo_son_peer");
    CU_ASSERT_STRING_EQUAL(msg(so, 0, "mine")->fn_name, "MDL_RecvFrom_son_mine");
    CU_ASSERT_EQUAL(msg(f, 1, "go")->peer_kind, MDL_P_ALL);
    CU_ASSERT_EQUAL(msg(so, 1, "peer")->peer_kind, MDL_P_NONE);
    CU_ASSERT_PTR_EQUAL(msg(so, 1, "peer")->peer_task, so);
    mdl_unit_free(&u);
}

static void test_sections(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "const N = 10;\n"
        "Task t(i)\n"
        "uses { vector<double>[N] V; matrix<int>[N, 20] M; int *p; int lo, hi; }\n"
        "sends { m = sequence{V[3], M[2..4][5,9], V[..], M[lo,hi][..], p[0..N-1], V}; }\n"
        "receives { m = sequence{V[1], M[0..2][0..4], V[..], M[..][0], p[0..9], V}; }\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 0);
    mdl_msg *m = msg(task(s, "t"), 1, "m");
    CU_ASSERT_EQUAL(m->items.v[0]->count, 1);
    CU_ASSERT_EQUAL(m->items.v[1]->count, 15);
    CU_ASSERT_TRUE(m->items.v[1]->idx.v[0]->is_const);
    CU_ASSERT_EQUAL(m->items.v[1]->idx.v[1]->lo_val, 5);
    CU_ASSERT_EQUAL(m->items.v[1]->idx.v[1]->hi_val, 9);
    CU_ASSERT_EQUAL(m->items.v[2]->count, -1);
    CU_ASSERT_EQUAL(m->items.v[2]->idx.v[0]->runtime_slot, 0);
    CU_ASSERT_FALSE(m->items.v[3]->idx.v[0]->is_const);
    CU_ASSERT_PTR_NOT_NULL(m->items.v[3]->idx.v[0]->lo->vref);
    CU_ASSERT_EQUAL(m->items.v[3]->idx.v[1]->runtime_slot, 1);
    CU_ASSERT_EQUAL(m->items.v[4]->count, 10);
    CU_ASSERT_EQUAL(m->items.v[5]->count, 10);
    CU_ASSERT_EQUAL(m->nruntime, 2);
    CU_ASSERT_EQUAL(msg(task(s, "t"), 0, "m")->nruntime, 2);
    CU_ASSERT_PTR_EQUAL(m->pair, msg(task(s, "t"), 0, "m"));
    mdl_unit_free(&u);
}

static void test_collective_args(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "const NMAX = 8;\n"
        "Task t(i)\n"
        "uses { vector<double>[NMAX] a, b; int n; int counts[4], displs[4]; int tbl[4]; }\n"
        "collectives {\n"
        "  reduce(2) { r = sequence{a, b, NMAX / 2, MDL_MAX}; }\n"
        "  GatherV   { g = sequence{a, b, counts, displs}; }\n"
        "  bcast     { c = sequence{a[3], a[3], n}; }\n"
        "  Mcast(1, tbl) { mc = sequence{a, b, 1}; }\n"
        "}\n");
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 0);
    mdl_task *t = task(s, "t");
    mdl_msg *r = coll_msg(t, "r"), *g = coll_msg(t, "g"), *c = coll_msg(t, "c");
    CU_ASSERT_EQUAL(r->coll->kind, MDL_CO_REDUCE);
    CU_ASSERT_EQUAL(r->coll->root_val, 2);
    CU_ASSERT_EQUAL(r->cargs.op, MDL_OP_MAX);
    CU_ASSERT_EQUAL(r->cargs.count->count, 4);
    CU_ASSERT_EQUAL(r->cargs.send->count, 8);
    CU_ASSERT_FALSE(r->cargs.in_place);
    CU_ASSERT_PTR_EQUAL(g->cargs.counts->var, t->vars.v[3]);
    CU_ASSERT_PTR_EQUAL(g->cargs.displs->var, t->vars.v[4]);
    CU_ASSERT_PTR_NULL(g->cargs.count);
    CU_ASSERT_TRUE(c->cargs.in_place);
    CU_ASSERT_EQUAL(c->cargs.send->count, 5);       /* capacity from a[3] */
    CU_ASSERT_EQUAL(c->cargs.count->count, -1);
    CU_ASSERT_PTR_EQUAL(c->cargs.count->var, t->vars.v[2]);
    CU_ASSERT_PTR_EQUAL(coll_msg(t, "mc")->coll->table_var, t->vars.v[5]);
    CU_ASSERT_EQUAL(coll_msg(t, "mc")->coll->root_val, 1);
    mdl_unit_free(&u);
}

/* The reference's example sizes: a signature mismatch is reported with
 * both sides' signatures. */
static void test_signature_text(void)
{
    mdl_unit_front u;
    mdl_unit_check(&u,
        "typedef struct { double x, y; } P;\n"
        "Task t(i)\n"
        "uses { int n; vector<double>[10] V; P ps[5]; double w[9]; }\n"
        "sends { m = sequence{n, V}; q = sequence{ps}; }\n"
        "receives { m = sequence{n, w}; q = sequence{V}; }\n");
    const char *d = mdl_unit_diags(&u);
    CU_ASSERT_EQUAL(mdl_error_count(u.diag), 1);    /* q: ten doubles both sides */
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "{int, double[9]} does not match send 'm' of task 't' {int, double[10]}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "note: send 'm' is here"));
    mdl_unit_free(&u);
}

/* Types may come in any order: struct_order puts every struct after the
 * ones it contains; sizes follow the C layout (LP64). */
static void test_struct_order_and_sizes(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "struct Job { int id; struct Cell c; Pair p[2]; };\n"
        "struct Cell { struct Point p; char tag; };\n"
        "typedef struct { short lo; long hi; } Pair;\n"
        "struct Point { double x, y; };\n"
        "struct Lone { char a, b, c; };\n"
        "Task t(i) uses { struct Job j[3]; }\n");
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u), "");
    CU_ASSERT_EQUAL(s->struct_order.n, 5);
    const char *order[5];
    for (int i = 0; i < s->struct_order.n && i < 5; i++)
        order[i] = s->struct_order.v[i]->tag ? s->struct_order.v[i]->tag
                                             : s->struct_order.v[i]->typedef_name;
    CU_ASSERT_STRING_EQUAL(order[0], "Point");
    CU_ASSERT_STRING_EQUAL(order[1], "Cell");
    CU_ASSERT_STRING_EQUAL(order[2], "Pair");
    CU_ASSERT_STRING_EQUAL(order[3], "Job");
    CU_ASSERT_STRING_EQUAL(order[4], "Lone");
    /* Point 16; Cell 16 + 1 -> 24 (align 8); Pair 2 + 6 + 8 = 16;
       Job 4 + 4 + 24 + 32 = 64; Lone 3 (align 1) */
    CU_ASSERT_EQUAL(s->struct_order.v[0]->size, 16);
    CU_ASSERT_EQUAL(s->struct_order.v[1]->size, 24);
    CU_ASSERT_EQUAL(s->struct_order.v[2]->size, 16);
    CU_ASSERT_EQUAL(s->struct_order.v[3]->size, 64);
    CU_ASSERT_EQUAL(s->struct_order.v[3]->align, 8);
    CU_ASSERT_EQUAL(s->struct_order.v[4]->size, 3);
    CU_ASSERT_EQUAL(s->struct_order.v[4]->align, 1);
    /* what tools read: the element size of a variable's type */
    const mdl_var *j = task(s, "t")->vars.v[0];
    CU_ASSERT_EQUAL(mdl_type_size(&j->type), 64);
    CU_ASSERT_EQUAL(mdl_type_size(&s->struct_order.v[1]->fields.v[1]->type), 1);
    mdl_unit_free(&u);
}

/* A single index is one element, whether its value is known or read at
 * the call; a run-time range is not known. */
static void test_single_index_count(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "Task t(i)\n"
        "uses { matrix<int>[4, 6] M; int k, n; double *p; }\n"
        "sends { m = sequence{M[k][2], M[k][0..2], M[1][k..n], p[k]}; }\n"
        "receives { m = sequence{M[k][2], M[k][0..2], M[1][k..n], p[k]}; }\n");
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u), "");
    mdl_msg *m = msg(task(s, "t"), 1, "m");
    CU_ASSERT_EQUAL(m->items.v[0]->count, 1);
    CU_ASSERT_EQUAL(m->items.v[1]->count, 3);
    CU_ASSERT_EQUAL(m->items.v[2]->count, -1);
    CU_ASSERT_EQUAL(m->items.v[3]->count, 1);
    CU_ASSERT_FALSE(m->items.v[0]->idx.v[0]->is_const);
    mdl_unit_free(&u);
}

/* Collective buffers: leading indices only (`M[1]` is M[1][0]); the
 * capacity counts from there.  Reductions without a count have count 1. */
static void test_buffer_starts_and_reductions(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u,
        "Task t(i)\n"
        "uses { matrix<int>[4, 3] M; int r[3]; double D[2][3][2]; double x, y; int k; }\n"
        "collectives {\n"
        "  Gather { g = sequence{r, M[1], 3}; }\n"
        "  Bcast  { b = sequence{D[1], D[1], 6}; c = sequence{D[1][2], D[1][2], 2};\n"
        "           v = sequence{M[k], M[k], 3}; }\n"
        "  Allreduce { s = sequence{x, y, MDL_MIN}; }\n"
        "}\n");
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u), "");
    mdl_task *t = task(s, "t");
    CU_ASSERT_EQUAL(coll_msg(t, "g")->cargs.recv->count, 9);
    CU_ASSERT_EQUAL(coll_msg(t, "b")->cargs.send->count, 6);
    CU_ASSERT_EQUAL(coll_msg(t, "c")->cargs.send->count, 2);
    CU_ASSERT_EQUAL(coll_msg(t, "v")->cargs.send->count, -1);   /* run-time start */
    mdl_msg *r = coll_msg(t, "s");
    CU_ASSERT_EQUAL(r->cargs.op, MDL_OP_MIN);
    CU_ASSERT_PTR_NOT_NULL(r->cargs.count);
    CU_ASSERT_EQUAL(r->cargs.count->count, 1);
    CU_ASSERT_STRING_EQUAL(r->fn_name, "MDL_Allreduce_s");
    CU_ASSERT_STRING_EQUAL(coll_msg(t, "g")->fn_name, "MDL_Gather_g");
    mdl_unit_free(&u);
}

static const mdl_unit_test tests[] = {
    { "struct_order_and_sizes", test_struct_order_and_sizes },
    { "single_index_count", test_single_index_count },
    { "buffer_starts_and_reductions", test_buffer_starts_and_reductions },
    { "consts", test_consts },
    { "const_errors_all_reported", test_const_errors_all_reported },
    { "var_sizes", test_var_sizes },
    { "connections", test_connections },
    { "neighbors_and_pairs", test_neighbors_and_pairs },
    { "pairing_rules", test_pairing_rules },
    { "sections", test_sections },
    { "collective_args", test_collective_args },
    { "signature_text", test_signature_text },
    { NULL, NULL },
};
MDL_UNIT_SUITE("check", tests)
