/* emit_api.c — the list of public functions of a task (reference §6).
 *
 * The header's prototypes and _Generic macros and the source's
 * definitions are all printed from this one list, so they cannot
 * disagree on a name or a parameter. */
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"

/* The buffer's string, trimmed to its length: a buffer starts at 4 KiB,
 * and a spec has tens of thousands of these names and parameter lists. */
static char *take(mdl_buf *b)
{
    char *s = b->s ? cg_xrealloc(b->s, b->n + 1) : cg_xcalloc(1, 1);
    memset(b, 0, sizeof *b);
    return s;
}

static api_fn *push(api_list *l, api_kind k, mdl_buf *name, const char *params)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 32;
        l->v = cg_xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    api_fn *f = &l->v[l->n++];
    memset(f, 0, sizeof *f);
    f->kind = k;
    f->name = take(name);
    mdl_buf p = { 0 };
    cg_buf_puts(&p, params);
    f->params = take(&p);
    return f;
}

static api_fn *simple(api_list *l, api_kind k, const char *name, const char *params)
{
    mdl_buf b = { 0 };
    cg_buf_puts(&b, name);
    return push(l, k, &b, params);
}

static void runtime_params(mdl_buf *p, const mdl_msg *m)
{
    for (int k = 0; k < m->nruntime; k++)
        cg_buf_printf(p, ", int lo%d, int hi%d", k, k);
}

int cg_msg_takes_inst(const mdl_msg *m)
{
    if (m->peer_kind == MDL_P_NEIGHBOR)
        return 0;
    /* only sends broadcast or multicast; a receive names one instance */
    return !m->is_send || m->peer_kind == MDL_P_NONE || m->peer_kind == MDL_P_ONE;
}

static void add_p2p(api_list *l, const mdl_msg *m)
{
    mdl_buf name = { 0 }, p = { 0 };
    cg_msg_fn_name(&name, m);
    if (cg_msg_takes_inst(m))
        cg_buf_puts(&p, ", int inst");
    else if (m->is_send && m->peer_kind == MDL_P_SUBSET)
        cg_buf_puts(&p, ", const int *insts, int n");
    runtime_params(&p, m);
    push(l, m->is_send ? API_SEND : API_RECV, &name, p.s ? p.s : "")->msg = m;
    cg_buf_free(&p);
}

void cg_task_api(const mdl_task *t, api_list *l)
{
    simple(l, API_INIT, "MDL_Init", ", int *argc, char ***argv");
    /* the C++ class's MDL_Init, on an object of `size` bytes: no short
     * name (not in the reference) */
    simple(l, API_INIT_AT, "MDL_Init_at", ", unsigned long size, int *argc, char ***argv");
    simple(l, API_END, "MDL_End", "");
    simple(l, API_MYRANK, "MDL_MyRank", "");
    simple(l, API_FAMILYSIZE, "MDL_FamilySize", "");
    for (int i = 0; i < t->connected.n; i++) {
        mdl_buf name = { 0 };
        cg_buf_printf(&name, "MDL_%sSize", t->connected.v[i]->name);
        push(l, API_SIZE, &name, "")->other = t->connected.v[i];
    }
    simple(l, API_BARRIER, "MDL_Barrier", "");
    simple(l, API_SYNC, "MDL_syncWithFamily", "");
    simple(l, API_SBARRIER, "MDL_Sbarrier", ", const int *ranks, int n");
    for (int i = 0; i < t->sends.n; i++)
        add_p2p(l, t->sends.v[i]);
    for (int i = 0; i < t->recvs.n; i++)
        add_p2p(l, t->recvs.v[i]);

    int nmax = t->sends.n + t->recvs.n;
    const mdl_msg **async = cg_xcalloc((size_t)nmax + 1, sizeof *async);
    int na = cg_task_async_msgs(t, async, nmax);
    for (int i = 0; i < na; i++) {
        /* A send and a receive of one name share Test/Wait: find the
         * async receive that goes with an async send. */
        const mdl_msg *other = NULL;
        if (async[i]->is_send)
            for (int k = 0; k < t->recvs.n; k++)
                if (t->recvs.v[k]->is_async &&
                    strcmp(t->recvs.v[k]->name, async[i]->name) == 0)
                    other = t->recvs.v[k];
        for (int w = 0; w < 2; w++) {
            mdl_buf name = { 0 };
            cg_buf_printf(&name, "MDL_%s%s", async[i]->name, w ? "Wait" : "Test");
            api_fn *f = push(l, w ? API_WAIT : API_TEST, &name, "");
            f->msg = async[i];
            f->msg2 = other;
        }
    }
    free(async);

    for (int i = 0; i < t->colls.n; i++) {
        const mdl_coll *c = t->colls.v[i];
        for (int k = 0; k < c->msgs.n; k++) {
            mdl_buf name = { 0 };
            cg_msg_fn_name(&name, c->msgs.v[k]);
            const char *p = c->kind == MDL_CO_MCAST && !c->table
                                ? ", const int *insts, int n" : "";
            push(l, API_COLL, &name, p)->msg = c->msgs.v[k];
        }
    }

    if (t->grid_ndims > 0) {
        simple(l, API_GRID_CREATE, "MDL_Grid_Create", ", int *dims");
        simple(l, API_GRID_SCREATE, "MDL_Grid_Screate", ", int *dims");
        simple(l, API_GRID_RANK, "MDL_Grid_Rank", ", const int *coords, int *rank");
        simple(l, API_GRID_COORDS, "MDL_Grid_Coords", ", int rank, int *coords");
        simple(l, API_GRID_MYCOORDS, "MDL_Grid_Mycoords", ", int *coords");
        simple(l, API_GET_NEIGHBORS, "MDL_Get_Neighbors",
               ", int direction, int disp, int *source, int *dest");
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

void cg_api_proto(mdl_buf *b, const mdl_task *t, const api_fn *f)
{
    cg_buf_printf(b, "int %s_%s(struct ", t->name, f->name);
    cg_id(b, t->name);
    cg_buf_printf(b, " %st%s)", f->kind == API_INIT ? "**" : "*", f->params);
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
