/* emit_source.c — TMDL.c: the descriptor tables (emit_desc.c) and the
 * task-prefixed functions, each a thin call into the runtime
 * (include/mdl_rt.h).  Everything that depends on the values of the task's
 * variables (section bounds, counts, buffer addresses) is evaluated here,
 * at the call, from t->…; everything else is in the tables. */
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"

/* Extent d of a variable: its value, or (run-time sized) its expression
 * over the task's variables as they are now. */
static void extent_expr(mdl_buf *b, const mdl_var *v, int d)
{
    if (v->dimval[d] >= 0) {
        cg_buf_printf(b, "%lldL", v->dimval[d]);
        return;
    }
    /* operators print their own parentheses */
    const mdl_expr *e = v->dims.v[d];
    int bare = e->kind == MDL_E_INT || e->kind == MDL_E_NAME;
    cg_buf_puts(b, bare ? "(long)(" : "(long)");
    cg_expr_c(b, e, "t->");
    cg_buf_puts(b, bare ? ")" : "");
}

/* A run-time-sized variable's element: the pointer plus the row-major
 * offset of the indices given (the leading ones; the others 0).  Extents
 * changed since MDL_Allocate are refused by the runtime before the
 * address is used. */
static void rtsized_addr(mdl_buf *b, const mdl_item *it)
{
    const mdl_var *v = it->var;
    cg_buf_puts(b, "t->");
    cg_id(b, v->name);
    if (it->idx.n == 0)
        return;
    cg_buf_puts(b, " + ");
    for (int d = 1; d < v->dims.n; d++)
        cg_buf_puts(b, "(");
    for (int d = 0; d < v->dims.n; d++) {
        if (d > 0) {
            cg_buf_puts(b, " * ");
            extent_expr(b, v, d);
            cg_buf_puts(b, " + ");
        }
        if (d < it->idx.n && it->idx.v[d]->is_const)
            cg_buf_printf(b, "%lldL", it->idx.v[d]->lo_val);
        else if (d < it->idx.n) {
            cg_buf_puts(b, "(long)(");
            cg_expr_c(b, it->idx.v[d]->lo, "t->");
            cg_buf_puts(b, ")");
        } else
            cg_buf_puts(b, "0L");
        if (d > 0)
            cg_buf_puts(b, ")");
    }
}

/* The address of a collective buffer: the start of the variable or of
 * its section; a pointer member's value. */
static void buffer_addr(mdl_buf *b, const mdl_item *it)
{
    if (!it || !it->var) {
        cg_buf_puts(b, "NULL");
        return;
    }
    const mdl_var *v = it->var;
    if (v->form == MDL_V_POINTER) {
        cg_buf_puts(b, "t->");
        cg_id(b, v->name);
        if (it->idx.n && it->idx.v[0]->kind != MDL_IX_RUNTIME) {
            cg_buf_puts(b, " + (");
            cg_expr_c(b, it->idx.v[0]->lo, "t->");
            cg_buf_puts(b, ")");
        }
        return;
    }
    if (v->rtsized) {
        rtsized_addr(b, it);
        return;
    }
    cg_buf_puts(b, v->dims.n == 0 || it->idx.n ? "&t->" : "t->");
    cg_id(b, v->name);
    if (v->dims.n == 0 || it->idx.n == 0)
        return;
    for (int d = 0; d < v->dims.n; d++) {
        cg_buf_puts(b, "[");
        if (d < it->idx.n && it->idx.v[d]->is_const)
            cg_buf_printf(b, "%lld", it->idx.v[d]->lo_val);
        else if (d < it->idx.n)
            cg_expr_c(b, it->idx.v[d]->lo, "t->");
        else
            cg_buf_puts(b, "0");    /* `U[i]` starts at U[i][0] */
        cg_buf_puts(b, "]");
    }
}

/* The count of a collective: the value the checks computed when it is
 * constant (a reduction written without one has 1), else read at the call. */
static void count_expr(mdl_buf *b, const mdl_item *it)
{
    if (!it) {
        cg_buf_puts(b, "-1");
    } else if (it->count >= 0) {
        cg_buf_printf(b, "%lldL", it->count);
    } else if (it->var) {
        cg_buf_puts(b, "(long)t->");
        cg_id(b, it->var->name);
    } else {
        /* operators print their own parentheses */
        int bare = it->expr->kind == MDL_E_INT || it->expr->kind == MDL_E_NAME;
        cg_buf_puts(b, bare ? "(long)(" : "(long)");
        cg_expr_c(b, it->expr, "t->");
        cg_buf_puts(b, bare ? ")" : "");
    }
}

static void array_arg(mdl_buf *b, const mdl_item *it)
{
    if (it && it->var) {
        cg_buf_puts(b, "t->");
        cg_id(b, it->var->name);
    } else
        cg_buf_puts(b, "NULL");
}

/* A send to or a receive from one instance with one pair of bounds or
 * none read at the call: the function's own note (mdl_site: one runtime
 * per process), whose plan, when the call is the one planned
 * (MDL_SITE_PLANNED), is called at once; else mdl_send_site or
 * mdl_recv_site, the bounds by value (no array: a tail call). */
static int emit_site(mdl_buf *b, const mdl_task *t, const mdl_msg *m, int fixed)
{
    int one = m->is_send ? m->peer_kind == MDL_P_ONE || m->peer_kind == MDL_P_NONE
                         : m->peer_kind != MDL_P_NEIGHBOR;
    if (!one || (!fixed && cg_msg_npairs(m) != 1))
        return 0;
    int k = cg_task_msg_index(t, m);
    mdl_buf bounds = { 0 };
    if (fixed)
        cg_buf_puts(&bounds, "0, 0");
    else
        cg_msg_bounds(&bounds, m);
    const char *bs = bounds.s;
    cg_buf_printf(b, "    static mdl_site mdlg_site_%d = MDL_SITE_INIT(&mdlg_msg_%d);\n", k, k);
    cg_buf_printf(b, "    if (MDL_SITE_PLANNED(&mdlg_site_%d, t, inst, %s))\n", k, bs);
    cg_buf_printf(b, "        return mdlg_site_%d.plan_call(&mdlg_site_%d, inst);\n", k, k);
    cg_buf_printf(b, "    return %s(t->mdl_rt_, &mdlg_site_%d, t, inst, %s);\n",
                  m->is_send ? "mdl_send_site" : "mdl_recv_site", k, bs);
    cg_buf_free(&bounds);
    return 1;
}

static void emit_p2p(mdl_buf *b, const mdl_task *t, const api_fn *f)
{
    const mdl_msg *m = f->msg;
    int k = cg_task_msg_index(t, m);
    int fixed = cg_msg_bounds_fixed(m);
    if (emit_site(b, t, m, fixed))
        return;
    if (!fixed) {
        cg_buf_puts(b, "    const long b[] = { ");
        cg_msg_bounds(b, m);
        cg_buf_puts(b, " };\n");
    }
    const char *bounds = fixed ? "NULL" : "b";
    int has_inst = cg_msg_takes_inst(m);
    if (f->kind == API_SEND)
        cg_buf_printf(b, "    return mdl_send(t->mdl_rt_, &mdlg_msg_%d, t, %s, %s, %s, %s);\n", k,
                   has_inst ? "inst" : "0",
                   m->peer_kind == MDL_P_SUBSET ? "insts" : "NULL",
                   m->peer_kind == MDL_P_SUBSET ? "n" : "0", bounds);
    else if (m->peer_kind == MDL_P_NEIGHBOR)
        /* The sender of a neighbour receive is known (the neighbour member),
         * and a receive from MDL_PROC_NULL is a no-op that succeeds: the
         * function answers like every other one, MDL_SUCCESS or an error. */
        cg_buf_printf(b, "    int rc = mdl_recv(t->mdl_rt_, &mdlg_msg_%d, t, 0, %s);\n"
                         "    return rc < 0 && rc != MDL_PROC_NULL ? rc : MDL_SUCCESS;\n",
                      k, bounds);
    else
        cg_buf_printf(b, "    return mdl_recv(t->mdl_rt_, &mdlg_msg_%d, t, %s, %s);\n", k,
                   has_inst ? "inst" : "0", bounds);
}

static void emit_completion(mdl_buf *b, const mdl_task *t, const api_fn *f)
{
    const char *fn = f->kind == API_TEST ? "mdl_test" : "mdl_wait";
    int k = cg_task_msg_index(t, f->msg);
    if (!f->msg2) {
        cg_buf_printf(b, "    return %s(t->mdl_rt_, &mdlg_msg_%d);\n", fn, k);
        return;
    }
    /* one name covers the async send and the async receive: one call of
     * the runtime, so that a trace shows one event */
    cg_buf_printf(b, "    return %s2(t->mdl_rt_, &mdlg_msg_%d, &mdlg_msg_%d);\n", fn, k,
                  cg_task_msg_index(t, f->msg2));
}

static void emit_coll_call(mdl_buf *b, const mdl_task *t, const api_fn *f)
{
    const mdl_msg *m = f->msg;
    const mdl_coll *c = m->coll;
    const mdl_coll_operands *a = &m->cargs;
    const mdl_var *table = c->kind == MDL_CO_MCAST ? c->table_var : NULL;
    if (table) {
        /* The members are the table's entries up to the first negative one
         * (a pointer table must have one), so a table can be declared for
         * the largest job and filled for a smaller one. */
        cg_buf_puts(b, "    int n = 0;\n    while (");
        if (table->form != MDL_V_POINTER)
            cg_buf_printf(b, "n < %lld && ", table->nelems);
        cg_buf_puts(b, "t->");
        cg_id(b, table->name);
        cg_buf_puts(b, "[n] >= 0)\n        n++;\n");
    }
    cg_buf_printf(b, "    return mdl_collective(t->mdl_rt_, &mdlg_coll_%d, ", cg_task_coll_index(t, m));
    buffer_addr(b, a->send);
    cg_buf_puts(b, ", ");
    buffer_addr(b, a->recv);
    cg_buf_puts(b, ",\n                          ");
    count_expr(b, a->count);
    cg_buf_puts(b, ", ");
    array_arg(b, a->counts);
    cg_buf_puts(b, ", ");
    array_arg(b, a->displs);
    cg_buf_puts(b, ", ");
    if (table) {
        cg_buf_puts(b, "t->");
        cg_id(b, table->name);
        cg_buf_puts(b, ", n");
    }
    else if (c->kind == MDL_CO_MCAST)
        cg_buf_puts(b, "insts, n");
    else
        cg_buf_puts(b, "NULL, 0");
    cg_buf_puts(b, ");\n");
}

/* The extents set at run time of every run-time-sized variable, in the
 * order of the descriptors, computed here: the runtime evaluates no
 * expression. */
static void emit_allocate(mdl_buf *b, const mdl_task *t)
{
    cg_buf_puts(b, "    const long e[] = {");
    int first = 1;
    for (int i = 0; i < t->vars.n; i++)
        for (int d = 0; t->vars.v[i]->rtsized && d < t->vars.v[i]->dims.n; d++)
            if (t->vars.v[i]->dimval[d] < 0) {
                cg_buf_puts(b, first ? " " : ", ");
                first = 0;
                extent_expr(b, t->vars.v[i], d);
            }
    cg_buf_puts(b, " };\n    return mdl_allocate(t->mdl_rt_, t, e);\n");
}

static void emit_grid_create(mdl_buf *b, const mdl_task *t, int screate)
{
    cg_buf_printf(b, "    int rc = mdl_grid_create(t->mdl_rt_, dims, %d);\n"
                  "    if (rc < 0)\n        return rc;\n", screate);
    const char **nb;
    int nn = cg_task_neighbor_names(t, &nb);
    for (int i = 0; i < nn; i++) {
        const mdl_msg *m = NULL;
        for (int k = 0; k < t->sends.n + t->recvs.n && !m; k++) {
            const mdl_msg *x = k < t->sends.n ? t->sends.v[k] : t->recvs.v[k - t->sends.n];
            if (x->neighbor_name && strcmp(x->neighbor_name, nb[i]) == 0)
                m = x;
        }
        cg_buf_printf(b, "    {\n        const int off[3] = { %d, %d, %d };\n"
                      "        t->%s = mdl_grid_neighbor(t->mdl_rt_, off);\n    }\n"
                      "    if (t->%s < 0 && t->%s != MDL_PROC_NULL)\n        return t->%s;\n",
                   m->offset[0], m->offset[1], m->offset[2], nb[i], nb[i], nb[i], nb[i]);
    }
    free(nb);
    cg_buf_puts(b, "    return MDL_SUCCESS;\n");
}

/* A NULL task pointer (the natural call before MDL_Init) is reported by
 * the runtime under the function's name instead of crashing: one branch
 * per call, the report out of line.  MDL_Init hands its NULL to the
 * runtime, which reports a NULL argument. */
static void emit_no_task(mdl_buf *b)
{
    cg_buf_puts(b, "\n/* a call through a NULL task pointer: reported, not a crash */\n"
                   "static int mdlg_no_task(const char *fn)\n{\n    mdlg_name_tasks();\n"
                   "    return mdl_no_task(&mdlg_task, fn);\n}\n");
}

static void emit_body(mdl_buf *b, const mdl_task *t, const api_fn *f)
{
    if (f->kind != API_INIT && f->kind != API_INIT_AT)
        cg_buf_printf(b, "    if (!t)\n        return mdlg_no_task(\"%s\");\n", f->name);
    switch (f->kind) {
    case API_INIT:
        cg_buf_puts(b, "    void *mem;\n    mdl_rt *rt;\n    mdlg_name_tasks();\n"
                    "    int rc = mdl_init(&mdlg_task, argc, argv, t ? &mem : NULL, &rt);\n"
                    "    if (rc < 0)\n        return rc;\n    *t = (struct ");
        cg_id(b, t->name);
        cg_buf_puts(b, " *)mem;\n    (*t)->mdl_rt_ = rt;\n    return MDL_SUCCESS;\n");
        break;
    case API_INIT_AT:
        /* the caller's struct, used as it is: a C++ object (TMDL.hh) */
        cg_buf_puts(b, "    mdl_rt *rt;\n    mdlg_name_tasks();\n"
                    "    int rc = mdl_init_at(&mdlg_task, argc, argv, t, size, &rt);\n"
                    "    if (rc < 0)\n        return rc;\n"
                    "    t->mdl_rt_ = rt;\n    return MDL_SUCCESS;\n");
        break;
    case API_ALLOCATE:
        emit_allocate(b, t);
        break;
    case API_END:
        cg_buf_puts(b, "    return mdl_end(t->mdl_rt_, t);\n");
        break;
    case API_MYRANK:
        cg_buf_puts(b, "    return mdl_my_rank(t->mdl_rt_);\n");
        break;
    case API_FAMILYSIZE:
        cg_buf_printf(b, "    return mdl_task_size(t->mdl_rt_, %d);\n", t->index);
        break;
    case API_SIZE:
        cg_buf_printf(b, "    return mdl_task_size(t->mdl_rt_, %d);\n", f->other->index);
        break;
    case API_BARRIER:
    case API_SYNC:
        cg_buf_puts(b, "    return mdl_barrier(t->mdl_rt_);\n");
        break;
    case API_SBARRIER:
        cg_buf_puts(b, "    return mdl_sbarrier(t->mdl_rt_, ranks, n);\n");
        break;
    case API_SEND:
    case API_RECV:
        emit_p2p(b, t, f);
        break;
    case API_TEST:
    case API_WAIT:
        emit_completion(b, t, f);
        break;
    case API_COLL:
        emit_coll_call(b, t, f);
        break;
    case API_GRID_CREATE:
    case API_GRID_SCREATE:
        emit_grid_create(b, t, f->kind == API_GRID_SCREATE);
        break;
    case API_GRID_RANK:
        cg_buf_puts(b, "    return mdl_grid_rank(t->mdl_rt_, coords, rank);\n");
        break;
    case API_GRID_COORDS:
        cg_buf_puts(b, "    return mdl_grid_coords(t->mdl_rt_, rank, coords);\n");
        break;
    case API_GRID_MYCOORDS:
        cg_buf_puts(b, "    return mdl_grid_mycoords(t->mdl_rt_, coords);\n");
        break;
    case API_GET_NEIGHBORS:
        cg_buf_puts(b, "    return mdl_get_neighbors(t->mdl_rt_, direction, disp, source, dest);\n");
        break;
    }
}

void cg_emit_source(mdl_buf *b, const mdl_spec *s, const cg_spec_facts *sf, const mdl_task *t)
{
    cg_buf_printf(b, "/* %sMDL.c — generated by medleyc from %s; do not edit.\n"
                  "   Link with libmdl_mpi or libmdl_shm (pkg-config medley-mpi / medley-shm). */\n"
                  "#include \"mdl_rt.h\"\n#include \"%sMDL.h\"\n\n",
               t->name, cg_spec_basename(s), t->name);
    /* The struct layout and the tables below use the values medleyc saw;
     * a -D at C compile time that changes a constant would silently break
     * both, so it is refused here.  Then the constants' macros are dropped:
     * this file writes values, and a constant named like a field of the
     * runtime's tables (`count`, `size`) must not rewrite the code.
     * (mdl_rt.h comes first for the same reason.) */
    if (s->consts.n)
        cg_buf_puts(b, "#ifdef __cplusplus\n#define MDL_STATIC_ASSERT_ static_assert\n#else\n"
                    "#define MDL_STATIC_ASSERT_ _Static_assert\n#endif\n");
    for (int i = 0; i < s->consts.n; i++) {
        const char *name = s->consts.v[i]->name;
        cg_buf_puts(b, "MDL_STATIC_ASSERT_((");
        cg_id(b, name);
        cg_buf_printf(b, ") == %lld, \"constant %s differs from the value medleyc "
                      "used: regenerate with medleyc -D %s=...\");\n",
                      s->consts.v[i]->val, name, name);
        if (cg_cxx_keyword(name))
            cg_buf_printf(b, "#ifdef __cplusplus\n#undef %s_\n#else\n#undef %s\n#endif\n",
                          name, name);
        else
            cg_buf_printf(b, "#undef %s\n", name);
    }
    if (s->consts.n)
        cg_buf_puts(b, "\n");
    cg_emit_desc(b, s, sf, t);
    emit_no_task(b);

    api_list api = { 0 };
    cg_task_api(t, &api);
    cg_buf_puts(b, "\n/* ---------------------------------------------------------------- functions */\n");
    for (int i = 0; i < api.n; i++) {
        cg_buf_puts(b, "\n");
        cg_api_proto(b, t, &api.v[i]);
        cg_buf_puts(b, "\n{\n");
        emit_body(b, t, &api.v[i]);
        cg_buf_puts(b, "}\n");
    }
    cg_api_free(&api);
}
