/* check_expr.c — integer expressions and name lookups shared by the passes.
 *
 * Arithmetic is done in 64-bit signed integers and every overflow is an
 * error rather than a wrap: a size that silently wrapped would generate a
 * C program that is wrong in a way nobody could trace back to the spec. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_internal.h"
#include "symtab.h"

mdl_const *mdl_find_const(mdl_checker *c, const char *name)
{
    if (!name)
        return NULL;
    if (!c->const_index) {
        c->const_index = mdl_symtab_new(c->arena, c->spec->consts.n);
        for (int i = 0; i < c->spec->consts.n; i++) {
            mdl_const *k = c->spec->consts.v[i];
            if (k)
                mdl_symtab_add(c->const_index, k->name, k);
        }
    }
    return mdl_symtab_get(c->const_index, name);
}

mdl_task *mdl_find_task(mdl_checker *c, const char *name)
{
    if (!name)
        return NULL;
    if (!c->task_index) {
        c->task_index = mdl_symtab_new(c->arena, c->spec->tasks.n);
        for (int i = 0; i < c->spec->tasks.n; i++) {
            mdl_task *t = c->spec->tasks.v[i];
            if (t)
                mdl_symtab_add(c->task_index, t->name, t);
        }
    }
    return mdl_symtab_get(c->task_index, name);
}

/* Through an index made at the first lookup: a scan per lookup made a
 * task of 50,000 variables take seconds (each is looked up). */
mdl_var *mdl_find_var(mdl_checker *c, mdl_task *t, const char *name)
{
    if (!t || !name)
        return NULL;
    if (!t->var_index) {
        t->var_index = mdl_symtab_new(c->arena, t->vars.n);
        for (int i = 0; i < t->vars.n; i++) {
            mdl_var *v = t->vars.v[i];
            if (v && v->name)
                mdl_symtab_add(t->var_index, v->name, v);
        }
    }
    return mdl_symtab_get(t->var_index, name);
}

const char *mdl_did_you_mean(mdl_checker *c, const char *name,
                             const char *const *names, int n)
{
    if (!name || n <= 0)
        return "";
    /* Compact away NULLs and the name itself (a duplicate is not a typo). */
    const char **cand = mdl_alloc(c->arena, sizeof *cand * (size_t)n);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) != 0)
            cand[m++] = names[i];
    /* Identifiers are case-sensitive, so a difference in case only is the
     * likeliest typo of all, whatever the edit distance says. */
    for (int i = 0; i < m; i++)
        if (strcasecmp(cand[i], name) == 0)
            return mdl_hint(c, cand[i]);
    return mdl_hint(c, m ? mdl_suggest(name, cand, m) : NULL);
}

const char *mdl_hint(mdl_checker *c, const char *s)
{
    if (!s)
        return "";
    size_t len = strlen(s) + sizeof "; did you mean ''?";
    char *buf = mdl_alloc(c->arena, len);
    snprintf(buf, len, "; did you mean '%s'?", s);
    return buf;
}

const char *mdl_suggest_const(mdl_checker *c, const char *name)
{
    int n = c->spec->consts.n;
    const char **names = mdl_alloc(c->arena, sizeof *names * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        names[i] = c->spec->consts.v[i] ? c->spec->consts.v[i]->name : NULL;
    return mdl_did_you_mean(c, name, names, n);
}

const char *mdl_suggest_task(mdl_checker *c, const char *name)
{
    int n = c->spec->tasks.n;
    const char **names = mdl_alloc(c->arena, sizeof *names * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        names[i] = c->spec->tasks.v[i] ? c->spec->tasks.v[i]->name : NULL;
    return mdl_did_you_mean(c, name, names, n);
}

const char *mdl_suggest_var(mdl_checker *c, mdl_task *t, const char *name)
{
    int n = t ? t->vars.n : 0;
    const char **names = mdl_alloc(c->arena, sizeof *names * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        names[i] = t->vars.v[i] ? t->vars.v[i]->name : NULL;
    return mdl_did_you_mean(c, name, names, n);
}

/* Constants and the int scalar variables of t, for "did you mean" in a
 * bound where both are allowed. */
static const char *suggest_const_or_var(mdl_checker *c, mdl_task *t,
                                        const char *name)
{
    int nk = c->spec->consts.n, nv = t->vars.n;
    const char **names = mdl_alloc(c->arena,
                                   sizeof *names * (size_t)(nk + nv + 1));
    int n = 0;
    for (int i = 0; i < nk; i++)
        names[n++] = c->spec->consts.v[i] ? c->spec->consts.v[i]->name : NULL;
    for (int i = 0; i < nv; i++) {
        mdl_var *v = t->vars.v[i];
        if (v && v->form == MDL_V_SCALAR && mdl_is_int_type(&v->type))
            names[n++] = v->name;
    }
    return mdl_did_you_mean(c, name, names, n);
}

/* A const's value, evaluated on the first use (a const may use one
 * declared after it, as #defines can); c->const_state finds cycles. */
static int const_index(mdl_checker *c, const mdl_const *k)
{
    for (int i = 0; i < c->spec->consts.n; i++)
        if (c->spec->consts.v[i] == k)
            return i;
    return -1;
}

int mdl_const_value(mdl_checker *c, mdl_const *k, const mdl_expr *use,
                    long long *out)
{
    int i = const_index(c, k);
    if (i < 0 || !c->const_state)
        return 0;
    switch (c->const_state[i]) {
    case 1:
        /* Report once, at the const whose definition loops back. */
        c->const_state[i] = 3;
        mdl_error(c->diag, k->loc, "constant '%s' is defined in terms of itself",
                  k->name);
        if (use)
            mdl_note(c->diag, use->loc, "'%s' is used here", k->name);
        return 0;
    case 3:
        return 0;
    case 2:
        if (k->evaluated)
            *out = k->val;
        return k->evaluated;
    }
    if (k->evaluated) {         /* set on the command line */
        c->const_state[i] = 2;
        *out = k->val;
        return 1;
    }
    c->const_state[i] = 1;
    long long v = 0;
    int ok = k->value && mdl_eval_const(c, k->value, &v);
    if (c->const_state[i] == 3)  /* part of a cycle: already reported */
        ok = 0;
    c->const_state[i] = 2;
    k->evaluated = ok;
    k->val = ok ? v : 0;
    if (ok)
        *out = v;
    return ok;
}

static mdl_eval_result eval(mdl_checker *c, mdl_expr *e, mdl_task *task,
                            long long *out)
{
    if (!e)
        return MDL_EV_ERROR;
    switch (e->kind) {
    case MDL_E_INT:
        *out = e->ival;
        return MDL_EV_CONST;
    case MDL_E_NAME: {
        e->cref = NULL;
        e->vref = NULL;
        mdl_const *k = mdl_find_const(c, e->name);
        if (k) {
            e->cref = k;
            return mdl_const_value(c, k, e, out) ? MDL_EV_CONST : MDL_EV_ERROR;
        }
        mdl_var *v = task ? mdl_find_var(c, task, e->name) : NULL;
        if (v) {
            if (v->form != MDL_V_SCALAR || !mdl_is_int_type(&v->type)) {
                mdl_error(c->diag, e->loc,
                          "'%s' is not an integer scalar variable and cannot be used in an index or count",
                          e->name);
                mdl_note(c->diag, v->loc, "'%s' is declared here", v->name);
                return MDL_EV_ERROR;
            }
            e->vref = v;
            return MDL_EV_RUNTIME;
        }
        if (!e->name)
            return MDL_EV_ERROR;
        if (task)
            mdl_error(c->diag, e->loc,
                      "unknown identifier '%s' (neither a constant nor a variable of task '%s')%s",
                      e->name, task->name ? task->name : "?",
                      suggest_const_or_var(c, task, e->name));
        else
            mdl_error(c->diag, e->loc, "unknown constant '%s'%s", e->name,
                      mdl_suggest_const(c, e->name));
        return MDL_EV_ERROR;
    }
    case MDL_E_NEG: {
        long long a;
        mdl_eval_result r = eval(c, e->l, task, &a);
        if (r != MDL_EV_CONST)
            return r;
        if (a == (-9223372036854775807LL - 1)) {
            mdl_error(c->diag, e->loc, "integer overflow in constant expression");
            return MDL_EV_ERROR;
        }
        *out = -a;
        return MDL_EV_CONST;
    }
    case MDL_E_ADD: case MDL_E_SUB: case MDL_E_MUL: case MDL_E_DIV: {
        long long a = 0, b = 0;
        mdl_eval_result ra = eval(c, e->l, task, &a);
        mdl_eval_result rb = eval(c, e->r, task, &b);
        if (ra == MDL_EV_ERROR || rb == MDL_EV_ERROR)
            return MDL_EV_ERROR;
        if (ra == MDL_EV_RUNTIME || rb == MDL_EV_RUNTIME)
            return MDL_EV_RUNTIME;
        int ovf = 0;
        switch (e->kind) {
        case MDL_E_ADD: ovf = __builtin_add_overflow(a, b, out); break;
        case MDL_E_SUB: ovf = __builtin_sub_overflow(a, b, out); break;
        case MDL_E_MUL: ovf = __builtin_mul_overflow(a, b, out); break;
        default:
            if (b == 0) {
                mdl_error(c->diag, e->loc, "division by zero in constant expression");
                return MDL_EV_ERROR;
            }
            if (a == (-9223372036854775807LL - 1) && b == -1)
                ovf = 1;
            else
                *out = a / b;   /* truncates toward zero, as C does */
        }
        if (ovf) {
            mdl_error(c->diag, e->loc, "integer overflow in constant expression");
            return MDL_EV_ERROR;
        }
        return MDL_EV_CONST;
    }
    }
    return MDL_EV_ERROR;
}

mdl_eval_result mdl_eval(mdl_checker *c, mdl_expr *e, mdl_task *task,
                         long long *out)
{
    long long v = 0;
    mdl_eval_result r = eval(c, e, task, &v);
    if (r == MDL_EV_CONST)
        *out = v;
    return r;
}

int mdl_eval_const(mdl_checker *c, mdl_expr *e, long long *out)
{
    return mdl_eval(c, e, NULL, out) == MDL_EV_CONST;
}
