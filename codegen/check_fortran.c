/* check_fortran.c — the names of a spec the Fortran modules cannot take
 * (medleyc --fortran), reported as errors at the construct that makes
 * them, before anything is written, instead of by the user's Fortran
 * compiler later.  Only with --fortran: a C program may use them all.
 *
 * Fortran names start with a letter, have at most 63 characters, and
 * letter case does not tell them apart.  The spec's names become Fortran
 * names (emit_fortran_common.c, emit_fortran.c): at the scope of the
 * spec-wide module the constants, the struct types (typedef name, else
 * tag) and the tasks' types, each also not one of iso_c_binding's names
 * that module uses, nor an intrinsic type's name for a type, nor the name
 * of a task module T_mdl; in a type its components (a task's variables
 * and neighbours, a struct's fields); in a task module the names of its
 * functions (emit_api.c's list, as the C header has them) and the view
 * MDL_View_<v> of each variable sized at run time.  The prefix mdl_ is
 * reserved in any case, as C reserves mdl_ and MDL_. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "emit.h"
#include "emit_internal.h"

enum { F_NAME_MAX = 63 };

/* A named thing, to report it and the other of a pair. */
typedef struct f_name {
    const char *name;
    const char *what;           /* "constant", "task", "variable" … */
    mdl_loc loc;
    int noloc;                  /* a -D constant: no place in the spec */
    int order;                  /* position in the spec */
} f_name;

static f_name named(const char *name, const char *what, mdl_loc loc, int noloc)
{
    return (f_name){ name, what, loc, noloc, 0 };
}

/* An error at `at` (NULL: no place), through the front end's diagnostics. */
static void report(mdl_front *d, const mdl_loc *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void report(mdl_front *d, const mdl_loc *at, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mdl_front_error(d, at, msg);
}

/* An error at n: fmt starts with "%s '%s'", n's kind and name. */
static void error_at(mdl_front *d, const f_name *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_at(mdl_front *d, const f_name *n, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    report(d, n->noloc ? NULL : &n->loc, "%s (--fortran)", msg);
}

/* Alone: a letter first, at most 63 characters; reserved: mdl_ in any case. */
static void lone(mdl_front *d, const f_name *n, int reserved_too)
{
    size_t len = strlen(n->name);
    if (n->name[0] == '_')
        error_at(d, n, "%s '%s' starts with '_': Fortran names start with a letter", n->what,
                 n->name);
    else if (len > F_NAME_MAX)
        error_at(d, n, "%s '%s' has %zu characters: Fortran names have at most 63", n->what,
                 n->name, len);
    else if (reserved_too && strncasecmp(n->name, "mdl_", 4) == 0)
        error_at(d, n, "%s '%s': names starting with 'mdl_' in any letter case are reserved for "
                 "the generated code", n->what, n->name);
}

static int by_name_nocase(const void *a, const void *b)
{
    const f_name *x = a, *y = b;
    int c = strcasecmp(x->name, y->name);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* Names of one Fortran scope (in spec order): one that differs only in
 * letter case from an earlier one is an error.  Sorted with the case
 * ignored: O(n log n) for the largest specs. */
static void distinct(mdl_front *d, f_name *v, int n)
{
    f_name *s = cg_xcalloc((size_t)n + 1, sizeof *s);
    for (int i = 0; i < n; i++) {
        s[i] = v[i];
        s[i].order = i;
    }
    qsort(s, (size_t)n, sizeof *s, by_name_nocase);
    for (int i = 1, first = 0; i < n; i++) {
        if (strcasecmp(s[first].name, s[i].name) != 0) {
            first = i;
            continue;
        }
        if (strcmp(s[first].name, s[i].name) == 0)
            continue;   /* the same name twice: the C checks say so */
        error_at(d, &s[i], "%s '%s' and %s '%s' differ only in letter case, which Fortran does "
                 "not tell apart", s[i].what, s[i].name, s[first].what, s[first].name);
        if (!s[first].noloc) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s '%s' is declared here", s[first].what, s[first].name);
            mdl_front_note(d, s[first].loc, msg);
        }
    }
    free(s);
}

static const char *const intrinsic_types[] = {
    "integer", "real", "complex", "logical", "character", "doubleprecision", "doublecomplex",
};

/* The name of iso_c_binding the spec-wide module imports that n has, or NULL. */
static const char *c_binding_name(const char *n)
{
    if (strcasecmp(n, "c_ptr") == 0)
        return "c_ptr";
    for (int k = 0; k < MDL_B_COUNT; k++)
        if (strcasecmp(n, mdl_basic_f_kind((mdl_basic)k)) == 0)
            return mdl_basic_f_kind((mdl_basic)k);
    return NULL;
}

/* The scope of the spec-wide module: constants, struct types, tasks. */
static void module_scope(mdl_front *d, const mdl_spec *s)
{
    int cap = s->consts.n + s->structs.n + s->tasks.n;
    f_name *v = cg_xcalloc((size_t)cap + 1, sizeof *v);
    int n = 0;
    for (int i = 0; i < s->consts.n; i++) {
        const mdl_const *c = s->consts.v[i];
        v[n++] = named(c->name, "constant", c->loc, !c->value);
        if (c->val == -9223372036854775807LL - 1)
            error_at(d, &v[n - 1], "%s '%s' is -9223372036854775808, which standard Fortran "
                     "cannot write", v[n - 1].what, c->name);
    }
    for (int i = 0; i < s->structs.n; i++)
        v[n++] = named(cg_f_struct_name(s->structs.v[i]), "type", s->structs.v[i]->loc, 0);
    for (int i = 0; i < s->tasks.n; i++)
        v[n++] = named(s->tasks.v[i]->name, "task", s->tasks.v[i]->loc, 0);
    for (int i = 0; i < n; i++) {
        lone(d, &v[i], 1);
        const char *cb = c_binding_name(v[i].name);
        if (cb)
            error_at(d, &v[i], "%s '%s' is also %s of iso_c_binding, which the Fortran modules "
                     "use", v[i].what, v[i].name, cb);
        /* a derived type may not take an intrinsic type's name */
        for (size_t k = 0; v[i].what[0] != 'c' && k < sizeof intrinsic_types / sizeof *intrinsic_types;
             k++)
            if (strcasecmp(v[i].name, intrinsic_types[k]) == 0)
                error_at(d, &v[i], "%s '%s' has the name of the Fortran intrinsic type %s",
                         v[i].what, v[i].name, intrinsic_types[k]);
        for (int t = 0; t < s->tasks.n; t++) {
            const char *tn = s->tasks.v[t]->name;
            size_t tl = strlen(tn);
            if (strlen(v[i].name) == tl + 4 && strncasecmp(v[i].name, tn, tl) == 0 &&
                strcasecmp(v[i].name + tl, "_mdl") == 0)
                error_at(d, &v[i], "%s '%s' has the name of the Fortran module of task '%s'",
                         v[i].what, v[i].name, tn);
        }
    }
    distinct(d, v, n);
    free(v);
}

/* The components of each struct type. */
static void struct_fields(mdl_front *d, const mdl_spec *s)
{
    for (int i = 0; i < s->structs.n; i++) {
        const mdl_struct *st = s->structs.v[i];
        f_name *v = cg_xcalloc((size_t)st->fields.n + 1, sizeof *v);
        for (int f = 0; f < st->fields.n; f++) {
            v[f] = named(st->fields.v[f]->name, "field", st->fields.v[f]->loc, 0);
            lone(d, &v[f], 0);
        }
        distinct(d, v, st->fields.n);
        free(v);
    }
}

/* The components of a task's type, its module's name and its functions. */
static void task(mdl_front *d, const mdl_task *t)
{
    const char **nb;
    int nn = cg_task_neighbor_names(t, &nb);
    f_name *v = cg_xcalloc((size_t)(t->vars.n + nn) + 1, sizeof *v);
    int n = 0;
    for (int i = 0; i < t->vars.n; i++) {
        v[n] = named(t->vars.v[i]->name, "variable", t->vars.v[i]->loc, 0);
        lone(d, &v[n++], 1);
    }
    for (int i = 0; i < nn; i++) {
        /* where the spec first names the neighbour */
        mdl_loc at = t->loc;
        for (int k = 0; k < t->sends.n + t->recvs.n; k++) {
            const mdl_msg *m = k < t->sends.n ? t->sends.v[k] : t->recvs.v[k - t->sends.n];
            if (m->neighbor_name && strcmp(m->neighbor_name, nb[i]) == 0) {
                at = m->peer_loc;
                break;
            }
        }
        v[n] = named(nb[i], "neighbour", at, 0);
        lone(d, &v[n++], 0);
    }
    distinct(d, v, n);
    free(v);
    free(nb);

    if (strlen(t->name) + 4 > F_NAME_MAX && strlen(t->name) <= F_NAME_MAX)
        report(d, &t->loc, "task '%s' makes the name of its Fortran module '%s_mdl' of %zu "
                  "characters: Fortran names have at most 63 (--fortran)", t->name, t->name,
                  strlen(t->name) + 4);

    api_list l = { 0 };
    cg_task_api(t, &l);
    f_name *fn = cg_xcalloc((size_t)(l.n + t->vars.n) + 1, sizeof *fn);
    int nf = 0;
    /* the view of each run-time-sized variable is one more procedure */
    mdl_buf *views = cg_xcalloc((size_t)t->vars.n + 1, sizeof *views);
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        if (!v->rtsized)
            continue;
        cg_view_name(&views[i], v);
        if (views[i].n > F_NAME_MAX)
            report(d, &v->loc, "variable '%s' of task '%s' makes the name of its Fortran view "
                      "'%s' of %zu characters: Fortran names have at most 63 (--fortran)",
                      v->name, t->name, views[i].s, views[i].n);
        fn[nf++] = named(views[i].s, "function", v->loc, 0);
    }
    for (int i = 0; i < l.n; i++) {
        const api_fn *f = &l.v[i];
        if (f->kind == API_INIT_AT)
            continue;
        const mdl_msg *m = f->msg;
        fn[nf] = named(f->name, "function", m ? m->loc : t->loc, 0);
        size_t len = strlen(f->name);
        if (len > F_NAME_MAX) {
            if (m)
                report(d, &m->loc, "message '%s' of task '%s' makes the Fortran procedure "
                          "name '%s' of %zu characters: Fortran names have at most 63 "
                          "(--fortran)", m->name, t->name, f->name, len);
            else
                report(d, f->other ? &f->other->loc : &t->loc, "task '%s' makes the Fortran "
                          "procedure name '%s' of task '%s' of %zu characters: Fortran names "
                          "have at most 63 (--fortran)", f->other ? f->other->name : t->name,
                          f->name, t->name, len);
        }
        nf++;
    }
    distinct(d, fn, nf);
    free(fn);
    for (int i = 0; i < t->vars.n; i++)
        cg_buf_free(&views[i]);
    free(views);
    cg_api_free(&l);
}

int mdl_check_fortran(mdl_front *d)
{
    const mdl_spec *s = mdl_front_spec(d);
    int before = mdl_front_errors(d);
    mdl_buf mod = { 0 };
    cg_f_common_module(&mod, s);
    if (mod.n > F_NAME_MAX)
        report(d, NULL, "the spec's file name makes the name of its Fortran module '%s' of "
                        "%zu characters: Fortran names have at most 63; rename the file "
                        "(--fortran)", mod.s, mod.n);
    cg_buf_free(&mod);
    module_scope(d, s);
    struct_fields(d, s);
    for (int i = 0; i < s->tasks.n; i++)
        task(d, s->tasks.v[i]);
    return mdl_front_errors(d) - before;
}
