/* check_vars.c — the `uses` variables of each task.
 *
 * Fills dimval and nelems: sizes are constant expressions (consts and -D
 * names only, since the variables become C arrays of fixed size), must be
 * positive, and their product must fit in 64 bits.  The bytes must fit a
 * C object too (PTRDIFF_MAX: larger arrays and structs do not compile):
 * a variable alone, and all of a task's variables, its generated struct. */
#include <stdint.h>
#include <string.h>

#include "check_internal.h"
/* MDL_MAX_DIMS: the runtime's item descriptors have that many extents. */
#include "mdl_rt.h"

/* The bytes v takes in the task struct (padding between members aside),
 * or -1 if that does not fit a C object; 0 when its size is unknown after
 * an error. */
static long long var_bytes(const mdl_var *v)
{
    long long bytes, elem = mdl_type_size(&v->type);
    if (v->form == MDL_V_POINTER)
        return 8;
    if (v->nelems < 0 || elem < 0)
        return 0;
    if (!mdl_mul_size(v->nelems, elem, &bytes) || bytes > PTRDIFF_MAX)
        return -1;
    return bytes;
}

static void check_var(mdl_checker *c, mdl_task *t, mdl_var *v)
{
    mdl_var *first = mdl_find_var(c, t, v->name);
    if (first != v) {
        mdl_error(c->diag, v->loc, "duplicate variable '%s' in task '%s'",
                  v->name, t->name ? t->name : "?");
        mdl_note(c->diag, first->loc, "'%s' was first declared here", v->name);
    }
    /* The const becomes a #define in the generated header, which would
     * rewrite the member's name. */
    mdl_const *k = mdl_find_const(c, v->name);
    if (k) {
        mdl_error(c->diag, v->loc, "variable '%s' has the name of a constant",
                  v->name);
        if (k->value || !k->from_cmdline)
            mdl_note(c->diag, k->loc, "constant '%s' is defined here", k->name);
    }
    v->nelems = -1;
    v->dimval = NULL;
    if (v->form == MDL_V_POINTER)
        return;
    if (v->dims.n > MDL_MAX_DIMS) {
        mdl_error(c->diag, v->loc, "variable '%s' has %d dimensions; at most %d are supported",
                  v->name, v->dims.n, MDL_MAX_DIMS);
        return;
    }
    v->dimval = v->dims.n ? mdl_alloc(c->arena, sizeof *v->dimval * (size_t)v->dims.n)
                          : NULL;
    long long total = 1;
    int ok = 1, overflow = 0;
    for (int d = 0; d < v->dims.n; d++) {
        long long n = 0;
        mdl_expr *e = v->dims.v[d];
        v->dimval[d] = -1;
        if (!mdl_eval_const(c, e, &n)) {
            ok = 0;
            continue;
        }
        if (n <= 0) {
            mdl_error(c->diag, e->loc, "size of '%s' must be positive (it is %lld)", v->name, n);
            ok = 0;
            continue;
        }
        v->dimval[d] = n;
        if (!overflow && !mdl_mul_size(total, n, &total))
            overflow = 1;
    }
    if (ok && overflow) {
        mdl_error(c->diag, v->loc, "total size of '%s' does not fit in a 64-bit integer",
                  v->name);
        ok = 0;
    }
    if (ok)
        v->nelems = total;
    if (ok && var_bytes(v) < 0) {
        mdl_error(c->diag, v->loc, "'%s' takes more than %lld bytes, too large for a C object",
                  v->name, (long long)PTRDIFF_MAX);
        v->nelems = -1;
    }
}

void mdl_check_vars(mdl_checker *c)
{
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        long long sum = 0;
        for (int j = 0; t && j < t->vars.n; j++)
            if (t->vars.v[j] && t->vars.v[j]->name) {
                check_var(c, t, t->vars.v[j]);
                long long bytes = var_bytes(t->vars.v[j]);
                if (sum >= 0 && bytes >= 0 &&
                    (__builtin_add_overflow(sum, bytes, &sum) || sum > PTRDIFF_MAX)) {
                    mdl_error(c->diag, t->vars.v[j]->loc,
                              "the variables of task '%s' take more than %lld bytes, too large for its C struct",
                              t->name ? t->name : "?", (long long)PTRDIFF_MAX);
                    sum = -1;
                }
            }
    }
}
