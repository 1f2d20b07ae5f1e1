/* shm_copy.c — the rendezvous copy of the shared-memory runtime: the
 * receiver copies a message of more than SHM_EAGER bytes straight from
 * the sender's sections into its own (memcpy from the segment,
 * process_vm_readv from the sender's own memory).  (Eager messages are
 * packed where they are sent, shm_p2p.c, and unpacked where they are
 * delivered, shm_arrive.c: there the compiler inlines them.) */
#include "shm_internal.h"
#include "trace/rt_trace.h"

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#define CMA_IOV 64

typedef struct cma_batch {
    pid_t pid;
    int n;
    size_t bytes;
    struct iovec l[CMA_IOV], r[CMA_IOV];
} cma_batch;

static int cma_flush(cma_batch *b)
{
    int ok = b->n == 0 ||
             process_vm_readv(b->pid, b->l, (unsigned long)b->n, b->r, (unsigned long)b->n, 0) ==
                 (ssize_t)b->bytes;
    b->n = 0;
    b->bytes = 0;
    return ok ? 0 : MDL_ERR_INTERN;
}

/* A span seen as `cnt` blocks of b bytes `stride` apart, when it is one
 * (contiguous, or one loop of blocks of exactly b bytes). */
static int as_blocks(const mdl_span *s, size_t b, long *cnt, long *stride)
{
    if (s->nloops == 0 && s->block % b == 0) {
        *cnt = (long)(s->block / b);
        *stride = (long)b;
        return 1;
    }
    if (s->nloops == 1 && s->block == b) {
        *cnt = s->count[0];
        *stride = s->stride[0];
        return 1;
    }
    return 0;
}

/* One section to one section of the same simple shape (a halo row or
 * column on both sides): a plain loop.  0 when the shapes are not simple. */
static int copy_simple(const mdl_span *d, const mdl_span *s)
{
    if (d->bytes != s->bytes || d->bytes == 0)
        return 0;
    size_t b = s->nloops == 1 ? s->block : d->nloops == 1 ? d->block : s->bytes;
    long cs, ss, cd, sd;
    if (!as_blocks(s, b, &cs, &ss) || !as_blocks(d, b, &cd, &sd) || cs != cd)
        return 0;
    const char *ps = s->base;
    char *pd = d->base;
    if (b == 8) {
        for (long i = 0; i < cs; i++, ps += ss, pd += sd) {
            uint64_t v;
            memcpy(&v, ps, 8);
            memcpy(pd, &v, 8);
        }
    } else {
        for (long i = 0; i < cs; i++, ps += ss, pd += sd)
            memcpy(pd, ps, b);
    }
    return 1;
}

/* Copies a rendezvous message into the receive's spans: memcpy from the
 * segment, process_vm_readv from the sender's own memory. */
int shm_copy_rdv(mdl_rt *rt, const mdl_span *dst, int ndst, const shm_rdv *r)
{
    mdl_span inl[8] = {{0}}, *src = inl;
    if (r->nspans > 8 && !(src = malloc(r->nspans * sizeof *src)))
        return MDL_ERR_INTERN;
    for (uint32_t i = 0; i < r->nspans; i++) {
        src[i] = r->spans[i].s;
        if (!r->spans[i].remote)
            src[i].base = rt->seg + (uint64_t)(uintptr_t)r->spans[i].s.base;
    }
    if (r->nspans == 1 && ndst == 1 && !r->spans[0].remote && copy_simple(dst, src)) {
        if (src != inl)
            free(src);
        return 0;
    }
    mdl_run_iter rd, rs;
    mdl_run_iter_init(&rd, dst, ndst);
    mdl_run_iter_init(&rs, src, (int)r->nspans);
    char *pd = NULL, *ps = NULL;
    size_t ld = 0, ls = 0;
    int remote = 0, rc = 0;
    cma_batch b;
    b.pid = r->pid;
    b.n = 0;
    b.bytes = 0;
    for (;;) {
        if (ld == 0 && !mdl_next_run(&rd, &pd, &ld))
            break;
        if (ls == 0) {
            if (!mdl_next_run(&rs, &ps, &ls))
                break;
            remote = r->spans[rs.cur].remote != 0;
        }
        size_t k = ld < ls ? ld : ls;
        if (remote) {
            b.l[b.n] = (struct iovec){pd, k};
            b.r[b.n] = (struct iovec){ps, k};
            b.bytes += k;
            if (++b.n == CMA_IOV && (rc = cma_flush(&b)) < 0)
                break;
        } else if (k == 8) {    /* an element of a strided row: no call */
            uint64_t v;
            memcpy(&v, ps, 8);
            memcpy(pd, &v, 8);
        } else {
            memcpy(pd, ps, k);
        }
        pd += k;
        ps += k;
        ld -= k;
        ls -= k;
    }
    if (rc == 0)
        rc = cma_flush(&b);
    if (src != inl)
        free(src);
    return rc;
}

/* Tracing: the copy is timed (copy_us), in a function of its own. */
int shm_copy_rdv_timed(mdl_rt *rt, const mdl_span *dst, int ndst, const shm_rdv *r)
{
    uint64_t c0 = rt_trace_copy_begin(rt->c.tr);
    int rc = shm_copy_rdv(rt, dst, ndst, r);
    rt_trace_copy_end(rt->c.tr, c0);
    return rc;
}
