/* emit_dot.c — the communication graph in Graphviz dot (--dot FILE).
 *
 * Nodes are tasks, labelled with their family kind; connections are
 * undirected dashed edges; every send/receive pair is one directed edge
 * "send → receive" with its signature; collectives are listed on the
 * node. */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "emit_internal.h"

static const char *family_kind(const mdl_task *t, char *tmp, size_t n)
{
    if (t->grid_ndims > 0) {
        snprintf(tmp, n, "grid(%d%s)", t->grid_ndims, t->periodic_given ? ", periodic" : "");
        return tmp;
    }
    return t->multi ? "SPMD" : "MPMD single";
}

/* "double[10], int" — the items as types and counts. */
static void signature(mdl_buf *b, const mdl_msg *m)
{
    for (int i = 0; i < m->items.n; i++) {
        const mdl_item *it = m->items.v[i];
        if (i)
            cg_buf_puts(b, ", ");
        if (!it->var) {
            cg_buf_puts(b, it->name ? it->name : "?");
            continue;
        }
        cg_typeref_c(b, &it->var->type);
        if (it->count > 1)
            cg_buf_printf(b, "[%lld]", it->count);
        else if (it->count < 0)
            cg_buf_puts(b, "[..]");
    }
}

/* "particles, particles, counts, displs" — the arguments as written. */
static void coll_args(mdl_buf *b, const mdl_msg *m)
{
    for (int i = 0; i < m->items.n; i++) {
        const mdl_item *it = m->items.v[i];
        if (i)
            cg_buf_puts(b, ", ");
        if (it->kind == MDL_IT_EXPR)
            cg_expr_c(b, it->expr, "");
        else
            cg_buf_puts(b, it->name);
    }
}

static void dot_escape(mdl_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            cg_buf_printf(b, "\\%c", *s);
        else
            cg_buf_printf(b, "%c", *s);
    }
}

void cg_dot_add(mdl_outset *o, const mdl_spec *spec, const char *path)
{
    mdl_buf b = { 0 };
    cg_buf_puts(&b, "digraph \"");
    dot_escape(&b, cg_spec_basename(spec));
    cg_buf_puts(&b, "\" {\n    node [shape=box, style=rounded];\n");
    for (int i = 0; i < spec->tasks.n; i++) {
        const mdl_task *t = spec->tasks.v[i];
        char tmp[64];
        cg_buf_printf(&b, "    \"%s\" [label=\"%s\\n%s", t->name, t->name,
                   family_kind(t, tmp, sizeof tmp));
        for (int c = 0; c < t->colls.n; c++)
            for (int k = 0; k < t->colls.v[c]->msgs.n; k++) {
                const mdl_msg *m = t->colls.v[c]->msgs.v[k];
                cg_buf_printf(&b, "\\n%s(%lld) %s = {", mdl_co_kind_name(t->colls.v[c]->kind),
                           t->colls.v[c]->root_val, m->name);
                mdl_buf args = { 0 };
                coll_args(&args, m);
                dot_escape(&b, args.s ? args.s : "");
                cg_buf_free(&args);
                cg_buf_puts(&b, "}");
            }
        cg_buf_puts(&b, "\"];\n");
    }
    /* connections, each unordered pair once */
    for (int i = 0; i < spec->tasks.n; i++) {
        const mdl_task *t = spec->tasks.v[i];
        for (int k = 0; k < t->connected.n; k++) {
            const mdl_task *a = t->connected.v[k];
            if (a->index < t->index && mdl_task_connected(a, t))
                continue;
            cg_buf_printf(&b, "    \"%s\" -> \"%s\" [dir=none, style=dashed, color=gray];\n",
                       t->name, a->name);
        }
    }
    for (int i = 0; i < spec->tasks.n; i++) {
        const mdl_task *t = spec->tasks.v[i];
        for (int k = 0; k < t->sends.n; k++) {
            const mdl_msg *m = t->sends.v[k];
            const mdl_msg *r = m->pair;
            const mdl_task *dst = r ? r->task : m->peer_task;
            cg_buf_printf(&b, "    \"%s\" -> \"%s\" [label=\"%s → %s\\n", t->name,
                       dst ? dst->name : t->name, m->name, r ? r->name : "?");
            mdl_buf sig = { 0 };
            signature(&sig, m);
            dot_escape(&b, sig.s ? sig.s : "");
            cg_buf_free(&sig);
            if (m->peer_kind == MDL_P_ALL)
                cg_buf_puts(&b, "\\n(to all)");
            else if (m->peer_kind == MDL_P_SUBSET)
                cg_buf_puts(&b, "\\n(multicast)");
            else if (m->peer_kind == MDL_P_NEIGHBOR && m->neighbor_name)
                cg_buf_printf(&b, "\\n(%s)", m->neighbor_name);
            else if (m->peer_kind == MDL_P_NEIGHBOR)
                cg_buf_printf(&b, "\\n(Neighbor[%d][%d][%d])", m->offset[0], m->offset[1],
                           m->offset[2]);
            cg_buf_printf(&b, "\"%s];\n", m->is_async ? "" : ", style=bold");
        }
    }
    cg_buf_puts(&b, "}\n");
    cg_outset_add(o, path, &b);
}

int mdl_emit_dot(const mdl_spec *spec, const char *path)
{
    mdl_outset *o = cg_outset_new();
    cg_dot_add(o, spec, path);
    return cg_outset_commit(o);
}
