/* check_collectives.c — collective blocks and their argument shapes.
 *
 * Interprets each collective message's items by position according to the
 * table of the reference (§3.4) and fills msg->coll and msg->cargs:
 *
 *   send, recv     a `uses` variable, or an element of one giving the start
 *                  (`V[k]`, `U[i][0]`, or `U[i]`: the leading indices);
 *                  item->count is set to the capacity in elements from
 *                  that start to the end of the variable, -1 when unknown
 *                  (pointer, run-time start)
 *   count          an integer expression of consts (item->count = value)
 *                  or an int scalar variable read at the call
 *                  (item->var set, item->count = -1); a reduction written
 *                  without one gets an item of value 1
 *   counts, displs a whole int array or int pointer (item->var)
 *   op             a reduction operator: MDL_SUM … (cargs.op)
 *
 * Compile-time shape errors (count beyond a buffer, different element
 * types, non-int counts, a reduction of structs) are reported here. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_internal.h"

enum role { R_SEND, R_RECV, R_COUNT, R_COUNTS, R_DISPLS, R_OP };

/* Per operation, indexed by mdl_co_kind (names: mdl_co_kind_name, roots:
 * mdl_co_kind_rooted). */
static const struct kind_info {
    int nargs;
    enum role roles[4];
    const char *shape;
} kinds[] = {
    [MDL_CO_BCAST] = { 3, { R_SEND, R_RECV, R_COUNT }, "{send, recv, count}" },
    [MDL_CO_MCAST] = { 3, { R_SEND, R_RECV, R_COUNT }, "{send, recv, count}" },
    [MDL_CO_SCATTER] = { 2, { R_SEND, R_RECV }, "{send, recv}" },
    [MDL_CO_SCATTERV] = { 4, { R_SEND, R_COUNTS, R_DISPLS, R_RECV },
                          "{send, counts, displs, recv}" },
    [MDL_CO_GATHER] = { 3, { R_SEND, R_RECV, R_COUNT }, "{send, recv, count}" },
    [MDL_CO_GATHERV] = { 4, { R_SEND, R_RECV, R_COUNTS, R_DISPLS },
                         "{send, recv, counts, displs}" },
    [MDL_CO_ALLGATHER] = { 2, { R_SEND, R_RECV }, "{send, recv}" },
    [MDL_CO_ALLGATHERV] = { 4, { R_SEND, R_RECV, R_COUNTS, R_DISPLS },
                            "{send, recv, counts, displs}" },
    [MDL_CO_ALLTOALL] = { 3, { R_SEND, R_RECV, R_COUNT }, "{send, recv, count}" },
    [MDL_CO_REDUCE] = { 4, { R_SEND, R_RECV, R_COUNT, R_OP }, "{in, out, count, OP}" },
    [MDL_CO_ALLREDUCE] = { 4, { R_SEND, R_RECV, R_COUNT, R_OP }, "{in, out, count, OP}" },
};
/* A reduction may leave its count out (the thesis's Annex B): {in, out, OP}
 * reduces one element. */
static const enum role reduction_without_count[] = { R_SEND, R_RECV, R_OP };

/* The reduction operators, and their names for suggestions. */
static const mdl_op ops[] = {
#define MDL_X(id, value) MDL_OP_##id,
    MDL_REDUCTIONS(MDL_X)
#undef MDL_X
};
enum { NOPS = sizeof ops / sizeof *ops };

static const char *const *op_names(void)
{
    static const char *names[NOPS];
    for (int i = 0; i < NOPS; i++)
        names[i] = mdl_op_name(ops[i]);
    return names;
}

/* "MDL_SUM, MDL_PROD, MDL_MAX or MDL_MIN" */
static const char *op_list(void)
{
    static char list[128];
    size_t at = 0;
    for (int i = 0; i < NOPS && at < sizeof list; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
                               i == 0 ? "" : i + 1 < NOPS ? ", " : " or ", mdl_op_name(ops[i]));
    return list;
}

static int is_reduction(mdl_co_kind k)
{
    return k == MDL_CO_REDUCE || k == MDL_CO_ALLREDUCE;
}

/* The kind the parser found (any letter case); reports an unknown one. */
static const struct kind_info *find_kind(mdl_checker *c, mdl_coll *co)
{
    if (co->kind >= 0 && co->kind < MDL_CO_UNKNOWN)
        return &kinds[co->kind];
    if (!co->kind_name)
        return NULL;
    /* Case is not a typo: suggest ignoring it, show the canonical name. */
    const char *names[MDL_CO_UNKNOWN];
    for (int k = 0; k < MDL_CO_UNKNOWN; k++)
        names[k] = mdl_co_kind_name((mdl_co_kind)k);
    mdl_error(c->diag, co->loc, "unknown collective operation '%s'%s", co->kind_name,
              mdl_hint(c, mdl_suggest_nocase(co->kind_name, names, MDL_CO_UNKNOWN)));
    return NULL;
}

/* Elements from the start given by a buffer item to the end of its
 * variable; -1 when unknown.  Indices not given are 0: `U[i]` starts at
 * `U[i][0]`. */
static long long capacity(const mdl_item *it)
{
    const mdl_var *v = it->var;
    if (v->form == MDL_V_POINTER || v->nelems < 0)
        return -1;
    long long off = 0;
    for (int d = 0; d < v->dims.n; d++) {
        const mdl_index *ix = d < it->idx.n ? it->idx.v[d] : NULL;
        if (ix && !ix->is_const)
            return -1;
        off = off * v->dimval[d] + (ix ? ix->lo_val : 0);
    }
    return v->nelems - off;
}

static int check_buffer(mdl_checker *c, mdl_task *t, mdl_msg *m, mdl_item *it,
                        const char *what)
{
    if (!mdl_item_var(c, t, m, it))
        return 0;
    for (int d = 0; d < it->idx.n; d++)
        if (it->idx.v[d] && it->idx.v[d]->kind != MDL_IX_SINGLE) {
            mdl_error(c->diag, it->idx.v[d]->loc,
                      "%s buffer of collective '%s' must be a whole variable or a start element like '%s[k]', not a range",
                      what, m->name, it->var->name);
            it->var = NULL;
            return 0;
        }
    if (it->var->form == MDL_V_POINTER && it->idx.n == 0) {
        it->count = -1;         /* the pointer is the start; extent unknown */
        return 1;
    }
    if (!mdl_check_indices(c, t, m, it, MDL_IDX_BUFFER_START)) {
        it->var = NULL;
        return 0;
    }
    it->count = capacity(it);
    return 1;
}

static void check_count(mdl_checker *c, mdl_task *t, mdl_msg *m, mdl_item *it)
{
    it->count = -1;
    it->var = NULL;
    mdl_expr *e = it->expr;
    if (it->kind == MDL_IT_REF) {
        if (it->idx.n) {
            mdl_error(c->diag, it->loc,
                      "count of collective '%s' must be an integer constant or an int variable, not a section",
                      m->name);
            return;
        }
        e = mdl_alloc(c->arena, sizeof *e);
        e->kind = MDL_E_NAME;
        e->loc = it->loc;
        e->name = it->name;
    }
    long long v = 0;
    mdl_eval_result r = mdl_eval(c, e, t, &v);
    if (r == MDL_EV_RUNTIME) {
        if (e->kind == MDL_E_NAME)
            it->var = e->vref;
        return;
    }
    if (r == MDL_EV_CONST) {
        if (v < 0)
            mdl_error(c->diag, it->loc, "count of collective '%s' is negative (%lld)",
                      m->name, v);
        else
            it->count = v;
    }
}

static void check_int_array(mdl_checker *c, mdl_task *t, mdl_msg *m, mdl_item *it,
                            const char *what)
{
    if (!mdl_item_var(c, t, m, it))
        return;
    mdl_var *v = it->var;
    const char *why = NULL;
    if (v->type.basic != MDL_B_INT)
        why = "its type is not int";
    else if (v->form != MDL_V_POINTER && v->dims.n != 1)
        why = v->dims.n == 0 ? "it is a scalar" : "it has several dimensions";
    else if (it->idx.n)
        why = "a section is not allowed";
    if (why) {
        mdl_error(c->diag, it->loc,
                  "%s of collective '%s' must be a whole int array or int pointer; '%s': %s",
                  what, m->name, v->name, why);
        it->var = NULL;
        return;
    }
    it->count = v->nelems;
}

static void check_op(mdl_checker *c, mdl_msg *m, mdl_item *it)
{
    if ((it->kind == MDL_IT_REF && !it->name) || (it->kind == MDL_IT_EXPR && !it->expr))
        return;                 /* missing: the parser said so */
    if (it->kind == MDL_IT_REF && it->name && it->idx.n == 0)
        for (int i = 0; i < NOPS; i++)
            if (strcmp(it->name, mdl_op_name(ops[i])) == 0) {
                m->cargs.op = ops[i];
                return;
            }
    if (it->kind == MDL_IT_REF && it->name) {
        /* `sum`, `max`: the operator without its MDL_ prefix */
        const char *hint = NULL;
        for (int i = 0; i < NOPS && !hint; i++)
            if (strcasecmp(it->name, mdl_op_name(ops[i]) + strlen("MDL_")) == 0)
                hint = mdl_hint(c, mdl_op_name(ops[i]));
        mdl_error(c->diag, it->loc, "unknown reduction operator '%s' in '%s'%s", it->name,
                  m->name, hint ? hint : mdl_did_you_mean(c, it->name, op_names(), NOPS));
    }
    else
        mdl_error(c->diag, it->loc, "the operator of reduction '%s' must be %s", m->name,
                  op_list());
}

/* The canonical name of m's operation ("Gather"), for messages. */
static const char *op_name(const mdl_msg *m)
{
    return mdl_co_kind_name(m->coll->kind);
}

/* Count larger than a buffer it is read from or written to. */
static void check_fits(mdl_checker *c, mdl_msg *m, mdl_item *count, mdl_item *buf)
{
    if (!count || count->count < 0 || !buf || !buf->var || buf->count < 0 ||
        count->count <= buf->count)
        return;
    mdl_error(c->diag, count->loc,
              "count %lld of %s '%s' is larger than '%s' (%lld element%s%s)",
              count->count, op_name(m), m->name, buf->var->name, buf->count,
              buf->count == 1 ? "" : "s", buf->idx.n ? " from the start given" : "");
}

/* Scatter and Allgather have no count: the runtime takes the segment from
 * a buffer's capacity (in place: the shared buffer's, divided by n; else
 * the instance's own part: Scatter's recv, Allgather's send), so that
 * capacity must be known, and the other buffer must hold at least one
 * segment. */
static void check_derived_segment(mdl_checker *c, mdl_msg *m)
{
    mdl_coll_operands *a = &m->cargs;
    mdl_item *part = a->in_place ? a->send
                   : m->coll->kind == MDL_CO_SCATTER ? a->recv : a->send;
    mdl_item *whole = part == a->send ? a->recv : a->send;
    if (part->count < 0) {
        mdl_error(c->diag, part->loc,
                  "%s '%s' has no count, so its segment is the size of '%s', which is not known at compile time (a pointer or a run-time start)",
                  op_name(m), m->name, part->var->name);
        return;
    }
    if (!a->in_place && whole->count >= 0 && whole->count < part->count)
        mdl_error(c->diag, whole->loc,
                  "%s '%s': '%s' (%lld element%s) cannot hold even one segment of %lld",
                  op_name(m), m->name, whole->var->name, whole->count,
                  whole->count == 1 ? "" : "s", part->count);
}

/* {in, out, X}: X is the operator when it is a bare name that is neither a
 * variable nor a constant (`MDL_SUM`, or a misspelt one); a number or a
 * variable is a count whose operator is missing. */
static int names_an_operator(mdl_checker *c, mdl_task *t, const mdl_item *it)
{
    return it && it->kind == MDL_IT_REF && it->name && it->idx.n == 0 &&
           !mdl_find_var(c, t, it->name) && !mdl_find_const(c, it->name);
}

/* The count a reduction without one has: 1, as if written. */
static mdl_item *count_of_one(mdl_checker *c, const mdl_msg *m)
{
    mdl_item *one = mdl_alloc(c->arena, sizeof *one);
    one->kind = MDL_IT_EXPR;
    one->loc = m->content_loc.line ? m->content_loc : m->loc;
    one->expr = mdl_alloc(c->arena, sizeof *one->expr);
    one->expr->kind = MDL_E_INT;
    one->expr->loc = one->loc;
    one->expr->ival = 1;
    one->count = 1;
    return one;
}

static void check_msg(mdl_checker *c, mdl_task *t, mdl_coll *co,
                      const struct kind_info *k, mdl_msg *m)
{
    m->coll = co;
    m->is_send = 0;
    memset(&m->cargs, 0, sizeof m->cargs);
    if (!k)
        return;
    const enum role *roles = k->roles;
    mdl_loc where = m->content_loc.line ? m->content_loc : m->loc;
    if (is_reduction(co->kind) && m->items.n == 3) {
        if (!names_an_operator(c, t, m->items.v[2])) {
            mdl_error(c->diag, m->items.v[2] ? m->items.v[2]->loc : where,
                      "the last argument of %s '%s' must be its operator (%s): %s, or {in, out, OP} for a count of 1",
                      op_name(m), m->name, op_list(), k->shape);
            return;
        }
        roles = reduction_without_count;
    } else if (m->items.n != k->nargs) {
        mdl_error(c->diag, where, "%s '%s' takes %d arguments %s%s, not %d", op_name(m),
                  m->name, k->nargs, k->shape,
                  is_reduction(co->kind) ? " or 3 {in, out, OP} (count 1)" : "", m->items.n);
        return;
    }
    mdl_coll_operands *a = &m->cargs;
    for (int i = 0; i < m->items.n; i++) {
        mdl_item *it = m->items.v[i];
        if (!it)
            return;
        switch (roles[i]) {
        case R_SEND:
            a->send = it;
            check_buffer(c, t, m, it, "send");
            break;
        case R_RECV:
            a->recv = it;
            check_buffer(c, t, m, it, "receive");
            break;
        case R_COUNT:
            a->count = it;
            check_count(c, t, m, it);
            break;
        case R_COUNTS:
            a->counts = it;
            check_int_array(c, t, m, it, "counts");
            break;
        case R_DISPLS:
            a->displs = it;
            check_int_array(c, t, m, it, "displs");
            break;
        case R_OP:
            check_op(c, m, it);
            break;
        }
    }
    if (roles == reduction_without_count)
        a->count = count_of_one(c, m);
    if (!a->send->var || !a->recv->var)
        return;
    a->in_place = a->send->var == a->recv->var;
    /* an unknown type was reported at its declaration: comparing it here
       would only add a confusing second error */
    if ((a->send->var->type.basic == MDL_B_NONE && !a->send->var->type.resolved) ||
        (a->recv->var->type.basic == MDL_B_NONE && !a->recv->var->type.resolved))
        return;
    if (!mdl_same_type(&a->send->var->type, &a->recv->var->type)) {
        mdl_error(c->diag, a->recv->loc,
                  "buffers of %s '%s' have different element types: '%s' is %s, '%s' is %s",
                  op_name(m), m->name, a->send->var->name, mdl_type_name(&a->send->var->type),
                  a->recv->var->name, mdl_type_name(&a->recv->var->type));
        return;
    }
    if (is_reduction(co->kind) && a->send->var->type.basic == MDL_B_NONE) {
        mdl_error(c->diag, a->send->loc,
                  "%s '%s' needs numbers; '%s' is of struct type '%s'", op_name(m),
                  m->name, a->send->var->name, mdl_type_name(&a->send->var->type));
        return;
    }
    /* A whole array reduced without a count: one element is most likely
     * not what was meant. */
    if (roles == reduction_without_count && a->send->idx.n == 0 && a->send->var->nelems > 1)
        mdl_warning(c->diag, a->send->loc,
                    "%s '%s' has no count, so it reduces 1 element; '%s' has %lld (write {in, out, count, OP} to reduce more)",
                    op_name(m), m->name, a->send->var->name, a->send->var->nelems);
    /* Gather and Alltoall need count * n in recv (and Alltoall in send);
     * n is known only at run time, but n >= 1. */
    check_fits(c, m, a->count, a->send);
    if (!a->in_place)           /* in place: the same buffer, one error is enough */
        check_fits(c, m, a->count, a->recv);
    if (co->kind == MDL_CO_SCATTER || co->kind == MDL_CO_ALLGATHER)
        check_derived_segment(c, m);
}

static void check_coll(mdl_checker *c, mdl_task *t, mdl_coll *co)
{
    const struct kind_info *k = find_kind(c, co);
    const char *name = mdl_co_kind_name(co->kind);
    co->root_val = 0;
    co->table_var = NULL;
    if (k) {
        if (co->root && !mdl_co_kind_rooted(co->kind)) {
            mdl_error(c->diag, co->root->loc, "%s has no root: it involves every instance equally",
                      name);
        } else if (co->root) {
            long long r = 0;
            if (mdl_eval_const(c, co->root, &r)) {
                if (r < 0)
                    mdl_error(c->diag, co->root->loc,
                              "root of %s must be a non-negative instance number, not %lld",
                              name, r);
                else if (r > 2147483647LL)
                    mdl_error(c->diag, co->root->loc, "root of %s is too large (%lld)",
                              name, r);
                else
                    co->root_val = r;
            }
        }
        if (co->table && co->kind != MDL_CO_MCAST) {
            mdl_error(c->diag, co->table_loc, "only Mcast takes a table of instances");
        } else if (co->table) {
            mdl_var *v = mdl_find_var(c, t, co->table);
            if (!v)
                mdl_error(c->diag, co->table_loc,
                          "unknown variable '%s' as Mcast table of task '%s'%s",
                          co->table, t->name, mdl_suggest_var(c, t, co->table));
            else if (v->type.basic != MDL_B_INT ||
                     !(v->form == MDL_V_POINTER || v->dims.n == 1))
                mdl_error(c->diag, co->table_loc,
                          "Mcast table '%s' must be an int array or int pointer", co->table);
            else
                co->table_var = v;
        }
    }
    for (int j = 0; j < co->msgs.n; j++)
        if (co->msgs.v[j] && co->msgs.v[j]->name)
            check_msg(c, t, co, k, co->msgs.v[j]);
}

void mdl_check_collectives(mdl_checker *c)
{
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        for (int k = 0; t && t->name && k < t->colls.n; k++)
            if (t->colls.v[k])
                check_coll(c, t, t->colls.v[k]);
    }
}
