/* emit_desc.c — the static descriptor tables of TMDL.c (include/mdl_rt.h):
 * element types, message items, point-to-point messages, collectives and
 * the task.  The runtime builds its transfer plans (MPI datatypes, copy
 * loops) from them once, at MDL_Init.
 *
 * Only what the task's messages reference is emitted: an unused static
 * const table is a warning under -Wall, and generated code must compile
 * with -Werror. */
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"
#include "mdl_rt.h"             /* MDL_ABI: the interface this medleyc generates for */

int cg_task_msg_index(const mdl_task *t, const mdl_msg *m)
{
    for (int i = 0; i < t->sends.n; i++)
        if (t->sends.v[i] == m)
            return i;
    for (int i = 0; i < t->recvs.n; i++)
        if (t->recvs.v[i] == m)
            return t->sends.n + i;
    return -1;
}

int cg_task_coll_index(const mdl_task *t, const mdl_msg *m)
{
    int k = 0;
    for (int i = 0; i < t->colls.n; i++)
        for (int j = 0; j < t->colls.v[i]->msgs.n; j++, k++)
            if (t->colls.v[i]->msgs.v[j] == m)
                return k;
    return -1;
}

int cg_item_ndims(const mdl_item *it)
{
    if (!it->var)
        return 0;
    return it->var->form == MDL_V_POINTER ? 1 : it->var->dims.n;
}

/* The checks know which bounds are compile-time constants (is_const,
 * lo_val, hi_val): the tables use their values, nothing is re-derived. */
int cg_msg_bounds_fixed(const mdl_msg *m)
{
    for (int i = 0; i < m->items.n; i++) {
        const mdl_item *it = m->items.v[i];
        for (int d = 0; d < it->idx.n; d++)
            if (!it->idx.v[d]->is_const)
                return 0;
        /* a pointer's extent is unknown: only its explicit range counts */
        if (it->var && it->var->form == MDL_V_POINTER && it->idx.n == 0)
            return 0;
        /* a whole dimension set at MDL_Allocate is read at the call */
        for (int d = it->idx.n; it->var && it->var->rtsized && d < it->var->dims.n; d++)
            if (it->var->dimval[d] < 0)
                return 0;
    }
    return 1;
}

int cg_msg_npairs(const mdl_msg *m)
{
    int n = 0;
    for (int i = 0; i < m->items.n; i++)
        n += cg_item_ndims(m->items.v[i]);
    return n;
}

/* A bound read at the call: the spec's expression over t->… members. */
static void bound_expr(mdl_buf *b, const mdl_expr *e)
{
    cg_buf_puts(b, "(long)");
    if (e->kind != MDL_E_NAME)
        cg_expr_c(b, e, "t->");
    else {
        cg_buf_puts(b, "(");
        cg_expr_c(b, e, "t->");
        cg_buf_puts(b, ")");
    }
}

void cg_msg_bounds(mdl_buf *b, const mdl_msg *m)
{
    int first = 1;
    for (int i = 0; i < m->items.n; i++) {
        const mdl_item *it = m->items.v[i];
        int nd = cg_item_ndims(it);
        for (int d = 0; d < nd; d++) {
            cg_buf_puts(b, first ? "" : ", ");
            first = 0;
            if (d >= it->idx.n) {
                /* the whole dimension */
                long long ext = it->var->form == MDL_V_POINTER ? 0 : it->var->dimval[d];
                if (ext >= 0) {
                    cg_buf_printf(b, "0, %lld", ext - 1);
                    continue;
                }
                /* its extent as it is now: a change since MDL_Allocate is
                   refused by the runtime before the bounds are used */
                cg_buf_puts(b, "0, ");
                bound_expr(b, it->var->dims.v[d]);
                cg_buf_puts(b, " - 1");
                continue;
            }
            const mdl_index *ix = it->idx.v[d];
            if (ix->is_const) {
                cg_buf_printf(b, "%lld, %lld", ix->lo_val, ix->hi_val);
                continue;
            }
            switch (ix->kind) {
            case MDL_IX_SINGLE:
                bound_expr(b, ix->lo);
                cg_buf_puts(b, ", ");
                bound_expr(b, ix->lo);
                break;
            case MDL_IX_RANGE:
                bound_expr(b, ix->lo);
                cg_buf_puts(b, ", ");
                bound_expr(b, ix->hi);
                break;
            case MDL_IX_RUNTIME:
                cg_buf_printf(b, "(long)lo%d, (long)hi%d", ix->runtime_slot, ix->runtime_slot);
                break;
            }
        }
    }
}

/* ---------------------------------------------------------------- types */

static void type_id(mdl_buf *b, const mdl_typeref *t)
{
    if (t->basic != MDL_B_NONE)
        cg_buf_printf(b, "mdlg_type_%s", cg_basic_id(t->basic));
    else
        cg_buf_printf(b, "mdlg_type_s_%s", t->resolved->typedef_name ? t->resolved->typedef_name
                                                            : t->resolved->tag);
}

struct used {
    int basic[MDL_B_COUNT];
    int *structs;           /* indexed like spec->structs */
};

static void mark_type(struct used *u, const mdl_typeref *t)
{
    if (t->basic != MDL_B_NONE) {
        u->basic[t->basic] = 1;
        return;
    }
    if (!t->resolved || u->structs[t->resolved->index])
        return;
    u->structs[t->resolved->index] = 1;
    /* basic fields are described by their base code alone: marking them
       would emit an unused descriptor (-Wunused-const-variable) */
    for (int f = 0; f < t->resolved->fields.n; f++)
        if (t->resolved->fields.v[f]->type.basic == MDL_B_NONE)
            mark_type(u, &t->resolved->fields.v[f]->type);
}

static void mark_msg(struct used *u, const mdl_msg *m)
{
    for (int i = 0; i < m->items.n; i++)
        if (m->items.v[i]->var)
            mark_type(u, &m->items.v[i]->var->type);
}

/* The element types of the run-time-sized variables: their table names them. */
static void mark_rtvars(struct used *u, const mdl_task *t)
{
    for (int i = 0; i < t->vars.n; i++)
        if (t->vars.v[i]->rtsized)
            mark_type(u, &t->vars.v[i]->type);
}

static void emit_types(mdl_buf *b, const mdl_spec *s, const mdl_task *t)
{
    struct used u;
    memset(&u, 0, sizeof u);
    u.structs = cg_xcalloc((size_t)s->structs.n + 1, sizeof *u.structs);
    mark_rtvars(&u, t);
    for (int i = 0; i < t->sends.n; i++)
        mark_msg(&u, t->sends.v[i]);
    for (int i = 0; i < t->recvs.n; i++)
        mark_msg(&u, t->recvs.v[i]);
    for (int i = 0; i < t->colls.n; i++)
        for (int k = 0; k < t->colls.v[i]->msgs.n; k++) {
            const mdl_coll_operands *a = &t->colls.v[i]->msgs.v[k]->cargs;
            if (a->send && a->send->var)
                mark_type(&u, &a->send->var->type);
            else if (a->recv && a->recv->var)
                mark_type(&u, &a->recv->var->type);
        }

    for (int i = 0; i < MDL_B_COUNT; i++)
        if (u.basic[i])
            cg_buf_printf(b, "static const mdl_type_desc mdlg_type_%s =\n"
                             "    { \"%s\", %s, sizeof(%s), 0, NULL };\n",
                       cg_basic_id((mdl_basic)i), cg_basic_c_name((mdl_basic)i),
                       cg_basic_rt_name((mdl_basic)i), cg_basic_c_name((mdl_basic)i));
    /* a struct's descriptor refers to those of the structs it contains
       (.sub), so they come first: struct_order, not spec order */
    for (int i = 0; i < s->struct_order.n; i++) {
        const mdl_struct *st = s->struct_order.v[i];
        if (!u.structs[st->index])
            continue;
        mdl_typeref self = { .basic = MDL_B_NONE, .resolved = (mdl_struct *)st };
        mdl_buf cname = { 0 }, id = { 0 };
        cg_typeref_c(&cname, &self);
        type_id(&id, &self);
        cg_buf_printf(b, "static const mdl_field_desc %s_fields[] = {\n"
                         "    /* base, sub, count, offset */\n", id.s);
        for (int f = 0; f < st->fields.n; f++) {
            const mdl_field *fd = st->fields.v[f];
            long long count = 1;
            for (int d = 0; d < fd->dims.n; d++)
                count *= fd->dimval ? fd->dimval[d] : 0;
            cg_buf_printf(b, "    { %s, ", cg_basic_rt_name(fd->type.basic));
            if (fd->type.basic == MDL_B_NONE) {
                cg_buf_puts(b, "&");
                type_id(b, &fd->type);
                cg_buf_puts(b, ", ");
            } else
                cg_buf_puts(b, "NULL, ");
            cg_buf_printf(b, "%lld, offsetof(%s, ", count, cname.s);
            cg_id(b, fd->name);
            cg_buf_puts(b, ") },\n");
        }
        cg_buf_printf(b, "};\nstatic const mdl_type_desc %s = {\n"
                         "    /* name, base, size, nfields, fields */\n"
                         "    \"%s\", MDL_T_STRUCT, sizeof(%s), %d, %s_fields\n};\n",
                   id.s, st->typedef_name ? st->typedef_name : st->tag, cname.s,
                   st->fields.n, id.s);
        cg_buf_free(&cname);
        cg_buf_free(&id);
    }
    free(u.structs);
}

/* ---------------------------------------------------------------- messages */

static void emit_msg(mdl_buf *b, const mdl_task *t, const mdl_msg *m, int k)
{
    cg_buf_printf(b, "\n/* %s %s */\n", m->is_send ? "send" : "receive", m->name);
    if (m->items.n) {
        cg_buf_printf(b, "static const mdl_item_desc mdlg_msg_%d_items[] = {\n"
                         "    /* var, offset, is_pointer, type, ndims, extent, first_pair, rtvar */\n", k);
        int pair = 0;
        for (int i = 0; i < m->items.n; i++) {
            const mdl_item *it = m->items.v[i];
            const mdl_var *v = it->var;
            int nd = cg_item_ndims(it);
            cg_buf_printf(b, "    { \"%s\", offsetof(struct ", v->name);
            cg_id(b, t->name);
            cg_buf_puts(b, ", ");
            cg_id(b, v->name);
            cg_buf_printf(b, "), %d,\n      &", v->form == MDL_V_POINTER || v->rtsized);
            type_id(b, &v->type);
            cg_buf_printf(b, ", %d, {", nd);
            for (int d = 0; d < nd; d++)
                cg_buf_printf(b, "%s%lld", d ? ", " : " ",
                              v->form == MDL_V_POINTER ? -1LL : v->dimval[d]);
            cg_buf_printf(b, "%s}, %d, %d },\n", nd ? " " : " 0 ", pair, cg_rtvar_index(t, v));
            pair += nd;
        }
        cg_buf_puts(b, "};\n");
    }
    int npairs = cg_msg_npairs(m);
    int fixed = cg_msg_bounds_fixed(m);
    if (fixed && npairs) {
        cg_buf_printf(b, "static const long mdlg_msg_%d_bounds[] = { ", k);
        cg_msg_bounds(b, m);
        cg_buf_puts(b, " };\n");
    }
    mdl_buf fn = { 0 };
    cg_msg_fn_name(&fn, m);
    int pk = m->peer_kind == MDL_P_ALL ? 1 : m->peer_kind == MDL_P_SUBSET ? 2
           : m->peer_kind == MDL_P_NEIGHBOR ? 3 : 0;
    static const char *const pkn[] = { "MDL_PEER_ONE", "MDL_PEER_ALL", "MDL_PEER_SUBSET",
                                       "MDL_PEER_NEIGHBOR" };
    /* a receive `from {A}` still names one instance at the call */
    if (!m->is_send && pk != 3)
        pk = 0;
    cg_buf_printf(b,
               "static const mdl_msg_desc mdlg_msg_%d = {\n"
               "    /* name, fn, index, is_send, async */\n"
               "    \"%s\", \"%s\", %d, %d, %d,\n"
               "    /* channel, peer_task, peer_kind, offset */\n"
               "    %d, %d, %s, { %d, %d, %d },\n"
               "    /* nitems, items, npairs, fixed_bounds */\n"
               "    %d, ",
               k, m->name, fn.s, k, m->is_send, m->is_async, m->channel,
               m->peer_task ? m->peer_task->index : t->index, pkn[pk],
               m->offset[0], m->offset[1], m->offset[2], m->items.n);
    if (m->items.n)
        cg_buf_printf(b, "mdlg_msg_%d_items", k);
    else
        cg_buf_puts(b, "NULL");
    cg_buf_printf(b, ", %d, ", npairs);
    if (fixed && npairs)
        cg_buf_printf(b, "mdlg_msg_%d_bounds", k);
    else if (fixed)
        cg_buf_puts(b, "mdlg_no_bounds");
    else
        cg_buf_puts(b, "NULL");
    cg_buf_puts(b, "\n};\n");
    cg_buf_free(&fn);
}

static void emit_coll(mdl_buf *b, const mdl_task *t, const mdl_coll *c, const mdl_msg *m,
                      int k)
{
    const mdl_coll_operands *a = &m->cargs;
    const mdl_item *typed = a->send && a->send->var ? a->send : a->recv;
    mdl_buf fn = { 0 };
    cg_msg_fn_name(&fn, m);
    cg_buf_printf(b,
               "\n/* collective %s */\n"
               "static const mdl_coll_desc mdlg_coll_%d = {\n"
               "    /* name, fn, index, kind, root, op, type, send_cap, recv_cap, in_place,\n"
               "       send_rtvar, recv_rtvar */\n"
               "    \"%s\", \"%s\", %d, %s,\n"
               "    %lld, %s, &",
               m->name, k, m->name, fn.s, k, cg_coll_rt_name(c->kind), c->root_val,
               a->op != MDL_OP_NONE ? mdl_op_name(a->op) : "0");
    type_id(b, &typed->var->type);
    cg_buf_printf(b, ",\n    %lld, %lld, %d,\n    %d, %d\n};\n",
               a->send->count, a->recv->count, a->in_place, cg_rtvar_index(t, a->send->var),
               cg_rtvar_index(t, a->recv->var));
    cg_buf_free(&fn);
}

static void c_string(mdl_buf *b, const char *s)
{
    cg_buf_puts(b, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            cg_buf_printf(b, "\\%c", *s);
        else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
            cg_buf_printf(b, "\\%03o", (unsigned char)*s);
        else
            cg_buf_printf(b, "%c", *s);
    }
    cg_buf_puts(b, "\"");
}

/* ---------------------------------------------------------------- run-time sizes */

/* The extent variables (what mdl_allocate records and each call on a
 * run-time-sized variable compares) and the run-time-sized variables,
 * each with the extent variables its sizes name; nothing for a task
 * without them. */
static int sizes_name(const mdl_var *v, const mdl_var *x)
{
    for (int d = 0; d < v->dims.n; d++)
        if (cg_expr_names(v->dims.v[d], x))
            return 1;
    return 0;
}

static void emit_rtvars(mdl_buf *b, const mdl_task *t)
{
    if (!cg_task_nrtvars(t))
        return;
    cg_buf_puts(b, "\n/* run-time-sized variables (MDL_Allocate) and the variables their sizes name */\n"
                   "static const mdl_extvar_desc mdlg_extvars[] = {\n"
                   "    /* var, offset, base */\n");
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *x = t->vars.v[i];
        if (cg_extvar_index(t, x) < 0)
            continue;
        cg_buf_printf(b, "    { \"%s\", offsetof(struct ", x->name);
        cg_id(b, t->name);
        cg_buf_puts(b, ", ");
        cg_id(b, x->name);
        cg_buf_printf(b, "), %s },\n", cg_basic_rt_name(x->type.basic));
    }
    cg_buf_puts(b, "};\n");
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        if (!v->rtsized)
            continue;
        cg_buf_printf(b, "static const int mdlg_rtvar_%d_deps[] = {", cg_rtvar_index(t, v));
        int first = 1;
        for (int j = 0; j < t->vars.n; j++) {
            if (sizes_name(v, t->vars.v[j])) {
                cg_buf_printf(b, "%s %d", first ? "" : ",", cg_extvar_index(t, t->vars.v[j]));
                first = 0;
            }
        }
        cg_buf_puts(b, " };\n");
    }
    cg_buf_puts(b, "static const mdl_rtvar_desc mdlg_rtvars[] = {\n"
                   "    /* var, offset, type, ndims, extent, ndeps, deps */\n");
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        if (!v->rtsized)
            continue;
        int ndeps = 0;
        for (int j = 0; j < t->vars.n; j++)
            ndeps += sizes_name(v, t->vars.v[j]);
        cg_buf_printf(b, "    { \"%s\", offsetof(struct ", v->name);
        cg_id(b, t->name);
        cg_buf_puts(b, ", ");
        cg_id(b, v->name);
        cg_buf_puts(b, "),\n      &");
        type_id(b, &v->type);
        cg_buf_printf(b, ", %d, {", v->dims.n);
        for (int d = 0; d < v->dims.n; d++)
            cg_buf_printf(b, "%s%lld", d ? ", " : " ", v->dimval[d]);
        cg_buf_printf(b, " }, %d, mdlg_rtvar_%d_deps },\n", ndeps, cg_rtvar_index(t, v));
    }
    cg_buf_puts(b, "};\n");
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The names the runtime reports: this task's and its peers' (it never
 * names another task), at their spec indices; the others stay NULL.  All
 * names in every TMDL.c made the output quadratic in the number of tasks
 * (950 MB for 10,000 tasks).  They are stored by MDL_Init: C++ has no
 * array designators, and a positional initialiser would list a NULL for
 * every task before the last peer (quadratic again). */
static void emit_task_names(mdl_buf *b, const mdl_spec *s, const mdl_task *t)
{
    int n = 0, *idx = cg_xcalloc((size_t)t->connected.n + 2, sizeof *idx);
    idx[n++] = t->index;
    for (int i = 0; i < t->connected.n; i++)
        idx[n++] = t->connected.v[i]->index;
    qsort(idx, (size_t)n, sizeof *idx, cmp_int);
    cg_buf_printf(b, "\n/* the names the runtime reports, stored by MDL_Init */\n"
                     "static const char *mdlg_task_names[%d];\n"
                     "static void mdlg_name_tasks(void)\n{\n", s->tasks.n);
    for (int i = 0; i < n; i++)
        if (i == 0 || idx[i] != idx[i - 1])
            cg_buf_printf(b, "    mdlg_task_names[%d] = \"%s\";\n", idx[i], s->tasks.v[idx[i]]->name);
    cg_buf_puts(b, "}\n");
    free(idx);
}

void cg_emit_desc(mdl_buf *b, const mdl_spec *s, const cg_spec_facts *sf, const mdl_task *t)
{
    cg_buf_puts(b, "/* ---------------------------------------------------------------- descriptors */\n\n");
    /* The runtime interface these tables are written for: checked against
     * the mdl_rt.h compiled with (here) and by MDL_Init (a library of
     * another release linked in). */
    cg_buf_printf(b, "#if !defined(MDL_ABI) || MDL_ABI != 0x%016llxULL\n"
                  "#error \"generated by medleyc for runtime interface %d, but mdl_rt.h is of "
                  "another MeDLey release: regenerate with its medleyc\"\n#endif\n\n",
                  (unsigned long long)MDL_ABI, MDL_ABI_VERSION);
    emit_types(b, s, t);

    int nmsgs = t->sends.n + t->recvs.n;
    int need_nobounds = 0;
    for (int i = 0; i < nmsgs; i++) {
        const mdl_msg *m = i < t->sends.n ? t->sends.v[i] : t->recvs.v[i - t->sends.n];
        need_nobounds |= cg_msg_bounds_fixed(m) && cg_msg_npairs(m) == 0;
    }
    if (need_nobounds)
        cg_buf_puts(b, "\n/* fixed_bounds of messages of scalars only: there are no pairs, but the\n"
                    "   pointer must be non-NULL to say \"fixed\" (C has no empty arrays) */\n"
                    "static const long mdlg_no_bounds[1] = { 0 };\n");
    for (int i = 0; i < nmsgs; i++)
        emit_msg(b, t, i < t->sends.n ? t->sends.v[i] : t->recvs.v[i - t->sends.n], i);

    int ncolls = 0;
    for (int i = 0; i < t->colls.n; i++)
        for (int k = 0; k < t->colls.v[i]->msgs.n; k++)
            emit_coll(b, t, t->colls.v[i], t->colls.v[i]->msgs.v[k], ncolls++);

    emit_rtvars(b, t);
    emit_task_names(b, s, t);
    if (nmsgs) {
        cg_buf_puts(b, "static const mdl_msg_desc *const mdlg_msgs[] = {");
        for (int i = 0; i < nmsgs; i++)
            cg_buf_printf(b, "%s &mdlg_msg_%d", i ? "," : "", i);
        cg_buf_puts(b, " };\n");
    }
    if (ncolls) {
        cg_buf_puts(b, "static const mdl_coll_desc *const mdlg_colls[] = {");
        for (int i = 0; i < ncolls; i++)
            cg_buf_printf(b, "%s &mdlg_coll_%d", i ? "," : "", i);
        cg_buf_puts(b, " };\n");
    }
    cg_buf_printf(b, "\nstatic const mdl_task_desc mdlg_task = {\n"
                  "    /* abi, spec, spec_hash */\n    0x%016llxULL, ", (unsigned long long)MDL_ABI);
    c_string(b, cg_spec_basename(s));
    cg_buf_printf(b,
               ", 0x%016llxULL,\n"
               "    /* ntasks, tasks, self, grid_ndims, periodic */\n"
               "    %d, mdlg_task_names, %d, %d, { %d, %d, %d },\n"
               "    /* nchannels, nmsgs, msgs, ncolls, colls */\n"
               "    %d, %d, %s, %d, %s,\n"
               "    /* struct_size, single, nrtvars, rtvars, nextvars, extvars */\n"
               "    sizeof(struct ",
               sf->hash, s->tasks.n, t->index, t->grid_ndims, t->periodic[0],
               t->periodic[1], t->periodic[2], s->nchannels, nmsgs,
               nmsgs ? "mdlg_msgs" : "NULL", ncolls, ncolls ? "mdlg_colls" : "NULL");
    cg_id(b, t->name);
    int nrt = cg_task_nrtvars(t), next = 0;
    for (int i = 0; i < t->vars.n; i++)
        next += t->vars.v[i]->extvar;
    cg_buf_printf(b, "), %d, %d, %s, %d, %s\n};\n", t->single, nrt, nrt ? "mdlg_rtvars" : "NULL",
                  next, next ? "mdlg_extvars" : "NULL");
}
