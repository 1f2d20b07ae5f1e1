/* emit_common.c — spec-level helpers shared by the emitters: C spellings
 * of types and expressions, public function names.  Type and operation
 * names come from common/mdl_tables.h, the patterns of function names
 * from common/mdl_api.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"

const char *cg_basic_c_name(mdl_basic b)
{
    return mdl_basic_c_spelling(b);
}

const char *cg_basic_rt_name(mdl_basic b)
{
    static const char *const rt[MDL_B_COUNT] = {
#define MDL_X(id, name, c_spelling, short_id, lp64_size, f_type, f_kind) [MDL_B_##id] = "MDL_T_" #id,
        MDL_BASIC_TYPES(MDL_X)
#undef MDL_X
    };
    return b > MDL_B_NONE && b < MDL_B_COUNT ? rt[b] : "MDL_T_STRUCT";
}

const char *cg_basic_id(mdl_basic b)
{
    return mdl_basic_short_id(b);
}

/* C++ keywords (C++20, with the alternative operator spellings) that are
 * not C keywords: fine names in a C spec, not in the C++ view of the same
 * headers. */
static const char *const cxx_keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch",
    "char16_t", "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield",
    "compl", "concept", "const_cast", "consteval", "constexpr", "constinit", "decltype",
    "delete", "dynamic_cast", "explicit", "export", "false", "friend", "mutable",
    "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq",
    "private", "protected", "public", "reinterpret_cast", "requires", "static_assert",
    "static_cast", "template", "this", "thread_local", "throw", "true", "try", "typeid",
    "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
};

int cg_cxx_keyword(const char *name)
{
    for (size_t i = 0; name && i < sizeof cxx_keywords / sizeof *cxx_keywords; i++)
        if (strcmp(name, cxx_keywords[i]) == 0)
            return 1;
    return 0;
}

void cg_view_name(mdl_buf *b, const mdl_var *v)
{
    cg_buf_printf(b, "MDL_View_%s", v->name);
}

void cg_id(mdl_buf *b, const char *name)
{
    if (cg_cxx_keyword(name))
        cg_buf_printf(b, "MDL_CXX_(%s, %s_)", name, name);
    else
        cg_buf_puts(b, name);
}

void cg_cxx_id(mdl_buf *b, const char *name)
{
    cg_buf_printf(b, cg_cxx_keyword(name) ? "%s_" : "%s", name);
}

int cg_spec_cxx_renames(const mdl_spec *s)
{
    for (int i = 0; i < s->consts.n; i++)
        if (cg_cxx_keyword(s->consts.v[i]->name))
            return 1;
    for (int i = 0; i < s->structs.n; i++) {
        const mdl_struct *st = s->structs.v[i];
        if (cg_cxx_keyword(st->tag) || cg_cxx_keyword(st->typedef_name))
            return 1;
        for (int f = 0; f < st->fields.n; f++)
            if (cg_cxx_keyword(st->fields.v[f]->name))
                return 1;
    }
    for (int i = 0; i < s->tasks.n; i++) {
        const mdl_task *t = s->tasks.v[i];
        if (cg_cxx_keyword(t->name))
            return 1;
        for (int v = 0; v < t->vars.n; v++)
            if (cg_cxx_keyword(t->vars.v[v]->name))
                return 1;
    }
    return 0;
}

/* Spelled from the declaration, not from the use: a spec may write
 * `Particle` for a type declared only as `struct Particle {…}`, which C
 * accepts only as `struct Particle`. */
static void typeref(mdl_buf *b, const mdl_typeref *t, void (*id)(mdl_buf *, const char *))
{
    if (t->basic != MDL_B_NONE) {
        cg_buf_puts(b, cg_basic_c_name(t->basic));
        return;
    }
    const mdl_struct *s = t->resolved;
    if (s && s->typedef_name)
        id(b, s->typedef_name);
    else if (s) {
        cg_buf_puts(b, "struct ");
        id(b, s->tag);
    } else
        cg_buf_puts(b, t->name);
}

void cg_typeref_c(mdl_buf *b, const mdl_typeref *t)
{
    typeref(b, t, cg_id);
}

void cg_expr_c(mdl_buf *b, const mdl_expr *e, const char *prefix)
{
    static const char ops[] = { [MDL_E_ADD] = '+', [MDL_E_SUB] = '-',
                                [MDL_E_MUL] = '*', [MDL_E_DIV] = '/' };
    switch (e->kind) {
    case MDL_E_INT:
        cg_buf_printf(b, "%lld", e->ival);
        break;
    case MDL_E_NAME:
        if (e->vref && *prefix) {
            cg_buf_puts(b, prefix);
            cg_id(b, e->name);
        } else if (e->vref)
            cg_buf_puts(b, e->name);
        else if (*prefix && e->cref && e->cref->evaluated)
            /* in TMDL.c, where the constants' macros are #undef'd */
            cg_buf_printf(b, e->cref->val < 0 ? "(%lld)" : "%lld", e->cref->val);
        else
            cg_buf_puts(b, e->name);
        break;
    case MDL_E_ADD: case MDL_E_SUB: case MDL_E_MUL: case MDL_E_DIV:
        cg_buf_puts(b, "(");
        cg_expr_c(b, e->l, prefix);
        cg_buf_printf(b, " %c ", ops[e->kind]);
        cg_expr_c(b, e->r, prefix);
        cg_buf_puts(b, ")");
        break;
    case MDL_E_NEG:
        cg_buf_puts(b, "(-");
        cg_expr_c(b, e->l, prefix);
        cg_buf_puts(b, ")");
        break;
    }
}

const char *cg_coll_rt_name(mdl_co_kind k)
{
    static const char *const rt[] = {
#define MDL_X(id, name, rooted) [MDL_CO_##id] = "MDL_COLL_" #id,
        MDL_COLLECTIVES(MDL_X)
#undef MDL_X
        [MDL_CO_UNKNOWN] = "-1",
    };
    return k >= 0 && k <= MDL_CO_UNKNOWN ? rt[k] : "-1";
}

void cg_fn_name(mdl_buf *b, api_kind k, const char *part1, const char *part2)
{
    char tmp[256];
    size_t n = mdl_fn_format(tmp, sizeof tmp, mdl_fn_patterns[k], part1, part2);
    if (n < sizeof tmp) {
        cg_buf_puts(b, tmp);
        return;
    }
    char *s = cg_xcalloc(n + 1, 1);
    mdl_fn_format(s, n + 1, mdl_fn_patterns[k], part1, part2);
    cg_buf_puts(b, s);
    free(s);
}

void cg_msg_fn_name(mdl_buf *b, const mdl_msg *m)
{
    cg_buf_puts(b, m->fn_name);
}

int cg_task_neighbor_names(const mdl_task *t, const char ***out)
{
    int n = 0, cap = t->sends.n + t->recvs.n;
    const char **names = cg_xcalloc((size_t)cap + 1, sizeof *names);
    for (int k = 0; k < cap; k++) {
        const mdl_msg *m = k < t->sends.n ? t->sends.v[k] : t->recvs.v[k - t->sends.n];
        if (m->peer_kind != MDL_P_NEIGHBOR || !m->neighbor_name)
            continue;
        int seen = 0;
        for (int i = 0; i < n && !seen; i++)
            seen = strcmp(names[i], m->neighbor_name) == 0;
        if (!seen)
            names[n++] = m->neighbor_name;
    }
    *out = names;
    return n;
}

const char *cg_spec_basename(const mdl_spec *s)
{
    const char *p = s->path ? s->path : "spec.mdl";
    const char *slash = strrchr(p, '/');
    return slash ? slash + 1 : p;
}

int cg_task_async_msgs(const mdl_task *t, const mdl_msg **out, int max)
{
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const mdl_msg *const *v = pass ? (const mdl_msg *const *)t->recvs.v
                                       : (const mdl_msg *const *)t->sends.v;
        int nv = pass ? t->recvs.n : t->sends.n;
        for (int i = 0; i < nv; i++) {
            if (!v[i]->is_async)
                continue;
            int dup = 0;
            for (int k = 0; k < n; k++)
                dup |= strcmp(out[k]->name, v[i]->name) == 0;
            if (!dup && n < max)
                out[n++] = v[i];
        }
    }
    return n;
}

int cg_task_nrtvars(const mdl_task *t)
{
    int n = 0;
    for (int i = 0; i < t->vars.n; i++)
        n += t->vars.v[i]->rtsized;
    return n;
}

int cg_rtvar_index(const mdl_task *t, const mdl_var *v)
{
    if (!v || !v->rtsized)
        return -1;
    int n = 0;
    for (int i = 0; i < t->vars.n && t->vars.v[i] != v; i++)
        n += t->vars.v[i]->rtsized;
    return n;
}

int cg_expr_names(const mdl_expr *e, const mdl_var *x)
{
    return e && (e->vref == x || cg_expr_names(e->l, x) || cg_expr_names(e->r, x));
}

int cg_extvar_index(const mdl_task *t, const mdl_var *x)
{
    if (!x || !x->extvar)
        return -1;
    int n = 0;
    for (int i = 0; i < t->vars.n && t->vars.v[i] != x; i++)
        n += t->vars.v[i]->extvar;
    return n;
}
