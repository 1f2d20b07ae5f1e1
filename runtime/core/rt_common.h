/* rt_common.h — pieces both runtimes share: the error policy, grid shapes
 * and the memory layout of message sections.  Nothing here knows about MPI
 * or shared memory. */
#ifndef MDL_RT_COMMON_H
#define MDL_RT_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include "mdl_rt.h"

#define MDL_HIDDEN __attribute__((visibility("hidden")))

/* ---------------------------------------------------------------- errors */

/* Who is reporting: printed as "son[2]: MDL_RecvFrom_father_m: reason". */
typedef struct mdl_who {
    const char *task;           /* task name, or "?" before identification */
    int inst;                   /* instance number, or -1 */
} mdl_who;

/* How a runtime stops the whole job on a fatal error (MPI_Abort, or exit
 * so that mdlrun tears the job down).  Must not return. */
typedef void (*mdl_abort_fn)(int code);

/* The error policy, from MDL_ERRORS (read once; docs/language.md §11):
 * unset or `fatal`: print one line and call abort_job; `return`: return
 * the code, print nothing (as MPI_ERRORS_RETURN); `return,print`: return
 * the code and print the line. */
/* Prints the line unless errors are returned silently (then keeps it, for
 * mdl_print_kept), then calls abort_job unless errors are returned.
 * Returns `code` (negative).  The runtimes call it through rt_fail
 * (rt_backend.h). */
MDL_HIDDEN int mdl_vfail(mdl_who who, const char *fn, int code,
                         mdl_abort_fn abort_job, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

/* The same line, then abort_job whatever MDL_ERRORS says: for a fault
 * after which nothing the job shares can be trusted. */
MDL_HIDDEN void mdl_vfail_fatal(mdl_who who, const char *fn, int code,
                                mdl_abort_fn abort_job, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0), noreturn));

/* True when errors are returned (MDL_ERRORS=return or return,print). */
MDL_HIDDEN int mdl_errors_return(void);

/* A binding whose caller does not take the code (a Fortran call without
 * ierr) makes an error fatal whatever MDL_ERRORS says: the line of the
 * last error, if MDL_ERRORS=return kept it silent and its code is `code`,
 * is printed now, once (mdl_vfail keeps it). */
MDL_HIDDEN void mdl_print_kept(int code);
/* The last error has no line under the default policy (a peer's failure,
 * which the failing instance reports): mdl_print_kept prints nothing. */
MDL_HIDDEN void mdl_forget_kept(void);

/* ---------------------------------------------------------------- launchers */

/* The number of processes an MPI launcher (hydra, Open MPI's mpirun,
 * Slurm's srun) said it started, this one among them; 0 when none said
 * (rt_launcher.c: the variables, which launcher wins). */
MDL_HIDDEN long rt_launcher_size(void);

/* True when an MPI launcher started this process. */
MDL_HIDDEN int rt_launched(void);

/* ---------------------------------------------------------------- task objects */

/* Copies the pages of src that are not all zero (dst is zero): a caller's
 * task object (mdl_init_at) moved into a runtime's shared pages and back,
 * so that a large object the program has not touched yet stays
 * uncommitted memory on both sides, as the C API's struct does. */
MDL_HIDDEN void mdl_copy_nonzero_pages(char *dst, const char *src, size_t size, size_t page);

/* The object back from such pages: src maps bytes [off, off + size) of the
 * file fd, and only what the file holds there is copied to dst, extent by
 * extent — reading a hole through a shared mapping would allocate it, so
 * MDL_End would commit a large object nothing touched.  Without SEEK_DATA
 * (fd < 0, or a file system without it): mdl_copy_nonzero_pages. */
MDL_HIDDEN void mdl_copy_file_data(int fd, off_t off, char *dst, const char *src, size_t size,
                                   size_t page);

/* ---------------------------------------------------------------- grids */

/* MPI_Dims_create semantics: zero entries of dims are filled so that the
 * product is nnodes, as balanced as possible, in non-increasing order.
 * Returns 0, or MDL_ERR_GRID with a reason in why. */
MDL_HIDDEN int mdl_dims_fill(int nnodes, int ndims, int *dims,
                             char *why, size_t whylen);

/* Row-major rank <-> coordinates (dimension 0 varies slowest, as in MPI). */
MDL_HIDDEN int mdl_coords_to_rank(int ndims, const int *dims, const int *coords);
MDL_HIDDEN void mdl_rank_to_coords(int ndims, const int *dims, int rank, int *coords);

/* Rank at coords+offset, wrapping periodic dimensions; MDL_PROC_NULL when
 * outside a non-periodic dimension. */
MDL_HIDDEN int mdl_grid_shift(int ndims, const int *dims, const int *periodic,
                              const int *coords, const int *offset);

/* Rank of the instance at coords (MDL_Grid_Rank): periodic dimensions
 * wrap, as in MPI_Cart_rank.  Returns -1 with *rank set, or the first
 * dimension in which coords lies outside a non-periodic grid. */
MDL_HIDDEN int mdl_grid_wrap_rank(int ndims, const int *dims, const int *periodic,
                                  const int *coords, int *rank);

/* ---------------------------------------------------------------- sections */

/* Where a section lives: `nloops` nested loops (outermost first) of
 * count[i] iterations stride[i] bytes apart, each innermost iteration a
 * contiguous run of `block` bytes starting at base. */
typedef struct mdl_span {
    char *base;
    size_t block;
    int nloops;
    long count[MDL_MAX_DIMS];
    long stride[MDL_MAX_DIMS];
    size_t bytes;               /* total */
} mdl_span;

/* The bounds rule of one dimension: lo..hi (empty when hi is lo - 1) within
 * an extent ext, or any range from 0 when ext is -1 (a pointer). */
static inline int mdl_bounds_ok(long lo, long hi, long ext)
{
    return lo >= 0 && hi >= lo - 1 && (ext < 0 || hi < ext);
}

/* Layout of one item for the (lo,hi) pairs given (it->ndims pairs).
 * Checks the bounds against the declared extents (mdl_bounds_ok, and a
 * NULL pointer member).  Returns 0 or MDL_ERR_BOUNDS with a reason in why. */
MDL_HIDDEN int mdl_item_span(const mdl_item_desc *it, const long *pairs,
                             void *task, mdl_span *out,
                             char *why, size_t whylen);

/* The same with the extents given (a run-time-sized variable's, as
 * MDL_Allocate set them). */
MDL_HIDDEN int mdl_item_span_ext(const mdl_item_desc *it, const long *extent, const long *pairs,
                                 void *task, mdl_span *out, char *why, size_t whylen);

/* All items of a message: spans[m->nitems].  bounds may be NULL when the
 * message has fixed_bounds.  rtext[v]: the extents of run-time-sized
 * variable v (NULL when the task has none).  *total gets the sum of
 * bytes. */
MDL_HIDDEN int mdl_msg_spans(const mdl_msg_desc *m, void *task,
                             const long *bounds, const long *const *rtext,
                             mdl_span *spans, size_t *total, char *why, size_t whylen);

/* Copy between the layouts of several spans and a contiguous buffer. */
MDL_HIDDEN void mdl_spans_pack(const mdl_span *spans, int n, void *dst);
MDL_HIDDEN void mdl_spans_unpack(const mdl_span *spans, int n, const void *src);

/* Walks the contiguous runs of a list of spans in order (innermost loop
 * fastest).  `cur` is the index of the span the last run belongs to.
 * Start with mdl_run_iter_init.  Inline: the copy loops of both runtimes
 * call it once per run (per element of a strided row). */
typedef struct mdl_run_iter {
    const mdl_span *spans;
    int nspans, cur;
    int started;
    long idx[MDL_MAX_DIMS];
} mdl_run_iter;

static inline void mdl_run_iter_init(mdl_run_iter *r, const mdl_span *spans, int n)
{
    r->spans = spans;
    r->nspans = n;
    r->cur = 0;
    r->started = 0;
}

/* Next run: its address and length; 0 when exhausted. */
static inline int mdl_next_run(mdl_run_iter *r, char **p, size_t *len)
{
    while (r->cur < r->nspans) {
        const mdl_span *s = &r->spans[r->cur];
        if (s->bytes == 0) {
            r->cur++;
            continue;
        }
        if (!r->started) {
            memset(r->idx, 0, sizeof r->idx);
            r->started = 1;
        } else {
            int d = s->nloops - 1;
            while (d >= 0 && ++r->idx[d] == s->count[d])
                r->idx[d--] = 0;
            if (d < 0) {
                r->cur++;
                r->started = 0;
                continue;
            }
        }
        char *q = s->base;
        for (int d = 0; d < s->nloops; d++)
            q += r->idx[d] * s->stride[d];
        *p = q;
        *len = s->block;
        return 1;
    }
    return 0;
}

/* Copy straight from one set of spans to another (same total bytes):
 * the single-copy path of the shared-memory runtime. */
MDL_HIDDEN void mdl_spans_copy(const mdl_span *dst, int ndst,
                               const mdl_span *src, int nsrc);

/* Bytes of a type's element, and the name of a basic type. */
MDL_HIDDEN const char *mdl_base_name(int base);
/* Bytes of a basic type's element (LP64, as medleyc laid it out); 0 for
 * MDL_T_STRUCT or an unknown code. */
MDL_HIDDEN size_t mdl_base_size(int base);

#endif
