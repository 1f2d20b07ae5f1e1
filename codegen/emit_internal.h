/* emit_internal.h — what the emitters (codegen/emit_*.c) share.
 *
 * Every output is built in memory as an mdl_buf, then handed to the
 * writer (writer.c), which writes all files of one run atomically. */
#ifndef MEDLEY_EMIT_INTERNAL_H
#define MEDLEY_EMIT_INTERNAL_H

#include <stddef.h>
/* the checked model and what it answers */
#include "../medley/frontend.h"
#include "mdl_api.h"

/* ---------------------------------------------------------------- memory */

/* Allocation failure is fatal (exit 2), as for the arena. */
void *cg_xrealloc(void *p, size_t n);
void *cg_xcalloc(size_t n, size_t size);

/* ---------------------------------------------------------------- buffers */

typedef struct mdl_buf {
    char *s;
    size_t n, cap;
} mdl_buf;

void cg_buf_printf(mdl_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cg_buf_puts(mdl_buf *b, const char *s);
void cg_buf_free(mdl_buf *b);

/* ---------------------------------------------------------------- writer */

/* A set of files written together: each file goes to a temporary name in
 * its directory; only when all were written are they renamed into place. */
typedef struct mdl_outset mdl_outset;

mdl_outset *cg_outset_new(void);
/* Takes ownership of the buffer contents (b is reset). */
void cg_outset_add(mdl_outset *o, const char *path, mdl_buf *b);
/* Writes every file; 0 on success, -1 after a "medleyc: error:" line
 * (no file of the set is left behind, temporaries removed). Frees o. */
int cg_outset_commit(mdl_outset *o);
void cg_outset_free(mdl_outset *o);

/* emit_dot.c: adds the communication graph, as path, to o. */
void cg_dot_add(mdl_outset *o, const mdl_spec *spec, const char *path);

/* ---------------------------------------------------------------- spec helpers */

/* The C spelling of a basic type ("unsigned long"). */
const char *cg_basic_c_name(mdl_basic b);
/* The enum mdl_base spelling ("MDL_T_ULONG"). */
const char *cg_basic_rt_name(mdl_basic b);
/* Identifier-safe name ("ulong") for descriptor names. */
const char *cg_basic_id(mdl_basic b);

/* The C spelling of a type reference as used in declarations:
 * "double", "Particle", "struct Particle". */
void cg_typeref_c(mdl_buf *b, const mdl_typeref *t);

/* C++ spellings.  A name that is a C++ keyword but not a C one (`new`,
 * `class`) is legal in a C spec; the generated code then writes it
 * MDL_CXX_(new, new_), a macro of the spec-wide header that gives `new`
 * in C and `new_` in C++, so one text serves both languages.
 * cg_cxx_id writes the C++ spelling alone (code under __cplusplus). */
int cg_cxx_keyword(const char *name);
void cg_id(mdl_buf *b, const char *name);
void cg_cxx_id(mdl_buf *b, const char *name);
/* Whether any name of the spec needs MDL_CXX_. */
int cg_spec_cxx_renames(const mdl_spec *s);

/* An expression in C. `prefix` is put before names of `uses` variables
 * ("t->"); with a prefix (code in TMDL.c) constants are written as their
 * values, without one (comments in the header) by name. */
void cg_expr_c(mdl_buf *b, const mdl_expr *e, const char *prefix);

/* The runtime's enum spelling ("MDL_COLL_GATHERV"). */
const char *cg_coll_rt_name(mdl_co_kind k);

/* The short public function name of a message ("MDL_SendTo_son_m",
 * "MDL_RecvFrom_father_m", "MDL_Gather_m1": m->fn_name). */
void cg_msg_fn_name(mdl_buf *b, const mdl_msg *m);

/* The task's distinct named neighbours, each a member of `struct T`, in
 * spec order (sends then receives): *names is allocated (free it), the
 * count is returned.  No limit: every spelling used is a member. */
int cg_task_neighbor_names(const mdl_task *t, const char ***names);

/* The spec file's name without directories (outputs must not depend on
 * where medleyc was run from). */
const char *cg_spec_basename(const mdl_spec *s);

/* Async messages needing Test/Wait: one entry per distinct name.  Writes
 * up to max message pointers (the first message having each name). */
int cg_task_async_msgs(const mdl_task *t, const mdl_msg **out, int max);

/* Run-time-sized variables (docs/language.md §5), in declaration order:
 * how many t has, and v's index among them (-1: not one).  Extent
 * variables: the int scalars their sizes name, in declaration order; x's
 * index among them (-1: not one). */
int cg_task_nrtvars(const mdl_task *t);
int cg_rtvar_index(const mdl_task *t, const mdl_var *v);
int cg_extvar_index(const mdl_task *t, const mdl_var *x);
/* Whether e names the variable x. */
int cg_expr_names(const mdl_expr *e, const mdl_var *x);
/* "MDL_View_u": the view of run-time-sized variable u, the name of the
 * C++ method and of the Fortran procedure of T_mdl, and after "T_" that of
 * TMDL.h's C macro (docs/generated-code.md). */
void cg_view_name(mdl_buf *b, const mdl_var *v);

/* ---------------------------------------------------------------- the API */

/* One public function of a task (reference §6, common/mdl_api.h), as
 * every binding is printed from it.  Its kind is its row of the table:
 * API_<id> is MDL_FN_<id>. */
typedef enum api_kind {
#define MDL_X(id, presence, self, returns, pattern, params) API_##id = MDL_FN_##id,
    MDL_API_FUNCTIONS(MDL_X)
#undef MDL_X
} api_kind;

/* A parameter after the task argument: "int inst", "int lo0". */
typedef struct api_param {
    enum mdl_param_kind kind;
    const char *name;
    int index;              /* >= 0: the name is name<index> (lo0, hi0) */
} api_param;

typedef struct api_fn {
    api_kind kind;
    enum mdl_api_self self;
    enum mdl_api_returns returns;
    char *name;             /* short public name: "MDL_SendTo_son_m" */
    api_param *params;
    int nparams;
    const mdl_msg *msg;     /* SEND RECV COLL TEST WAIT */
    const mdl_msg *msg2;    /* TEST WAIT: the async receive sharing the name */
    const mdl_task *other;  /* SIZE */
} api_fn;

typedef struct api_list {
    api_fn *v;
    int n, cap;
} api_list;

/* The name the pattern of function k makes with its parts. */
void cg_fn_name(mdl_buf *b, api_kind k, const char *part1, const char *part2);

/* Whether the message's function takes one instance number `int inst`
 * (ONE and no-peer sends, every receive but a neighbour's). */
int cg_msg_takes_inst(const mdl_msg *m);

/* Every public function of task t, in a fixed order (deterministic). */
void cg_task_api(const mdl_task *t, api_list *out);
void cg_api_free(api_list *l);
/* task_api for every task of the spec, indexed like spec->tasks. */
api_list *cg_spec_apis(const mdl_spec *s);
void cg_spec_apis_free(const mdl_spec *s, api_list *apis);
/* "int T_MDL_x(struct T *t, …)" without the final ';' or body. */
void cg_api_proto(mdl_buf *b, const mdl_task *t, const api_fn *f);

/* How cg_api_params prints the parameters after the task argument:
 *   API_P_C        ", int inst, int lo0"          C prototypes, definitions
 *   API_P_DECL     "int …, int …"                 declarations, each name in a
 *                                                 comment after its type (C++)
 *   API_P_DEF      "int mdl_inst, int mdl_lo0"    definitions with reserved names
 *   API_P_ARGS     ", mdl_inst, mdl_lo0"          a call's arguments from those
 *   API_P_FORWARD  ", inst, lo0"                  a call's arguments from C names
 * `skip` leaves out that many first parameters. */
typedef enum api_params_style {
    API_P_C, API_P_DECL, API_P_DEF, API_P_ARGS, API_P_FORWARD
} api_params_style;
void cg_api_params(mdl_buf *b, const api_fn *f, api_params_style how, int skip);

/* ---------------------------------------------------------------- descriptors */

/* Position of a point-to-point message in the task's descriptor table
 * (sends then receives), and of a collective message among the task's
 * collective messages; the tables are named mdlg_msg_<k> and mdlg_coll_<k>. */
int cg_task_msg_index(const mdl_task *t, const mdl_msg *m);
int cg_task_coll_index(const mdl_task *t, const mdl_msg *m);

/* Number of dims an item's bounds cover (pointer: 1, scalar: 0). */
int cg_item_ndims(const mdl_item *it);
/* Whether every bound of the message is known at compile time. */
int cg_msg_bounds_fixed(const mdl_msg *m);
/* The (lo,hi) pairs of the message, comma separated: constants as numbers,
 * run-time bounds as C expressions of "t->" members and lo<k>/hi<k>. */
void cg_msg_bounds(mdl_buf *b, const mdl_msg *m);
/* Number of (lo,hi) pairs. */
int cg_msg_npairs(const mdl_msg *m);

/* Emitters. */
/* The spec file's name without ".mdl", made fit for a file name and an
 * #include "…": what the names of the spec-wide files start with. */
void cg_spec_stem(mdl_buf *b, const mdl_spec *s);
/* The spec-wide header's file name, "<stem>MDL_common.h". */
void cg_common_header_name(mdl_buf *b, const mdl_spec *s);
/* Facts about the whole spec that every output needs, computed once per
 * run (per task they made generation quadratic in the spec). */
typedef struct cg_spec_facts {
    unsigned long long hash;    /* mdl_spec_hash */
} cg_spec_facts;
/* The spec-wide header; apis: cg_spec_apis(s). */
void cg_emit_common_header(mdl_buf *b, const mdl_spec *s, const cg_spec_facts *sf,
                           const api_list *apis);
/* TMDL.h: includes the spec-wide header, defines struct T. */
void cg_emit_header(mdl_buf *b, const mdl_spec *s, const mdl_task *t);
void cg_emit_source(mdl_buf *b, const mdl_spec *s, const cg_spec_facts *sf, const mdl_task *t);
void cg_emit_desc(mdl_buf *b, const mdl_spec *s, const cg_spec_facts *sf, const mdl_task *t);
/* emit_cxx.c — C++.  The short names as inline overloads (the C++ branch
 * of the spec-wide header, instead of the _Generic macros); the class
 * members added to struct T under __cplusplus (constructor, no copy,
 * method declarations); TMDL.hh, the methods' inline definitions. */
void cg_emit_cxx_overloads(mdl_buf *b, const mdl_spec *s, const api_list *apis);
void cg_emit_cxx_members(mdl_buf *b, const mdl_task *t);
/* "struct T {", page-aligned in C++ (alignas). */
void cg_emit_cxx_struct_head(mdl_buf *b, const mdl_task *t);
void cg_emit_cxx_header(mdl_buf *b, const mdl_spec *s, const mdl_task *t);

/* ---------------------------------------------------------------- Fortran */

/* emit_fortran_common.c: <stem>MDL_common.f90, the spec-wide module (the
 * MeDLey and spec constants, the struct and task types), and the
 * spellings both Fortran emitters use. */
void cg_emit_fortran_common(mdl_buf *b, const mdl_spec *s);
/* emit_fortran.c: TMDL.f90, module T_mdl: the task's functions. */
void cg_emit_fortran_task(mdl_buf *b, const mdl_spec *s, const cg_spec_facts *sf,
                          const mdl_task *t);
/* One Fortran statement at `indent` columns, continued with '&' before
 * the width free form allows (at a ", " or inside a string). */
void cg_f_stmt(mdl_buf *b, int indent, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The spec-wide module's name: "mdl_" and the stem, each character a
 * Fortran name cannot hold as '_'. */
void cg_f_common_module(mdl_buf *b, const mdl_spec *s);
/* A struct's Fortran type name: its typedef name, else its tag. */
const char *cg_f_struct_name(const mdl_struct *st);
/* The Fortran declaration type of t: "real(c_double)", "type(Particle)". */
void cg_f_type(mdl_buf *b, const mdl_typeref *t);
/* "(0:M-1, 0:N+1)" for C's [N+2][M] (as numbers): the index order
 * reversed, 0-based; nothing for a scalar. */
void cg_f_dims(mdl_buf *b, int n, const long long *val);
/* Whether a task of s has a run-time-sized variable: then the spec-wide
 * module declares, once, the C function its views take the extents
 * from (cg_f_sized_extents), and each task module keeps it private. */
int cg_f_spec_sizes_at_run_time(const mdl_spec *s);
extern const char cg_f_sized_extents[];

#endif
