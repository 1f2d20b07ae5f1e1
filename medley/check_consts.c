/* check_consts.c — `const` declarations: duplicates, cycles, values.
 *
 * Constants are evaluated on demand (a const may use one declared after
 * it, as #defines can), with a per-const state to detect cycles.  -D
 * values were merged by the driver: a const it set has evaluated == 1 on
 * entry and its spec expression, if any, is not looked at. */
#include <string.h>

#include "check_internal.h"

static int const_index(mdl_checker *c, const mdl_const *k)
{
    for (int i = 0; i < c->spec->consts.n; i++)
        if (c->spec->consts.v[i] == k)
            return i;
    return -1;
}

int mdl_const_value(mdl_checker *c, mdl_const *k, const mdl_expr *use,
                    long long *out);

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

void mdl_check_consts(mdl_checker *c)
{
    int n = c->spec->consts.n;
    c->const_state = mdl_alloc(c->arena, sizeof *c->const_state * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        mdl_const *k = c->spec->consts.v[i];
        if (!k || !k->name)
            continue;
        mdl_const *p = mdl_find_const(c, k->name);      /* the first one */
        if (p != k) {
            mdl_error(c->diag, k->loc, "duplicate constant '%s'", k->name);
            mdl_note(c->diag, p->loc, "'%s' was first defined here", p->name);
            /* Its value is never used: lookups find the first one. */
            c->const_state[i] = 2;
        }
    }
    for (int i = 0; i < n; i++) {
        mdl_const *k = c->spec->consts.v[i];
        long long v;
        if (k && c->const_state[i] == 0)
            mdl_const_value(c, k, NULL, &v);
    }
}
