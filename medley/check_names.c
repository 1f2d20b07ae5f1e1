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

static void not_keyword(mdl_checker *c, const char *name, mdl_loc loc, const char *what)
{
    if (!name)
        return;
    for (size_t i = 0; i < sizeof c_keywords / sizeof *c_keywords; i++)
        if (strcmp(name, c_keywords[i]) == 0) {
            mdl_error(c->diag, loc, "%s '%s' is a C keyword and cannot name anything in the generated code",
                      what, name);
            return;
        }
}

static void check_keywords(mdl_checker *c)
{
    mdl_spec *s = c->spec;
    for (int i = 0; i < s->consts.n; i++)
        if (s->consts.v[i] && s->consts.v[i]->value)   /* -D names were checked by the driver */
            not_keyword(c, s->consts.v[i]->name, s->consts.v[i]->loc, "constant");
    for (int i = 0; i < s->structs.n; i++) {
        mdl_struct *st = s->structs.v[i];
        if (!st)
            continue;
        not_keyword(c, st->tag, st->loc, "struct");
        not_keyword(c, st->typedef_name, st->loc, "type");
        for (int f = 0; f < st->fields.n; f++)
            if (st->fields.v[f])
                not_keyword(c, st->fields.v[f]->name, st->fields.v[f]->loc, "field");
    }
    for (int i = 0; i < s->tasks.n; i++) {
        mdl_task *t = s->tasks.v[i];
        if (!t)
            continue;
        not_keyword(c, t->name, t->loc, "task");
        for (int v = 0; v < t->vars.n; v++)
            if (t->vars.v[v])
                not_keyword(c, t->vars.v[v]->name, t->vars.v[v]->loc, "variable");
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
