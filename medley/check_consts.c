/* check_consts.c — `const` declarations: duplicates, cycles, values.
 *
 * Every const is evaluated here unless an expression evaluated it first:
 * expressions evaluate the consts they name on demand (mdl_const_value,
 * check_expr.c), so a const may use one declared after it, as #defines
 * can.  -D values were merged by the driver: a const it set has
 * evaluated == 1 on entry and its spec expression, if any, is not looked
 * at. */
#include "check_internal.h"

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
