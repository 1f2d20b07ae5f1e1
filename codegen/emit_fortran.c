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

/* What a C parameter is to Fortran. */
typedef enum f_kind { F_INT, F_INT_OUT, F_INTS_IN, F_INTS_OUT, F_INTS_INOUT } f_kind;

typedef struct f_param {
    f_kind kind;
    char name[16];
} f_param;

/* The Fortran dummy and the C interface's declaration of each kind. */
static const struct {
    const char *dummy, *iface;
} decl[] = {
    [F_INT] = { "integer(c_int), intent(in) :: %s", "integer(c_int), value :: %s" },
    [F_INT_OUT] = { "integer(c_int), intent(out) :: %s", "integer(c_int), intent(out) :: %s" },
    [F_INTS_IN] = { "integer(c_int), intent(in) :: %s(*)", "integer(c_int), intent(in) :: %s(*)" },
    [F_INTS_OUT] = { "integer(c_int), intent(out) :: %s(*)",
                     "integer(c_int), intent(out) :: %s(*)" },
    [F_INTS_INOUT] = { "integer(c_int), intent(inout) :: %s(*)",
                       "integer(c_int), intent(inout) :: %s(*)" },
};

static int add(f_param *p, int n, f_kind k, const char *name)
{
    p[n].kind = k;
    snprintf(p[n].name, sizeof p[n].name, "%s", name);
    return n + 1;
}

/* The parameters after the task of f, as its C prototype has them. */
static int params(const api_fn *f, f_param *p)
{
    int n = 0;
    const mdl_msg *m = f->msg;
    switch (f->kind) {
    case API_SBARRIER:
        n = add(p, n, F_INTS_IN, "ranks");
        return add(p, n, F_INT, "n");
    case API_SEND:
    case API_RECV:
        if (cg_msg_takes_inst(m))
            n = add(p, n, F_INT, "inst");
        else if (m->is_send && m->peer_kind == MDL_P_SUBSET) {
            n = add(p, n, F_INTS_IN, "insts");
            n = add(p, n, F_INT, "n");
        }
        for (int r = 0; r < m->nruntime; r++) {
            char lo[16], hi[16];
            snprintf(lo, sizeof lo, "lo%d", r);
            snprintf(hi, sizeof hi, "hi%d", r);
            n = add(p, n, F_INT, lo);
            n = add(p, n, F_INT, hi);
        }
        return n;
    case API_COLL:
        if (m->coll->kind == MDL_CO_MCAST && !m->coll->table) {
            n = add(p, n, F_INTS_IN, "insts");
            n = add(p, n, F_INT, "n");
        }
        return n;
    case API_GRID_CREATE:
    case API_GRID_SCREATE:
        return add(p, n, F_INTS_INOUT, "dims");
    case API_GRID_RANK:
        n = add(p, n, F_INTS_IN, "coords");
        return add(p, n, F_INT_OUT, "rank");
    case API_GRID_COORDS:
        n = add(p, n, F_INT, "rank");
        return add(p, n, F_INTS_OUT, "coords");
    case API_GRID_MYCOORDS:
        return add(p, n, F_INTS_OUT, "coords");
    case API_GET_NEIGHBORS:
        n = add(p, n, F_INT, "direction");
        n = add(p, n, F_INT, "disp");
        n = add(p, n, F_INT_OUT, "source");
        return add(p, n, F_INT_OUT, "dest");
    default:
        return 0;
    }
}

static int nparams_max(const api_fn *f)
{
    return 4 + (f->msg && f->msg->nruntime > 0 ? 2 * f->msg->nruntime : 0);
}

/* What the C int means besides an error: how Fortran gives it. */
typedef enum f_result { R_STATUS, R_NUMBER, R_FLAG, R_SENDER } f_result;

static f_result result(const api_fn *f)
{
    switch (f->kind) {
    case API_MYRANK:
    case API_FAMILYSIZE:
    case API_SIZE:
        return R_NUMBER;
    case API_TEST:
        return R_FLAG;
    case API_RECV:
        return f->msg->is_async || f->msg->peer_kind == MDL_P_NEIGHBOR ? R_STATUS : R_SENDER;
    default:
        return R_STATUS;
    }
}

/* ---------------------------------------------------------------- procedures */

/* ", inst, lo0, hi0": the names, each after ", ". */
static void names(mdl_buf *b, const f_param *p, int n)
{
    for (int i = 0; i < n; i++)
        cg_buf_printf(b, ", %s", p[i].name);
}

/* The interface of the C function, inside the procedure as `c`. */
static void c_interface(mdl_buf *b, const mdl_task *t, const api_fn *f, const f_param *p,
                        int np)
{
    mdl_buf args = { 0 };
    names(&args, p, np);
    cg_buf_puts(b, "    interface\n");
    if (f->kind == API_INIT)
        cg_f_stmt(b, 6, "function mdl_c(t, argc, argv) bind(C, name=\"%s_%s\") result(mdl_r)", t->name,
                  f->name);
    else
        cg_f_stmt(b, 6, "function mdl_c(t%s) bind(C, name=\"%s_%s\") result(mdl_r)", args.s ? args.s : "",
                  t->name, f->name);
    cg_buf_puts(b, "        import :: c_int, c_ptr\n");
    if (f->kind == API_INIT)
        cg_buf_puts(b, "        type(c_ptr), intent(out) :: t\n"
                    "        type(c_ptr), value :: argc, argv\n");
    else
        cg_buf_puts(b, "        type(c_ptr), value :: t\n");
    for (int i = 0; i < np; i++) {
        cg_buf_puts(b, "        ");
        cg_buf_printf(b, decl[p[i].kind].iface, p[i].name);
        cg_buf_puts(b, "\n");
    }
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

static void emit_proc(mdl_buf *b, const char *mod, const mdl_task *t, const api_fn *f)
{
    f_param *p = cg_xcalloc((size_t)nparams_max(f), sizeof *p);
    int np = params(f, p);
    f_result res = result(f);
    const char *kind = res == R_NUMBER || res == R_FLAG ? "function" : "subroutine";
    mdl_buf args = { 0 };
    names(&args, p, np);
    const char *a = args.s ? args.s : "";

    cg_buf_puts(b, "\n");
    cg_f_stmt(b, 2, "%s %s(t%s%s, ierr)%s", kind, f->name, a, res == R_SENDER ? ", source" : "",
              *kind == 'f' ? " result(mdl_r)" : "");
    task_alias(b, mod, t);
    cg_buf_printf(b, "    use, intrinsic :: iso_c_binding, only: c_int, c_ptr%s\n",
                  f->kind == API_INIT ? ", c_null_ptr, c_f_pointer" : "");
    if (res == R_SENDER)
        cg_buf_puts(b, "    intrinsic :: present\n");
    cg_buf_printf(b, "    type(mdl_task), pointer, intent(%s), asynchronous :: t\n",
                  f->kind == API_INIT || f->kind == API_END ? "inout" : "in");
    for (int i = 0; i < np; i++) {
        cg_buf_puts(b, "    ");
        cg_buf_printf(b, decl[p[i].kind].dummy, p[i].name);
        cg_buf_puts(b, "\n");
    }
    if (res == R_SENDER)
        cg_buf_puts(b, "    integer(c_int), intent(out), optional :: source\n");
    cg_buf_puts(b, "    integer(c_int), intent(out), optional :: ierr\n");
    if (res == R_NUMBER)
        cg_buf_puts(b, "    integer(c_int) :: mdl_r\n");
    else if (res == R_FLAG)
        cg_buf_puts(b, "    logical :: mdl_r\n");
    c_interface(b, t, f, p, np);

    switch (f->kind) {
    case API_INIT:
        /* the object the runtime allocated, once its layout is checked */
        cg_buf_puts(b, "    type(c_ptr) :: mdl_p\n"
                    "    type(mdl_task), pointer :: mdl_s\n"
                    "    integer(c_int) :: mdl_rc\n"
                    "    mdl_rc = mdl_c(mdl_p, c_null_ptr, c_null_ptr)\n"
                    "    if (mdl_rc >= 0) then\n"
                    "      call c_f_pointer(mdl_p, mdl_s)\n"
                    "      mdl_rc = mdl_layout(mdl_s)\n"
                    "      if (mdl_rc >= 0) t => mdl_s\n"
                    "    end if\n"
                    "    call mdl_status(mdl_rc, ierr)\n");
        break;
    case API_END:
        cg_buf_puts(b, "    integer(c_int) :: mdl_rc\n"
                    "    mdl_rc = mdl_c(mdl_ref(t))\n"
                    "    if (mdl_rc >= 0) nullify(t)\n"
                    "    call mdl_status(mdl_rc, ierr)\n");
        break;
    default:
        switch (res) {
        case R_STATUS:
            cg_f_stmt(b, 4, "call mdl_status(mdl_c(mdl_ref(t)%s), ierr)", a);
            break;
        case R_NUMBER:
            cg_f_stmt(b, 4, "mdl_r = mdl_c(mdl_ref(t)%s)", a);
            cg_buf_puts(b, "    call mdl_status(mdl_r, ierr)\n");
            break;
        case R_FLAG:
            /* complete, or failed: a loop on it ends, and ierr says which */
            cg_buf_puts(b, "    integer(c_int) :: mdl_rc\n");
            cg_f_stmt(b, 4, "mdl_rc = mdl_c(mdl_ref(t)%s)", a);
            cg_buf_puts(b, "    call mdl_status(mdl_rc, ierr)\n    mdl_r = mdl_rc /= 0\n");
            break;
        case R_SENDER:
            cg_buf_puts(b, "    integer(c_int) :: mdl_rc\n");
            cg_f_stmt(b, 4, "mdl_rc = mdl_c(mdl_ref(t)%s)", a);
            cg_buf_puts(b, "    if (present(source)) then\n"
                        "      source = MDL_PROC_NULL\n"
                        "      if (mdl_rc >= 0) source = mdl_rc\n"
                        "    end if\n"
                        "    call mdl_status(mdl_rc, ierr)\n");
            break;
        }
    }
    cg_buf_printf(b, "  end %s %s\n", kind, f->name);
    cg_buf_free(&args);
    free(p);
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
        if (v->type.basic != MDL_B_NONE || v->form == MDL_V_POINTER)
            continue;
        mdl_buf path = { 0 };
        cg_buf_printf(&path, "mdl_t%%%s", v->name);
        element(&path, v->dims.n);
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
                  "      function mdl_c(rt, hash, n, names, addr, size) "
                  "bind(C, name=\"mdl_check_layout\") &\n"
                  "          result(mdl_r)\n"
                  "        import :: c_int, c_ptr, c_size_t, c_char\n"
                  "        type(c_ptr), value :: rt\n"
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
    size_t at = 0;
    int k = 1;
    entry(b, k++, &at, t->name, "mdl_t", "mdl_t");
    for (int i = 0; i < t->vars.n; i++) {
        const mdl_var *v = t->vars.v[i];
        mdl_buf name = { 0 }, first = { 0 };
        cg_buf_printf(&name, "%s%%%s", t->name, v->name);
        cg_buf_printf(&first, "mdl_t%%%s", v->name);
        if (v->form != MDL_V_POINTER)
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
    cg_buf_printf(b, "    mdl_rc = mdl_c(mdl_t%%mdl_rt_, c_char_\"%016llx\" // c_null_char, %d, "
                  "mdl_names, &\n        mdl_addr, mdl_size)\n"
                  "  end function mdl_layout\n", sf->hash, n);
    free(nb);
    free(pr);
}

/* ---------------------------------------------------------------- the module */

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
                  "  private :: mdl_ref, mdl_status, mdl_layout\n",
                  t->name, cg_spec_basename(s), t->name, t->name, t->name, stem.s, t->name,
                  t->name, mod.s);
    api_list l = { 0 };
    cg_task_api(t, &l);
    for (int i = 0; i < l.n; i++)
        if (l.v[i].kind != API_INIT_AT)
            cg_buf_printf(b, "\n  interface %s\n    module procedure %s\n  end interface %s\n",
                          l.v[i].name, l.v[i].name, l.v[i].name);
    cg_buf_puts(b, "\ncontains\n");
    for (int i = 0; i < l.n; i++)
        if (l.v[i].kind != API_INIT_AT)
            emit_proc(b, mod.s, t, &l.v[i]);
    cg_buf_puts(b, ref_head);
    task_alias(b, mod.s, t);
    cg_buf_puts(b, helpers);
    emit_layout(b, s, sf, mod.s, t);
    cg_buf_printf(b, "\nend module %s_mdl\n", t->name);
    cg_api_free(&l);
    cg_buf_free(&stem);
    cg_buf_free(&mod);
}
