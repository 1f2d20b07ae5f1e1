/* check_internal.h — shared state and helpers of the semantic passes.
 *
 * Each medley/check_*.c file is one concern (see medley/README.md); they
 * run in the order of mdl_check() in check.c, and a later pass relies on
 * the "sema:" fields filled by the earlier ones. */
#ifndef MEDLEY_CHECK_INTERNAL_H
#define MEDLEY_CHECK_INTERNAL_H

#include "arena.h"
#include "ast.h"
#include "diag.h"
/* the model's queries (types, the connection relation): model.c */
#include "frontend.h"

typedef struct mdl_checker {
    mdl_spec *spec;
    mdl_diag *diag;
    mdl_arena *arena;
    /* check_consts.c (mdl_const_value): per const, 0 unvisited, 1 being
     * evaluated (cycle detection), 2 done (evaluated says whether it
     * succeeded), 3 on a cycle already reported */
    int *const_state;
    /* check_pairing.c: flattened struct signatures, computed once */
    struct flat_cache *flat_cache;
    /* check_expr.c: consts and tasks by name, built at the first lookup
     * (neither list changes during the checks) */
    struct mdl_symtab *const_index, *task_index;
} mdl_checker;

/* The passes, in the order they run. */
void mdl_check_consts(mdl_checker *c);
void mdl_check_types(mdl_checker *c);
void mdl_check_tasks(mdl_checker *c);
void mdl_check_grid(mdl_checker *c);
void mdl_check_vars(mdl_checker *c);
void mdl_check_names(mdl_checker *c);
void mdl_check_peers(mdl_checker *c);
void mdl_check_sections(mdl_checker *c);
void mdl_check_collectives(mdl_checker *c);
void mdl_check_pairing(mdl_checker *c);
void mdl_check_item_order(mdl_checker *c);
/* Not a check: m->fn_name of every message whose peer or collective
 * resolved (fn_names.c). */
void mdl_name_functions(mdl_checker *c);

/* ---- check_expr.c: integer expressions ---- */

typedef enum mdl_eval_result {
    MDL_EV_ERROR = -1,          /* reported (or depends on a reported error) */
    MDL_EV_RUNTIME = 0,         /* depends on a `uses` variable */
    MDL_EV_CONST = 1            /* *out holds the value */
} mdl_eval_result;

/* Evaluates e.  Names resolve to consts (e->cref); when `task` is not NULL
 * they may also name an int scalar `uses` variable of it (e->vref), which
 * makes the result MDL_EV_RUNTIME.  `what` describes where the expression
 * is, for messages ("size of 'V'").  Every problem is reported once. */
mdl_eval_result mdl_eval(mdl_checker *c, mdl_expr *e, mdl_task *task,
                         long long *out);

/* Like mdl_eval with no task, and the result must be a constant. */
int mdl_eval_const(mdl_checker *c, mdl_expr *e, long long *out);

/* The value of const k into *out (1), evaluating it on its first use; 0
 * when it has none after an error.  A const whose value needs itself is
 * reported at k, with a note at `use` when not NULL. */
int mdl_const_value(mdl_checker *c, mdl_const *k, const mdl_expr *use,
                    long long *out);

/* ---- lookups (check_expr.c) ---- */

mdl_const *mdl_find_const(mdl_checker *c, const char *name);
mdl_task *mdl_find_task(mdl_checker *c, const char *name);
mdl_var *mdl_find_var(mdl_checker *c, mdl_task *t, const char *name);

/* " ; did you mean 'X'?" or "" — for the tail of an error message.
 * names: n strings (NULL entries are skipped). */
const char *mdl_did_you_mean(mdl_checker *c, const char *name,
                             const char *const *names, int n);
/* "; did you mean 's'?", or "" when s is NULL. */
const char *mdl_hint(mdl_checker *c, const char *s);
const char *mdl_suggest_const(mdl_checker *c, const char *name);
const char *mdl_suggest_task(mdl_checker *c, const char *name);
const char *mdl_suggest_var(mdl_checker *c, mdl_task *t, const char *name);

/* ---- check_grid.c: neighbour names ---- */

/* The name ends in `_Neighbor` (any case): it is a grid direction, not a task. */
int mdl_is_neighbor_name(const char *name);
/* Decodes `West_North_Neighbor` into offset[]; reports a bad name at
 * m->peer_loc.  *maxaxis: highest axis named.  Returns 0 on error. */
int mdl_decode_neighbor(mdl_checker *c, const mdl_msg *m, const char *name,
                        int offset[3], int *maxaxis);
/* "West" for (0, -1) … */
const char *mdl_direction_name(int axis, int dir);

/* ---- check_sections.c: items ---- */

/* Resolves a REF item to a `uses` variable of t (item->var); reports
 * anything else.  NULL on error. */
mdl_var *mdl_item_var(mdl_checker *c, mdl_task *t, mdl_msg *m, mdl_item *it);
/* How an item's indices are read. */
typedef enum mdl_index_use {
    MDL_IDX_SECTION,            /* a point-to-point item: no index or one per
                                   dimension; `[..]` gets a runtime slot */
    MDL_IDX_BUFFER_START        /* a collective buffer's start: the leading
                                   indices (`U[i]` is `U[i][0]`); no `[..]` */
} mdl_index_use;
/* Checks the indices of an item whose var is set; fills the index sema
 * fields and item->count: the elements selected, a single index (constant
 * or run-time) being exactly one, -1 when a range has run-time bounds.
 * 0 on error. */
int mdl_check_indices(mdl_checker *c, mdl_task *t, mdl_msg *m, mdl_item *it,
                      mdl_index_use use);

/* ---- check_types.c ---- */

/* Checked multiplication of non-negative sizes; 0 on overflow. */
int mdl_mul_size(long long a, long long b, long long *out);

#endif
