/* check_grid.c — `connected with grid(N [, periodic…]) [of A]` and the
 * grid neighbour names used as peers.
 *
 * Neighbour names: one direction word per axis joined by `_`, ending in
 * `Neighbor`: West/East (axis 0), South/North (axis 1), Down/Up (axis 2).
 * Words may come in any order (`North_West_Neighbor` is
 * `West_North_Neighbor`), each axis at most once; they are matched
 * ignoring case like keywords, but the name is kept as written since it
 * becomes a member of the task struct. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_internal.h"

void mdl_check_grid(mdl_checker *c)
{
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        if (!t)
            continue;
        t->grid_ndims = 0;
        memset(t->periodic, 0, sizeof t->periodic);
        if (t->conn != MDL_C_GRID || !t->name)
            continue;
        long long n = 2;
        if (t->grid_dims_expr && mdl_eval_const(c, t->grid_dims_expr, &n) &&
            (n < 1 || n > 3)) {
            mdl_error(c->diag, t->grid_dims_expr->loc,
                      "grid of task '%s' must have 1 to 3 dimensions, not %lld",
                      t->name, n);
            n = n < 1 ? 1 : 3;  /* keep checking neighbours against something */
        }
        t->grid_ndims = (int)n;
        if (t->grid_of && strcmp(t->grid_of, t->name) != 0) {
            mdl_error(c->diag, t->grid_of_loc,
                      "grid of task '%s' must be made of '%s' itself, not of '%s'",
                      t->name, t->name, t->grid_of);
        }
        if (!t->periodic_given)
            continue;
        if (t->periodic_exprs.n == 0) {
            for (int d = 0; d < t->grid_ndims; d++)
                t->periodic[d] = 1;
            continue;
        }
        if (t->periodic_exprs.n != t->grid_ndims) {
            mdl_error(c->diag, t->periodic_exprs.v[0] ? t->periodic_exprs.v[0]->loc : t->loc,
                      "periodic(...) of task '%s' has %d entries but the grid has %d dimensions",
                      t->name, t->periodic_exprs.n, t->grid_ndims);
            continue;
        }
        for (int d = 0; d < t->periodic_exprs.n; d++) {
            long long v;
            if (!mdl_eval_const(c, t->periodic_exprs.v[d], &v))
                continue;
            if (v != 0 && v != 1)
                mdl_error(c->diag, t->periodic_exprs.v[d]->loc,
                          "periodic(...) entries must be 0 or 1, not %lld", v);
            else
                t->periodic[d] = (int)v;
        }
    }
}

static const struct { const char *word; int axis, dir; } directions[] = {
    { "West", 0, -1 }, { "East", 0, +1 },
    { "South", 1, -1 }, { "North", 1, +1 },
    { "Down", 2, -1 }, { "Up", 2, +1 },
};

int mdl_is_neighbor_name(const char *name)
{
    static const char suffix[] = "_Neighbor";
    size_t n = name ? strlen(name) : 0, k = sizeof suffix - 1;
    return n > k && strcasecmp(name + n - k, suffix) == 0;
}

const char *mdl_direction_name(int axis, int dir)
{
    for (size_t i = 0; i < sizeof directions / sizeof *directions; i++)
        if (directions[i].axis == axis && directions[i].dir == dir)
            return directions[i].word;
    return "?";
}

int mdl_decode_neighbor(mdl_checker *c, const mdl_msg *m, const char *name,
                        int offset[3], int *maxaxis)
{
    size_t len = strlen(name) - (sizeof "_Neighbor" - 1);
    const char *p = name, *end = name + len;
    int ok = 1;
    offset[0] = offset[1] = offset[2] = 0;
    *maxaxis = -1;
    while (p < end) {
        const char *q = memchr(p, '_', (size_t)(end - p));
        size_t wl = q ? (size_t)(q - p) : (size_t)(end - p);
        int found = -1;
        for (size_t i = 0; i < sizeof directions / sizeof *directions; i++)
            if (strlen(directions[i].word) == wl &&
                strncasecmp(directions[i].word, p, wl) == 0)
                found = (int)i;
        char *word = mdl_strndup(c->arena, p, wl);
        if (found < 0) {
            const char *words[6];
            for (int i = 0; i < 6; i++)
                words[i] = directions[i].word;
            mdl_error(c->diag, m->peer_loc,
                      "unknown direction '%s' in neighbour '%s'%s", word, name,
                      mdl_did_you_mean(c, word, words, 6));
            ok = 0;
        } else if (offset[directions[found].axis] != 0) {
            mdl_error(c->diag, m->peer_loc,
                      "neighbour '%s' gives dimension %d twice ('%s' and '%s')",
                      name, directions[found].axis,
                      mdl_direction_name(directions[found].axis,
                                         offset[directions[found].axis]),
                      word);
            ok = 0;
        } else {
            offset[directions[found].axis] = directions[found].dir;
            if (directions[found].axis > *maxaxis)
                *maxaxis = directions[found].axis;
        }
        p += wl + 1;
    }
    if (ok && *maxaxis < 0) {
        mdl_error(c->diag, m->peer_loc, "neighbour '%s' names no direction", name);
        ok = 0;
    }
    return ok;
}
