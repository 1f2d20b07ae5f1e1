/* rt_binding.c — what a binding other than C's needs from the layer (the
 * Fortran modules of medleyc --fortran, docs/generated-code.md): the
 * check, at MDL_Init, that the binding lays out the task struct and its
 * struct types as the C code does, and the end of the job on an error
 * whose code its caller did not take, and the extents a view of a
 * run-time-sized variable takes. */
#include "rt_layer.h"
#include "rt_sizes.h"
#include "trace/rt_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The binding's view, as mdl_check_layout receives it: entries of a type
 * (no '%' in the name) each followed by those of its fields ("type%field"). */
typedef struct view {
    int n;
    const char *const *names;
    void *const *addr;
    const size_t *size;
} view;

/* The entry of type `type` (field NULL) or of its field `field`, or -1. */
static int find(const view *v, const char *type, const char *field)
{
    size_t tl = strlen(type);
    for (int k = 0; k < v->n; k++) {
        const char *s = v->names[k];
        if (strncmp(s, type, tl) != 0)
            continue;
        if (!field ? s[tl] == '\0' : s[tl] == '%' && strcmp(s + tl + 1, field) == 0)
            return k;
    }
    return -1;
}

static size_t offset(const view *v, int k, int base)
{
    return (size_t)((const char *)v->addr[k] - (const char *)v->addr[base]);
}

static int fail(mdl_rt *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(mdl_rt *rt, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = rt_vfail(rt, MDL_FN_NAME(INIT), MDL_ERR_LAUNCH, fmt, ap);
    va_end(ap);
    return rc;
}

/* Struct type t (a descriptor's), and the struct types its fields hold:
 * the size and every field's offset as the binding has them. */
static int check_type(mdl_rt *rt, const view *v, const mdl_type_desc *t, int depth)
{
    if (t->base != MDL_T_STRUCT || depth > 64)
        return 0;
    int k = find(v, t->name, NULL);
    if (k < 0)
        return fail(rt, "the Fortran module has no type %s, which the C code's messages "
                    "carry: generate both with one run of medleyc", t->name);
    if (v->size[k] != t->size)
        return fail(rt, "type %s is %zu bytes in Fortran, %zu in C", t->name, v->size[k],
                    t->size);
    int nf = 0;
    while (k + 1 + nf < v->n && strchr(v->names[k + 1 + nf], '%'))
        nf++;
    if (nf != t->nfields)
        return fail(rt, "type %s has %d fields in Fortran, %d in C", t->name, nf, t->nfields);
    for (int f = 0; f < nf; f++) {
        const mdl_field_desc *fd = &t->fields[f];
        size_t at = offset(v, k + 1 + f, k);
        if (at != fd->offset)
            return fail(rt, "field %s is at byte %zu in Fortran, at byte %zu in C",
                        v->names[k + 1 + f], at, fd->offset);
        if (fd->sub) {
            int rc = check_type(rt, v, fd->sub, depth + 1);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* Member `it` of the task struct (an item of a message). */
static int check_item(mdl_rt *rt, const view *v, const char *task, const mdl_item_desc *it)
{
    int k = find(v, task, it->var);
    if (k < 0)
        return fail(rt, "the Fortran type %s has no member '%s', which the C code's messages "
                    "carry: generate both with one run of medleyc", task, it->var);
    size_t at = offset(v, k, 0);
    if (at != it->offset)
        return fail(rt, "member '%s' is at byte %zu of the Fortran type %s, at byte %zu of the "
                    "C struct", it->var, at, task, it->offset);
    size_t elem = it->is_pointer ? sizeof(void *) : it->type->size;
    if (v->size[k] != elem)
        return fail(rt, "the elements of '%s' are %zu bytes in Fortran, %zu in C", it->var,
                    v->size[k], elem);
    return check_type(rt, v, it->type, 0);
}

MDL_API int mdl_check_layout(const void *task_object, const char *spec_hash, int n,
                             const char *names, void *const *addr, const size_t *size)
{
    const char *fn = MDL_FN_NAME(INIT);
    /* the process's runtime, not the handle in the object: where the
     * binding finds that handle is what is being checked */
    if (!rt_active())
        return rt_dead(fn);
    mdl_rt *rt = rt_live;
    const mdl_task_desc *d = rt_c(rt)->d;
    const char *task = d->tasks[d->self];
    char own[24];
    snprintf(own, sizeof own, "%016llx", d->spec_hash);
    if (!spec_hash || !names || !addr || !size || n < 1)
        return rt_fail(rt, fn, MDL_ERR_ARG, "invalid layout of the Fortran module");
    if (strcmp(spec_hash, own) != 0)
        return fail(rt, "the Fortran module was generated from another spec than the task's C "
                    "code (spec hash %.16s, the C code's %s): generate both with one run of "
                    "medleyc", spec_hash, own);
    const char **list = malloc((size_t)n * sizeof *list);
    if (!list)
        return rt_fail_oom(rt, fn);
    for (int k = 0; k < n; k++, names += strlen(names) + 1)
        list[k] = names;
    view v = { n, list, addr, size };
    int rc = 0;
    if (strcmp(list[0], task) != 0 || addr[0] != rt_c(rt)->task || task_object != addr[0])
        rc = rt_fail(rt, fn, MDL_ERR_ARG, "the layout given is not that of this task's object");
    /* the members first: a member's place says more than the total size */
    for (int i = 0; i < d->nmsgs && !rc; i++)
        for (int j = 0; j < d->msgs[i]->nitems && !rc; j++)
            rc = check_item(rt, &v, task, &d->msgs[i]->items[j]);
    for (int i = 0; i < d->ncolls && !rc; i++)
        rc = check_type(rt, &v, d->colls[i]->type, 0);
    if (!rc && size[0] != d->struct_size)
        rc = fail(rt, "the Fortran type %s is %zu bytes, the C struct %zu", task, size[0],
                  d->struct_size);
    free(list);
    return rc;
}

MDL_API void mdl_fail_unchecked(int code)
{
    mdl_rt *rt = rt_live;
    if (rt_active() && rt_c(rt)->tr) {           /* the job ends here: so does the trace */
        rt_trace_stop(rt, code, 1);
        be_trace_fatal(rt);
    }
    mdl_print_kept(code);
    be_abort(code);
}

MDL_API int mdl_sized_extents(const void *task_object, int rtvar, long *extents)
{
    if (!rt_active())
        return 0;
    const mdl_rt_common *c = rt_c(rt_live);
    if (task_object != c->task || !c->sizes || rtvar < 0 || rtvar >= c->d->nrtvars ||
        !c->sizes->var[rtvar].mem)
        return 0;
    int n = c->d->rtvars[rtvar].ndims;
    memcpy(extents, c->sizes->var[rtvar].ext, (size_t)n * sizeof *extents);
    return n;
}
