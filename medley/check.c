/* check.c — the semantic analysis driver: runs the passes in order.
 *
 * Passes never stop at the first error: each reports what it finds and
 * leaves the sema fields of a bad construct in a safe state (NULL
 * references, -1 counts), so later passes skip it instead of reporting
 * consequences of an error already shown. */
#include "check.h"
#include "check_internal.h"

int mdl_check(mdl_spec *spec, mdl_diag *diag, mdl_arena *arena)
{
    int before = mdl_error_count(diag);
    mdl_checker c = { .spec = spec, .diag = diag, .arena = arena };
    if (!spec)
        return 0;
    mdl_check_consts(&c);       /* constants first: sizes use them */
    mdl_check_types(&c);        /* structs, and the types of `uses` */
    mdl_check_tasks(&c);        /* task names, the connection relation */
    mdl_check_grid(&c);         /* grid dims and periodicity */
    mdl_check_vars(&c);         /* `uses`: sizes */
    mdl_check_names(&c);        /* message names unique per task */
    mdl_check_peers(&c);        /* peers: connected tasks, neighbours */
    mdl_check_sections(&c);     /* items and sections of messages */
    mdl_check_collectives(&c);  /* collective kinds and argument shapes */
    mdl_name_functions(&c);     /* each message's function name */
    mdl_check_pairing(&c);      /* sends with receives, channels */
    mdl_check_item_order(&c);   /* paired items in another order (warning) */
    return mdl_error_count(diag) - before;
}
