/* check_peers.c — the peer of each point-to-point message.
 *
 * Resolves `to A` / `from A` to a connected task, turns grid neighbours
 * (`North_Neighbor`, `Neighbor[dx][dy]`) into MDL_P_NEIGHBOR with their
 * offset, and makes a message without a peer go to the own family.  On
 * error peer_task stays NULL and the pairing pass skips the message. */
#include <string.h>

#include "check_internal.h"

static const char *suggest_connected(mdl_checker *c, mdl_task *t, const char *name)
{
    const char **names = mdl_alloc(c->arena, sizeof *names * (size_t)(t->connected.n + 1));
    for (int i = 0; i < t->connected.n; i++)
        names[i] = t->connected.v[i]->name;
    return mdl_did_you_mean(c, name, names, t->connected.n);
}

/* Grid checks common to both neighbour forms. */
static int neighbor_allowed(mdl_checker *c, mdl_task *t, mdl_msg *m, const char *shown)
{
    if (t->grid_ndims == 0) {
        mdl_error(c->diag, m->peer_loc,
                  "message '%s' names neighbour '%s' but task '%s' is not a grid (connected with grid(N))",
                  m->name, shown, t->name);
        return 0;
    }
    if (m->peer_kind == MDL_P_ALL || m->peer_kind == MDL_P_SUBSET) {
        mdl_error(c->diag, m->peer_loc,
                  "neighbour '%s' cannot be used with %s; a neighbour is one instance",
                  shown, m->peer_kind == MDL_P_ALL ? "{...}" : "[...]");
        return 0;
    }
    return 1;
}

static void named_neighbor(mdl_checker *c, mdl_task *t, mdl_msg *m)
{
    int off[3], maxaxis;
    if (!neighbor_allowed(c, t, m, m->peer) ||
        !mdl_decode_neighbor(c, m, m->peer, off, &maxaxis))
        return;
    if (maxaxis >= t->grid_ndims) {
        mdl_error(c->diag, m->peer_loc,
                  "neighbour '%s' uses direction '%s' but task '%s' is a %d-D grid",
                  m->peer, mdl_direction_name(maxaxis, off[maxaxis]), t->name,
                  t->grid_ndims);
        return;
    }
    /* The generated task struct gets an int member of that name. */
    mdl_var *v = mdl_find_var(c, t, m->peer);
    if (v) {
        mdl_error(c->diag, v->loc,
                  "variable '%s' of task '%s' has the name of a neighbour; the neighbour's rank is a member of that name",
                  v->name, t->name);
        mdl_note(c->diag, m->peer_loc, "neighbour '%s' is used here", m->peer);
        return;
    }
    m->peer_kind = MDL_P_NEIGHBOR;
    memcpy(m->offset, off, sizeof off);
    m->neighbor_name = m->peer;
    m->peer_task = t;
}

static void offset_neighbor(mdl_checker *c, mdl_task *t, mdl_msg *m)
{
    if (!neighbor_allowed(c, t, m, "Neighbor[...]"))
        return;
    if (m->offset_exprs.n != t->grid_ndims) {
        mdl_error(c->diag, m->peer_loc,
                  "Neighbor[...] of message '%s' has %d offsets but task '%s' is a %d-D grid",
                  m->name, m->offset_exprs.n, t->name, t->grid_ndims);
        return;
    }
    int off[3] = { 0, 0, 0 }, ok = 1, zero = 1;
    for (int d = 0; d < m->offset_exprs.n; d++) {
        long long v = 0;
        mdl_expr *e = m->offset_exprs.v[d];
        if (!mdl_eval_const(c, e, &v)) {
            ok = 0;
        } else if (v < -1000000 || v > 1000000) {
            mdl_error(c->diag, e->loc, "neighbour offset %lld is out of range", v);
            ok = 0;
        } else {
            off[d] = (int)v;
            zero &= v == 0;
        }
    }
    if (!ok)
        return;
    if (zero) {
        mdl_error(c->diag, m->peer_loc,
                  "Neighbor[...] of message '%s' has offset 0 in every dimension, which is the instance itself",
                  m->name);
        return;
    }
    m->peer_kind = MDL_P_NEIGHBOR;
    memcpy(m->offset, off, sizeof off);
    m->neighbor_name = NULL;
    m->peer_task = t;
}

static void check_msg(mdl_checker *c, mdl_task *t, mdl_msg *m)
{
    m->task = t;
    m->peer_task = NULL;
    if (!m->name)
        return;
    if (m->offset_exprs.n > 0) {
        offset_neighbor(c, t, m);
        return;
    }
    if (m->peer_kind == MDL_P_NONE || !m->peer) {
        if (!mdl_task_connected(t, t)) {
            mdl_error(c->diag, m->loc,
                      "message '%s' has no peer, so it is exchanged within task '%s''s own family, but '%s' is not connected with itself",
                      m->name, t->name, t->name);
            return;
        }
        m->peer_kind = MDL_P_NONE;
        m->peer_task = t;
        return;
    }
    mdl_task *p = mdl_find_task(c, m->peer);
    if (!p && mdl_is_neighbor_name(m->peer)) {
        named_neighbor(c, t, m);
        return;
    }
    if (!m->is_send && m->peer_kind != MDL_P_ONE && m->peer_kind != MDL_P_NEIGHBOR) {
        int all = m->peer_kind == MDL_P_ALL;
        mdl_error(c->diag, m->peer_loc,
                  "receive '%s' cannot be 'from %c%s%c': only sends broadcast or multicast; write 'from %s'",
                  m->name, all ? '{' : '[', m->peer, all ? '}' : ']', m->peer);
        return;
    }
    if (!p) {                   /* not a task at all: say so, not "not connected" */
        mdl_error(c->diag, m->peer_loc, "message '%s' of task '%s' names unknown task '%s'%s",
                  m->name, t->name, m->peer, suggest_connected(c, t, m->peer));
        return;
    }
    if (!mdl_task_connected(t, p)) {
        mdl_error(c->diag, m->peer_loc, "task '%s' is not connected with '%s'", t->name,
                  m->peer);
        mdl_note(c->diag, p->loc, "task '%s' is declared here", p->name);
        return;
    }
    if (m->peer_kind == MDL_P_NEIGHBOR)  /* parser's guess; it names a task */
        m->peer_kind = MDL_P_ONE;
    m->peer_task = p;
}

void mdl_check_peers(mdl_checker *c)
{
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        if (!t || !t->name)
            continue;
        for (int j = 0; j < t->sends.n; j++)
            if (t->sends.v[j])
                check_msg(c, t, t->sends.v[j]);
        for (int j = 0; j < t->recvs.n; j++)
            if (t->recvs.v[j])
                check_msg(c, t, t->recvs.v[j]);
        for (int k = 0; k < t->colls.n; k++) {
            mdl_coll *co = t->colls.v[k];
            for (int j = 0; co && j < co->msgs.n; j++)
                if (co->msgs.v[j]) {
                    co->msgs.v[j]->task = t;
                    co->msgs.v[j]->peer_task = t;
                }
        }
    }
}
