/* emit_fortran_common.c — specMDL_common.f90, the spec-wide Fortran module
 * (medleyc --fortran; docs/generated-code.md, Fortran), and the spellings
 * both Fortran emitters share.
 *
 * Module mdl_<spec> holds what every task module needs and a program sees
 * through them: the MeDLey constants of mdl.h, the spec's constants, its
 * struct types and the type of every task, each `bind(C)` with the members
 * of the C struct in the same order, so that the Fortran compiler lays
 * them out as the C compiler does (MDL_Init checks it).  The task types
 * are here, not in their task modules, so that a task module can name its
 * type by an alias no spec name can hide (emit_fortran.c).  Arrays keep
 * their memory: `double U[N+2][M]` is `U(0:M-1, 0:N+1)`, the index order
 * reversed and the spec's 0-based bounds kept. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"
#include "mdl.h"
#include "mdl_tables.h"

/* Fortran's free form allows 132 characters a line; statements are
 * continued well before, at a comma or inside a string. */
enum { F_WIDTH = 100 };

void cg_f_stmt(mdl_buf *b, int indent, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mdl_buf s = { 0 };
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < (int)sizeof small)
        cg_buf_puts(&s, small);
    else {
        char *big = cg_xcalloc((size_t)n + 1, 1);
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        cg_buf_puts(&s, big);
        free(big);
    }
    cg_buf_printf(b, "%*s", indent, "");
    int col = indent, quoted = 0;
    for (size_t i = 0; i < s.n; i++) {
        char c = s.s[i];
        if (col >= F_WIDTH && quoted) {
            /* a character context goes on after the '&' that starts the next line */
            cg_buf_printf(b, "&\n%*s&", indent + 4, "");
            col = indent + 5;
        } else if (col >= F_WIDTH - 20 && !quoted && c == ' ' && i > 0 && s.s[i - 1] == ',') {
            cg_buf_printf(b, " &\n%*s", indent + 4, "");
            col = indent + 4;
            continue;
        }
        if (c == '"')
            quoted = !quoted;
        cg_buf_printf(b, "%c", c);
        col++;
    }
    cg_buf_puts(b, "\n");
    cg_buf_free(&s);
}

void cg_f_common_module(mdl_buf *b, const mdl_spec *s)
{
    mdl_buf stem = { 0 };
    cg_spec_stem(&stem, s);
    cg_buf_puts(b, "mdl_");
    for (size_t i = 0; i < stem.n; i++) {
        char c = stem.s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        cg_buf_printf(b, "%c", ok ? c : '_');
    }
    cg_buf_free(&stem);
}

int cg_f_spec_sizes_at_run_time(const mdl_spec *s)
{
    for (int i = 0; i < s->tasks.n; i++)
        if (cg_task_nrtvars(s->tasks.v[i]))
            return 1;
    return 0;
}

/* rt_binding.c's mdl_sized_extents: the extents of a run-time-sized
 * variable's storage, for the task modules' views (MDL_View_<v>); the
 * interface named as the C function, so a view calls it by that name. */
const char cg_f_sized_extents[] = "mdl_sized_extents";

static void emit_sized_extents(mdl_buf *b)
{
    cg_buf_printf(b, "  ! The extents of a run-time-sized variable's storage (runtime), for the\n"
                  "  ! views of the task modules (MDL_View_<v>), not for programs.\n"
                  "  interface\n"
                  "    function %s(task, rtvar, extents) bind(C, name=\"%s\") &\n"
                  "        result(mdl_r)\n"
                  "      import :: c_int, c_ptr, c_long\n"
                  "      type(c_ptr), value :: task\n"
                  "      integer(c_int), value :: rtvar\n"
                  "      integer(c_long), intent(out) :: extents(*)\n"
                  "      integer(c_int) :: mdl_r\n"
                  "    end function %s\n"
                  "  end interface\n\n",
                  cg_f_sized_extents, cg_f_sized_extents, cg_f_sized_extents);
}

const char *cg_f_struct_name(const mdl_struct *st)
{
    return st->typedef_name ? st->typedef_name : st->tag;
}

void cg_f_type(mdl_buf *b, const mdl_typeref *t)
{
    if (t->basic == MDL_B_NONE)
        cg_buf_printf(b, "type(%s)", t->resolved ? cg_f_struct_name(t->resolved) : t->name);
    else if (strcmp(mdl_basic_f_type(t->basic), "character") == 0)
        cg_buf_printf(b, "character(kind=%s)", mdl_basic_f_kind(t->basic));
    else
        cg_buf_printf(b, "%s(%s)", mdl_basic_f_type(t->basic), mdl_basic_f_kind(t->basic));
}

void cg_f_dims(mdl_buf *b, int n, const long long *val)
{
    if (n == 0)
        return;
    cg_buf_puts(b, "(");
    for (int d = n - 1; d >= 0; d--)
        cg_buf_printf(b, "0:%lld%s", val[d] - 1, d ? ", " : ")");
}

/* "[N+2][M]": the dimensions as the spec writes them (in the spec's
 * order, as C declares them). */
static void dims_text(mdl_buf *b, int n, mdl_expr *const *dims)
{
    for (int d = 0; d < n; d++) {
        mdl_buf e = { 0 };
        cg_expr_c(&e, dims[d], "");
        int outer = e.n > 1 && e.s[0] == '(' && dims[d]->kind != MDL_E_NEG &&
                    dims[d]->kind != MDL_E_INT && dims[d]->kind != MDL_E_NAME;
        cg_buf_printf(b, "[%.*s]", (int)(outer ? e.n - 2 : e.n), e.s + outer);
        cg_buf_free(&e);
    }
}

/* "  ! [N+2][M]": the dimensions, when they were not plain numbers. */
static void dims_comment(mdl_buf *b, int n, mdl_expr *const *dims)
{
    int literal = 1;
    for (int d = 0; d < n; d++)
        literal &= dims[d]->kind == MDL_E_INT;
    if (literal || n == 0)
        return;
    cg_buf_puts(b, "  ! ");
    dims_text(b, n, dims);
}

/* One component: `real(c_double) :: U(0:65, 0:65)  ! [N+2][N+2]`; a
 * pointer (a pointer item, or a run-time-sized variable: `type(c_ptr) ::
 * U  ! double * [ny+2][nx+2]`, its dimensions then in the comment). */
static void component(mdl_buf *b, const mdl_typeref *type, int pointer, const char *name,
                      int ndims, const long long *dimval, mdl_expr *const *dims)
{
    mdl_buf line = { 0 };
    if (pointer) {
        cg_buf_printf(&line, "type(c_ptr) :: %s  ! %s *", name,
                      type->basic == MDL_B_NONE ? cg_f_struct_name(type->resolved)
                                                : mdl_basic_name(type->basic));
        if (ndims) {
            cg_buf_puts(&line, " ");
            dims_text(&line, ndims, dims);
            cg_buf_puts(&line, ", set by MDL_Allocate");
        }
    } else {
        cg_f_type(&line, type);
        cg_buf_printf(&line, " :: %s", name);
        cg_f_dims(&line, ndims, dimval);
        dims_comment(&line, ndims, dims);
    }
    cg_f_stmt(b, 4, "%s", line.s);
    cg_buf_free(&line);
}

static void emit_struct(mdl_buf *b, const mdl_struct *st)
{
    cg_buf_printf(b, "  type, bind(C) :: %s\n", cg_f_struct_name(st));
    for (int i = 0; i < st->fields.n; i++) {
        const mdl_field *f = st->fields.v[i];
        component(b, &f->type, 0, f->name, f->dims.n, f->dimval, f->dims.v);
    }
    cg_buf_printf(b, "  end type %s\n\n", cg_f_struct_name(st));
}

static void emit_task_type(mdl_buf *b, const mdl_task *t)
{
    cg_buf_printf(b, "  ! The variables of one instance of %s (MDL_Init allocates them).\n"
                  "  type, bind(C) :: %s\n", t->name, t->name);
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        int pointer = v->form == MDL_V_POINTER || v->rtsized;
        component(b, &v->type, pointer, v->name, v->form == MDL_V_POINTER ? 0 : v->dims.n,
                  v->dimval, v->dims.v);
    }
    const char **nb;
    int nn = cg_task_neighbor_names(t, &nb);
    if (nn)
        cg_buf_puts(b, "    ! grid neighbours, set by MDL_Grid_Create (MDL_PROC_NULL outside)\n");
    for (int i = 0; i < nn; i++)
        cg_buf_printf(b, "    integer(c_int) :: %s\n", nb[i]);
    free(nb);
    cg_buf_printf(b, "    type(c_ptr) :: mdl_rt_  ! runtime handle: do not touch\n"
                  "  end type %s\n\n", t->name);
}

/* A constant the way C's literal would type it: int when it fits, else
 * long long (the value -2^63, which Fortran cannot write, is refused by
 * cg_check_fortran). */
static void emit_const(mdl_buf *b, const char *name, long long v)
{
    if (v >= -2147483647LL && v <= 2147483647LL)
        cg_buf_printf(b, "  integer(c_int), parameter :: %s = %lld\n", name, v);
    else
        cg_buf_printf(b, "  integer(c_long_long), parameter :: %s = %lld_c_long_long\n", name, v);
}

/* MDL_Error_string of mdl.h: the C text, as a Fortran string. */
static const char error_string[] =
    "  ! The text of an error code, as MDL_Error_string of mdl.h gives it.\n"
    "  function MDL_Error_string(code) result(mdl_text)\n"
    "    use, intrinsic :: iso_c_binding, only: c_int, c_ptr, c_char, c_null_char, c_f_pointer\n"
    "    integer(c_int), intent(in) :: code\n"
    "    character(len=:), allocatable :: mdl_text\n"
    "    interface\n"
    "      function mdl_c(code) bind(C, name=\"MDL_Error_string\") result(mdl_r)\n"
    "        import :: c_int, c_ptr\n"
    "        integer(c_int), value :: code\n"
    "        type(c_ptr) :: mdl_r\n"
    "      end function mdl_c\n"
    "    end interface\n"
    "    character(kind=c_char), pointer :: mdl_s(:)\n"
    "    integer :: mdl_n, mdl_i\n"
    "    call c_f_pointer(mdl_c(code), mdl_s, [256])  ! the longest text is shorter\n"
    "    mdl_n = 0\n"
    "    do while (mdl_s(mdl_n + 1) /= c_null_char)\n"
    "      mdl_n = mdl_n + 1\n"
    "    end do\n"
    "    allocate(character(len=mdl_n) :: mdl_text)\n"
    "    do mdl_i = 1, mdl_n\n"
    "      mdl_text(mdl_i:mdl_i) = mdl_s(mdl_i)\n"
    "    end do\n"
    "  end function MDL_Error_string\n";

void cg_emit_fortran_common(mdl_buf *b, const mdl_spec *s)
{
    mdl_buf file = { 0 }, mod = { 0 };
    cg_spec_stem(&file, s);
    cg_f_common_module(&mod, s);
    cg_buf_printf(b, "! %sMDL_common.f90 — generated by medleyc from %s; do not edit.\n"
                  "! The spec's constants and types and the type of each task, for the task\n"
                  "! modules (TMDL.f90): programs use those.  Compile it first.\n"
                  "module %s\n", file.s, cg_spec_basename(s), mod.s);
    /* every kind of the type table, and c_ptr (pointer variables, the
     * handle); private: a program takes them from iso_c_binding itself */
    mdl_buf kinds = { 0 };
    for (int k = 0; k < MDL_B_COUNT; k++) {
        const char *kind = mdl_basic_f_kind((mdl_basic)k);
        int seen = 0;
        for (int j = 0; j < k && !seen; j++)
            seen = strcmp(kind, mdl_basic_f_kind((mdl_basic)j)) == 0;
        if (!seen)
            cg_buf_printf(&kinds, "%s, ", kind);
    }
    cg_buf_puts(&kinds, "c_ptr");
    cg_f_stmt(b, 2, "use, intrinsic :: iso_c_binding, only: %s", kinds.s);
    cg_buf_puts(b, "  implicit none\n");
    cg_f_stmt(b, 2, "private :: %s", kinds.s);
    cg_buf_free(&kinds);

    /* mdl.h's constants, from the tables mdl.h is checked against */
    cg_buf_printf(b, "\n  ! MeDLey's constants (mdl.h)\n");
    emit_const(b, "MDL_SUCCESS", MDL_SUCCESS);
    emit_const(b, "MDL_ANY", MDL_ANY);
    emit_const(b, "MDL_PROC_NULL", MDL_PROC_NULL);
#define MDL_X(id, value, text) emit_const(b, "MDL_ERR_" #id, value);
    MDL_ERROR_CODES(MDL_X)
#undef MDL_X
    emit_const(b, "MDL_ERR_FIRST", MDL_ERR_FIRST);
    emit_const(b, "MDL_ERR_LAST", MDL_ERR_LAST);
#define MDL_X(id, value) emit_const(b, "MDL_" #id, value);
    MDL_REDUCTIONS(MDL_X)
#undef MDL_X

    if (s->consts.n)
        cg_buf_puts(b, "\n  ! Constants of the spec (the values medleyc used)\n");
    for (int i = 0; i < s->consts.n; i++)
        emit_const(b, s->consts.v[i]->name, s->consts.v[i]->val);

    if (s->struct_order.n)
        cg_buf_puts(b, "\n  ! The spec's types, each after those it contains; C's layout\n");
    else
        cg_buf_puts(b, "\n");
    for (int i = 0; i < s->struct_order.n; i++)
        emit_struct(b, s->struct_order.v[i]);
    for (int i = 0; i < s->tasks.n; i++)
        emit_task_type(b, s->tasks.v[i]);
    if (cg_f_spec_sizes_at_run_time(s))
        emit_sized_extents(b);
    cg_buf_printf(b, "contains\n\n%s\nend module %s\n", error_string, mod.s);
    cg_buf_free(&file);
    cg_buf_free(&mod);
}
