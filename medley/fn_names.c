/* fn_names.c — the name of each message's function (m->fn_name), once
 * the peers and the collectives are resolved: "MDL_SendTo_<peer>_<name>",
 * "MDL_RecvFrom_<peer>_<name>", "MDL_<Collective>_<name>" (reference §6).
 * The generated code is named by it, the runtimes report it, traces
 * record it and mdltrace --spec finds a spec's messages in a trace by it. */
#include <stdarg.h>
#include <stdio.h>

#include "check_internal.h"

static const char *arena_printf(mdl_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const char *arena_printf(mdl_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = mdl_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* By the list it is in: is_send is set by the pairing, later. */
static void name_p2p(mdl_checker *c, mdl_msg *m, const char *verb)
{
    if (m && m->name && m->peer_task && m->peer_task->name)
        m->fn_name = arena_printf(c->arena, "MDL_%s_%s_%s", verb, m->peer_task->name, m->name);
}

void mdl_name_functions(mdl_checker *c)
{
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        if (!t)
            continue;
        for (int k = 0; k < t->sends.n; k++)
            name_p2p(c, t->sends.v[k], "SendTo");
        for (int k = 0; k < t->recvs.n; k++)
            name_p2p(c, t->recvs.v[k], "RecvFrom");
        for (int k = 0; k < t->colls.n; k++) {
            const mdl_coll *co = t->colls.v[k];
            if (!co || co->kind < 0 || co->kind >= MDL_CO_UNKNOWN)
                continue;
            for (int j = 0; j < co->msgs.n; j++) {
                mdl_msg *m = co->msgs.v[j];
                if (m && m->name)
                    m->fn_name = arena_printf(c->arena, "MDL_%s_%s",
                                              mdl_coll_kind_name(co->kind), m->name);
            }
        }
    }
}
