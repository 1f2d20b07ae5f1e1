/* emit_fortran.c — TMDL.f90, the Fortran module of one task (medleyc
 * --fortran; docs/generated-code.md, Fortran).
 *
 * Module T_mdl re-exports the spec-wide module (emit_fortran_common.c) and
 * gives every function of the task's API list (emit_api.c: the list the C
 * and C++ bindings are printed from, so the three cannot disagree) as a
 * module procedure of the C name, which is also a generic name of that
 * one procedure: generic names of several task modules merge in a program
 * that uses them, as the C _Generic names do, and a function a task does
 * not have is a compile error.  Each procedure calls the C function of
 * TMDL.c through an interface declared inside it, passes the task as a
 * pointer (a NULL one when t is not associated, so that C names the call
 * made before MDL_Init), and turns the C result into Fortran's: an
 * optional ierr, a sender into an optional source, a flag into a logical.
 *
 * Every name a procedure refers to is its own or reserved (mdl_, MDL_,
 * what it takes from iso_c_binding in its own USE): a spec name at module
 * scope (a constant `n`, a type `t`) cannot change what it means. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"

/* ---------------------------------------------------------------- parameters */

/* Each kind of parameter of the API table (common/mdl_api.h) as the
 * procedure takes it (dummy) and as the interface of the C function
 * declares it (iface).  The program's arguments are not Fortran's to give
 * (no dummy): the call passes c_null_ptr, and the runtime finds its own. */
static const struct {
    const char *dummy, *iface;
} decl[] = {
    [MDL_PARAM_INT] = { "integer(c_int), intent(in) :: %s", "integer(c_int), value :: %s" },
    [MDL_PARAM_INT_OUT] = { "integer(c_int), intent(out) :: %s",
                            "integer(c_int), intent(out) :: %s" },
    [MDL_PARAM_INTS_IN] = { "integer(c_int), intent(in) :: %s(*)",
                            "integer(c_int), intent(in) :: %s(*)" },
    [MDL_PARAM_INTS_OUT] = { "integer(c_int), intent(out) :: %s(*)",
                             "integer(c_int), intent(out) :: %s(*)" },
    [MDL_PARAM_INTS_INOUT] = { "integer(c_int), intent(inout) :: %s(*)",
                               "integer(c_int), intent(inout) :: %s(*)" },
    [MDL_PARAM_SIZE] = { "integer(c_long), intent(in) :: %s", "integer(c_long), value :: %s" },
    [MDL_PARAM_ARGC] = { NULL, "type(c_ptr), value :: %s" },
    [MDL_PARAM_ARGV] = { NULL, "type(c_ptr), value :: %s" },
};

/* "lo0", "inst": the parameter's name. */
static void param_name(mdl_buf *b, const api_param *p)
{
    cg_buf_puts(b, p->name);
    if (p->index >= 0)
        cg_buf_printf(b, "%d", p->index);
}

/* The parameters after the task, each after ", ": as the procedure takes
 * them (`call`: 0), or as it passes them to C (1). */
static void names(mdl_buf *b, const api_fn *f, int call)
{
    for (int i = 0; i < f->nparams; i++) {
        const api_param *p = &f->params[i];
        if (decl[p->kind].dummy) {
            cg_buf_puts(b, ", ");
            param_name(b, p);
        } else if (call)
            cg_buf_puts(b, ", c_null_ptr");
    }
}

/* One declaration per parameter, from column `iface` of decl (the
 * procedure's dummies: 0), indented by `indent`. */
static void declarations(mdl_buf *b, const api_fn *f, int iface, int indent)
{
    for (int i = 0; i < f->nparams; i++) {
        const api_param *p = &f->params[i];
        const char *d = iface ? decl[p->kind].iface : decl[p->kind].dummy;
        if (!d)
            continue;
        mdl_buf name = { 0 };
        param_name(&name, p);
        cg_buf_printf(b, "%*s", indent, "");
        cg_buf_printf(b, d, name.s);
        cg_buf_puts(b, "\n");
        cg_buf_free(&name);
    }
}

/* What iso_c_binding must give the procedure besides c_int and c_ptr:
 * c_long for a size. */
static const char *long_kind(const api_fn *f)
{
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].kind == MDL_PARAM_SIZE)
            return ", c_long";
    return "";
}

/* ---------------------------------------------------------------- procedures */

/* The interface of the C function, inside the procedure as `mdl_c`. */
static void c_interface(mdl_buf *b, const mdl_task *t, const api_fn *f)
{
    mdl_buf args = { 0 };
    for (int i = 0; i < f->nparams; i++) {
        cg_buf_puts(&args, ", ");
        param_name(&args, &f->params[i]);
    }
    cg_buf_puts(b, "    interface\n");
    cg_f_stmt(b, 6, "function mdl_c(t%s) bind(C, name=\"%s_%s\") result(mdl_r)",
              args.s ? args.s : "", t->name, f->name);
    cg_buf_printf(b, "        import :: c_int, c_ptr%s\n", long_kind(f));
    /* MDL_Init sets the task pointer; the others take it */
    cg_buf_printf(b, "        type(c_ptr), %s :: t\n",
                  f->self == MDL_SELF_HANDLE ? "intent(out)" : "value");
    declarations(b, f, 1, 8);
    cg_buf_puts(b, "        integer(c_int) :: mdl_r\n      end function mdl_c\n    end interface\n");
    cg_buf_free(&args);
}

/* The task's type, under a name no spec name can hide in the procedure:
 * `type(mdl_task)`.  (Renamed in the module's own USE, the type would
 * lose its name there, and made private it would be private to programs
 * as well.) */
static void task_alias(mdl_buf *b, const char *mod, const mdl_task *t)
{
    cg_f_stmt(b, 4, "use %s, only: mdl_task => %s", mod, t->name);
}

/* The C result as Fortran gives it (the table's `returns`): a number or a
 * logical is a function's result, a status only ierr, a sender also the
 * optional source. */
static void emit_proc(mdl_buf *b, const char *mod, const mdl_task *t, const api_fn *f)
{
    enum mdl_api_returns res = f->returns;
    const char *kind = res == MDL_RET_NUMBER || res == MDL_RET_FLAG ? "function" : "subroutine";
    mdl_buf dummies = { 0 }, pass = { 0 };
    names(&dummies, f, 0);
    names(&pass, f, 1);
    const char *a = dummies.s ? dummies.s : "", *c = pass.s ? pass.s : "";

    cg_buf_puts(b, "\n");
    cg_f_stmt(b, 2, "%s %s(t%s%s, ierr)%s", kind, f->name, a,
              res == MDL_RET_SENDER ? ", source" : "", *kind == 'f' ? " result(mdl_r)" : "");
    task_alias(b, mod, t);
    cg_buf_printf(b, "    use, intrinsic :: iso_c_binding, only: c_int, c_ptr%s%s%s\n", long_kind(f),
                  strstr(c, "c_null_ptr") || f->self == MDL_SELF_HANDLE ? ", c_null_ptr" : "",
                  f->self == MDL_SELF_HANDLE ? ", c_f_pointer" : "");
    if (res == MDL_RET_SENDER)
        cg_buf_puts(b, "    intrinsic :: present\n");
    cg_buf_printf(b, "    type(mdl_task), pointer, intent(%s), asynchronous :: t\n",
                  f->self == MDL_SELF_HANDLE || f->kind == API_END ? "inout" : "in");
    declarations(b, f, 0, 4);
    if (res == MDL_RET_SENDER)
        cg_buf_puts(b, "    integer(c_int), intent(out), optional :: source\n");
    cg_buf_puts(b, "    integer(c_int), intent(out), optional :: ierr\n");
    if (res == MDL_RET_NUMBER)
        cg_buf_puts(b, "    integer(c_int) :: mdl_r\n");
    else if (res == MDL_RET_FLAG)
        cg_buf_puts(b, "    logical :: mdl_r\n");
    c_interface(b, t, f);

    if (f->self == MDL_SELF_HANDLE) {
        /* the object the runtime allocated, once its layout is checked */
        cg_buf_puts(b, "    type(c_ptr) :: mdl_p\n"
                    "    type(mdl_task), pointer :: mdl_s\n"
                    "    integer(c_int) :: mdl_rc\n");
        cg_f_stmt(b, 4, "mdl_rc = mdl_c(mdl_p%s)", c);
        cg_buf_puts(b, "    if (mdl_rc >= 0) then\n"
                    "      call c_f_pointer(mdl_p, mdl_s)\n"
                    "      mdl_rc = mdl_layout(mdl_s)\n"
                    "      if (mdl_rc >= 0) t => mdl_s\n"
                    "    end if\n"
                    "    call mdl_status(mdl_rc, ierr)\n");
    } else if (f->kind == API_END) {
        /* the object is the runtime's to free: t must not point at it */
        cg_buf_puts(b, "    integer(c_int) :: mdl_rc\n");
        cg_f_stmt(b, 4, "mdl_rc = mdl_c(mdl_ref(t)%s)", c);
        cg_buf_puts(b, "    if (mdl_rc >= 0) nullify(t)\n"
                    "    call mdl_status(mdl_rc, ierr)\n");
    } else {
        switch (res) {
        case MDL_RET_STATUS:
            cg_f_stmt(b, 4, "call mdl_status(mdl_c(mdl_ref(t)%s), ierr)", c);
            break;
        case MDL_RET_NUMBER:
            cg_f_stmt(b, 4, "mdl_r = mdl_c(mdl_ref(t)%s)", c);
            cg_buf_puts(b, "    call mdl_status(mdl_r, ierr)\n");
            break;
        case MDL_RET_FLAG:
            /* complete, or failed: a loop on it ends, and ierr says which */
            cg_buf_puts(b, "    integer(c_int) :: mdl_rc\n");
            cg_f_stmt(b, 4, "mdl_rc = mdl_c(mdl_ref(t)%s)", c);
            cg_buf_puts(b, "    call mdl_status(mdl_rc, ierr)\n    mdl_r = mdl_rc /= 0\n");
            break;
        case MDL_RET_SENDER:
            cg_buf_puts(b, "    integer(c_int) :: mdl_rc\n");
            cg_f_stmt(b, 4, "mdl_rc = mdl_c(mdl_ref(t)%s)", c);
            cg_buf_puts(b, "    if (present(source)) then\n"
                        "      source = MDL_PROC_NULL\n"
                        "      if (mdl_rc >= 0) source = mdl_rc\n"
                        "    end if\n"
                        "    call mdl_status(mdl_rc, ierr)\n");
            break;
        }
    }
    cg_buf_printf(b, "  end %s %s\n", kind, f->name);
    cg_buf_free(&dummies);
    cg_buf_free(&pass);
}

/* ---------------------------------------------------------------- views */

/* `call MDL_View_U(t, view)`: view a pointer array on run-time-sized
 * variable U with the extents of its storage (the runtime's, recorded by
 * the last MDL_Allocate, not the size variables as they are now),
 * reversed and 0-based as a constant-size U's component is; disassociated
 * while U has no storage.  A subroutine rather than a function returning a
 * pointer: `view = f(t)` (an assignment, not `=>`) would copy. */
static void emit_view(mdl_buf *b, const char *mod, const mdl_task *t, const mdl_var *v)
{
    mdl_buf name = { 0 }, type = { 0 }, rank = { 0 }, shape = { 0 }, lower = { 0 };
    cg_view_name(&name, v);
    /* a struct element type under a reserved name, as the task's type */
    if (v->type.basic == MDL_B_NONE)
        cg_buf_puts(&type, "type(mdl_elem)");
    else
        cg_f_type(&type, &v->type);
    /* the element's kind, unless the import below names it already */
    const char *kind = v->type.basic == MDL_B_NONE ? "" : mdl_basic_f_kind(v->type.basic);
    if (!strcmp(kind, "c_int") || !strcmp(kind, "c_long"))
        kind = "";
    int n = v->dims.n;
    for (int d = 0; d < n; d++) {
        cg_buf_puts(&rank, d ? ", :" : ":");
        cg_buf_printf(&shape, "%smdl_e(%d)", d ? ", " : "", n - d);
        cg_buf_puts(&lower, d ? ", 0:" : "0:");
    }
    cg_buf_puts(b, "\n");
    cg_f_stmt(b, 2, "subroutine %s(t, view)", name.s);
    task_alias(b, mod, t);
    if (v->type.basic == MDL_B_NONE)
        cg_f_stmt(b, 4, "use %s, only: mdl_elem => %s", mod, cg_f_struct_name(v->type.resolved));
    cg_buf_printf(b, "    use, intrinsic :: iso_c_binding, only: c_int, c_long, c_f_pointer%s%s\n",
                  *kind ? ", " : "", kind);
    cg_buf_puts(b, "    type(mdl_task), pointer, intent(in), asynchronous :: t\n");
    cg_f_stmt(b, 4, "%s, pointer, intent(out) :: view(%s)", type.s, rank.s);
    cg_buf_printf(b, "    integer(c_long) :: mdl_e(%d)\n", n);
    cg_f_stmt(b, 4, "%s, pointer :: mdl_p(%s)", type.s, rank.s);
    cg_buf_puts(b, "    nullify(view)\n");
    cg_buf_printf(b, "    if (%s(mdl_ref(t), %d_c_int, mdl_e) /= %d) return\n",
                  cg_f_sized_extents, cg_rtvar_index(t, v), n);
    cg_f_stmt(b, 4, "call c_f_pointer(t%%%s, mdl_p, [%s])", v->name, shape.s);
    cg_buf_printf(b, "    view(%s) => mdl_p\n", lower.s);
    cg_buf_printf(b, "  end subroutine %s\n", name.s);
    cg_buf_free(&name);
    cg_buf_free(&type);
    cg_buf_free(&rank);
    cg_buf_free(&shape);
    cg_buf_free(&lower);
}

/* ---------------------------------------------------------------- helpers */

static const char ref_head[] =
    "\n"
    "  ! The task as C takes it: NULL when t is not associated (C then says\n"
    "  ! which call came before MDL_Init).\n"
    "  function mdl_ref(t) result(mdl_p)\n";
static const char helpers[] =
    "    use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_null_ptr\n"
    "    intrinsic :: associated\n"
    "    type(mdl_task), pointer, intent(in), asynchronous :: t\n"
    "    type(c_ptr) :: mdl_p\n"
    "    mdl_p = c_null_ptr\n"
    "    if (associated(t)) mdl_p = c_loc(t)\n"
    "  end function mdl_ref\n"
    "\n"
    "  ! A C result to ierr; without ierr an error ends the job, whatever\n"
    "  ! MDL_ERRORS says (the runtime prints its line if it was not printed).\n"
    "  subroutine mdl_status(mdl_rc, ierr)\n"
    "    use, intrinsic :: iso_c_binding, only: c_int\n"
    "    use, intrinsic :: iso_fortran_env, only: output_unit\n"
    "    intrinsic :: present\n"
    "    integer(c_int), intent(in) :: mdl_rc\n"
    "    integer(c_int), intent(out), optional :: ierr\n"
    "    interface\n"
    "      subroutine mdl_fatal(code) bind(C, name=\"mdl_fail_unchecked\")\n"
    "        import :: c_int\n"
    "        integer(c_int), value :: code\n"
    "      end subroutine mdl_fatal\n"
    "    end interface\n"
    "    if (present(ierr)) then\n"
    "      ierr = MDL_SUCCESS\n"
    "      if (mdl_rc < 0) ierr = mdl_rc\n"
    "    else if (mdl_rc < 0) then\n"
    "      flush(output_unit)\n"
    "      call mdl_fatal(mdl_rc)\n"
    "    end if\n"
    "  end subroutine mdl_status\n";

/* The struct types whose layout the task's object holds, each once, with
 * where one of them is in the object ("mdl_t%ps(0)%p"): the path walks
 * the variables in order, then fields, element 0 of each array. */
typedef struct f_probe {
    const mdl_struct *st;
    char *path;
} f_probe;

static void element(mdl_buf *b, int ndims)
{
    for (int d = 0; d < ndims; d++)
        cg_buf_printf(b, "%s0%s", d ? ", " : "(", d == ndims - 1 ? ")" : "");
}

static void probe(f_probe *pr, int *n, const mdl_struct *st, const char *path)
{
    if (!st)
        return;
    for (int i = 0; i < *n; i++)
        if (pr[i].st == st)
            return;
    mdl_buf own = { 0 };
    cg_buf_puts(&own, path);
    pr[(*n)++] = (f_probe){ st, own.s };
    for (int f = 0; f < st->fields.n; f++) {
        const mdl_field *fd = st->fields.v[f];
        if (fd->type.basic != MDL_B_NONE)
            continue;
        mdl_buf sub = { 0 };
        cg_buf_printf(&sub, "%s%%%s", path, fd->name);
        element(&sub, fd->dims.n);
        probe(pr, n, fd->type.resolved, sub.s);
        cg_buf_free(&sub);
    }
}

/* One entry of the layout: its name into mdl_names, its address and size. */
static void entry(mdl_buf *b, int k, size_t *at, const char *name, const char *addr,
                  const char *size)
{
    size_t len = strlen(name);
    cg_f_stmt(b, 4, "mdl_names(%zu:%zu) = c_char_\"%s\" // c_null_char", *at + 1, *at + len + 1,
              name);
    cg_f_stmt(b, 4, "mdl_addr(%d) = c_loc(%s)", k, addr);
    cg_f_stmt(b, 4, "mdl_size(%d) = c_sizeof(%s)", k, size);
    *at += len + 1;
}

/* mdl_layout: what MDL_Init checks against the C code's tables
 * (mdl_check_layout of mdl_rt.h): the task type and the struct types it
 * holds, each with its fields, where this compiler put them. */
static void emit_layout(mdl_buf *b, const mdl_spec *s, const cg_spec_facts *sf,
                        const char *mod, const mdl_task *t)
{
    int nprobe = 0;
    f_probe *pr = cg_xcalloc((size_t)s->structs.n + 1, sizeof *pr);
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        if (v->type.basic != MDL_B_NONE || v->form == MDL_V_POINTER || v->rtsized)
            continue;
        mdl_buf path = { 0 };
        cg_buf_printf(&path, "mdl_t%%%s", v->name);
        element(&path, v->dims.n);
        probe(pr, &nprobe, v->type.resolved, path.s);
        cg_buf_free(&path);
    }
    /* the struct types only run-time-sized variables hold (no element in
     * the object before MDL_Allocate): probed on a local of the type */
    int first_local = nprobe;
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        if (v->type.basic != MDL_B_NONE || !v->rtsized)
            continue;
        mdl_buf path = { 0 };
        cg_buf_printf(&path, "mdl_o%d", i);
        probe(pr, &nprobe, v->type.resolved, path.s);
        cg_buf_free(&path);
    }
    const char **nb;
    int nn = cg_task_neighbor_names(t, &nb);
    int n = 1 + t->vars.n + nn;
    size_t len = strlen(t->name) + 1;
    for (int i = 0; i < t->vars.n; i++)
        len += strlen(t->name) + strlen(t->vars.v[i]->name) + 2;
    for (int i = 0; i < nn; i++)
        len += strlen(t->name) + strlen(nb[i]) + 2;
    for (int i = 0; i < nprobe; i++) {
        const char *tn = cg_f_struct_name(pr[i].st);
        n += 1 + pr[i].st->fields.n;
        len += strlen(tn) + 1;
        for (int f = 0; f < pr[i].st->fields.n; f++)
            len += strlen(tn) + strlen(pr[i].st->fields.v[f]->name) + 2;
    }

    cg_buf_puts(b, "\n"
                  "  ! Where this compiler put the members of the task's type and of the\n"
                  "  ! struct types it holds, checked against the C code (MDL_ERR_LAUNCH).\n"
                  "  function mdl_layout(mdl_t) result(mdl_rc)\n");
    task_alias(b, mod, t);
    cg_buf_printf(b,
                  "    use, intrinsic :: iso_c_binding, only: c_int, c_ptr, c_size_t, c_char, "
                  "c_null_char, &\n"
                  "        c_loc, c_sizeof\n"
                  "    type(mdl_task), pointer, intent(in) :: mdl_t\n"
                  "    integer(c_int) :: mdl_rc\n"
                  "    interface\n"
                  "      function mdl_c(task, hash, n, names, addr, size) "
                  "bind(C, name=\"mdl_check_layout\") &\n"
                  "          result(mdl_r)\n"
                  "        import :: c_int, c_ptr, c_size_t, c_char\n"
                  "        type(c_ptr), value :: task\n"
                  "        character(kind=c_char), intent(in) :: hash(*), names(*)\n"
                  "        integer(c_int), value :: n\n"
                  "        type(c_ptr), intent(in) :: addr(*)\n"
                  "        integer(c_size_t), intent(in) :: size(*)\n"
                  "        integer(c_int) :: mdl_r\n"
                  "      end function mdl_c\n"
                  "    end interface\n"
                  "    character(kind=c_char, len=%zu) :: mdl_names\n"
                  "    type(c_ptr) :: mdl_addr(%d)\n"
                  "    integer(c_size_t) :: mdl_size(%d)\n",
                  len, n, n);
    for (int i = first_local; i < nprobe; i++)
        if (!strchr(pr[i].path, '%'))
            cg_buf_printf(b, "    type(%s), target :: %s\n", cg_f_struct_name(pr[i].st),
                          pr[i].path);
    size_t at = 0;
    int k = 1;
    entry(b, k++, &at, t->name, "mdl_t", "mdl_t");
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        mdl_buf name = { 0 }, first = { 0 };
        cg_buf_printf(&name, "%s%%%s", t->name, v->name);
        cg_buf_printf(&first, "mdl_t%%%s", v->name);
        if (v->form != MDL_V_POINTER && !v->rtsized)
            element(&first, v->dims.n);
        entry(b, k++, &at, name.s, first.s, first.s);
        cg_buf_free(&name);
        cg_buf_free(&first);
    }
    for (int i = 0; i < nn; i++) {
        mdl_buf name = { 0 }, first = { 0 };
        cg_buf_printf(&name, "%s%%%s", t->name, nb[i]);
        cg_buf_printf(&first, "mdl_t%%%s", nb[i]);
        entry(b, k++, &at, name.s, first.s, first.s);
        cg_buf_free(&name);
        cg_buf_free(&first);
    }
    for (int i = 0; i < nprobe; i++) {
        const mdl_struct *st = pr[i].st;
        const char *tn = cg_f_struct_name(st);
        entry(b, k++, &at, tn, pr[i].path, pr[i].path);
        for (int f = 0; f < st->fields.n; f++) {
            const mdl_field *fd = st->fields.v[f];
            mdl_buf name = { 0 }, first = { 0 };
            cg_buf_printf(&name, "%s%%%s", tn, fd->name);
            cg_buf_printf(&first, "%s%%%s", pr[i].path, fd->name);
            element(&first, fd->dims.n);
            entry(b, k++, &at, name.s, first.s, first.s);
            cg_buf_free(&name);
            cg_buf_free(&first);
        }
        free(pr[i].path);
    }
    cg_buf_printf(b, "    mdl_rc = mdl_c(c_loc(mdl_t), c_char_\"%016llx\" // c_null_char, %d, "
                  "mdl_names, &\n        mdl_addr, mdl_size)\n"
                  "  end function mdl_layout\n", sf->hash, n);
    free(nb);
    free(pr);
}

/* ---------------------------------------------------------------- the module */

/* A procedure that is also a generic name of itself (see the top). */
static void generic(mdl_buf *b, const char *name)
{
    cg_buf_printf(b, "\n  interface %s\n    module procedure %s\n  end interface %s\n", name, name,
                  name);
}

void cg_emit_fortran_task(mdl_buf *b, const mdl_spec *s, const cg_spec_facts *sf,
                          const mdl_task *t)
{
    mdl_buf stem = { 0 }, mod = { 0 };
    cg_spec_stem(&stem, s);
    cg_f_common_module(&mod, s);
    cg_buf_printf(b, "! %sMDL.f90 — generated by medleyc from %s; do not edit.\n"
                  "! Task %s: `use %s_mdl`, `type(%s), pointer :: t => null()`,\n"
                  "! `call MDL_Init(t)`.  Compile after %sMDL_common.f90; link with %sMDL.c\n"
                  "! compiled by the C compiler.\n"
                  "module %s_mdl\n"
                  "  use %s\n"
                  "  implicit none\n"
                  "  private :: mdl_ref, mdl_status, mdl_layout%s%s\n",
                  t->name, cg_spec_basename(s), t->name, t->name, t->name, stem.s, t->name,
                  t->name, mod.s, cg_f_spec_sizes_at_run_time(s) ? ", " : "",
                  cg_f_spec_sizes_at_run_time(s) ? cg_f_sized_extents : "");
    api_list l = { 0 };
    cg_task_api(t, &l);
    for (int i = 0; i < l.n; i++)
        if (l.v[i].kind != API_INIT_AT)
            generic(b, l.v[i].name);
    for (int i = 0; i < t->vars.n; i++)
        if (t->vars.v[i]->rtsized) {
            mdl_buf name = { 0 };
            cg_view_name(&name, t->vars.v[i]);
            generic(b, name.s);
            cg_buf_free(&name);
        }
    cg_buf_puts(b, "\ncontains\n");
    for (int i = 0; i < l.n; i++)
        if (l.v[i].kind != API_INIT_AT)
            emit_proc(b, mod.s, t, &l.v[i]);
    for (int i = 0; i < t->vars.n; i++)
        if (t->vars.v[i]->rtsized)
            emit_view(b, mod.s, t, t->vars.v[i]);
    cg_buf_puts(b, ref_head);
    task_alias(b, mod.s, t);
    cg_buf_puts(b, helpers);
    emit_layout(b, s, sf, mod.s, t);
    cg_buf_printf(b, "\nend module %s_mdl\n", t->name);
    cg_api_free(&l);
    cg_buf_free(&stem);
    cg_buf_free(&mod);
}
