/* mdl_tables.h — facts the compiler and the runtimes both spell, each in
 * one table: the basic element types and the collective operations.
 *
 * Each table is an X-macro: a user defines X(…) to pick the columns it
 * needs, expands the table, and undefines X.  The compiler builds its AST
 * enums (medley/ast.h), messages and generated names from them; the
 * runtimes their error texts, keyed by the `MDL_T_<id>` / `MDL_COLL_<id>`
 * enumerators of mdl_rt.h (which stay spelled out there: mdl_rt.h is the
 * installed interface of the generated code and includes nothing of ours).
 * Not installed: generated code never needs it. */
#ifndef MDL_TABLES_H
#define MDL_TABLES_H

/* Basic element types (in the order of enum mdl_base of mdl_rt.h, for the
 * reader: every user keys on the id, so nothing depends on the order):
 *   X(id, name, c_spelling, short_id, lp64_size, f_type, f_kind)
 * id          MDL_T_<id> in mdl_rt.h, MDL_B_<id> in the compiler
 * name        as messages print it (compiler diagnostics, runtime errors)
 * c_spelling  as the generated code declares it
 * short_id    part of generated identifiers (mdlg_type_<short_id>)
 * lp64_size   bytes on LP64 Linux, the platform the generated code is built
 *             on; also its alignment (the compiler's size checks)
 * f_type, f_kind  as the generated Fortran declares it, `f_type(f_kind)`
 *             (character: `character(kind=f_kind)`), f_kind from the
 *             intrinsic module iso_c_binding.  Fortran has no unsigned
 *             types: an unsigned type is the signed kind of its size, the
 *             same bits (docs/generated-code.md, Fortran) */
#define MDL_BASIC_TYPES(X)                                                  \
    X(CHAR,   "char",               "char",               "char",   1,     \
      "character", "c_char")                                                \
    X(SCHAR,  "signed char",        "signed char",        "schar",  1,     \
      "integer", "c_signed_char")                                           \
    X(UCHAR,  "unsigned char",      "unsigned char",      "uchar",  1,     \
      "integer", "c_signed_char")                                           \
    X(SHORT,  "short",              "short",              "short",  2,     \
      "integer", "c_short")                                                 \
    X(USHORT, "unsigned short",     "unsigned short",     "ushort", 2,     \
      "integer", "c_short")                                                 \
    X(INT,    "int",                "int",                "int",    4,     \
      "integer", "c_int")                                                   \
    X(UINT,   "unsigned",           "unsigned int",       "uint",   4,     \
      "integer", "c_int")                                                   \
    X(LONG,   "long",               "long",               "long",   8,     \
      "integer", "c_long")                                                  \
    X(ULONG,  "unsigned long",      "unsigned long",      "ulong",  8,     \
      "integer", "c_long")                                                  \
    X(LLONG,  "long long",          "long long",          "llong",  8,     \
      "integer", "c_long_long")                                             \
    X(ULLONG, "unsigned long long", "unsigned long long", "ullong", 8,     \
      "integer", "c_long_long")                                             \
    X(FLOAT,  "float",              "float",              "float",  4,     \
      "real", "c_float")                                                    \
    X(DOUBLE, "double",             "double",             "double", 8,     \
      "real", "c_double")

/* Collective operations (in the order of enum mdl_coll_op of mdl_rt.h):
 *   X(id, name)
 * id    MDL_COLL_<id> in mdl_rt.h, MDL_CO_<id> in the compiler
 * name  the canonical spelling: generated MDL_<name>_<message>, messages */
#define MDL_COLLECTIVES(X)                                                  \
    X(BCAST, "Bcast")           X(MCAST, "Mcast")                           \
    X(SCATTER, "Scatter")       X(SCATTERV, "ScatterV")                     \
    X(GATHER, "Gather")         X(GATHERV, "GatherV")                       \
    X(ALLGATHER, "Allgather")   X(ALLGATHERV, "AllgatherV")                 \
    X(ALLTOALL, "Alltoall")     X(REDUCE, "Reduce")                         \
    X(ALLREDUCE, "Allreduce")

#endif
