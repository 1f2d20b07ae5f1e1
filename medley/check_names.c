/* check_names.c — message names within a task.
 *
 * Sends must have distinct names, receives too, and collective messages
 * among themselves: each becomes a function name.  A send and a receive
 * may share a name (common in SPMD: `halo` both ways); the generated names
 * differ (MDL_SendTo_… / MDL_RecvFrom_…). */
#include <string.h>

#include "check_internal.h"

typedef MDL_VEC(mdl_msg *) msg_vec;

static void check_unique(mdl_checker *c, mdl_task *t, mdl_msg **v, int n,
                         const char *what)
{
    for (int i = 0; i < n; i++) {
        mdl_msg *m = v[i];
        if (!m || !m->name)
            continue;
        for (int j = 0; j < i; j++) {
            mdl_msg *p = v[j];
            if (p && p->name && strcmp(p->name, m->name) == 0) {
                mdl_error(c->diag, m->loc, "duplicate %s '%s' in task '%s'",
                          what, m->name, t->name ? t->name : "?");
                mdl_note(c->diag, p->loc, "'%s' was first defined here", p->name);
                break;
            }
        }
    }
}

void mdl_check_names(mdl_checker *c)
{
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        if (!t)
            continue;
        check_unique(c, t, t->sends.v, t->sends.n, "send");
        check_unique(c, t, t->recvs.v, t->recvs.n, "receive");
        msg_vec colls = { 0 };
        for (int k = 0; k < t->colls.n; k++) {
            mdl_coll *co = t->colls.v[k];
            for (int j = 0; co && j < co->msgs.n; j++)
                MDL_VEC_PUSH(c->arena, colls, co->msgs.v[j]);
        }
        check_unique(c, t, colls.v, colls.n, "collective message");
    }
}
