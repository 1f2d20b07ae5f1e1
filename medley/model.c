/* model.c — questions the checked model answers (frontend.h), for the
 * checks that follow the one that filled what they read, the emitters and
 * the tools: types (names, equality, element sizes) and the connection
 * relation. */
#include "frontend.h"

const char *mdl_type_name(const mdl_typeref *t)
{
    if (t->basic > MDL_B_NONE && t->basic < MDL_B_COUNT)
        return mdl_basic_name(t->basic);
    if (t->resolved)
        return t->resolved->typedef_name ? t->resolved->typedef_name
                                         : t->resolved->tag;
    return t->name ? t->name : "?";
}

int mdl_same_type(const mdl_typeref *a, const mdl_typeref *b)
{
    if (a->basic != MDL_B_NONE || b->basic != MDL_B_NONE)
        return a->basic == b->basic;
    return a->resolved && a->resolved == b->resolved;
}

int mdl_is_int_type(const mdl_typeref *t)
{
    return t->basic >= MDL_B_CHAR && t->basic <= MDL_B_ULLONG;
}

long long mdl_type_size(const mdl_typeref *t)
{
    if (t->basic != MDL_B_NONE)
        return mdl_basic_size(t->basic);
    return t->resolved ? t->resolved->size : -1;
}

int mdl_task_connected(const mdl_task *t, const mdl_task *other)
{
    for (int i = 0; i < t->connected.n; i++)
        if (t->connected.v[i] == other)
            return 1;
    return 0;
}
