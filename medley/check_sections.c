/* check_sections.c — the items of point-to-point messages.
 *
 * Each item names a `uses` variable, whole or as a section.  A section
 * gives no index (whole variable) or exactly one per dimension (a pointer:
 * exactly one, a range, since its extent is unknown).  Bounds are
 * expressions of consts and int scalar variables; constant ones are
 * checked against the declared extent here, the others at run time.
 * Fills item->var, item->count (elements selected: a single index, even a
 * run-time one, is one element; -1 when a range has run-time bounds),
 * index sema fields, and numbers the `[..]` ranges of each message in
 * order of appearance (runtime_slot, msg->nruntime). */
#include "check_internal.h"

mdl_var *mdl_item_var(mdl_checker *c, mdl_task *t, mdl_msg *m, mdl_item *it)
{
    it->var = NULL;
    if (it->kind != MDL_IT_REF) {
        mdl_error(c->diag, it->loc,
                  "item of message '%s' must be a variable of task '%s' or a section of one",
                  m->name, t->name);
        return NULL;
    }
    if (!it->name)
        return NULL;
    mdl_var *v = mdl_find_var(c, t, it->name);
    if (!v) {
        mdl_const *k = mdl_find_const(c, it->name);
        if (k)
            mdl_error(c->diag, it->loc,
                      "'%s' is a constant, not a variable of task '%s'; message '%s' can only carry variables",
                      it->name, t->name, m->name);
        else
            mdl_error(c->diag, it->loc,
                      "unknown variable '%s' in message '%s' of task '%s'%s",
                      it->name, m->name, t->name, mdl_suggest_var(c, t, it->name));
        return NULL;
    }
    it->var = v;
    return v;
}

/* Checks one constant bound against dimension d of v. */
static int bound_ok(mdl_checker *c, mdl_var *v, int d, long long b, mdl_loc loc)
{
    if (v->form == MDL_V_POINTER) {
        if (b >= 0)
            return 1;
        mdl_error(c->diag, loc, "index %lld of pointer '%s' is negative", b, v->name);
        return 0;
    }
    long long ext = v->dimval ? v->dimval[d] : -1;
    if (ext < 0 || (b >= 0 && b < ext))
        return 1;
    if (v->dims.n == 1)
        mdl_error(c->diag, loc, "index %lld is outside '%s' (indices 0..%lld)",
                  b, v->name, ext - 1);
    else
        mdl_error(c->diag, loc,
                  "index %lld is outside '%s' in dimension %d (indices 0..%lld)",
                  b, v->name, d, ext - 1);
    return 0;
}

int mdl_check_indices(mdl_checker *c, mdl_task *t, mdl_msg *m, mdl_item *it,
                      mdl_index_use use)
{
    mdl_var *v = it->var;
    int ndims = v->form == MDL_V_POINTER ? 1 : v->dims.n;
    it->count = -1;
    if (it->idx.n == 0) {
        if (v->form == MDL_V_POINTER) {
            mdl_error(c->diag, it->loc,
                      "pointer '%s' needs an explicit range, e.g. '%s[0..n-1]'",
                      v->name, v->name);
            return 0;
        }
        it->count = v->nelems;
        return v->nelems >= 0;
    }
    if (ndims == 0) {
        mdl_error(c->diag, it->loc, "'%s' is a scalar and cannot be indexed", v->name);
        return 0;
    }
    if (it->idx.n != ndims && !(use == MDL_IDX_BUFFER_START && it->idx.n < ndims)) {
        if (v->form == MDL_V_POINTER)
            mdl_error(c->diag, it->loc,
                      "pointer '%s' takes exactly one index, not %d", v->name, it->idx.n);
        else
            mdl_error(c->diag, it->loc,
                      "'%s' has %d dimension%s but %d ind%s given", v->name, ndims,
                      ndims == 1 ? "" : "s", it->idx.n, it->idx.n == 1 ? "ex is" : "ices are");
        return 0;
    }
    int ok = 1, count_known = 1;
    long long count = 1;
    for (int d = 0; d < it->idx.n; d++) {
        mdl_index *ix = it->idx.v[d];
        if (!ix) {
            ok = 0;
            continue;
        }
        ix->is_const = 0;
        ix->runtime_slot = -1;
        if (ix->kind == MDL_IX_RUNTIME) {
            count_known = 0;
            if (use != MDL_IDX_SECTION) {
                mdl_error(c->diag, ix->loc,
                          "'[..]' is not allowed in collective '%s': it has no bound arguments",
                          m->name);
                ok = 0;
            } else {
                ix->runtime_slot = m->nruntime++;
            }
            continue;
        }
        long long lo = 0, hi = 0;
        mdl_eval_result rl = mdl_eval(c, ix->lo, t, &lo);
        mdl_eval_result rh = ix->kind == MDL_IX_RANGE ? mdl_eval(c, ix->hi, t, &hi) : rl;
        if (ix->kind == MDL_IX_SINGLE)
            hi = lo;
        if (rl == MDL_EV_ERROR || rh == MDL_EV_ERROR) {
            ok = 0;
            continue;
        }
        if (rl == MDL_EV_CONST && !bound_ok(c, v, d, lo, ix->lo->loc))
            ok = 0;
        if (ix->kind == MDL_IX_RANGE && rh == MDL_EV_CONST &&
            !bound_ok(c, v, d, hi, ix->hi->loc))
            ok = 0;
        if (rl != MDL_EV_CONST || rh != MDL_EV_CONST) {
            /* `jobs[slot]` is one element wherever slot points */
            if (ix->kind == MDL_IX_RANGE)
                count_known = 0;
            continue;
        }
        if (lo > hi) {
            mdl_error(c->diag, ix->loc, "empty range %lld..%lld in section of '%s'",
                      lo, hi, v->name);
            ok = 0;
            continue;
        }
        ix->is_const = 1;
        ix->lo_val = lo;
        ix->hi_val = hi;
        if (!mdl_mul_size(count, hi - lo + 1, &count))
            count_known = 0;    /* only a pointer range, unbounded, can overflow */
    }
    if (ok && count_known)
        it->count = count;
    return ok;
}

/* The first variable of e (after mdl_eval) that m also receives, or NULL. */
static const mdl_expr *received_in(const mdl_expr *e, const mdl_msg *m)
{
    if (!e)
        return NULL;
    if (e->kind == MDL_E_NAME) {
        for (int k = 0; e->vref && k < m->items.n; k++)
            if (m->items.v[k] && m->items.v[k]->var == e->vref)
                return e;
        return NULL;
    }
    const mdl_expr *l = received_in(e->l, m);
    return l ? l : received_in(e->r, m);
}

/* Bounds are read when the receive is called, so a bound variable that the
 * same message carries has its old value: almost surely not what the
 * author meant (`sequence{n, V[0..n-1]}`). */
static void warn_bounds_received(mdl_checker *c, const mdl_msg *m)
{
    for (int k = 0; k < m->items.n; k++) {
        const mdl_item *it = m->items.v[k];
        for (int d = 0; it && it->var && d < it->idx.n; d++) {
            const mdl_index *ix = it->idx.v[d];
            const mdl_expr *e = received_in(ix->lo, m);
            if (!e && ix->kind == MDL_IX_RANGE)
                e = received_in(ix->hi, m);
            if (e)
                mdl_warning(c->diag, e->loc,
                            "bound '%s' is read when '%s' is called, before the value of '%s' this message carries arrives",
                            e->name, m->name, e->name);
        }
    }
}

void mdl_check_sections(mdl_checker *c)
{
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        if (!t || !t->name)
            continue;
        for (int pass = 0; pass < 2; pass++) {
            mdl_msg **msgs = pass ? t->recvs.v : t->sends.v;
            int n = pass ? t->recvs.n : t->sends.n;
            for (int j = 0; j < n; j++) {
                mdl_msg *m = msgs[j];
                if (!m || !m->name)
                    continue;
                m->nruntime = 0;
                for (int k = 0; k < m->items.n; k++) {
                    mdl_item *it = m->items.v[k];
                    if (!it)
                        continue;
                    /* A bad item leaves var NULL: pairing then skips the
                     * message instead of reporting a consequence. */
                    if (mdl_item_var(c, t, m, it) &&
                        !mdl_check_indices(c, t, m, it, MDL_IDX_SECTION))
                        it->var = NULL;
                    if (!it->var)
                        it->count = -1;
                }
                if (pass)
                    warn_bounds_received(c, m);
            }
        }
    }
}
