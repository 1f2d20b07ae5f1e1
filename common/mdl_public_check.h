/* mdl_public_check.h — the installed headers agree with the tables: every
 * enumerator and constant that include/mdl.h and include/mdl_rt.h spell
 * out (they include nothing of ours) is checked against common/, so that
 * a disagreement fails the build.  Included once by the compiler
 * (medley/ast_names.c) and once by both runtimes (runtime/core/rt_common.c);
 * it defines only the positions it checks with. */
#ifndef MDL_PUBLIC_CHECK_H
#define MDL_PUBLIC_CHECK_H

#include "mdl_rt.h"
#include "mdl_tables.h"

/* Positions in the tables, for the enumerators that must follow them. */
enum mdl_check_base {
#define MDL_X(id, name, c_spelling, short_id, lp64_size, f_type, f_kind) MDL_CHECK_T_##id,
    MDL_BASIC_TYPES(MDL_X)
#undef MDL_X
    MDL_CHECK_NBASIC
};
enum mdl_check_coll {
#define MDL_X(id, name, rooted) MDL_CHECK_COLL_##id,
    MDL_COLLECTIVES(MDL_X)
#undef MDL_X
    MDL_CHECK_NCOLL
};
enum mdl_check_err {
#define MDL_X(id, value, text) MDL_CHECK_ERR_##id,
    MDL_ERROR_CODES(MDL_X)
#undef MDL_X
    MDL_CHECK_NERR
};

#define MDL_X(id, name, c_spelling, short_id, lp64_size, f_type, f_kind)                \
    _Static_assert(MDL_T_##id == (int)MDL_CHECK_T_##id,                                 \
                   "enum mdl_base of mdl_rt.h and MDL_BASIC_TYPES disagree on " #id);
MDL_BASIC_TYPES(MDL_X)
#undef MDL_X
_Static_assert(MDL_T_STRUCT == (int)MDL_CHECK_NBASIC && MDL_T_NBASE == MDL_T_STRUCT + 1,
               "enum mdl_base of mdl_rt.h has a basic type MDL_BASIC_TYPES lacks");

#define MDL_X(id, name, rooted)                                                         \
    _Static_assert(MDL_COLL_##id == (int)MDL_CHECK_COLL_##id,                           \
                   "enum mdl_coll_kind of mdl_rt.h and MDL_COLLECTIVES disagree on " #id);
MDL_COLLECTIVES(MDL_X)
#undef MDL_X

#define MDL_X(id, value)                                                                \
    _Static_assert(MDL_##id == (value) && (value) != 0,                                 \
                   "mdl.h and MDL_REDUCTIONS disagree on MDL_" #id);
MDL_REDUCTIONS(MDL_X)
#undef MDL_X

/* MDL_Error_string and the error lines index their texts from
 * MDL_ERR_FIRST down: the codes are consecutive, in the table's order. */
#define MDL_X(id, value, text)                                                          \
    _Static_assert(MDL_ERR_##id == (value) &&                                           \
                   MDL_ERR_FIRST - MDL_ERR_##id == (int)MDL_CHECK_ERR_##id,             \
                   "mdl.h and MDL_ERROR_CODES disagree on MDL_ERR_" #id);
MDL_ERROR_CODES(MDL_X)
#undef MDL_X
_Static_assert(MDL_ERR_FIRST - MDL_ERR_LAST + 1 == (int)MDL_CHECK_NERR,
               "mdl.h has an error code MDL_ERROR_CODES lacks");

#endif
