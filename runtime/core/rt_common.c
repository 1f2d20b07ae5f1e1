#include "rt_common.h"
#include "mdl_public_check.h"
#include "mdl_tables.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- errors */

/* By MDL_ERR_FIRST - code (consecutive: common/mdl_public_check.h). */
static const char *const error_names[] = {
#define MDL_X(id, value, text) [MDL_ERR_FIRST - (value)] = "MDL_ERR_" #id,
    MDL_ERROR_CODES(MDL_X)
#undef MDL_X
};

static const char *const error_texts[] = {
#define MDL_X(id, value, text) [MDL_ERR_FIRST - (value)] = "MDL_ERR_" #id ": " text,
    MDL_ERROR_CODES(MDL_X)
#undef MDL_X
};

__attribute__((visibility("default")))
const char *MDL_Error_string(int code)
{
    if (code == MDL_SUCCESS)
        return "MDL_SUCCESS: no error";
    if (code > MDL_ERR_FIRST || code < MDL_ERR_LAST)
        return "unknown MeDLey error code";
    return error_texts[MDL_ERR_FIRST - code];
}

enum { POLICY_FATAL, POLICY_RETURN, POLICY_RETURN_PRINT };

static int error_policy(void)
{
    static int cached = -1;
    if (cached < 0) {
        const char *e = getenv("MDL_ERRORS");
        cached = !e ? POLICY_FATAL
                 : strcmp(e, "return") == 0 ? POLICY_RETURN
                 : strcmp(e, "return,print") == 0 ? POLICY_RETURN_PRINT
                 : POLICY_FATAL;
    }
    return cached;
}

int mdl_errors_return(void)
{
    return error_policy() != POLICY_FATAL;
}

/* The line of the last error that MDL_ERRORS=return kept silent, for a
 * binding whose caller did not take the code (mdl_print_kept); code 0:
 * none.  One per process, as the runtime is. */
static struct {
    int code;
    char line[768];
} kept;

/* The one line of an error, into line[768]. */
static void format_line(char *line, mdl_who who, const char *fn, int code, const char *fmt,
                        va_list ap)
{
    char reason[512];
    vsnprintf(reason, sizeof reason, fmt, ap);
    const char *name = code <= MDL_ERR_FIRST && code >= MDL_ERR_LAST
                           ? error_names[MDL_ERR_FIRST - code]
                           : "MDL_ERR_?";
    if (who.inst >= 0)
        snprintf(line, sizeof kept.line, "%s[%d]: %s: %s (%s)\n",
                 who.task ? who.task : "?", who.inst, fn, reason, name);
    else
        snprintf(line, sizeof kept.line, "%s: %s: %s (%s)\n",
                 who.task ? who.task : "?", fn, reason, name);
}

int mdl_vfail(mdl_who who, const char *fn, int code, mdl_abort_fn abort_job,
              const char *fmt, va_list ap)
{
    int policy = error_policy();
    char line[sizeof kept.line];
    format_line(line, who, fn, code, fmt, ap);
    kept.code = 0;
    if (policy == POLICY_RETURN) {
        kept.code = code;
        memcpy(kept.line, line, sizeof line);
        return code;
    }
    /* One write so that lines of several instances do not interleave. */
    fputs(line, stderr);
    fflush(stderr);
    if (policy == POLICY_FATAL && abort_job)
        abort_job(code);
    return code;
}

void mdl_vfail_fatal(mdl_who who, const char *fn, int code, mdl_abort_fn abort_job,
                     const char *fmt, va_list ap)
{
    char line[sizeof kept.line];
    format_line(line, who, fn, code, fmt, ap);
    fputs(line, stderr);
    fflush(stderr);
    abort_job(code);
    abort();                    /* abort_job does not return; said for the compiler */
}

void mdl_print_kept(int code)
{
    if (kept.code == 0 || kept.code != code)
        return;
    kept.code = 0;
    fputs(kept.line, stderr);
    fflush(stderr);
}

void mdl_forget_kept(void)
{
    kept.code = 0;
}

/* ---------------------------------------------------------------- grids */

int mdl_dims_fill(int nnodes, int ndims, int *dims, char *why, size_t whylen)
{
    if (ndims < 1 || ndims > 3 || nnodes < 1) {
        snprintf(why, whylen, "invalid grid of %d dimensions for %d instances",
                 ndims, nnodes);
        return MDL_ERR_GRID;
    }
    long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0) {
            snprintf(why, whylen, "dims[%d] = %d is negative", i, dims[i]);
            return MDL_ERR_GRID;
        }
        if (dims[i] == 0)
            nfree++;
        else
            fixed *= dims[i];
    }
    if (fixed > nnodes || nnodes % fixed != 0 ||
        (nfree == 0 && fixed != nnodes)) {
        snprintf(why, whylen,
                 "a grid with the given dims cannot hold %d instances", nnodes);
        return MDL_ERR_GRID;
    }
    int rest = (int)(nnodes / fixed);
    int free_dims[3] = {1, 1, 1};
    /* Largest prime factors first, each onto the currently smallest
     * dimension: balanced, like MPI_Dims_create. */
    int primes[32], np = 0;
    for (int p = 2, r = rest; r > 1;) {
        if ((long)p * p > r) {
            primes[np++] = r;
            break;
        }
        if (r % p == 0) {
            primes[np++] = p;
            r /= p;
        } else {
            p++;
        }
    }
    for (int i = np - 1; i >= 0 && nfree > 0; i--) {
        int smallest = 0;
        for (int k = 1; k < nfree; k++)
            if (free_dims[k] < free_dims[smallest])
                smallest = k;
        free_dims[smallest] *= primes[i];
    }
    /* Non-increasing order. */
    for (int a = 0; a < nfree; a++)
        for (int b = a + 1; b < nfree; b++)
            if (free_dims[b] > free_dims[a]) {
                int t = free_dims[a];
                free_dims[a] = free_dims[b];
                free_dims[b] = t;
            }
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = free_dims[k++];
    return 0;
}

int mdl_coords_to_rank(int ndims, const int *dims, const int *coords)
{
    int rank = 0;
    for (int i = 0; i < ndims; i++)
        rank = rank * dims[i] + coords[i];
    return rank;
}

void mdl_rank_to_coords(int ndims, const int *dims, int rank, int *coords)
{
    for (int i = ndims - 1; i >= 0; i--) {
        coords[i] = rank % dims[i];
        rank /= dims[i];
    }
}

int mdl_grid_shift(int ndims, const int *dims, const int *periodic,
                   const int *coords, const int *offset)
{
    int c[3];
    for (int i = 0; i < ndims; i++) {
        long v = (long)coords[i] + offset[i];
        if (v < 0 || v >= dims[i]) {
            if (!periodic[i])
                return MDL_PROC_NULL;
            v %= dims[i];
            if (v < 0)
                v += dims[i];
        }
        c[i] = (int)v;
    }
    return mdl_coords_to_rank(ndims, dims, c);
}

int mdl_grid_wrap_rank(int ndims, const int *dims, const int *periodic,
                       const int *coords, int *rank)
{
    int c[3];
    for (int i = 0; i < ndims; i++) {
        c[i] = coords[i];
        if (c[i] < 0 || c[i] >= dims[i]) {
            if (!periodic[i])
                return i;
            c[i] %= dims[i];
            if (c[i] < 0)
                c[i] += dims[i];
        }
    }
    *rank = mdl_coords_to_rank(ndims, dims, c);
    return -1;
}

/* ---------------------------------------------------------------- sections */

const char *mdl_base_name(int base)
{
    switch (base) {
#define MDL_X(id, name, c_spelling, short_id, lp64_size, f_type, f_kind) case MDL_T_##id: return name;
    MDL_BASIC_TYPES(MDL_X)
#undef MDL_X
    case MDL_T_STRUCT: return "struct";
    }
    return "?";
}

size_t mdl_base_size(int base)
{
    switch (base) {
#define MDL_X(id, name, c_spelling, short_id, lp64_size, f_type, f_kind) \
    case MDL_T_##id: return lp64_size;
    MDL_BASIC_TYPES(MDL_X)
#undef MDL_X
    }
    return 0;
}

static int span_too_large(const mdl_item_desc *it, long lo, long hi, char *why,
                          size_t whylen)
{
    snprintf(why, whylen, "section %ld..%ld of '%s' spans more than %td bytes",
             lo, hi, it->var, (ptrdiff_t)PTRDIFF_MAX);
    return MDL_ERR_BOUNDS;
}

int mdl_item_span(const mdl_item_desc *it, const long *pairs, void *task,
                  mdl_span *out, char *why, size_t whylen)
{
    return mdl_item_span_ext(it, it->extent, pairs, task, out, why, whylen);
}

int mdl_item_span_ext(const mdl_item_desc *it, const long *extent, const long *pairs,
                      void *task, mdl_span *out, char *why, size_t whylen)
{
    size_t esize = it->type->size;
    char *var = (char *)task + it->offset;
    if (it->is_pointer) {
        var = *(char **)var;
    }
    memset(out, 0, sizeof *out);
    if (it->ndims == 0) {
        out->base = var;
        out->block = out->bytes = esize;
        return 0;
    }
    long cnt[MDL_MAX_DIMS];
    size_t rowbytes[MDL_MAX_DIMS];
    size_t offset = 0;
    size_t rb = esize;
    for (int d = it->ndims - 1; d >= 0; d--) {
        rowbytes[d] = rb;
        if (extent[d] > 0)
            rb *= (size_t)extent[d];
    }
    for (int d = 0; d < it->ndims; d++) {
        long lo = pairs[2 * d], hi = pairs[2 * d + 1];
        long ext = extent[d];
        if (!mdl_bounds_ok(lo, hi, ext)) {
            if (ext >= 0)
                snprintf(why, whylen,
                         "section %ld..%ld of '%s' is outside 0..%ld in dimension %d",
                         lo, hi, it->var, ext - 1, d);
            else
                snprintf(why, whylen, "section %ld..%ld of '%s' is invalid",
                         lo, hi, it->var);
            return MDL_ERR_BOUNDS;
        }
        /* a pointer item's bounds are limited by nothing but the call:
           checked arithmetic, an error rather than a wrapped address */
        size_t here;
        if (__builtin_sub_overflow(hi, lo - 1, &cnt[d]) ||
            __builtin_mul_overflow((size_t)lo, rowbytes[d], &here) ||
            __builtin_add_overflow(offset, here, &offset))
            return span_too_large(it, lo, hi, why, whylen);
    }
    size_t total = esize, end;
    for (int d = 0; d < it->ndims; d++)
        if (__builtin_mul_overflow(total, (size_t)cnt[d], &total))
            return span_too_large(it, pairs[2 * d], pairs[2 * d + 1], why, whylen);
    if (total > PTRDIFF_MAX || __builtin_add_overflow(offset, total, &end) || end > PTRDIFF_MAX)
        return span_too_large(it, pairs[0], pairs[1], why, whylen);
    if (total > 0 && !var) {
        snprintf(why, whylen, "pointer '%s' is NULL", it->var);
        return MDL_ERR_BOUNDS;
    }
    out->base = var + offset;
    out->bytes = total;
    if (total == 0)
        return 0;
    /* Merge inner dimensions taken whole into one contiguous block. */
    int k = it->ndims - 1;
    size_t block = (size_t)cnt[k] * esize;
    while (k > 0 && extent[k] >= 0 && cnt[k] == extent[k]) {
        k--;
        block *= (size_t)cnt[k];
    }
    out->block = block;
    for (int d = 0; d < k; d++) {
        if (cnt[d] == 1)
            continue;
        out->count[out->nloops] = cnt[d];
        out->stride[out->nloops] = (long)rowbytes[d];
        out->nloops++;
    }
    return 0;
}

int mdl_msg_spans(const mdl_msg_desc *m, void *task, const long *bounds,
                  const long *const *rtext, mdl_span *spans, size_t *total, char *why,
                  size_t whylen)
{
    const long *pairs = m->fixed_bounds ? m->fixed_bounds : bounds;
    size_t sum = 0;
    for (int i = 0; i < m->nitems; i++) {
        const mdl_item_desc *it = &m->items[i];
        const long *ext = it->rtvar >= 0 && rtext ? rtext[it->rtvar] : it->extent;
        int rc = mdl_item_span_ext(it, ext, pairs + 2 * it->first_pair, task, &spans[i], why,
                                   whylen);
        if (rc)
            return rc;
        if (__builtin_add_overflow(sum, spans[i].bytes, &sum) || sum > PTRDIFF_MAX) {
            snprintf(why, whylen, "the items of the message span more than %td bytes",
                     (ptrdiff_t)PTRDIFF_MAX);
            return MDL_ERR_BOUNDS;
        }
    }
    *total = sum;
    return 0;
}

/* n runs of b bytes, to and from each advancing by its own step (not 0);
 * the loop ends on to's address, which needs no count of its own. */
static inline __attribute__((always_inline)) void copy_runs(char *to, long to_step,
                                                            const char *from, long from_step,
                                                            long n, size_t b)
{
    for (char *end = to + n * to_step; to != end; to += to_step, from += from_step)
        memcpy(to, from, b);
}

/* A row of n runs of b bytes, b made a constant 8 or 4 when the run is one
 * such element (memcpy becomes a move): through the run iterator each
 * element of a strided row cost a call to memcpy and the index
 * arithmetic, ≈ 4.7 ns, twice what the MPIs' own (un)packing of the same
 * row takes (the rows a 2x1 halo sends itself, docs/performance.md
 * "Across hosts"). */
static inline __attribute__((always_inline)) void copy_row(char *to, long to_step,
                                                           const char *from, long from_step,
                                                           long n, size_t b)
{
    if (b == 8)
        copy_runs(to, to_step, from, from_step, n, 8);
    else if (b == 4)
        copy_runs(to, to_step, from, from_step, n, 4);
    else
        copy_runs(to, to_step, from, from_step, n, b);
}

/* A span's runs copied between its place and the packed buffer (runs end
 * to end), the side whose strides are NULL: pack and unpack pass that NULL
 * as a constant, so each inlined copy keeps one direction.  The innermost
 * loop is a row; a span of one loop (a strided row, the common case) has
 * no more to set up, the outer loops of others step the span's side as
 * an odometer. */
static inline __attribute__((always_inline)) void span_rows(const mdl_span *s, char *to,
                                                            const long *to_stride,
                                                            const char *from,
                                                            const long *from_stride)
{
    size_t b = s->block;
    if (s->nloops == 0) {
        memcpy(to, from, s->bytes);
        return;
    }
    if (s->nloops == 1) {
        copy_row(to, to_stride ? to_stride[0] : (long)b, from,
                 from_stride ? from_stride[0] : (long)b, s->count[0], b);
        return;
    }
    int row = s->nloops - 1;
    long n = s->count[row], rowbytes = n * (long)b;
    long ts = to_stride ? to_stride[row] : (long)b, fs = from_stride ? from_stride[row] : (long)b;
    long idx[MDL_MAX_DIMS];
    for (int d = 0; d < row; d++)
        idx[d] = 0;
    for (;;) {
        copy_row(to, ts, from, fs, n, b);
        if (!to_stride)
            to += rowbytes;
        if (!from_stride)
            from += rowbytes;
        int d = row - 1;
        for (; d >= 0 && ++idx[d] == s->count[d]; d--) {
            idx[d] = 0;
            if (to_stride)
                to -= (s->count[d] - 1) * to_stride[d];
            if (from_stride)
                from -= (s->count[d] - 1) * from_stride[d];
        }
        if (d < 0)
            return;
        if (to_stride)
            to += to_stride[d];
        if (from_stride)
            from += from_stride[d];
    }
}

void mdl_spans_pack(const mdl_span *spans, int n, void *dst)
{
    char *out = dst;
    for (int i = 0; i < n; out += spans[i++].bytes)
        if (spans[i].bytes)
            span_rows(&spans[i], out, NULL, spans[i].base, spans[i].stride);
}

void mdl_spans_unpack(const mdl_span *spans, int n, const void *src)
{
    const char *in = src;
    for (int i = 0; i < n; in += spans[i++].bytes)
        if (spans[i].bytes)
            span_rows(&spans[i], spans[i].base, spans[i].stride, in, NULL);
}

/* Whether two spans have one shape: their runs pair one to one. */
static int same_shape(const mdl_span *a, const mdl_span *b)
{
    if (a->block != b->block || a->nloops != b->nloops || a->bytes != b->bytes)
        return 0;
    for (int d = 0; d < a->nloops; d++)
        if (a->count[d] != b->count[d])
            return 0;
    return 1;
}

/* Spans of one shape on both sides (a halo's row received from the
 * instance itself, mpi_self.c) are copied row by row, as pack does: run
 * by run through the iterators cost 4-5 times as much for a strided row
 * of doubles. */
void mdl_spans_copy(const mdl_span *dst, int ndst, const mdl_span *src, int nsrc)
{
    int paired = ndst == nsrc;
    for (int i = 0; paired && i < ndst; i++)
        paired = same_shape(&dst[i], &src[i]);
    for (int i = 0; paired && i < ndst; i++)
        if (src[i].bytes)
            span_rows(&src[i], dst[i].base, dst[i].stride, src[i].base, src[i].stride);
    if (paired)
        return;
    mdl_run_iter rd, rs;
    mdl_run_iter_init(&rd, dst, ndst);
    mdl_run_iter_init(&rs, src, nsrc);
    char *pd = NULL, *ps = NULL;
    size_t ld = 0, ls = 0;
    for (;;) {
        if (ld == 0 && !mdl_next_run(&rd, &pd, &ld))
            return;
        if (ls == 0 && !mdl_next_run(&rs, &ps, &ls))
            return;
        size_t n = ld < ls ? ld : ls;
        memcpy(pd, ps, n);
        pd += n;
        ps += n;
        ld -= n;
        ls -= n;
    }
}

void mdl_copy_nonzero_pages(char *dst, const char *src, size_t size, size_t page)
{
    for (size_t o = 0; o < size; o += page) {
        const uint64_t *w = (const uint64_t *)(const void *)(src + o);
        size_t n = page / sizeof *w, i = 0;
        while (i < n && w[i] == 0)
            i++;
        if (i < n)
            memcpy(dst + o, src + o, page);
    }
}

void mdl_copy_file_data(int fd, off_t off, char *dst, const char *src, size_t size, size_t page)
{
    off_t end = off + (off_t)size, pos = off;
    while (fd >= 0) {
        off_t data = lseek(fd, pos, SEEK_DATA);
        if (data < 0 && errno != ENXIO)
            break;              /* no SEEK_DATA here */
        if (data < 0 || data >= end)
            return;             /* ENXIO: no data from pos on */
        off_t hole = lseek(fd, data, SEEK_HOLE);
        if (hole < 0 || hole > end)
            hole = end;
        memcpy(dst + (data - off), src + (data - off), (size_t)(hole - data));
        pos = hole;
    }
    mdl_copy_nonzero_pages(dst, src, size, page);
}
