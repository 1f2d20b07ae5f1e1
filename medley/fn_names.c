/* fn_names.c — the name of each message's function (m->fn_name), once
 * the peers and the collectives are resolved, from the patterns of
 * common/mdl_api.h: "MDL_SendTo_<peer>_<name>", "MDL_RecvFrom_<peer>_<name>",
 * "MDL_<Collective>_<name>" (reference §6).  The generated code is named
 * by it, the runtimes report it, traces record it and mdltrace --spec
 * finds a spec's messages in a trace by it. */
#include "check_internal.h"
#include "mdl_api.h"

static void name_fn(mdl_checker *c, mdl_msg *m, enum mdl_fn fn, const char *part)
{
    const char *pattern = mdl_fn_patterns[fn];
    size_t n = mdl_fn_format(NULL, 0, pattern, part, m->name);
    char *s = mdl_alloc(c->arena, n + 1);
    mdl_fn_format(s, n + 1, pattern, part, m->name);
    m->fn_name = s;
}

/* By the list it is in: is_send is set by the pairing, later. */
static void name_p2p(mdl_checker *c, mdl_msg *m, enum mdl_fn fn)
{
    if (m && m->name && m->peer_task && m->peer_task->name)
        name_fn(c, m, fn, m->peer_task->name);
}

void mdl_name_functions(mdl_checker *c)
{
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        if (!t)
            continue;
        for (int k = 0; k < t->sends.n; k++)
            name_p2p(c, t->sends.v[k], MDL_FN_SEND);
        for (int k = 0; k < t->recvs.n; k++)
            name_p2p(c, t->recvs.v[k], MDL_FN_RECV);
        for (int k = 0; k < t->colls.n; k++) {
            const mdl_coll *co = t->colls.v[k];
            if (!co || co->kind < 0 || co->kind >= MDL_CO_UNKNOWN)
                continue;
            for (int j = 0; j < co->msgs.n; j++) {
                mdl_msg *m = co->msgs.v[j];
                if (m && m->name)
                    name_fn(c, m, MDL_FN_COLL, mdl_co_kind_name(co->kind));
            }
        }
    }
}
