/* spec_hash.c — mdl_spec_hash: 64-bit FNV-1a of what makes the instances
 * of one job compatible (tasks, grids, messages, channels, peers, the
 * types and extents they carry).  medleyc writes it into every task
 * descriptor, MDL_Init compares it between the programs of a job, traces
 * record it, and mdltrace --spec compares a trace's with its spec's. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "fnv.h"
#include "frontend.h"

typedef struct spec_hasher {
    uint64_t *layout;           /* per struct (spec->structs index): its hash */
    char *known;                /* layout[i] is computed */
} spec_hasher;

/* Strings are hashed with their terminating NUL so "ab","c" != "a","bc". */
static void h_str(uint64_t *h, const char *s)
{
    *h = mdl_fnv1a(*h, s ? s : "", strlen(s ? s : "") + 1);
}

static void h_int(uint64_t *h, long long v)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%lld", v);
    h_str(h, tmp);
}

static void h_type(spec_hasher *x, uint64_t *h, const mdl_typeref *t);

/* Structs by layout, so two specs agreeing on names but not on fields are
 * told apart.  Each struct is hashed once: walking the nested structs at
 * every use was exponential in the nesting depth. */
static uint64_t struct_layout(spec_hasher *x, const mdl_struct *s)
{
    if (x->known[s->index])
        return x->layout[s->index];
    uint64_t h = MDL_FNV_OFFSET;
    h_str(&h, "{");
    for (int i = 0; i < s->fields.n; i++) {
        const mdl_field *f = s->fields.v[i];
        h_type(x, &h, &f->type);
        for (int d = 0; d < f->dims.n; d++)
            h_int(&h, f->dimval ? f->dimval[d] : 0);
        h_str(&h, ",");
    }
    h_str(&h, "}");
    x->layout[s->index] = h;
    x->known[s->index] = 1;
    return h;
}

static void h_type(spec_hasher *x, uint64_t *h, const mdl_typeref *t)
{
    if (t->basic != MDL_B_NONE || !t->resolved) {
        h_int(h, t->basic);
        return;
    }
    char tmp[32];
    snprintf(tmp, sizeof tmp, "s%016llx", (unsigned long long)struct_layout(x, t->resolved));
    h_str(h, tmp);
}

static void h_items(spec_hasher *x, uint64_t *h, const mdl_msg *m)
{
    h_int(h, m->items.n);
    for (int i = 0; i < m->items.n; i++) {
        const mdl_item *it = m->items.v[i];
        h_int(h, it->count);
        if (it->var) {
            h_type(x, h, &it->var->type);
            for (int d = 0; d < it->var->dims.n; d++)
                h_int(h, it->var->dimval ? it->var->dimval[d] : 0);
        }
    }
}

unsigned long long mdl_spec_hash(const mdl_spec *s)
{
    mdl_arena *a = mdl_arena_new();
    spec_hasher x = { mdl_alloc(a, ((size_t)s->structs.n + 1) * sizeof *x.layout),
                      mdl_alloc(a, (size_t)s->structs.n + 1) };
    uint64_t h = MDL_FNV_OFFSET;
    h_int(&h, s->tasks.n);
    for (int i = 0; i < s->tasks.n; i++) {
        const mdl_task *t = s->tasks.v[i];
        h_str(&h, t->name);
        h_int(&h, t->grid_ndims);
        for (int k = 0; k < 3; k++)
            h_int(&h, t->periodic[k]);
        for (int k = 0; k < t->sends.n; k++) {
            const mdl_msg *m = t->sends.v[k];
            h_str(&h, "send");
            h_str(&h, m->name);
            h_int(&h, m->channel);
            h_str(&h, m->peer_task ? m->peer_task->name : "");
            h_int(&h, m->peer_kind);
            h_str(&h, m->pair ? m->pair->name : "");
            h_items(&x, &h, m);
            if (m->pair)
                h_items(&x, &h, m->pair);
        }
        for (int k = 0; k < t->colls.n; k++) {
            const mdl_coll *c = t->colls.v[k];
            h_int(&h, c->kind);
            h_int(&h, c->root_val);
            for (int j = 0; j < c->msgs.n; j++) {
                h_str(&h, c->msgs.v[j]->name);
                h_items(&x, &h, c->msgs.v[j]);
            }
        }
    }
    mdl_arena_free(a);
    return h;
}
