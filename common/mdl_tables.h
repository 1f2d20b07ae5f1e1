/* mdl_tables.h — facts the compiler and the runtimes both spell, each in
 * one table: the basic element types, the collective operations, the
 * reduction operators and the error codes.
 *
 * Each table is an X-macro: a user defines X(…) to pick the columns it
 * needs, expands the table, and undefines X.  The compiler builds its AST
 * enums (medley/ast.h), messages and generated names from them; the
 * runtimes their texts, keyed by the enumerators and constants of mdl.h
 * and mdl_rt.h.  Those stay spelled out there — they are the installed
 * interface of the generated code and include nothing of ours — and
 * mdl_public_check.h, compiled into the compiler and both runtimes, fails
 * the build when they and these tables disagree.  Not installed:
 * generated code never needs it. */
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

/* Collective operations (in the order of enum mdl_coll_kind of mdl_rt.h):
 *   X(id, name, rooted)
 * id      MDL_COLL_<id> in mdl_rt.h, MDL_CO_<id> in the compiler
 * name    the canonical spelling: generated MDL_<name>_<message>, messages
 * rooted  1 when the operation has a root: a spec may give it, and a
 *         trace names it */
#define MDL_COLLECTIVES(X)                                                  \
    X(BCAST,      "Bcast",      1)                                          \
    X(MCAST,      "Mcast",      1)                                          \
    X(SCATTER,    "Scatter",    1)                                          \
    X(SCATTERV,   "ScatterV",   1)                                          \
    X(GATHER,     "Gather",     1)                                          \
    X(GATHERV,    "GatherV",    1)                                          \
    X(ALLGATHER,  "Allgather",  0)                                          \
    X(ALLGATHERV, "AllgatherV", 0)                                          \
    X(ALLTOALL,   "Alltoall",   0)                                          \
    X(REDUCE,     "Reduce",     1)                                          \
    X(ALLREDUCE,  "Allreduce",  0)

/* Reduction operators, in the order of their values:
 *   X(id, value)
 * id     MDL_<id> in mdl.h, in specs and in every message that names one
 *        ("MDL_" #id: `MDL_SUM`); MDL_OP_<id> in the compiler; MPI_<id>
 *        is MPI's operator (the MPI runtime)
 * value  the public constant: mdl.h, mdl_coll_desc.op (never 0, which
 *        there means "no operator") */
#define MDL_REDUCTIONS(X)                                                   \
    X(SUM,  1)                                                              \
    X(PROD, 2)                                                              \
    X(MAX,  3)                                                              \
    X(MIN,  4)

/* Error codes, from MDL_ERR_FIRST down to MDL_ERR_LAST (mdl.h), one apart:
 *   X(id, value, text)
 * id     MDL_ERR_<id> in mdl.h; the runtimes end every error line with it
 * value  the public constant
 * text   what MDL_Error_string gives after "MDL_ERR_<id>: " */
#define MDL_ERROR_CODES(X)                                                  \
    X(ARG,      -101, "invalid argument")                                   \
    X(RANK,     -102, "invalid instance number")                            \
    X(TRUNCATE, -103, "message larger than the receive")                    \
    X(BOUNDS,   -104, "section outside the declared variable")              \
    X(GRID,     -105, "no grid, or an impossible grid shape")               \
    X(STATE,    -106, "runtime not initialised, or already finished")       \
    X(LAUNCH,   -107, "wrong launcher, programs built from different "      \
                      "specs, or code generated for another runtime "       \
                      "interface")                                          \
    X(INTERN,   -108, "failure of the underlying system")                   \
    X(PEER,     -109, "a peer instance died, or ended without receiving "   \
                      "a message")

#endif
