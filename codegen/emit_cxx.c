/* emit_cxx.c — what C++ programs see (docs/generated-code.md, C++).
 *
 * One type: in C++ the struct T of TMDL.h is also the class of the
 * thesis's binding.  Under __cplusplus it gains a constexpr constructor
 * that zeroes the variables, a deleted copy, and one method per public
 * function (declared in the struct, defined inline in TMDL.hh); no data
 * member is added, so the layout, the descriptor tables and every C
 * function work on class objects and on structs allocated by MDL_Init
 * alike.  The short names of the C API become inline overloads on the
 * task type in the spec-wide header (C++ has no _Generic).  A spec name
 * that is a C++ keyword is spelled name_ in C++ (cg_id). */
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"

/* Parameter lists (cg_api_params).  The C prototypes come before the
 * spec's constants in the spec-wide header, but the methods come after
 * them, and a spec may have a constant named `n` or `inst`: the methods'
 * declarations give the names in comments, their definitions prefix them
 * with mdl_ (reserved for generated code). */

/* The value a left-out instance argument takes in a method: MDL_ANY for a
 * receive, 0 for a send to a task that is not a family; NULL when the
 * argument must be given. */
static const char *inst_default(const api_fn *f)
{
    if ((f->kind != API_SEND && f->kind != API_RECV) || !cg_msg_takes_inst(f->msg))
        return NULL;
    if (f->kind == API_RECV)
        return "MDL_ANY";
    const mdl_task *peer = f->msg->peer_task;
    return peer && f->msg->peer_kind == MDL_P_ONE && peer->single ? "0" : NULL;
}

void cg_emit_cxx_overloads(mdl_buf *b, const mdl_spec *s, const api_list *apis)
{
    cg_buf_puts(b, "/* Short names: one overload per task that has the function. */\n");
    for (int ti = 0; ti < s->tasks.n; ti++) {
        const mdl_task *t = s->tasks.v[ti];
        for (int k = 0; k < apis[ti].n; k++) {
            const api_fn *f = &apis[ti].v[k];
            if (f->kind == API_INIT_AT)
                continue;
            cg_buf_printf(b, "inline int %s(struct ", f->name);
            cg_cxx_id(b, t->name);
            cg_buf_puts(b, f->self == MDL_SELF_HANDLE ? " **t" : " *t");
            cg_api_params(b, f, API_P_C, 0);
            cg_buf_printf(b, ") { return %s_%s(t", t->name, f->name);
            cg_api_params(b, f, API_P_FORWARD, 0);  /* before the constants */
            cg_buf_puts(b, "); }\n");
        }
    }
}

/* One declaration or definition per method: every public function of
 * the task but MDL_Init_at (what the class's MDL_Init calls). */
typedef void method_fn(mdl_buf *b, const api_fn *f, const char *cls, const char *task);

static void each_method(mdl_buf *b, const mdl_task *t, const char *cls, method_fn *emit)
{
    api_list api = { 0 };
    cg_task_api(t, &api);
    for (int k = 0; k < api.n; k++)
        if (api.v[k].kind != API_INIT_AT)
            emit(b, &api.v[k], cls, t->name);
    cg_api_free(&api);
}

static void declare_method(mdl_buf *b, const api_fn *f, const char *cls, const char *task)
{
    (void)cls;
    (void)task;
    const char *dflt = inst_default(f);
    cg_buf_printf(b, "    int %s(", f->name);
    cg_api_params(b, f, API_P_DECL, 0);
    if (dflt && f->msg->nruntime == 0) {
        cg_buf_printf(b, " = %s);\n", dflt);
    } else if (dflt) {
        /* bounds follow the instance: an overload without it */
        cg_buf_printf(b, ");\n    int %s(", f->name);
        cg_api_params(b, f, API_P_DECL, 1);
        cg_buf_printf(b, ");  /* inst = %s */\n", dflt);
    } else
        cg_buf_puts(b, ");\n");
}

/* The object of a method: an object MDL_Init has not started (its handle
 * still the constructor's null) goes as a NULL task pointer, so that the
 * C function reports the call under the task's name, as it does a C
 * program's NULL pointer, and not as a call of no known task. */
#define CXX_SELF "mdl_rt_ ? this : nullptr"

static void define_method(mdl_buf *b, const api_fn *f, const char *cls, const char *task)
{
    /* the class's MDL_Init starts the runtime on this object */
    const char *target = f->kind == API_INIT ? MDL_FN_NAME(INIT_AT) : f->name;
    cg_buf_printf(b, "inline int %s::%s(", cls, f->name);
    cg_api_params(b, f, API_P_DEF, 0);
    cg_buf_printf(b, ") { return %s_%s(%s", task, target,
                  f->kind == API_INIT ? "this, sizeof *this" : CXX_SELF);
    cg_api_params(b, f, API_P_ARGS, 0);
    cg_buf_puts(b, "); }\n");
    const char *dflt = inst_default(f);
    if (dflt && f->msg->nruntime > 0) {
        cg_buf_printf(b, "inline int %s::%s(", cls, f->name);
        cg_api_params(b, f, API_P_DEF, 1);
        cg_buf_printf(b, ") { return %s_%s(" CXX_SELF ", %s", task, f->name, dflt);
        cg_api_params(b, f, API_P_ARGS, 1);
        cg_buf_puts(b, "); }\n");
    }
}

static int var_named_like_task(const mdl_task *t)
{
    for (int i = 0; i < t->vars.n; i++)
        if (strcmp(t->vars.v[i]->name, t->name) == 0)
            return 1;
    return 0;
}

/* The view of run-time-sized v, mdl_view<T, rank> of mdl.h: its type,
 * and its method MDL_View_<v>() declared in the class (decl) or defined
 * in TMDL.hh, the extents from the size variables as MDL_Allocate took
 * them (the C macro of TMDL.h, the Fortran MDL_View_<v> likewise). */
static void view_type(mdl_buf *b, const mdl_var *v)
{
    cg_buf_puts(b, "mdl_view<");
    cg_typeref_c(b, &v->type);
    cg_buf_printf(b, ", %d>", v->dims.n);
}

static void view_method(mdl_buf *b, const mdl_var *v, const char *cls)
{
    if (!cls) {
        cg_buf_puts(b, "    ");
        view_type(b, v);
        cg_buf_puts(b, " ");
        cg_view_name(b, v);
        cg_buf_puts(b, "() const noexcept;\n");
        return;
    }
    cg_buf_puts(b, "inline ");
    view_type(b, v);
    cg_buf_printf(b, " %s::", cls);
    cg_view_name(b, v);
    cg_buf_puts(b, "() const noexcept { return ");
    view_type(b, v);
    cg_buf_puts(b, "(this->");
    cg_id(b, v->name);
    cg_buf_puts(b, ", {");
    for (int d = 0; d < v->dims.n; d++) {
        cg_buf_puts(b, d ? ", (long)" : "(long)");
        cg_expr_c(b, v->dims.v[d], "this->");
    }
    cg_buf_puts(b, "}); }\n");
}

void cg_emit_cxx_members(mdl_buf *b, const mdl_task *t)
{
    cg_buf_puts(b, "#ifdef __cplusplus\n");
    if (var_named_like_task(t)) {
        /* A member named like its class is not allowed once the class
         * declares a constructor (and a non-copyable class does). */
        cg_buf_printf(b, "#error \"task %s has a variable named %s: C++ cannot name a member "
                      "like its class; rename one of them in the spec to use %sMDL.h from C++\"\n"
                      "#endif\n", t->name, t->name, t->name);
        return;
    }
    mdl_buf cls = { 0 };
    cg_cxx_id(&cls, t->name);
    cg_buf_printf(b, "    /* C++: this struct is also the class of %sMDL.hh (methods\n"
                     "       only: the members' layout is the C one).  Variables start at zero. */\n"
                     "    constexpr %s() noexcept\n        : ", t->name, cls.s);
    /* every member value-initialised, so the constructor is constexpr */
    int col = 10;
    const char **nb;
    int nn = cg_task_neighbor_names(t, &nb);
    for (int i = 0; i <= t->vars.n + nn; i++) {
        mdl_buf m = { 0 };
        if (i < t->vars.n)
            cg_cxx_id(&m, t->vars.v[i]->name);
        else
            cg_buf_puts(&m, i < t->vars.n + nn ? nb[i - t->vars.n] : "mdl_rt_");
        if (i > 0 && col + (int)m.n + 4 > 90) {
            cg_buf_puts(b, ",\n          ");
            col = 10;
        } else if (i > 0) {
            cg_buf_puts(b, ", ");
            col += 2;
        }
        cg_buf_printf(b, "%s()", m.s);
        col += (int)m.n + 2;
        cg_buf_free(&m);
    }
    free(nb);
    cg_buf_printf(b, " {}\n"
                     "    %s(const %s &) = delete;\n"
                     "    %s &operator=(const %s &) = delete;\n",
                  cls.s, cls.s, cls.s, cls.s);
    each_method(b, t, cls.s, declare_method);
    for (int i = 0; i < t->vars.n; i++)
        if (t->vars.v[i]->rtsized)
            view_method(b, t->vars.v[i], NULL);
    cg_buf_free(&cls);
    cg_buf_puts(b, "#endif\n");
}

void cg_emit_cxx_struct_head(mdl_buf *b, const mdl_task *t)
{
    /* Page-aligned and a whole number of pages in C++, so that the
     * shared-memory runtime can make a task object part of the job's
     * segment (mdl_init_at); C keeps its layout. */
    cg_buf_puts(b, "#ifdef __cplusplus\nstruct alignas(4096) ");
    cg_cxx_id(b, t->name);
    cg_buf_puts(b, " {\n#else\nstruct ");
    cg_id(b, t->name);
    cg_buf_puts(b, " {\n#endif\n");
}

void cg_emit_cxx_header(mdl_buf *b, const mdl_spec *s, const mdl_task *t)
{
    const char *n = t->name;
    cg_buf_printf(b, "/* %sMDL.hh — generated by medleyc from %s; do not edit.\n"
                     "   The C++ class of task %s (the thesis's binding):\n"
                     "       %s t;  t.MDL_Init(&argc, &argv);  t.<variable> = …;  t.MDL_…();  "
                     "t.MDL_End();\n"
                     "   The class is struct %s of %sMDL.h, which declares its members; the\n"
                     "   methods below call the C functions, with the same results and errors. */\n",
                  n, cg_spec_basename(s), n, n, n, n);
    cg_buf_printf(b, "#ifndef MDL_TASK_%s_HH\n#define MDL_TASK_%s_HH\n\n"
                     "#ifndef __cplusplus\n"
                     "#error \"%sMDL.hh is the C++ binding of task %s: C programs include %sMDL.h\"\n"
                     "#endif\n\n#include \"%sMDL.h\"\n",
                  n, n, n, n, n, n);
    if (var_named_like_task(t)) {
        cg_buf_printf(b, "\n#endif /* MDL_TASK_%s_HH */\n", n);
        return;
    }
    mdl_buf cls = { 0 };
    cg_cxx_id(&cls, n);
    cg_buf_puts(b, "\n");
    each_method(b, t, cls.s, define_method);
    for (int i = 0; i < t->vars.n; i++)
        if (t->vars.v[i]->rtsized)
            view_method(b, t->vars.v[i], cls.s);
    cg_buf_free(&cls);
    cg_buf_printf(b, "\n#endif /* MDL_TASK_%s_HH */\n", n);
}
