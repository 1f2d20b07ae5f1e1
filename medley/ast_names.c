/* ast_names.c — spellings of AST enumerations shared by the stages. */
#include <stddef.h>
#include <strings.h>

#include "ast.h"

/* Canonical spellings: the generated functions are MDL_<name>_<message>. */
static const char *const coll_kind_names[] = {
    [MDL_CO_BCAST] = "Bcast", [MDL_CO_MCAST] = "Mcast",
    [MDL_CO_SCATTER] = "Scatter", [MDL_CO_SCATTERV] = "ScatterV",
    [MDL_CO_GATHER] = "Gather", [MDL_CO_GATHERV] = "GatherV",
    [MDL_CO_ALLGATHER] = "Allgather", [MDL_CO_ALLGATHERV] = "AllgatherV",
    [MDL_CO_ALLTOALL] = "Alltoall", [MDL_CO_REDUCE] = "Reduce",
    [MDL_CO_ALLREDUCE] = "Allreduce", [MDL_CO_UNKNOWN] = "Unknown",
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
