/* check_types.c — struct declarations and the types named in `uses`.
 *
 * Structs are what messages carry whole, so everything in them must be
 * sendable: no pointers (the data would stay behind), no unknown member
 * types, no struct containing itself.  A struct is found by its tag or by
 * its typedef name; `struct X` only by tag, as in C.  Types may be declared
 * in any order: spec->struct_order lists them as C must declare them (a
 * struct after the structs it contains), and each struct's size is
 * computed once, with the C layout rules: the size checks of check_vars.c
 * and mdltrace --spec read it (mdl_type_size). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_internal.h"

int mdl_mul_size(long long a, long long b, long long *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static const char *struct_name(const mdl_struct *s)
{
    return s->typedef_name ? s->typedef_name : s->tag ? s->tag : "?";
}

static mdl_struct *find_struct(mdl_checker *c, const char *name, int by_tag_only)
{
    for (int i = 0; i < c->spec->structs.n; i++) {
        mdl_struct *s = c->spec->structs.v[i];
        if (!s)
            continue;
        if (s->tag && strcmp(s->tag, name) == 0)
            return s;
        if (!by_tag_only && s->typedef_name && strcmp(s->typedef_name, name) == 0)
            return s;
    }
    return NULL;
}

static const char *suggest_struct(mdl_checker *c, const char *name, int by_tag_only)
{
    /* a misspelt basic type (`dobule`) parses as a struct name */
    static const char *const basics[] = { "char", "short", "int", "long", "unsigned",
                                          "signed", "float", "double" };
    int nb = (int)(sizeof basics / sizeof basics[0]);
    int n = c->spec->structs.n;
    const char **names = mdl_alloc(c->arena, sizeof *names * (size_t)(2 * n + nb + 1));
    int m = 0;
    for (int i = 0; i < n; i++) {
        mdl_struct *s = c->spec->structs.v[i];
        if (!s)
            continue;
        names[m++] = s->tag;
        if (!by_tag_only)
            names[m++] = s->typedef_name;
    }
    if (!by_tag_only)
        for (int i = 0; i < nb; i++)
            names[m++] = basics[i];
    return mdl_did_you_mean(c, name, names, m);
}

/* Resolves a struct typeref; reports an unknown type.  Returns 0 on error. */
static int resolve(mdl_checker *c, mdl_typeref *t)
{
    t->resolved = NULL;
    if (t->basic != MDL_B_NONE)
        return t->basic > MDL_B_NONE && t->basic < MDL_B_COUNT;
    if (!t->name)
        return 0;
    t->resolved = find_struct(c, t->name, t->struct_keyword);
    if (t->resolved)
        return 1;
    if (t->struct_keyword && find_struct(c, t->name, 0))
        mdl_error(c->diag, t->loc,
                  "unknown type 'struct %s'; '%s' is a typedef name, write it without 'struct'",
                  t->name, t->name);
    else if (t->struct_keyword)
        mdl_error(c->diag, t->loc, "unknown type 'struct %s'%s", t->name,
                  suggest_struct(c, t->name, 1));
    else
        mdl_error(c->diag, t->loc, "unknown type '%s'%s", t->name,
                  suggest_struct(c, t->name, 0));
    return 0;
}

/* A name clash between two struct declarations: tags and typedef names
 * are one namespace here, since a bare `Particle` in `uses` may be either. */
static void check_duplicate_names(mdl_checker *c)
{
    for (int i = 0; i < c->spec->structs.n; i++) {
        mdl_struct *s = c->spec->structs.v[i];
        if (!s)
            continue;
        const char *mine[2] = { s->tag, s->typedef_name };
        for (int a = 0; a < 2; a++) {
            if (!mine[a])
                continue;
            for (int j = 0; j < i; j++) {
                mdl_struct *p = c->spec->structs.v[j];
                if (p && ((p->tag && strcmp(p->tag, mine[a]) == 0) ||
                          (p->typedef_name && strcmp(p->typedef_name, mine[a]) == 0))) {
                    mdl_error(c->diag, s->loc, "duplicate type name '%s'", mine[a]);
                    mdl_note(c->diag, p->loc, "'%s' was first declared here", mine[a]);
                    break;
                }
            }
        }
    }
}

/* Depth-first search for a struct containing itself.
 * state: 0 unvisited, 1 on the current path, 2 done. */
static int find_cycle(mdl_checker *c, mdl_struct *s, int *state)
{
    int i = s->index;
    if (state[i] == 1) {
        mdl_error(c->diag, s->loc, "struct '%s' contains itself", struct_name(s));
        return 1;
    }
    if (state[i] == 2)
        return 0;
    state[i] = 1;
    int found = 0;
    for (int f = 0; f < s->fields.n && !found; f++) {
        mdl_field *fd = s->fields.v[f];
        if (fd && fd->type.resolved && !fd->is_pointer)
            found = find_cycle(c, fd->type.resolved, state);
    }
    state[i] = 2;
    return found;
}

static void check_struct(mdl_checker *c, mdl_struct *s)
{
    for (int f = 0; f < s->fields.n; f++) {
        mdl_field *fd = s->fields.v[f];
        if (!fd || !fd->name)
            continue;
        for (int g = 0; g < f; g++) {
            mdl_field *p = s->fields.v[g];
            if (p && p->name && strcmp(p->name, fd->name) == 0) {
                mdl_error(c->diag, fd->loc, "duplicate field '%s' in struct '%s'",
                          fd->name, struct_name(s));
                mdl_note(c->diag, p->loc, "'%s' was first declared here", p->name);
                break;
            }
        }
        resolve(c, &fd->type);
        if (fd->is_pointer)
            mdl_error(c->diag, fd->loc,
                      "field '%s' of struct '%s' is a pointer; a message cannot carry what it points to",
                      fd->name, struct_name(s));
        fd->dimval = fd->dims.n
            ? mdl_alloc(c->arena, sizeof *fd->dimval * (size_t)fd->dims.n) : NULL;
        for (int d = 0; d < fd->dims.n; d++) {
            long long v = 0;
            if (!mdl_eval_const(c, fd->dims.v[d], &v)) {
                fd->dimval[d] = -1;
            } else if (v <= 0) {
                mdl_error(c->diag, fd->dims.v[d] ? fd->dims.v[d]->loc : fd->loc,
                          "size of field '%s' must be positive (it is %lld)",
                          fd->name, v);
                fd->dimval[d] = -1;
            } else {
                fd->dimval[d] = v;
            }
        }
    }
}

/* Appends s to struct_order after the structs it contains (post-order);
 * state as in find_cycle, a cycle (reported there) is not followed. */
static void order_struct(mdl_checker *c, mdl_struct *s, int *state)
{
    if (state[s->index])
        return;
    state[s->index] = 1;
    for (int f = 0; f < s->fields.n; f++) {
        mdl_field *fd = s->fields.v[f];
        if (fd && fd->type.resolved && !fd->is_pointer)
            order_struct(c, fd->type.resolved, state);
    }
    state[s->index] = 2;
    MDL_VEC_PUSH(c->arena, c->spec->struct_order, s);
}

static int round_up(long long n, long long align, long long *out)
{
    long long r = n % align;
    return r == 0 ? (*out = n, 1) : !__builtin_add_overflow(n, align - r, out);
}

/* Size and alignment of s as a C compiler lays it out on LP64: each field
 * at the next multiple of its alignment, the struct's alignment the
 * largest of its fields', its size rounded up to it.  The structs s
 * contains come earlier in struct_order, so theirs are known, or -1 after
 * an error (reported where it is, so s stays unknown quietly). */
static void layout_struct(mdl_checker *c, mdl_struct *s)
{
    long long off = 0, align = 1;
    s->size = s->align = -1;
    for (int f = 0; f < s->fields.n; f++) {
        const mdl_field *fd = s->fields.v[f];
        long long bytes, falign;
        if (!fd || fd->is_pointer)
            return;
        if (fd->type.basic != MDL_B_NONE)
            bytes = falign = mdl_basic_size(fd->type.basic);
        else if (fd->type.resolved)
            bytes = fd->type.resolved->size, falign = fd->type.resolved->align;
        else
            return;
        if (bytes < 0 || falign <= 0)
            return;
        for (int d = 0; d < fd->dims.n; d++) {
            if (!fd->dimval || fd->dimval[d] <= 0)
                return;
            if (!mdl_mul_size(bytes, fd->dimval[d], &bytes))
                goto too_large;
        }
        if (!round_up(off, falign, &off) || __builtin_add_overflow(off, bytes, &off))
            goto too_large;
        if (falign > align)
            align = falign;
    }
    if (!round_up(off, align, &off) || off > PTRDIFF_MAX)
        goto too_large;
    s->size = off;
    s->align = align;
    return;
too_large:
    mdl_error(c->diag, s->loc, "struct '%s' takes more than %lld bytes, too large for a C object",
              struct_name(s), (long long)PTRDIFF_MAX);
}

void mdl_check_types(mdl_checker *c)
{
    check_duplicate_names(c);
    for (int i = 0; i < c->spec->structs.n; i++)
        if (c->spec->structs.v[i]) {
            c->spec->structs.v[i]->index = i;
            check_struct(c, c->spec->structs.v[i]);
        }
    int *state = mdl_alloc(c->arena, sizeof *state * (size_t)(c->spec->structs.n + 1));
    for (int i = 0; i < c->spec->structs.n; i++) {
        mdl_struct *s = c->spec->structs.v[i];
        /* One report per cycle: its members are marked done on unwind. */
        if (s && state[i] == 0)
            find_cycle(c, s, state);
    }
    memset(state, 0, sizeof *state * (size_t)c->spec->structs.n);
    c->spec->struct_order.n = 0;
    for (int i = 0; i < c->spec->structs.n; i++)
        if (c->spec->structs.v[i])
            order_struct(c, c->spec->structs.v[i], state);
    for (int i = 0; i < c->spec->struct_order.n; i++)
        layout_struct(c, c->spec->struct_order.v[i]);
    for (int t = 0; t < c->spec->tasks.n; t++) {
        mdl_task *task = c->spec->tasks.v[t];
        for (int v = 0; task && v < task->vars.n; v++)
            if (task->vars.v[v])
                resolve(c, &task->vars.v[v]->type);
    }
}
