/* emit_header.c — the headers a user program includes.
 *
 * Layout (docs/generated-code.md):
 *   - <spec>MDL_common.h, written once per spec and guarded by
 *     MDL_SPEC_<hash>_COMMON so that headers of several specs mix:
 *     constants, struct types, every task's prototypes, _Generic macros;
 *   - TMDL.h per task: includes the common header, then struct T with one
 *     member per `uses` variable.
 * The spec-wide part is in one file, not repeated in every TMDL.h: with it
 * in every header the output grew with tasks x functions (8 GB at 10,000
 * messages and 1,000 tasks).  Only mdl.h is included: the runtime
 * interface stays out of user code. */
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"
#include "fnv.h"

static void emit_dims(mdl_buf *b, int n, const long long *val)
{
    for (int d = 0; d < n; d++)
        cg_buf_printf(b, "[%lld]", val ? val[d] : 0LL);
}

/* "/​* [N+2][N+2] *​/" when a dimension was not a plain literal, so the
 * reader sees where the evaluated numbers come from. */
static void emit_dims_comment(mdl_buf *b, int n, mdl_expr *const *dims, const char *more)
{
    int literal = 1;
    for (int d = 0; d < n; d++)
        literal &= dims[d]->kind == MDL_E_INT;
    if ((literal && !more) || n == 0)
        return;
    cg_buf_puts(b, "  /* ");
    for (int d = 0; d < n; d++) {
        /* without the outermost parentheses the operators print */
        mdl_buf e = { 0 };
        cg_expr_c(&e, dims[d], "");
        int outer = e.n > 1 && e.s[0] == '(' && dims[d]->kind != MDL_E_NEG &&
                    dims[d]->kind != MDL_E_INT && dims[d]->kind != MDL_E_NAME;
        cg_buf_printf(b, "[%.*s]", (int)(outer ? e.n - 2 : e.n), e.s + outer);
        cg_buf_free(&e);
    }
    cg_buf_printf(b, "%s */", more ? more : "");
}

static void emit_struct(mdl_buf *b, const mdl_struct *s)
{
    if (s->typedef_name)
        cg_buf_puts(b, "typedef ");
    cg_buf_puts(b, "struct ");
    if (s->tag) {
        cg_id(b, s->tag);
        cg_buf_puts(b, " ");
    }
    cg_buf_puts(b, "{\n");
    for (int i = 0; i < s->fields.n; i++) {
        const mdl_field *f = s->fields.v[i];
        cg_buf_puts(b, "    ");
        cg_typeref_c(b, &f->type);
        cg_buf_printf(b, " %s", f->is_pointer ? "*" : "");
        cg_id(b, f->name);
        emit_dims(b, f->dims.n, f->dimval);
        cg_buf_puts(b, ";");
        emit_dims_comment(b, f->dims.n, f->dims.v, NULL);
        cg_buf_puts(b, "\n");
    }
    cg_buf_puts(b, "}");
    if (s->typedef_name) {
        cg_buf_puts(b, " ");
        cg_id(b, s->typedef_name);
    }
    cg_buf_puts(b, ";\n\n");
}

/* The distinct public names of the spec, each with the tasks that have it
 * in spec order: a hash table over names (a scan of every earlier function
 * per function was quadratic in the spec's functions). */
typedef struct gen_name {
    const api_fn *f;            /* first occurrence: name and kind */
    int head, tail;             /* chain through gen_occ, in spec order */
} gen_name;

typedef struct gen_occ {
    int task, next;
} gen_occ;

/* One macro per public name, dispatching on the type of the first
 * argument to the task that has it.  Names print in order of their first
 * appearance (task order, then API order). */
static void emit_generics(mdl_buf *b, const mdl_spec *s, const api_list *apis)
{
    cg_buf_puts(b, "/* Short names: the task is chosen by the type of the first argument. */\n"
                "#define MDL_FIRST_(a, ...) a\n");
    size_t nocc = 0;
    for (int ti = 0; ti < s->tasks.n; ti++)
        nocc += (size_t)apis[ti].n;
    size_t cap = 16;
    while (cap < 2 * nocc)
        cap *= 2;
    int *slot = cg_xcalloc(cap, sizeof *slot);             /* 0 empty, else name + 1 */
    gen_name *names = cg_xcalloc(nocc + 1, sizeof *names);
    gen_occ *occ = cg_xcalloc(nocc + 1, sizeof *occ);
    int nnames = 0, n = 0;
    for (int ti = 0; ti < s->tasks.n; ti++)
        for (int fi = 0; fi < apis[ti].n; fi++) {
            const api_fn *f = &apis[ti].v[fi];
            if (f->kind == API_INIT_AT)
                continue;
            size_t h = (size_t)mdl_fnv1a_str(f->name) & (cap - 1);
            while (slot[h] && strcmp(names[slot[h] - 1].f->name, f->name) != 0)
                h = (h + 1) & (cap - 1);
            occ[n] = (gen_occ){ ti, -1 };
            if (!slot[h]) {
                slot[h] = ++nnames;
                names[nnames - 1] = (gen_name){ f, n, n };
            } else {
                gen_name *g = &names[slot[h] - 1];
                occ[g->tail].next = n;
                g->tail = n;
            }
            n++;
        }
    for (int k = 0; k < nnames; k++) {
        const api_fn *f = names[k].f;
        cg_buf_printf(b, "#define %s(...) _Generic(MDL_FIRST_(__VA_ARGS__, 0)", f->name);
        for (int o = names[k].head; o >= 0; o = occ[o].next) {
            const char *tn = s->tasks.v[occ[o].task]->name;
            cg_buf_printf(b, ", \\\n    struct %s *%s: %s_%s", tn,
                          f->self == MDL_SELF_HANDLE ? "*" : "", tn, f->name);
        }
        cg_buf_puts(b, ")(__VA_ARGS__)\n");
    }
    free(slot);
    free(names);
    free(occ);
}

void cg_spec_stem(mdl_buf *b, const mdl_spec *s)
{
    /* the spec's file name without ".mdl"; anything that could not stand
     * in an #include "…" or a file name becomes '_' */
    const char *base = cg_spec_basename(s);
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".mdl") == 0)
        n -= 4;
    for (size_t i = 0; i < n; i++) {
        char c = base[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '-' || (c == '.' && i > 0);
        cg_buf_printf(b, "%c", ok ? c : '_');
    }
}

void cg_common_header_name(mdl_buf *b, const mdl_spec *s)
{
    cg_spec_stem(b, s);
    cg_buf_puts(b, "MDL_common.h");
}

void cg_emit_common_header(mdl_buf *b, const mdl_spec *s, const cg_spec_facts *sf,
                           const api_list *apis)
{
    mdl_buf name = { 0 };
    cg_common_header_name(&name, s);
    cg_buf_printf(b, "/* %s — generated by medleyc from %s; do not edit.\n"
                  "   Included by every task header of the spec (TMDL.h): include those. */\n",
                  name.s, cg_spec_basename(s));
    cg_buf_free(&name);
    unsigned long long h = sf->hash;
    cg_buf_printf(b, "#ifndef MDL_SPEC_%016llx_COMMON\n#define MDL_SPEC_%016llx_COMMON\n\n"
                  "#include \"mdl.h\"\n\n", h, h);

    if (cg_spec_cxx_renames(s))
        cg_buf_puts(b, "/* A spec name that is a C++ keyword is written MDL_CXX_(new, new_):\n"
                    "   `new` in C, `new_` in C++. */\n"
                    "#ifndef MDL_CXX_\n#ifdef __cplusplus\n#define MDL_CXX_(c, cxx) cxx\n#else\n"
                    "#define MDL_CXX_(c, cxx) c\n#endif\n#endif\n\n");
    /* a struct after those it contains, as C requires (struct_order) */
    for (int i = 0; i < s->struct_order.n; i++)
        emit_struct(b, s->struct_order.v[i]);

    for (int i = 0; i < s->tasks.n; i++) {
        cg_buf_puts(b, "struct ");
        cg_id(b, s->tasks.v[i]->name);
        cg_buf_puts(b, ";\n");
    }
    cg_buf_puts(b, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n");

    for (int i = 0; i < s->tasks.n; i++) {
        cg_buf_printf(b, "\n/* task %s */\n", s->tasks.v[i]->name);
        for (int k = 0; k < apis[i].n; k++) {
            cg_api_proto(b, s->tasks.v[i], &apis[i].v[k]);
            cg_buf_puts(b, ";\n");
        }
    }
    cg_buf_puts(b, "\n#ifdef __cplusplus\n}\n\n");
    cg_emit_cxx_overloads(b, s, apis);
    cg_buf_puts(b, "\n#else\n\n");
    emit_generics(b, s, apis);
    cg_buf_puts(b, "\n#endif\n");

    /* Constants last: everything above is spelled with evaluated numbers,
     * so a constant named like a parameter (`n`) cannot rewrite it. */
    if (s->consts.n)
        cg_buf_puts(b, "\n/* Constants of the spec (the values medleyc used; the task\n"
                    "   sources check at compile time that they were not changed). */\n");
    for (int i = 0; i < s->consts.n; i++) {
        const mdl_const *c = s->consts.v[i];
        if (cg_cxx_keyword(c->name))
            /* C++ cannot #define a keyword: there the constant is `name_` */
            cg_buf_printf(b, "#ifdef __cplusplus\n#ifndef %s_\n#define %s_ (%lld)\n#endif\n"
                          "#else\n#ifndef %s\n#define %s (%lld)\n#endif\n#endif\n",
                          c->name, c->name, c->val, c->name, c->name, c->val);
        else
            cg_buf_printf(b, "#ifndef %s\n#define %s (%lld)\n#endif\n", c->name, c->name, c->val);
    }
    cg_buf_printf(b, "\n#endif /* MDL_SPEC_%016llx_COMMON */\n", h);
}

static void emit_task_struct(mdl_buf *b, const mdl_task *t)
{
    cg_buf_printf(b, "/* The variables of one instance of %s (allocated by MDL_Init). */\n",
                  t->name);
    cg_emit_cxx_struct_head(b, t);
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        cg_buf_puts(b, "    ");
        cg_typeref_c(b, &v->type);
        cg_buf_printf(b, " %s", v->form == MDL_V_POINTER || v->rtsized ? "*" : "");
        cg_id(b, v->name);
        if (v->form != MDL_V_POINTER && !v->rtsized)
            emit_dims(b, v->dims.n, v->dimval);
        cg_buf_puts(b, ";");
        emit_dims_comment(b, v->dims.n, v->dims.v,
                          v->rtsized ? ", row-major, set by MDL_Allocate" : NULL);
        cg_buf_puts(b, "\n");
    }
    const char **nb;
    int nn = cg_task_neighbor_names(t, &nb);
    if (nn)
        cg_buf_puts(b, "    /* grid neighbours, set by MDL_Grid_Create (MDL_PROC_NULL outside) */\n");
    for (int i = 0; i < nn; i++)
        cg_buf_printf(b, "    int %s;\n", nb[i]);
    free(nb);
    cg_buf_puts(b, "    struct mdl_rt *mdl_rt_;  /* runtime handle: do not touch */\n");
    cg_emit_cxx_members(b, t);
    cg_buf_puts(b, "};\n");
}

/* T_MDL_View_<v>(t): run-time-sized v as a pointer to its rows (C99's
 * variably modified type, extents from t's size variables as MDL_Allocate
 * took them), so T_MDL_View_U(t)[i][j] is U[i][j] and a program declares
 * `double (*U)[t->nx + 2] = T_MDL_View_U(t);`.  C only: C++ has no such type.
 * Named with the task like T's functions: two tasks' headers in one C file
 * (M-SPMD) may each have a v, and no short name could pick the layout by
 * t's type (_Generic compiles every branch, `(mdl_t)->nx` of each task). */
static void emit_views(mdl_buf *b, const mdl_task *t)
{
    if (!cg_task_nrtvars(t))
        return;
    cg_buf_puts(b, "\n#ifndef __cplusplus\n"
                "/* Each run-time-sized variable as an array of its shape (a pointer to\n"
                "   its rows; extents from the size variables, as MDL_Allocate took them). */\n");
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        if (!v->rtsized)
            continue;
        cg_buf_printf(b, "#define %s_", t->name);
        cg_view_name(b, v);
        cg_buf_puts(b, "(mdl_t) ((");
        cg_typeref_c(b, &v->type);
        cg_buf_puts(b, v->dims.n > 1 ? " (*)" : " *");
        for (int d = 1; d < v->dims.n; d++) {
            cg_buf_puts(b, "[");
            cg_expr_c(b, v->dims.v[d], "(mdl_t)->");
            cg_buf_puts(b, "]");
        }
        cg_buf_puts(b, ")(void *)(mdl_t)->");
        cg_id(b, v->name);
        cg_buf_puts(b, ")\n");
    }
    cg_buf_puts(b, "#endif\n");
}

void cg_emit_header(mdl_buf *b, const mdl_spec *s, const mdl_task *t)
{
    cg_buf_printf(b, "/* %sMDL.h — generated by medleyc from %s; do not edit. */\n",
               t->name, cg_spec_basename(s));
    mdl_buf common = { 0 };
    cg_common_header_name(&common, s);
    cg_buf_printf(b, "#ifndef MDL_TASK_%s_H\n#define MDL_TASK_%s_H\n\n#include \"mdl.h\"\n"
                  "#include \"%s\"  /* the spec's types, every task's functions */\n\n",
                  t->name, t->name, common.s);
    cg_buf_free(&common);
    emit_task_struct(b, t);
    emit_views(b, t);
    cg_buf_printf(b, "\n#ifdef __cplusplus\n#include \"%sMDL.hh\"  /* the methods of the class */\n"
                  "#endif\n", t->name);
    cg_buf_printf(b, "\n#endif /* MDL_TASK_%s_H */\n", t->name);
}
