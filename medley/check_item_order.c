/* check_item_order.c — a warning for a send and the receive it is paired
 * with that name the same variables in a different order.
 *
 * Items pair by position, so `sends {hits, hist}` received as
 * `{hist, hits}` (both long, same counts) is legal and swaps the data
 * silently.  Different names are normal (each task has its own
 * variables), so only the names both sides use are compared: the order of
 * their first occurrences must be the same on both sides.  First
 * occurrences, so that sections of one variable in another order
 * (`{V[5..9], V[0..4]}`) or split differently (`{V[0..4], V[5..9]}` into
 * `{V}`) are not reported.  A pair written with `matches` is stated by
 * hand and left alone: it is the way to exchange in another order on
 * purpose.  Runs after pairing (s->pair), and only on a spec without
 * errors, so it never adds to the report of an error. */
#include <string.h>

#include "check_internal.h"
#include "symtab.h"

/* Up to this many items a message is scanned; beyond, its names go into a
 * table, so that a message of 100,000 items stays linear. */
enum { SCAN_MAX = 32 };

typedef struct item_names {
    const mdl_msg *m;
    mdl_symtab *first;          /* name -> first item; NULL: scan m */
} item_names;

static const char *var_name(const mdl_item *it)
{
    return it && it->var ? it->var->name : NULL;
}

static void index_items(mdl_checker *c, item_names *n, const mdl_msg *m)
{
    n->m = m;
    n->first = NULL;
    if (m->items.n <= SCAN_MAX)
        return;
    n->first = mdl_symtab_new(c->arena, m->items.n);
    for (int i = 0; i < m->items.n; i++)
        mdl_symtab_add(n->first, var_name(m->items.v[i]), m->items.v[i]);
}

/* The first item of n's message that carries variable `name`, or NULL. */
static const mdl_item *first_item(const item_names *n, const char *name)
{
    if (!name)
        return NULL;
    if (n->first)
        return mdl_symtab_get(n->first, name);
    for (int i = 0; i < n->m->items.n; i++) {
        const char *v = var_name(n->m->items.v[i]);
        if (v && strcmp(v, name) == 0)
            return n->m->items.v[i];
    }
    return NULL;
}

/* From position *pos of own's message, the next item that is the first
 * occurrence of its name and whose name the other side also carries; NULL
 * at the end. */
static const mdl_item *next_shared(const item_names *own, const item_names *other, int *pos)
{
    while (*pos < own->m->items.n) {
        const mdl_item *it = own->m->items.v[(*pos)++];
        const char *name = var_name(it);
        if (name && first_item(own, name) == it && first_item(other, name))
            return it;
    }
    return NULL;
}

static void check_pair(mdl_checker *c, const mdl_msg *s, const mdl_msg *r)
{
    item_names sn, rn;
    index_items(c, &sn, s);
    index_items(c, &rn, r);
    /* Both sequences hold each shared name once, so they have the same
     * length and the first difference names two distinct variables. */
    int i = 0, j = 0;
    for (;;) {
        const mdl_item *x = next_shared(&sn, &rn, &i);
        const mdl_item *y = next_shared(&rn, &sn, &j);
        if (!x || !y)
            return;
        if (strcmp(var_name(x), var_name(y)) != 0) {
            mdl_warning(c->diag, y->loc,
                        "'%s' and '%s' are in a different order in receive '%s' of task '%s' "
                        "than in send '%s' of task '%s': items pair by position, not by name",
                        var_name(y), var_name(x), r->name, r->task->name, s->name,
                        s->task->name);
            mdl_note(c->diag, x->loc, "send '%s' has '%s' before '%s'", s->name,
                     var_name(x), var_name(y));
            return;
        }
    }
}

void mdl_check_item_order(mdl_checker *c)
{
    if (mdl_error_count(c->diag) > 0)
        return;
    for (int t = 0; t < c->spec->tasks.n; t++) {
        const mdl_task *task = c->spec->tasks.v[t];
        if (!task)
            continue;
        for (int k = 0; k < task->sends.n; k++) {
            const mdl_msg *s = task->sends.v[k];
            if (s && s->pair && !s->pair->matches && s->task && s->pair->task)
                check_pair(c, s, s->pair);
        }
    }
}
