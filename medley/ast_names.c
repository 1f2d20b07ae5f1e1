/* ast_names.c — spellings of AST enumerations shared by the stages, read
 * from the tables the runtimes use too (common/mdl_tables.h). */
#include <stddef.h>
#include <strings.h>

#include "ast.h"

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
static const char *const coll_kind_names[] = {
#define MDL_X(id, name) [MDL_CO_##id] = name,
    MDL_COLLECTIVES(MDL_X)
#undef MDL_X
    [MDL_CO_UNKNOWN] = "Unknown",
};

const char *mdl_coll_kind_name(mdl_coll_kind k)
{
    return k >= 0 && k <= MDL_CO_UNKNOWN ? coll_kind_names[k] : "Unknown";
}

mdl_coll_kind mdl_coll_kind_lookup(const char *name)
{
    for (int k = 0; k < MDL_CO_UNKNOWN; k++)
        if (strcasecmp(name, coll_kind_names[k]) == 0)
            return (mdl_coll_kind)k;
    return MDL_CO_UNKNOWN;
}
