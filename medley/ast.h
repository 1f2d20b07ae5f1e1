/* ast.h — the abstract syntax tree of a MeDLey spec.
 *
 * The parser (grammar/) builds it; the semantic checks (medley/check_*.c)
 * verify it and fill in the fields marked "sema:"; the emitters (codegen/)
 * read the checked tree.  Every node carries the location of the construct
 * it came from so that any stage can report at the right line and column.
 *
 * All nodes and strings live in one arena (medley/arena.h) owned by the
 * driver, so no stage frees individual nodes. */
#ifndef MEDLEY_AST_H
#define MEDLEY_AST_H

#include <stddef.h>

/* The basic types, the collectives and the reduction operators, one table
 * each for the compiler and the runtimes. */
#include "mdl_tables.h"

/* A source range; lines and columns are 1-based, columns count bytes. */
typedef struct mdl_loc {
    int line, col;          /* first character */
    int end_line, end_col;  /* last character (inclusive) */
} mdl_loc;

/* A growable array of node pointers; see MDL_VEC_PUSH in arena.h. */
#define MDL_VEC(type) struct { type *v; int n, cap; }

/* ------------------------------------------------------------------ */
/* Integer expressions: sizes, constants, section bounds, counts.       */

typedef enum mdl_expr_kind {
    MDL_E_INT,    /* literal: ival */
    MDL_E_NAME,   /* identifier: a const, a -D name, or (in sections and
                     counts) an int `uses` variable */
    MDL_E_ADD, MDL_E_SUB, MDL_E_MUL, MDL_E_DIV, /* l op r */
    MDL_E_NEG     /* -l */
} mdl_expr_kind;

typedef struct mdl_expr {
    mdl_expr_kind kind;
    mdl_loc loc;
    long long ival;             /* MDL_E_INT */
    const char *name;           /* MDL_E_NAME */
    struct mdl_expr *l, *r;
    /* sema: what a MDL_E_NAME refers to (exactly one is set) */
    struct mdl_const *cref;
    struct mdl_var *vref;
} mdl_expr;

/* ------------------------------------------------------------------ */
/* Types.                                                               */

typedef enum mdl_basic {
    MDL_B_NONE = -1,            /* not a basic type: a struct */
#define MDL_X(id, name, c_spelling, short_id, lp64_size, f_type, f_kind) MDL_B_##id,
    MDL_BASIC_TYPES(MDL_X)
#undef MDL_X
    MDL_B_COUNT
} mdl_basic;

/* Name in messages ("unsigned"), C spelling ("unsigned int"), part of
 * generated identifiers ("uint"), bytes (and alignment) on LP64, the
 * Fortran type and kind ("integer", "c_int"); for MDL_B_NONE or out of
 * range: "?", "?", "?", 0, "?", "?" (ast_names.c). */
const char *mdl_basic_name(mdl_basic b);
const char *mdl_basic_c_spelling(mdl_basic b);
const char *mdl_basic_short_id(mdl_basic b);
int mdl_basic_size(mdl_basic b);
const char *mdl_basic_f_type(mdl_basic b);
const char *mdl_basic_f_kind(mdl_basic b);

/* A type as written in a declaration: `double`, `unsigned long`,
 * `Particle`, `struct Particle`, `Complex`. */
typedef struct mdl_typeref {
    mdl_basic basic;            /* MDL_B_NONE for a struct type */
    const char *name;           /* struct tag or typedef name, else NULL */
    int struct_keyword;         /* written as `struct Name` */
    mdl_loc loc;
    struct mdl_struct *resolved;/* sema: the struct declaration */
} mdl_typeref;

typedef struct mdl_field {
    const char *name;
    mdl_loc loc;
    mdl_typeref type;
    int is_pointer;             /* `double *p;` inside a struct: rejected by sema */
    MDL_VEC(mdl_expr *) dims;   /* C array dimensions, outermost first */
    long long *dimval;          /* sema: evaluated dims */
} mdl_field;

typedef struct mdl_struct {
    const char *tag;            /* `struct Tag {…}` or `typedef struct Tag {…} N;` */
    const char *typedef_name;   /* `typedef struct {…} Name;`, else NULL */
    mdl_loc loc;
    MDL_VEC(mdl_field *) fields;
    /* sema */
    int index;                  /* position in spec->structs */
    long long size, align;      /* bytes of one element and its alignment on
                                   LP64 (C layout rules); -1 when unknown
                                   after an error or too large for C */
} mdl_struct;

typedef struct mdl_const {
    const char *name;
    mdl_loc loc;
    mdl_expr *value;            /* NULL when it came only from -D */
    int from_cmdline;           /* given or overridden by -D */
    long long val;              /* sema: evaluated value */
    int evaluated;              /* sema: val is valid */
} mdl_const;

/* ------------------------------------------------------------------ */
/* Task variables (`uses`).                                             */

typedef enum mdl_var_form {
    MDL_V_SCALAR,               /* int i;  Particle p; */
    MDL_V_VECTOR,               /* vector<float>[100] V;       1 dim */
    MDL_V_MATRIX,               /* matrix<int>[50,60] M;       2 dims */
    MDL_V_ARRAY,                /* Particle ps[MAX]; int a[3][4];  C array */
    MDL_V_POINTER               /* int *counts;  (no dims) */
} mdl_var_form;

typedef struct mdl_var {
    const char *name;
    mdl_loc loc;
    mdl_typeref type;           /* element type */
    mdl_var_form form;
    MDL_VEC(mdl_expr *) dims;   /* outermost first */
    long long *dimval;          /* sema: evaluated dims (ndims = dims.n) */
    long long nelems;           /* sema: product of dims (1 for a scalar,
                                   -1 for a pointer: unknown) */
} mdl_var;

/* ------------------------------------------------------------------ */
/* Message contents: `sequence{ item, item, … }`.                       */

typedef enum mdl_index_kind {
    MDL_IX_SINGLE,              /* [e]          lo only */
    MDL_IX_RANGE,               /* [a..b] [a,b] inclusive */
    MDL_IX_RUNTIME              /* [..]         bounds passed at the call */
} mdl_index_kind;

typedef struct mdl_index {
    mdl_index_kind kind;
    mdl_loc loc;
    mdl_expr *lo, *hi;          /* SINGLE: lo; RANGE: lo, hi; RUNTIME: none */
    /* sema */
    int is_const;               /* both bounds known at compile time */
    long long lo_val, hi_val;   /* when is_const (SINGLE: lo_val == hi_val) */
    int runtime_slot;           /* RUNTIME: which (lo,hi) argument pair of
                                   the generated function, 0-based */
} mdl_index;

typedef enum mdl_item_kind {
    MDL_IT_REF,                 /* a variable or a section of one; a bare
                                   identifier is always parsed as a REF (sema
                                   decides if it names a const or MDL_SUM) */
    MDL_IT_EXPR                 /* any other expression (a literal count) */
} mdl_item_kind;

typedef struct mdl_item {
    mdl_item_kind kind;
    mdl_loc loc;
    const char *name;           /* REF */
    MDL_VEC(mdl_index *) idx;   /* REF: one per `[...]`, may be 0 */
    mdl_expr *expr;             /* EXPR */
    /* sema */
    struct mdl_var *var;        /* REF to a `uses` variable */
    long long count;            /* elements of the element type selected,
                                   -1 when it depends on run-time bounds */
} mdl_item;

/* ------------------------------------------------------------------ */
/* Messages.                                                            */

/* A reduction's operator: its public value (mdl.h), 0 for none. */
typedef enum mdl_op {
    MDL_OP_NONE = 0,
#define MDL_X(id, value) MDL_OP_##id = value,
    MDL_REDUCTIONS(MDL_X)
#undef MDL_X
} mdl_op;

/* Its spelling ("MDL_SUM"), or NULL for MDL_OP_NONE. */
const char *mdl_op_name(mdl_op op);

/* Per collective message, sema fills these: its items by their role in
 * the operation (the table of the reference §3.4, by mdl_coll.kind). */
typedef struct mdl_coll_operands {
    struct mdl_item *send, *recv;      /* buffers */
    struct mdl_item *count;            /* NULL when the operation has none */
    struct mdl_item *counts, *displs;  /* V variants */
    mdl_op op;                  /* Reduce/Allreduce */
    int in_place;               /* send and recv name the same variable */
} mdl_coll_operands;


typedef enum mdl_peer_kind {
    MDL_P_NONE,                 /* no peer: own family (SPMD) */
    MDL_P_ONE,                  /* to A / from A: one instance chosen at the call */
    MDL_P_ALL,                  /* to {A}: broadcast */
    MDL_P_SUBSET,               /* to [A]: multicast */
    MDL_P_NEIGHBOR              /* grid neighbour, named or Neighbor[dx][dy][dz] */
} mdl_peer_kind;

typedef struct mdl_msg {
    const char *name;
    mdl_loc loc;                /* the message name */
    int is_send;                /* in `sends`; 0 in `receives` or collectives */
    int is_async;               /* after defaults: sends async, receives sync */
    mdl_peer_kind peer_kind;
    const char *peer;           /* ONE/ALL/SUBSET: the task name as written;
                                   a named neighbour (`North_Neighbor`) is
                                   parsed as MDL_P_ONE and turned into
                                   MDL_P_NEIGHBOR by sema */
    mdl_loc peer_loc;
    MDL_VEC(mdl_expr *) offset_exprs; /* `Neighbor[dx][dy]…` as parsed */
    const char *matches;        /* receives: `matches m`, else NULL */
    mdl_loc matches_loc;
    MDL_VEC(mdl_item *) items;  /* the sequence */
    mdl_loc content_loc;        /* `sequence{…}` */
    /* sema */
    struct mdl_task *task;      /* owner */
    struct mdl_task *peer_task; /* resolved peer (own task for NONE/NEIGHBOR) */
    int offset[3];              /* NEIGHBOR: grid offset (dx, dy, dz) */
    const char *neighbor_name;  /* NEIGHBOR given by name, else NULL */
    struct mdl_msg *pair;       /* the matching receive/send; a receive is fed
                                   by exactly one send definition */
    int channel;                /* unique id of the send/receive pair, >= 0 */
    int nruntime;               /* number of [..] (lo,hi) argument pairs */
    const char *fn_name;        /* the short name of its function, which the
                                   runtimes report and traces record:
                                   "MDL_SendTo_son_m", "MDL_RecvFrom_father_m",
                                   "MDL_Gather_m1" (reference §6); NULL when the
                                   peer or the collective is in error */
    struct mdl_coll *coll;      /* collective messages: the block */
    mdl_coll_operands cargs;    /* collective messages: the items interpreted */
} mdl_msg;

/* ------------------------------------------------------------------ */
/* Collectives.                                                         */

/* The operation of a collective block (MDL_COLL_<id> of mdl_rt.h in the
 * generated tables). */
typedef enum mdl_co_kind {
#define MDL_X(id, name, rooted) MDL_CO_##id,
    MDL_COLLECTIVES(MDL_X)
#undef MDL_X
    MDL_CO_UNKNOWN              /* parsed name not recognised: sema reports */
} mdl_co_kind;

/* Canonical spelling ("GatherV"), as in the generated MDL_GatherV_m. */
const char *mdl_co_kind_name(mdl_co_kind k);
/* The operation a spec names, in any letter case; MDL_CO_UNKNOWN if none. */
mdl_co_kind mdl_co_kind_lookup(const char *name);
/* Whether the operation has a root. */
int mdl_co_kind_rooted(mdl_co_kind k);

typedef struct mdl_coll {
    mdl_co_kind kind;
    const char *kind_name;      /* as written, for diagnostics */
    mdl_loc loc;
    mdl_expr *root;             /* (root), NULL if absent (defaults to 0) */
    const char *table;          /* Mcast(root, table), else NULL */
    mdl_loc table_loc;
    MDL_VEC(mdl_msg *) msgs;    /* each `name = sequence{…};` in the block */
    /* sema */
    long long root_val;
    struct mdl_var *table_var;
} mdl_coll;

/* ------------------------------------------------------------------ */
/* Tasks and the spec.                                                  */

typedef enum mdl_conn_kind {
    MDL_C_NONE,                 /* no `connected with`: own family only */
    MDL_C_SETOF,                /* setof(a, b, …) */
    MDL_C_TASK,                 /* connected with A  (MPMD) */
    MDL_C_GRID                  /* grid(N [, periodic[(…)]]) [of A] */
} mdl_conn_kind;

typedef struct mdl_task {
    const char *name;
    mdl_loc loc;
    int multi;                  /* written with `(i)`: several instances */
    const char *index_var;
    mdl_conn_kind conn;
    MDL_VEC(const char *) conn_names;   /* SETOF / TASK */
    MDL_VEC(mdl_loc) conn_locs;
    mdl_expr *grid_dims_expr;   /* GRID: N; NULL means the default 2 */
    const char *grid_of;        /* `of A`, else NULL */
    mdl_loc grid_of_loc;
    int periodic_given;         /* `periodic` or `periodic(…)` present */
    MDL_VEC(mdl_expr *) periodic_exprs; /* `periodic(1,0,0)`; empty = all */
    MDL_VEC(mdl_var *) vars;
    MDL_VEC(mdl_msg *) sends;
    MDL_VEC(mdl_msg *) recvs;
    MDL_VEC(mdl_coll *) colls;
    /* sema */
    int index;                  /* position in the spec, 0-based */
    struct mdl_symtab *var_index; /* name -> first variable (mdl_find_var) */
    int grid_ndims;             /* 0 unless GRID */
    int periodic[3];
    MDL_VEC(struct mdl_task *) connected; /* symmetric closure, incl. self
                                             when the family talks to itself */
    int single;                 /* runs as exactly one instance: written
                                   without `(i)`, not a grid and not connected
                                   with itself (reference §3.1) */
} mdl_task;

typedef struct mdl_spec {
    const char *path;           /* as given on the command line */
    MDL_VEC(mdl_const *) consts;
    MDL_VEC(mdl_struct *) structs;
    MDL_VEC(mdl_task *) tasks;
    /* sema: the structs in dependency order (every struct after the structs
     * it contains: post-order of the nesting graph, spec order otherwise),
     * as C needs them declared, whatever order the spec gives */
    MDL_VEC(mdl_struct *) struct_order;
    int nchannels;              /* sema: send/receive pairs, their channels
                                   numbered 0..nchannels-1 */
} mdl_spec;

#endif
