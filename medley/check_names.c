/* check_names.c — names that become C identifiers.
 *
 * Sends must have distinct names, receives too, and collective messages
 * among themselves: each becomes a function name.  A send and a receive
 * may share a name (common in SPMD: `halo` both ways); the generated names
 * differ (MDL_SendTo_… / MDL_RecvFrom_…).
 *
 * Consts, types, fields, tasks and variables appear alone in the
 * generated C (`#define N`, `struct son`, `int for;`), so a C keyword
 * that is not a MeDLey keyword (those the parser refuses) is an error
 * here rather than in the user's C compiler.  Message names are only
 * parts of longer function names, so they may be anything. */
#include <string.h>

#include "check_internal.h"

typedef MDL_VEC(mdl_msg *) msg_vec;

static const char *const c_keywords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if",
    "inline", "int", "long", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
    "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
    "_Static_assert", "_Thread_local",
};

static int is_c_keyword(const char *name)
{
    for (size_t i = 0; i < sizeof c_keywords / sizeof *c_keywords; i++)
        if (strcmp(name, c_keywords[i]) == 0)
            return 1;
    return 0;
}

/* A name that stands alone in the generated code.  `prefix_too`: the
 * generated code and the runtime use the prefixes mdl_/MDL_ (struct
 * mdl_rt, the mdl_rt_ member, functions, constants); struct fields live
 * in their own namespace and are exempt. */
static void not_keyword(mdl_checker *c, const char *name, mdl_loc loc, const char *what,
                        int prefix_too)
{
    if (!name)
        return;
    if (is_c_keyword(name))
        mdl_error(c->diag, loc, "%s '%s' is a C keyword and cannot name anything in the generated code",
                  what, name);
    else if (prefix_too && (strncmp(name, "mdl_", 4) == 0 || strncmp(name, "MDL_", 4) == 0))
        mdl_error(c->diag, loc, "%s '%s': names starting with '%.4s' are reserved for the generated code",
                  what, name, name);
}

/* A const is a #define in the generated header: any other entity of the
 * same name there would be rewritten by it. */
static void not_const(mdl_checker *c, const char *name, mdl_loc loc, const char *what)
{
    mdl_const *k = mdl_find_const(c, name);
    if (!k)
        return;
    mdl_error(c->diag, loc, "%s '%s' has the name of a constant", what, name);
    if (k->value)
        mdl_note(c->diag, k->loc, "constant '%s' is defined here", k->name);
}

static void check_keywords(mdl_checker *c)
{
    mdl_spec *s = c->spec;
    for (int i = 0; i < s->consts.n; i++)
        if (s->consts.v[i] && s->consts.v[i]->value)   /* -D names were checked by the driver */
            not_keyword(c, s->consts.v[i]->name, s->consts.v[i]->loc, "constant", 1);
    for (int i = 0; i < s->structs.n; i++) {
        mdl_struct *st = s->structs.v[i];
        if (!st)
            continue;
        not_keyword(c, st->tag, st->loc, "struct", 1);
        not_keyword(c, st->typedef_name, st->loc, "type", 1);
        not_const(c, st->tag, st->loc, "struct");
        not_const(c, st->typedef_name, st->loc, "type");
        for (int f = 0; f < st->fields.n; f++)
            if (st->fields.v[f]) {
                not_keyword(c, st->fields.v[f]->name, st->fields.v[f]->loc, "field", 0);
                not_const(c, st->fields.v[f]->name, st->fields.v[f]->loc, "field");
            }
    }
    for (int i = 0; i < s->tasks.n; i++) {
        mdl_task *t = s->tasks.v[i];
        if (!t)
            continue;
        not_keyword(c, t->name, t->loc, "task", 1);
        not_const(c, t->name, t->loc, "task");
        for (int v = 0; v < t->vars.n; v++)
            if (t->vars.v[v])
                not_keyword(c, t->vars.v[v]->name, t->vars.v[v]->loc, "variable", 1);
    }
}

static void check_unique(mdl_checker *c, mdl_task *t, mdl_msg **v, int n,
                         const char *what)
{
    for (int i = 0; i < n; i++) {
        mdl_msg *m = v[i];
        if (!m || !m->name)
            continue;
        for (int j = 0; j < i; j++) {
            mdl_msg *p = v[j];
            if (p && p->name && strcmp(p->name, m->name) == 0) {
                mdl_error(c->diag, m->loc, "duplicate %s '%s' in task '%s'",
                          what, m->name, t->name ? t->name : "?");
                mdl_note(c->diag, p->loc, "'%s' was first defined here", p->name);
                break;
            }
        }
    }
}

void mdl_check_names(mdl_checker *c)
{
    check_keywords(c);
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        if (!t)
            continue;
        check_unique(c, t, t->sends.v, t->sends.n, "send");
        check_unique(c, t, t->recvs.v, t->recvs.n, "receive");
        msg_vec colls = { 0 };
        for (int k = 0; k < t->colls.n; k++) {
            mdl_coll *co = t->colls.v[k];
            for (int j = 0; co && j < co->msgs.n; j++)
                MDL_VEC_PUSH(c->arena, colls, co->msgs.v[j]);
        }
        check_unique(c, t, colls.v, colls.n, "collective message");
    }
}
