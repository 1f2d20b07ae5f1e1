/* ast_names.c — spellings of AST enumerations shared by the stages, read
 * from the tables the runtimes use too (common/mdl_tables.h); and, for the
 * compiler, the check that the installed headers agree with those tables
 * (common/mdl_public_check.h). */
#include <stddef.h>
#include <strings.h>

#include "ast.h"
#include "mdl_public_check.h"

static const struct basic_info {
    const char *name, *c_spelling, *short_id;
    int size;
    const char *f_type, *f_kind;
} basic_info[MDL_B_COUNT] = {
#define MDL_X(id, name, c_spelling, short_id, lp64_size, f_type, f_kind) \
    [MDL_B_##id] = { name, c_spelling, short_id, lp64_size, f_type, f_kind },
    MDL_BASIC_TYPES(MDL_X)
#undef MDL_X
};

static const struct basic_info *basic(mdl_basic b)
{
    static const struct basic_info none = { "?", "?", "?", 0, "?", "?" };
    return b > MDL_B_NONE && b < MDL_B_COUNT ? &basic_info[b] : &none;
}

const char *mdl_basic_name(mdl_basic b)
{
    return basic(b)->name;
}

const char *mdl_basic_c_spelling(mdl_basic b)
{
    return basic(b)->c_spelling;
}

const char *mdl_basic_short_id(mdl_basic b)
{
    return basic(b)->short_id;
}

int mdl_basic_size(mdl_basic b)
{
    return basic(b)->size;
}

const char *mdl_basic_f_type(mdl_basic b)
{
    return basic(b)->f_type;
}

const char *mdl_basic_f_kind(mdl_basic b)
{
    return basic(b)->f_kind;
}

/* Canonical spellings: the generated functions are MDL_<name>_<message>. */
static const struct co_info {
    const char *name;
    int rooted;
} co_info[] = {
#define MDL_X(id, name, rooted) [MDL_CO_##id] = { name, rooted },
    MDL_COLLECTIVES(MDL_X)
#undef MDL_X
    [MDL_CO_UNKNOWN] = { "Unknown", 0 },
};

const char *mdl_co_kind_name(mdl_co_kind k)
{
    return k >= 0 && k <= MDL_CO_UNKNOWN ? co_info[k].name : "Unknown";
}

mdl_co_kind mdl_co_kind_lookup(const char *name)
{
    for (int k = 0; k < MDL_CO_UNKNOWN; k++)
        if (strcasecmp(name, co_info[k].name) == 0)
            return (mdl_co_kind)k;
    return MDL_CO_UNKNOWN;
}

int mdl_co_kind_rooted(mdl_co_kind k)
{
    return k >= 0 && k < MDL_CO_UNKNOWN && co_info[k].rooted;
}

const char *mdl_op_name(mdl_op op)
{
    switch (op) {
#define MDL_X(id, value) case MDL_OP_##id: return "MDL_" #id;
    MDL_REDUCTIONS(MDL_X)
#undef MDL_X
    case MDL_OP_NONE:
        break;
    }
    return NULL;
}
