/* emit_api.c — the list of public functions of a task (reference §6),
 * made from the table of common/mdl_api.h: each function's name, task
 * argument, parameters and result.
 *
 * Every binding is printed from this one list — the header's prototypes
 * and _Generic macros, the source's definitions, the C++ overloads and
 * methods — so they cannot disagree on a name or a parameter. */
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"

/* The table's columns, by function. */
static const struct fn_info {
    enum mdl_api_presence presence;
    enum mdl_api_self self;
    enum mdl_api_returns returns;
    const api_param *params;    /* up to the one named NULL */
} fn_info[] = {
#define MDL_P(kind, name) { MDL_PARAM_##kind, #name, -1 },
#define MDL_X(id, presence, self, returns, pattern, params)                                 \
    [MDL_FN_##id] = { MDL_API_##presence, MDL_SELF_##self, MDL_RET_##returns,              \
                      (const api_param[]){ params { 0, NULL, -1 } } },
    MDL_API_FUNCTIONS(MDL_X)
#undef MDL_X
#undef MDL_P
};

static const char *const c_types[] = {
#define MDL_X(id, c_type) [MDL_PARAM_##id] = c_type,
    MDL_PARAM_KINDS(MDL_X)
#undef MDL_X
};

/* The buffer's string, trimmed to its length: a buffer starts at 4 KiB,
 * and a spec has tens of thousands of these names. */
static char *take(mdl_buf *b)
{
    char *s = b->s ? cg_xrealloc(b->s, b->n + 1) : cg_xcalloc(1, 1);
    memset(b, 0, sizeof *b);
    return s;
}

/* Function k named `name`, with the table's parameters and `extra` more. */
static api_fn *push(api_list *l, api_kind k, mdl_buf *name, int extra)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 32;
        l->v = cg_xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    const struct fn_info *info = &fn_info[k];
    int n = 0;
    while (info->params[n].name)
        n++;
    api_fn *f = &l->v[l->n++];
    memset(f, 0, sizeof *f);
    f->kind = k;
    f->self = info->self;
    f->returns = info->returns;
    f->name = take(name);
    f->params = n + extra ? cg_xcalloc((size_t)(n + extra), sizeof *f->params) : NULL;
    if (n)
        memcpy(f->params, info->params, (size_t)n * sizeof *f->params);
    f->nparams = n;
    return f;
}

static void add_param(api_fn *f, enum mdl_param_kind kind, const char *name, int index)
{
    f->params[f->nparams++] = (api_param){ kind, name, index };
}

int cg_msg_takes_inst(const mdl_msg *m)
{
    if (m->peer_kind == MDL_P_NEIGHBOR)
        return 0;
    /* only sends broadcast or multicast; a receive names one instance */
    return !m->is_send || m->peer_kind == MDL_P_NONE || m->peer_kind == MDL_P_ONE;
}

/* A send or receive: one instance, or (to [A]) a list of them, then a
 * (lo, hi) pair per run-time bound. */
static void add_p2p(api_list *l, api_kind k, const mdl_msg *m)
{
    mdl_buf name = { 0 };
    cg_msg_fn_name(&name, m);
    int one = cg_msg_takes_inst(m), list = m->is_send && m->peer_kind == MDL_P_SUBSET;
    api_fn *f = push(l, k, &name, one + 2 * list + 2 * m->nruntime);
    f->msg = m;
    if (one)
        add_param(f, MDL_PARAM_INT, "inst", -1);
    else if (list) {
        add_param(f, MDL_PARAM_INTS_IN, "insts", -1);
        add_param(f, MDL_PARAM_INT, "n", -1);
    }
    for (int r = 0; r < m->nruntime; r++) {
        add_param(f, MDL_PARAM_INT, "lo", r);
        add_param(f, MDL_PARAM_INT, "hi", r);
    }
    /* a neighbour's receive answers MDL_SUCCESS, an async one the instance
     * it was posted for (docs/language.md §10) */
    if (k == API_RECV && (m->is_async || m->peer_kind == MDL_P_NEIGHBOR))
        f->returns = MDL_RET_STATUS;
}

/* Test and Wait of an async name; a send and a receive of one name share
 * them: `other` is the async receive that goes with an async send. */
static void add_completion(api_list *l, api_kind k, const mdl_msg *m, const mdl_msg *other)
{
    mdl_buf name = { 0 };
    cg_fn_name(&name, k, m->name, NULL);
    api_fn *f = push(l, k, &name, 0);
    f->msg = m;
    f->msg2 = other;
}

static const mdl_msg *async_receive_named(const mdl_task *t, const mdl_msg *m)
{
    if (!m->is_send)
        return NULL;
    const mdl_msg *other = NULL;
    for (int k = 0; k < t->recvs.n; k++)
        if (t->recvs.v[k]->is_async && strcmp(t->recvs.v[k]->name, m->name) == 0)
            other = t->recvs.v[k];
    return other;
}

/* A collective message: an Mcast without a table takes its members. */
static void add_coll(api_list *l, api_kind k, const mdl_msg *m)
{
    mdl_buf name = { 0 };
    cg_msg_fn_name(&name, m);
    int members = m->coll->kind == MDL_CO_MCAST && !m->coll->table;
    api_fn *f = push(l, k, &name, 2 * members);
    f->msg = m;
    if (members) {
        add_param(f, MDL_PARAM_INTS_IN, "insts", -1);
        add_param(f, MDL_PARAM_INT, "n", -1);
    }
}

static void add_fixed(api_list *l, api_kind k)
{
    mdl_buf name = { 0 };
    cg_fn_name(&name, k, NULL, NULL);
    push(l, k, &name, 0);
}

/* The functions first..last-1 of the table, which a task has alike, for
 * each thing that gives it them. */
static void add_run(api_list *l, const mdl_task *t, int first, int last)
{
    const mdl_msg **async = NULL;
    int na;
    switch (fn_info[first].presence) {
    case MDL_API_GRID:
    case MDL_API_RTSIZED:
        if (fn_info[first].presence == MDL_API_GRID ? t->grid_ndims == 0
                                                    : cg_task_nrtvars(t) == 0)
            break;
        /* fall through */
    case MDL_API_ONCE:
        for (int k = first; k < last; k++)
            add_fixed(l, (api_kind)k);
        break;
    case MDL_API_PER_TASK:
        for (int i = 0; i < t->connected.n; i++)
            for (int k = first; k < last; k++) {
                mdl_buf name = { 0 };
                cg_fn_name(&name, (api_kind)k, t->connected.v[i]->name, NULL);
                push(l, (api_kind)k, &name, 0)->other = t->connected.v[i];
            }
        break;
    case MDL_API_PER_SEND:
        for (int i = 0; i < t->sends.n; i++)
            for (int k = first; k < last; k++)
                add_p2p(l, (api_kind)k, t->sends.v[i]);
        break;
    case MDL_API_PER_RECV:
        for (int i = 0; i < t->recvs.n; i++)
            for (int k = first; k < last; k++)
                add_p2p(l, (api_kind)k, t->recvs.v[i]);
        break;
    case MDL_API_PER_ASYNC:
        async = cg_xcalloc((size_t)(t->sends.n + t->recvs.n) + 1, sizeof *async);
        na = cg_task_async_msgs(t, async, t->sends.n + t->recvs.n);
        for (int i = 0; i < na; i++)
            for (int k = first; k < last; k++)
                add_completion(l, (api_kind)k, async[i], async_receive_named(t, async[i]));
        free(async);
        break;
    case MDL_API_PER_COLL:
        for (int i = 0; i < t->colls.n; i++)
            for (int m = 0; m < t->colls.v[i]->msgs.n; m++)
                for (int k = first; k < last; k++)
                    add_coll(l, (api_kind)k, t->colls.v[i]->msgs.v[m]);
        break;
    }
}

void cg_task_api(const mdl_task *t, api_list *l)
{
    for (int first = 0, last; first < MDL_FN_COUNT; first = last) {
        for (last = first + 1;
             last < MDL_FN_COUNT && fn_info[last].presence == fn_info[first].presence; last++)
            ;
        add_run(l, t, first, last);
    }
}

void cg_api_free(api_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->v[i].name);
        free(l->v[i].params);
    }
    free(l->v);
    memset(l, 0, sizeof *l);
}

void cg_api_params(mdl_buf *b, const api_fn *f, api_params_style how, int skip)
{
    for (int i = skip; i < f->nparams; i++) {
        const api_param *p = &f->params[i];
        const char *type = c_types[p->kind];
        /* "int *argc", "int inst" */
        const char *space = type[strlen(type) - 1] == '*' ? "" : " ";
        const char *sep = how == API_P_C || how >= API_P_ARGS || i > skip ? ", " : "";
        const char *prefix = how == API_P_DEF || how == API_P_ARGS ? "mdl_" : "";
        cg_buf_puts(b, sep);
        if (how == API_P_C || how == API_P_DEF)
            cg_buf_printf(b, "%s%s%s", type, space, prefix);
        else if (how == API_P_DECL)
            cg_buf_printf(b, "%s /*", type);
        else
            cg_buf_puts(b, prefix);
        cg_buf_puts(b, p->name);
        if (p->index >= 0)
            cg_buf_printf(b, "%d", p->index);
        if (how == API_P_DECL)
            cg_buf_puts(b, "*/");
    }
}

void cg_api_proto(mdl_buf *b, const mdl_task *t, const api_fn *f)
{
    cg_buf_printf(b, "int %s_%s(struct ", t->name, f->name);
    cg_id(b, t->name);
    cg_buf_puts(b, f->self == MDL_SELF_HANDLE ? " **t" : " *t");
    cg_api_params(b, f, API_P_C, 0);
    cg_buf_puts(b, ")");
}

api_list *cg_spec_apis(const mdl_spec *s)
{
    api_list *a = cg_xcalloc((size_t)s->tasks.n + 1, sizeof *a);
    for (int i = 0; i < s->tasks.n; i++)
        cg_task_api(s->tasks.v[i], &a[i]);
    return a;
}

void cg_spec_apis_free(const mdl_spec *s, api_list *apis)
{
    for (int i = 0; i < s->tasks.n; i++)
        cg_api_free(&apis[i]);
    free(apis);
}
