/* mpi_types.c — MPI derived datatypes of messages.
 *
 * A message is one datatype: a struct with one member per item, each item
 * an hvector nest over its element type taken from the section layout of
 * runtime/core (mdl_item_span), so the bounds checks and the layout are
 * the ones the shared-memory runtime uses too.  Displacements are relative
 * to the task struct, or absolute (buffer MPI_BOTTOM) when the message has
 * pointer items.  A message whose bounds are all constant is built once at
 * init; the others are rebuilt only when their bounds (or pointer values)
 * differ from the previous call — or, for one section of a declared
 * variable, only when its shape does (relative to its first byte). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_rt.h"

static MPI_Datatype basic_type(int base)
{
    switch (base) {
    case MDL_T_CHAR:   return CHAR_MIN < 0 ? MPI_SIGNED_CHAR : MPI_UNSIGNED_CHAR;
    case MDL_T_SCHAR:  return MPI_SIGNED_CHAR;
    case MDL_T_UCHAR:  return MPI_UNSIGNED_CHAR;
    case MDL_T_SHORT:  return MPI_SHORT;
    case MDL_T_USHORT: return MPI_UNSIGNED_SHORT;
    case MDL_T_INT:    return MPI_INT;
    case MDL_T_UINT:   return MPI_UNSIGNED;
    case MDL_T_LONG:   return MPI_LONG;
    case MDL_T_ULONG:  return MPI_UNSIGNED_LONG;
    case MDL_T_LLONG:  return MPI_LONG_LONG;
    case MDL_T_ULLONG: return MPI_UNSIGNED_LONG_LONG;
    case MDL_T_FLOAT:  return MPI_FLOAT;
    case MDL_T_DOUBLE: return MPI_DOUBLE;
    default:           return MPI_DATATYPE_NULL;
    }
}

MPI_Datatype rt_elem_type(mdl_rt *rt, const mdl_type_desc *t)
{
    if (t->base != MDL_T_STRUCT)
        return basic_type(t->base);
    for (int i = 0; i < rt->nstructs; i++)
        if (rt->structs[i].desc == t)
            return rt->structs[i].dt;
    return MPI_DATATYPE_NULL;
}

/* Builds (once) the struct type of t and of the structs it contains:
 * fields at their offsets, resized to sizeof so arrays of it work. */
static int add_struct(mdl_rt *rt, const mdl_type_desc *t)
{
    if (t->base != MDL_T_STRUCT || rt_elem_type(rt, t) != MPI_DATATYPE_NULL)
        return 0;
    int n = t->nfields;
    int *blens = malloc(sizeof(int) * (size_t)(n ? n : 1));
    MPI_Aint *disps = malloc(sizeof(MPI_Aint) * (size_t)(n ? n : 1));
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)(n ? n : 1));
    int rc = blens && disps && types ? 0 : MDL_ERR_INTERN;
    for (int i = 0; i < n && !rc; i++) {
        const mdl_field_desc *f = &t->fields[i];
        const mdl_type_desc *sub = f->sub;
        if (f->base == MDL_T_STRUCT) {
            rc = sub ? add_struct(rt, sub) : MDL_ERR_INTERN;
            types[i] = rc ? MPI_DATATYPE_NULL : rt_elem_type(rt, sub);
        } else {
            types[i] = basic_type(f->base);
        }
        if (types[i] == MPI_DATATYPE_NULL || f->count < 0 || f->count > INT_MAX)
            rc = MDL_ERR_INTERN;
        blens[i] = (int)f->count;
        disps[i] = (MPI_Aint)f->offset;
    }
    MPI_Datatype raw = MPI_DATATYPE_NULL, dt = MPI_DATATYPE_NULL;
    if (!rc && MPI_Type_create_struct(n, blens, disps, types, &raw) != MPI_SUCCESS)
        rc = MDL_ERR_INTERN;
    if (!rc && MPI_Type_create_resized(raw, 0, (MPI_Aint)t->size, &dt) != MPI_SUCCESS)
        rc = MDL_ERR_INTERN;
    if (raw != MPI_DATATYPE_NULL)
        MPI_Type_free(&raw);
    if (!rc && MPI_Type_commit(&dt) != MPI_SUCCESS)
        rc = MDL_ERR_INTERN;
    free(blens);
    free(disps);
    free(types);
    if (rc) {
        if (dt != MPI_DATATYPE_NULL)
            MPI_Type_free(&dt);
        return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_INTERN,
                       "cannot build the MPI datatype of struct '%s'", t->name);
    }
    mdl_struct_type *v = realloc(rt->structs, sizeof *v * (size_t)(rt->nstructs + 1));
    if (!v) {
        MPI_Type_free(&dt);
        return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_INTERN, "out of memory");
    }
    rt->structs = v;
    rt->structs[rt->nstructs++] = (mdl_struct_type){ t, dt };
    return 0;
}

/* Whether s->dt was built for these bounds and pointer values: compared in
 * place against the key (building a key to memcmp it cost ~100
 * instructions a message). */
static int key_same(const mdl_msg_desc *m, const mdl_msg_state *s, void *task,
                    const long *pairs)
{
    return mdl_msg_key_same(m, task, pairs, 2 * m->npairs, s->absolute, s->key);
}

static void key_set(const mdl_msg_desc *m, mdl_msg_state *s, void *task, const long *pairs)
{
    long *key = s->key;
    if (s->by_shape) {
        for (int d = 0; d < m->npairs; d++)
            key[d] = pairs[2 * d + 1] - pairs[2 * d];
        return;
    }
    mdl_msg_key_put(m, task, pairs, 2 * m->npairs, key);
}

/* Builds the datatype of m for the current bounds into s->dt (by_shape:
 * relative to the section's first byte, s->spans[0].base). */
static int build_msg_type(mdl_rt *rt, const mdl_msg_desc *m, mdl_msg_state *s, void *task,
                          const long *bounds, const char *fn)
{
    char why[256];
    size_t total;
    int rc = mdl_msg_spans(m, task, bounds, s->spans, &total, why, sizeof why);
    if (rc)
        return rt_fail(rt, fn, rc, "%s", why);
    const char *origin = s->by_shape ? s->spans[0].base : (char *)task;
    /* Sizes first, so that no failure leaves item types half built. */
    for (int i = 0; i < m->nitems; i++) {
        const mdl_item_desc *it = &m->items[i];
        const mdl_span *sp = &s->spans[i];
        s->types[i] = rt_elem_type(rt, it->type);
        s->blens[i] = 0;
        s->disps[i] = 0;
        int too_big = sp->bytes > 0 && sp->block / it->type->size > INT_MAX;
        for (int d = 0; d < sp->nloops; d++)
            too_big |= sp->count[d] > INT_MAX;
        if (too_big)
            return rt_fail(rt, fn, MDL_ERR_ARG, "section of '%s' too large for MPI", it->var);
    }
    int mpirc = MPI_SUCCESS;
    for (int i = 0; i < m->nitems && mpirc == MPI_SUCCESS; i++) {
        const mdl_span *sp = &s->spans[i];
        MPI_Datatype e = s->types[i];
        if (sp->bytes == 0)
            continue;
        int n = (int)(sp->block / m->items[i].type->size);
        if (s->absolute)
            MPI_Get_address(sp->base, &s->disps[i]);
        else
            s->disps[i] = (MPI_Aint)(sp->base - origin);
        if (sp->nloops == 0) {
            s->blens[i] = n;
            continue;
        }
        /* contiguous block, then one hvector per loop, innermost first */
        MPI_Datatype cur = e;
        if (n != 1)
            mpirc = MPI_Type_contiguous(n, e, &cur);
        for (int d = sp->nloops - 1; d >= 0 && mpirc == MPI_SUCCESS; d--) {
            MPI_Datatype next;
            mpirc = MPI_Type_create_hvector((int)sp->count[d], 1, (MPI_Aint)sp->stride[d], cur,
                                            &next);
            if (cur != e)
                MPI_Type_free(&cur);
            cur = mpirc == MPI_SUCCESS ? next : e;
        }
        s->types[i] = cur;
        s->blens[i] = 1;
    }
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    if (mpirc == MPI_SUCCESS)
        mpirc = MPI_Type_create_struct(m->nitems, s->blens, s->disps, s->types, &dt);
    if (mpirc == MPI_SUCCESS)
        mpirc = MPI_Type_commit(&dt);
    for (int i = 0; i < m->nitems; i++)    /* the struct holds its own references */
        if (s->types[i] != rt_elem_type(rt, m->items[i].type))
            MPI_Type_free(&s->types[i]);
    if (mpirc != MPI_SUCCESS) {
        if (dt != MPI_DATATYPE_NULL)
            MPI_Type_free(&dt);
        return rt_mpi_fail(rt, fn, mpirc, "building the message datatype");
    }
    /* Pending async operations keep the old type alive inside MPI. */
    if (s->dt != MPI_DATATYPE_NULL)
        MPI_Type_free(&s->dt);
    s->dt = dt;
    s->last_ok = 0;             /* checked against the old dt */
    s->layout_bytes = total;
    /* payload, not span bytes: struct padding does not travel */
    MPI_Count size = 0;
    MPI_Type_size_x(dt, &size);
    s->bytes = (size_t)size;
    return 0;
}

/* The slow path of rt_msg_type, out of line so that the cached path
 * stays a short leaf.  A build that fails (bounds refused) has already
 * overwritten s->spans, which must describe s->dt (the small receives'
 * placing, sizes in errors): the cached type goes too, and the next call
 * builds its own. */
static __attribute__((noinline)) int rebuild(mdl_rt *rt, const mdl_msg_desc *m,
                                             mdl_msg_state *s, void *task,
                                             const long *bounds, const long *pairs)
{
    int rc = build_msg_type(rt, m, s, task, bounds, m->fn);
    if (rc) {
        if (s->dt != MPI_DATATYPE_NULL)
            MPI_Type_free(&s->dt);      /* pending operations keep it alive */
        s->last_ok = 0;
        return rc;
    }
    key_set(m, s, task, pairs);
    return 0;
}

int rt_msg_type(mdl_rt *rt, const mdl_msg_desc *m, void *task, const long *bounds,
                void **buf, MPI_Datatype *dt)
{
    static const long no_pairs[1] = { 0 };
    mdl_msg_state *s = &rt->msgs[m->index];
    *buf = s->absolute ? MPI_BOTTOM : task;
    int fixed = m->fixed_bounds || m->npairs == 0;
    if (!bounds)
        bounds = no_pairs;
    const long *pairs = m->fixed_bounds ? m->fixed_bounds : bounds;
    if (s->by_shape) {
        *dt = rt_msg_type_cached(m, s, task, bounds, buf);
        if (*dt != MPI_DATATYPE_NULL)
            return 0;
        int rc = rebuild(rt, m, s, task, bounds, pairs);
        if (rc)
            return rc;
        *buf = s->spans[0].base;
        *dt = s->dt;
        return 0;
    }
    /* built at init for constant bounds; else cached for the last values */
    if (s->dt == MPI_DATATYPE_NULL || (s->absolute || !fixed ? !key_same(m, s, task, pairs) : 0)) {
        int rc = rebuild(rt, m, s, task, bounds, pairs);
        if (rc)
            return rc;
    }
    *dt = s->dt;
    return 0;
}

/* Bytes of one element of t that travel (its basic members). */
static size_t payload_of(const mdl_type_desc *t)
{
    if (t->base != MDL_T_STRUCT)
        return t->size;
    size_t n = 0;
    for (int i = 0; i < t->nfields; i++) {
        const mdl_field_desc *f = &t->fields[i];
        int basic = 0;
        if (f->base != MDL_T_STRUCT)
            MPI_Type_size(basic_type(f->base), &basic);
        n += (size_t)f->count * (f->base == MDL_T_STRUCT ? payload_of(f->sub) : (size_t)basic);
    }
    return n;
}

/* The payload fills the items in order, whole elements first: each
 * element counts its size in memory, a partial one what arrived of it. */
size_t rt_layout_bytes(const mdl_msg_desc *m, const mdl_msg_state *s, size_t payload)
{
    size_t bytes = 0;
    for (int i = 0; i < m->nitems && payload > 0; i++) {
        const mdl_type_desc *t = m->items[i].type;
        size_t pe = payload_of(t);
        if (pe == 0)
            continue;
        size_t elems = s->spans[i].bytes / t->size, whole = payload / pe;
        if (whole > elems)
            whole = elems;
        bytes += whole * t->size;
        payload -= whole * pe;
        if (whole < elems) {
            bytes += payload;
            payload = 0;
        }
    }
    return bytes + payload;
}

int rt_types_init(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    for (int c = 0; c < d->ncolls; c++) {
        int rc = add_struct(rt, d->colls[c]->type);
        if (rc)
            return rc;
    }
    rt->msgs = calloc((size_t)(d->nmsgs ? d->nmsgs : 1), sizeof *rt->msgs);
    if (!rt->msgs)
        return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_INTERN, "out of memory");
    for (int i = 0; i < d->nmsgs; i++)
        rt->msgs[i].dt = MPI_DATATYPE_NULL;
    for (int i = 0; i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        mdl_msg_state *s = &rt->msgs[i];
        int nptr = 0;
        for (int k = 0; k < m->nitems; k++) {
            int rc = add_struct(rt, m->items[k].type);
            if (rc)
                return rc;
            nptr += m->items[k].is_pointer;
        }
        size_t ni = (size_t)(m->nitems ? m->nitems : 1);
        s->absolute = nptr > 0;
        const mdl_item_desc *it = m->nitems == 1 ? &m->items[0] : NULL;
        s->by_shape = it && !it->is_pointer && !m->fixed_bounds && it->ndims > 0 &&
                      m->npairs == it->ndims && it->first_pair == 0;
        if (s->by_shape) {
            size_t rb = it->type->size;
            for (int d = it->ndims - 1; d >= 0; d--) {
                s->row_bytes[d] = rb;
                rb *= (size_t)it->extent[d];
            }
        }
        s->nkey = 2 * m->npairs + nptr;
        s->key = calloc((size_t)s->nkey + 1, sizeof(long));
        s->spans = calloc(ni, sizeof *s->spans);
        s->blens = calloc(ni, sizeof *s->blens);
        s->disps = calloc(ni, sizeof *s->disps);
        s->types = calloc(ni, sizeof *s->types);
        if (!s->key || !s->spans || !s->blens || !s->disps || !s->types)
            return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_INTERN, "out of memory");
        if ((m->fixed_bounds || m->npairs == 0) && !s->absolute) {
            static const long no_pairs[1] = { 0 };
            int rc = build_msg_type(rt, m, s, rt->c.task, no_pairs, MDL_FN_NAME(INIT));
            if (rc)
                return rc;
        }
    }
    return 0;
}

void rt_types_free(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    if (rt->msgs) {
        for (int i = 0; i < d->nmsgs; i++) {
            mdl_msg_state *s = &rt->msgs[i];
            if (s->dt != MPI_DATATYPE_NULL)
                MPI_Type_free(&s->dt);
            free(s->key);
            free(s->spans);
            free(s->blens);
            free(s->disps);
            free(s->types);
            free(s->reqs);
            free(s->sts);
            free(s->expect);
            free(s->notes);
            free(s->rbounds);
            free(s->early);
            for (int k = 0; s->own && k < s->capreq; k++)
                free(s->own[k]);
            free(s->own);
        }
        free(rt->msgs);
        rt->msgs = NULL;
    }
    for (int i = 0; i < rt->nstructs; i++)
        MPI_Type_free(&rt->structs[i].dt);
    free(rt->structs);
    rt->structs = NULL;
    rt->nstructs = 0;
}
