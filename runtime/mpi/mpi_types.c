/* mpi_types.c — MPI derived datatypes of messages.
 *
 * A message is one datatype: a struct with one member per item, each item
 * an hvector nest over its element type, taken from the layout the
 * validation layer checked (rt_layout: the spans of runtime/core), so the
 * bounds and the layout are the ones the shared-memory runtime uses too.
 * Displacements are relative to the message's first byte, which is the
 * buffer passed with the type, so that the type serves every layout of
 * the same shape; or absolute (buffer MPI_BOTTOM) when the message has
 * pointer items.  A message whose bounds are all constant is built once at
 * init; the others when the layout's shape (absolute: its gen) changes. */
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

MPI_Datatype mpi_elem_type(mdl_rt *rt, const mdl_type_desc *t)
{
    if (t->base != MDL_T_STRUCT)
        return basic_type(t->base);
    for (int i = 0; i < rt->structs.n; i++)
        if (rt->structs.all[i].desc == t)
            return rt->structs.all[i].dt;
    return MPI_DATATYPE_NULL;
}

/* Builds (once) the struct type of t and of the structs it contains:
 * fields at their offsets, resized to sizeof so arrays of it work. */
static int add_struct(mdl_rt *rt, const mdl_type_desc *t)
{
    if (t->base != MDL_T_STRUCT || mpi_elem_type(rt, t) != MPI_DATATYPE_NULL)
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
            types[i] = rc ? MPI_DATATYPE_NULL : mpi_elem_type(rt, sub);
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
    mpi_struct_type *v = realloc(rt->structs.all, sizeof *v * (size_t)(rt->structs.n + 1));
    if (!v) {
        MPI_Type_free(&dt);
        return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_INTERN, "out of memory");
    }
    rt->structs.all = v;
    rt->structs.all[rt->structs.n++] = (mpi_struct_type){ t, dt };
    return 0;
}

/* Builds the datatype of m for the layout lay into ty->dt. */
static int build_msg_type(mdl_rt *rt, const mdl_msg_desc *m, mpi_msg_types *ty,
                          const rt_layout *lay, const char *fn)
{
    const mdl_span *spans = lay->spans;
    const char *origin = spans[0].base;
    /* Sizes first, so that no failure leaves item types half built. */
    for (int i = 0; i < m->nitems; i++) {
        const mdl_item_desc *it = &m->items[i];
        const mdl_span *sp = &spans[i];
        ty->types[i] = mpi_elem_type(rt, it->type);
        ty->blens[i] = 0;
        ty->disps[i] = 0;
        int too_big = sp->bytes > 0 && sp->block / it->type->size > INT_MAX;
        for (int d = 0; d < sp->nloops; d++)
            too_big |= sp->count[d] > INT_MAX;
        if (too_big)
            return rt_fail(rt, fn, MDL_ERR_ARG, "section of '%s' too large for MPI", it->var);
    }
    int mpirc = MPI_SUCCESS;
    for (int i = 0; i < m->nitems && mpirc == MPI_SUCCESS; i++) {
        const mdl_span *sp = &spans[i];
        MPI_Datatype e = ty->types[i];
        if (sp->bytes == 0)
            continue;
        int n = (int)(sp->block / m->items[i].type->size);
        if (ty->absolute)
            MPI_Get_address(sp->base, &ty->disps[i]);
        else
            ty->disps[i] = (MPI_Aint)(sp->base - origin);
        if (sp->nloops == 0) {
            ty->blens[i] = n;
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
        ty->types[i] = cur;
        ty->blens[i] = 1;
    }
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    if (mpirc == MPI_SUCCESS)
        mpirc = MPI_Type_create_struct(m->nitems, ty->blens, ty->disps, ty->types, &dt);
    if (mpirc == MPI_SUCCESS)
        mpirc = MPI_Type_commit(&dt);
    for (int i = 0; i < m->nitems; i++)    /* the struct holds its own references */
        if (ty->types[i] != mpi_elem_type(rt, m->items[i].type))
            MPI_Type_free(&ty->types[i]);
    if (mpirc != MPI_SUCCESS) {
        if (dt != MPI_DATATYPE_NULL)
            MPI_Type_free(&dt);
        return mpi_fail(rt, fn, mpirc, "building the message datatype");
    }
    /* Pending async operations keep the old type alive inside MPI. */
    if (ty->dt != MPI_DATATYPE_NULL)
        MPI_Type_free(&ty->dt);
    ty->dt = dt;
    ty->layout_bytes = lay->bytes;
    for (int i = 0; i < m->nitems; i++)
        ty->item_bytes[i] = spans[i].bytes;
    ty->contiguous = !ty->absolute && m->nitems == 1 && spans[0].nloops == 0;
    ty->basic = ty->contiguous && m->items[0].type->base != MDL_T_STRUCT;
    ty->call_dt = ty->basic ? mpi_elem_type(rt, m->items[0].type) : dt;
    ty->call_count = ty->basic ? (int)(spans[0].bytes / m->items[0].type->size) : 1;
    /* payload, not span bytes: struct padding does not travel */
    MPI_Count size = 0;
    MPI_Type_size_x(dt, &size);
    ty->bytes = (size_t)size;
    return 0;
}

/* The slow path of mpi_msg_type, out of line so that the cached path
 * stays short.  A build that fails leaves no type cached: the next call
 * builds its own. */
static __attribute__((noinline)) int rebuild(mdl_rt *rt, const mdl_msg_desc *m,
                                             mpi_msg_types *ty, const rt_layout *lay,
                                             const char *fn)
{
    ty->shape = ty->gen = 0;
    int rc = build_msg_type(rt, m, ty, lay, fn);
    if (rc) {
        if (ty->dt != MPI_DATATYPE_NULL)
            MPI_Type_free(&ty->dt);     /* pending operations keep it alive */
        return rc;
    }
    if (ty->absolute)
        ty->gen = lay->gen;
    else
        ty->shape = lay->shape;
    return 0;
}

int mpi_msg_type(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, void **buf,
                 MPI_Datatype *dt)
{
    mpi_msg_types *ty = &rt->msgs[m->index].types;
    int serves = ty->absolute ? ty->dt != MPI_DATATYPE_NULL && ty->gen == lay->gen
                              : mpi_type_serves(ty, lay);
    if (!serves) {
        int rc = rebuild(rt, m, ty, lay, m->fn);
        if (rc)
            return rc;
    }
    *buf = ty->absolute ? MPI_BOTTOM : (void *)lay->base;
    *dt = ty->dt;
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
size_t mpi_types_memory_bytes(const mdl_msg_desc *m, const mpi_msg_types *ty, size_t payload)
{
    size_t bytes = 0;
    for (int i = 0; i < m->nitems && payload > 0; i++) {
        const mdl_type_desc *t = m->items[i].type;
        size_t pe = payload_of(t);
        if (pe == 0)
            continue;
        size_t elems = ty->item_bytes[i] / t->size, whole = payload / pe;
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

int mpi_types_init(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    for (int i = 0; i < d->nmsgs; i++)
        rt->msgs[i].types.dt = MPI_DATATYPE_NULL;
    for (int c = 0; c < d->ncolls; c++) {
        int rc = add_struct(rt, d->colls[c]->type);
        if (rc)
            return rc;
    }
    for (int i = 0; i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        mpi_msg_types *ty = &rt->msgs[i].types;
        int sized = 0;
        for (int k = 0; k < m->nitems; k++) {
            int rc = add_struct(rt, m->items[k].type);
            if (rc)
                return rc;
            /* a run-time-sized variable's storage moves only with a new
             * layout shape (rt_layout.c): relative, keyed by shape */
            ty->absolute |= m->items[k].is_pointer && m->items[k].rtvar < 0;
            sized |= m->items[k].rtvar >= 0;
        }
        size_t ni = (size_t)(m->nitems ? m->nitems : 1);
        ty->item_bytes = calloc(ni, sizeof *ty->item_bytes);
        ty->blens = calloc(ni, sizeof *ty->blens);
        ty->disps = calloc(ni, sizeof *ty->disps);
        ty->types = calloc(ni, sizeof *ty->types);
        if (!ty->item_bytes || !ty->blens || !ty->disps || !ty->types)
            return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_INTERN, "out of memory");
        /* (a run-time-sized variable has no storage yet) */
        if ((m->fixed_bounds || m->npairs == 0) && !ty->absolute && !sized) {
            const rt_layout *lay = rt_layout_fixed(rt, m);
            int rc = lay ? rebuild(rt, m, ty, lay, MDL_FN_NAME(INIT)) : MDL_ERR_BOUNDS;
            if (rc)
                return rc;
        }
    }
    return 0;
}

void mpi_types_free(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    for (int i = 0; rt->msgs && i < d->nmsgs; i++) {
        mpi_msg_types *ty = &rt->msgs[i].types;
        if (ty->dt != MPI_DATATYPE_NULL)
            MPI_Type_free(&ty->dt);
        free(ty->item_bytes);
        free(ty->blens);
        free(ty->disps);
        free(ty->types);
        *ty = (mpi_msg_types){ .dt = MPI_DATATYPE_NULL };
    }
    for (int i = 0; i < rt->structs.n; i++)
        MPI_Type_free(&rt->structs.all[i].dt);
    free(rt->structs.all);
    rt->structs.all = NULL;
    rt->structs.n = 0;
}
