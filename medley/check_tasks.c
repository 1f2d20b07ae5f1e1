/* check_tasks.c — task names and the `connected with` relation.
 *
 * The relation is made symmetric here (father's `setof(son)` lets son talk
 * to father too) and stored in task->connected, which the peer check and
 * the emitters use, and task->single follows from it.  A family talks to itself when it is SPMD (written
 * with `(i)`) without an explicit setof, when it is a grid, or when it
 * names itself; a single MPMD task does not, unless it names itself. */
#include <string.h>

#include "check_internal.h"

static void connect1(mdl_checker *c, mdl_task *a, mdl_task *b)
{
    if (!mdl_task_connected(a, b))
        MDL_VEC_PUSH(c->arena, a->connected, b);
}

static void connect(mdl_checker *c, mdl_task *a, mdl_task *b)
{
    connect1(c, a, b);
    connect1(c, b, a);
}

/* The task names of `connected with` other than the task itself, for
 * did-you-mean. */
static const char *suggest_other_task(mdl_checker *c, const mdl_task *self,
                                      const char *name)
{
    int n = c->spec->tasks.n;
    const char **names = mdl_alloc(c->arena, sizeof *names * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        names[i] = t && t != self ? t->name : NULL;
    }
    return mdl_did_you_mean(c, name, names, n);
}

void mdl_check_tasks(mdl_checker *c)
{
    mdl_spec *s = c->spec;
    for (int i = 0; i < s->tasks.n; i++) {
        mdl_task *t = s->tasks.v[i];
        if (!t)
            continue;
        t->index = i;
        t->connected.n = 0;
        if (!t->name)
            continue;
        mdl_task *first = mdl_find_task(c, t->name);
        if (first != t) {
            mdl_error(c->diag, t->loc, "duplicate task '%s'", t->name);
            mdl_note(c->diag, first->loc, "'%s' was first declared here", t->name);
        }
    }
    for (int i = 0; i < s->tasks.n; i++) {
        mdl_task *t = s->tasks.v[i];
        if (!t)
            continue;
        if (t->conn == MDL_C_GRID || (t->multi && t->conn != MDL_C_SETOF))
            connect1(c, t, t);
        if (t->conn != MDL_C_SETOF && t->conn != MDL_C_TASK)
            continue;
        for (int k = 0; k < t->conn_names.n; k++) {
            const char *name = t->conn_names.v[k];
            mdl_loc loc = k < t->conn_locs.n ? t->conn_locs.v[k] : t->loc;
            mdl_task *u = mdl_find_task(c, name);
            if (u)
                connect(c, t, u);
            else if (name)
                mdl_error(c->diag, loc, "task '%s' is connected with unknown task '%s'%s",
                          t->name ? t->name : "?", name,
                          suggest_other_task(c, t, name));
        }
    }
    /* Once the relation is complete: a task no family of which talks to
     * itself is instantiated once (reference §3.1); the runtimes refuse
     * more. */
    for (int i = 0; i < s->tasks.n; i++) {
        mdl_task *t = s->tasks.v[i];
        if (t)
            t->single = !t->multi && t->conn != MDL_C_GRID && !mdl_task_connected(t, t);
    }
}
