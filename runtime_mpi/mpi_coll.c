/* mpi_coll.c — collectives on the family communicator.
 *
 * Every count is checked against the capacity of its variable before MPI
 * sees it, so a wrong count is MDL_ERR_BOUNDS and never a write outside a
 * variable.  In place (send and recv the same variable): MPI_IN_PLACE where
 * MPI has it; for Gather/Scatter and their V forms every instance's own
 * block sits at its own position in the shared-layout array (rank*count,
 * or displs[rank]), so non-roots send from / receive into that position.
 * Mcast is point-to-point from the root to the listed instances on a tag
 * reserved for the collective. */
#include <limits.h>
#include <string.h>

#include "mpi_rt.h"

typedef struct coll_call {
    mdl_rt *rt;
    const mdl_coll_desc *c;
    const char *fn;
    size_t esize;
} coll_call;

/* need elements of the buffer `what` (capacity cap, -1 unknown) at p.
 * Every instance checks the capacities, whatever its role, so that in
 * MDL_ERRORS=return mode either all instances return the error or none
 * does (no instance is left waiting inside MPI); a NULL buffer only
 * matters where it is used. */
static int fits(const coll_call *k, const char *what, const void *p, long cap, long need,
                int used)
{
    if (need < 0)
        return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "negative element count %ld", need);
    if (need > INT_MAX)
        return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "%ld elements: too many for MPI", need);
    if (cap >= 0 && need > cap)
        return rt_fail(k->rt, k->fn, MDL_ERR_BOUNDS,
                       "needs %ld elements of the %s buffer but its variable holds %ld from there",
                       need, what, cap);
    if (used && need > 0 && !p)
        return rt_fail(k->rt, k->fn, MDL_ERR_BOUNDS, "the %s buffer is NULL", what);
    return 0;
}

/* The V forms: counts/displs valid and every block inside the array;
 * *maxcount gets the largest count. */
static int fits_v(const coll_call *k, const char *what, const void *p, long cap,
                  const int *counts, const int *displs, int nfamily, int used, long *maxcount)
{
    if (!counts || !displs)
        return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "counts or displs is NULL");
    *maxcount = 0;
    for (int i = 0; i < nfamily; i++) {
        if (counts[i] < 0 || displs[i] < 0)
            return rt_fail(k->rt, k->fn, MDL_ERR_ARG, "counts[%d] = %d, displs[%d] = %d", i,
                           counts[i], i, displs[i]);
        int rc = fits(k, what, p, cap, (long)displs[i] + counts[i], used);
        if (rc)
            return rc;
        if (counts[i] > *maxcount)
            *maxcount = counts[i];
    }
    return 0;
}

static char *at(void *p, long elems, size_t esize)
{
    return p ? (char *)p + (size_t)elems * esize : NULL;
}

static int op_of(int op, MPI_Op *out)
{
    switch (op) {
    case MDL_SUM:  *out = MPI_SUM;  return 0;
    case MDL_PROD: *out = MPI_PROD; return 0;
    case MDL_MAX:  *out = MPI_MAX;  return 0;
    case MDL_MIN:  *out = MPI_MIN;  return 0;
    default:       return -1;
    }
}

static int mcast(const coll_call *k, MPI_Datatype e, void *send, void *recv, long count,
                 const int *insts, int n)
{
    mdl_rt *rt = k->rt;
    const mdl_coll_desc *c = k->c;
    int rc = rt_check_list(rt, k->fn, rt->self, insts, n, MDL_ERR_RANK);
    if (rc)
        return rc;
    int listed = 0;
    for (int i = 0; i < n; i++)
        listed |= insts[i] == rt->inst;
    int tag = rt->tag_mcast + c->index;
    int mpirc = MPI_SUCCESS;
    int is_root = rt->inst == c->root;
    if ((rc = fits(k, "send", send, c->send_cap, count, is_root)) ||
        (rc = fits(k, "receive", recv, c->recv_cap, count, listed && !(is_root && c->in_place))))
        return rc;
    if (is_root) {
        if (listed && !c->in_place)
            memmove(recv, send, (size_t)count * k->esize);
        int j = 0;
        for (int i = 0; i < n && mpirc == MPI_SUCCESS; i++)
            if (insts[i] != rt->inst) {
                mpirc = MPI_Isend(send, (int)count, e, insts[i], tag, rt->family,
                                  &rt->scratch_reqs[j]);
                j += mpirc == MPI_SUCCESS;
            }
        int w = MPI_Waitall(j, rt->scratch_reqs, rt->scratch_sts);
        if (mpirc == MPI_SUCCESS)
            mpirc = w;
        return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, k->fn, mpirc, "MPI_Isend");
    }
    if (!listed)
        return MDL_SUCCESS;
    MPI_Status st;
    mpirc = MPI_Recv(recv, (int)count, e, c->root, tag, rt->family, &st);
    if (mpirc != MPI_SUCCESS)
        return rt_mpi_fail(rt, k->fn, mpirc, "MPI_Recv");
    int got = 0;
    MPI_Get_count(&st, e, &got);
    if (got != count)
        return rt_fail(rt, k->fn, MDL_ERR_TRUNCATE,
                       "received %d elements from the root but expected %ld", got, count);
    return MDL_SUCCESS;
}

MDL_API int mdl_collective(mdl_rt *rt, const mdl_coll_desc *c, void *send, void *recv, long count,
                   const int *counts, const int *displs, const int *insts, int n)
{
    const char *fn = c ? c->fn : "MDL_collective";
    int rc = rt_check(rt, fn);
    if (rc)
        return rc;
    if (!c || !c->type || c->index < 0 || c->index >= rt->d->ncolls)
        return rt_fail(rt, fn, MDL_ERR_ARG, "not a collective of this task");
    coll_call k = { rt, c, fn, c->type->size };
    MPI_Datatype e = rt_elem_type(rt, c->type);
    if (e == MPI_DATATYPE_NULL)
        return rt_fail(rt, fn, MDL_ERR_ARG, "no MPI datatype for '%s'", c->type->name);
    int N = rt->nfamily, r = rt->inst, root = c->root;
    int is_root = r == root;
    int ip = c->in_place;
    if (root < 0 || root >= N)
        return rt_fail(rt, fn, MDL_ERR_RANK, "root %d does not exist (%d instances)", root, N);
    MPI_Comm fam = rt->family;
    int mpirc = MPI_SUCCESS;
    const char *what = "";

    long maxc = 0;
    switch (c->kind) {
    case MDL_COLL_BCAST:
        if ((rc = fits(&k, "send", send, c->send_cap, count, is_root)) ||
            (rc = fits(&k, "receive", recv, c->recv_cap, count, !(is_root && ip))))
            return rc;
        if (is_root && !ip)    /* the root's own receive gets the value too */
            memmove(recv, send, (size_t)count * k.esize);
        what = "MPI_Bcast";
        mpirc = MPI_Bcast(is_root ? send : recv, (int)count, e, root, fam);
        break;

    case MDL_COLL_MCAST:
        return mcast(&k, e, send, recv, count, insts, n);

    case MDL_COLL_SCATTER: {
        long seg = count;
        if (seg < 0) {
            long cap = ip ? c->send_cap : c->recv_cap;
            if (cap < 0)
                return rt_fail(rt, fn, MDL_ERR_ARG,
                               "the segment size cannot be derived from a pointer variable");
            seg = ip ? cap / N : cap;
        }
        if ((rc = fits(&k, "send", send, c->send_cap, seg * N, is_root)) ||
            (rc = fits(&k, "receive", recv, c->recv_cap, ip ? seg * N : seg, !(is_root && ip))))
            return rc;
        void *rbuf = ip ? at(recv, r * seg, k.esize) : recv;
        what = "MPI_Scatter";
        mpirc = MPI_Scatter(is_root ? send : NULL, (int)seg, e,
                            is_root && ip ? MPI_IN_PLACE : rbuf, (int)seg, e, root, fam);
        break;
    }

    case MDL_COLL_SCATTERV:
        if ((rc = fits_v(&k, "send", send, c->send_cap, counts, displs, N, is_root, &maxc)))
            return rc;
        if (ip)
            rc = fits_v(&k, "receive", recv, c->recv_cap, counts, displs, N, !is_root, &maxc);
        else
            rc = fits(&k, "receive", recv, c->recv_cap, maxc, 1);
        if (rc)
            return rc;
        what = "MPI_Scatterv";
        mpirc = MPI_Scatterv(is_root ? send : NULL, counts, displs, e,
                             is_root && ip ? MPI_IN_PLACE : ip ? at(recv, displs[r], k.esize) : recv,
                             counts[r], e, root, fam);
        break;

    case MDL_COLL_GATHER:
        if ((rc = fits(&k, "receive", recv, c->recv_cap, count * N, is_root)) ||
            (rc = fits(&k, "send", send, c->send_cap, ip ? count * N : count, !(is_root && ip))))
            return rc;
        what = "MPI_Gather";
        mpirc = MPI_Gather(is_root && ip ? MPI_IN_PLACE : ip ? at(send, r * count, k.esize) : send,
                           (int)count, e, is_root ? recv : NULL, (int)count, e, root, fam);
        break;

    case MDL_COLL_GATHERV:
        if ((rc = fits_v(&k, "receive", recv, c->recv_cap, counts, displs, N, is_root, &maxc)))
            return rc;
        if (ip)
            rc = fits_v(&k, "send", send, c->send_cap, counts, displs, N, !is_root, &maxc);
        else
            rc = fits(&k, "send", send, c->send_cap, maxc, 1);
        if (rc)
            return rc;
        what = "MPI_Gatherv";
        mpirc = MPI_Gatherv(is_root && ip ? MPI_IN_PLACE
                                          : ip ? at(send, displs[r], k.esize) : send,
                            counts[r], e, is_root ? recv : NULL, counts, displs, e, root, fam);
        break;

    case MDL_COLL_ALLGATHER: {
        long cnt = count;
        if (cnt < 0) {
            if (c->send_cap < 0)
                return rt_fail(rt, fn, MDL_ERR_ARG,
                               "the block size cannot be derived from a pointer variable");
            cnt = ip ? c->send_cap / N : c->send_cap;
        }
        if ((rc = fits(&k, "receive", recv, c->recv_cap, cnt * N, 1)) ||
            (!ip && (rc = fits(&k, "send", send, c->send_cap, cnt, 1))))
            return rc;
        what = "MPI_Allgather";
        mpirc = MPI_Allgather(ip ? MPI_IN_PLACE : send, (int)cnt, e, recv, (int)cnt, e, fam);
        break;
    }

    case MDL_COLL_ALLGATHERV:
        if ((rc = fits_v(&k, "receive", recv, c->recv_cap, counts, displs, N, 1, &maxc)) ||
            (!ip && (rc = fits(&k, "send", send, c->send_cap, maxc, 1))))
            return rc;
        what = "MPI_Allgatherv";
        mpirc = MPI_Allgatherv(ip ? MPI_IN_PLACE : send, counts[r], e, recv, counts, displs, e,
                               fam);
        break;

    case MDL_COLL_ALLTOALL:
        if ((rc = fits(&k, "receive", recv, c->recv_cap, count * N, 1)) ||
            (!ip && (rc = fits(&k, "send", send, c->send_cap, count * N, 1))))
            return rc;
        what = "MPI_Alltoall";
        mpirc = MPI_Alltoall(ip ? MPI_IN_PLACE : send, (int)count, e, recv, (int)count, e, fam);
        break;

    case MDL_COLL_REDUCE:
    case MDL_COLL_ALLREDUCE: {
        MPI_Op op;
        if (c->type->base == MDL_T_STRUCT || op_of(c->op, &op) != 0)
            return rt_fail(rt, fn, MDL_ERR_ARG, "cannot reduce '%s' with operator %d",
                           c->type->name, c->op);
        int all = c->kind == MDL_COLL_ALLREDUCE;
        if ((rc = fits(&k, "send", send, c->send_cap, count, !(is_root && ip))) ||
            (rc = fits(&k, "receive", recv, c->recv_cap, count, all || is_root)))
            return rc;
        if (all) {
            what = "MPI_Allreduce";
            mpirc = MPI_Allreduce(ip ? MPI_IN_PLACE : send, recv, (int)count, e, op, fam);
        } else {
            what = "MPI_Reduce";
            mpirc = MPI_Reduce(is_root && ip ? MPI_IN_PLACE : send, is_root ? recv : NULL,
                               (int)count, e, op, root, fam);
        }
        break;
    }

    default:
        return rt_fail(rt, fn, MDL_ERR_ARG, "unknown collective kind %d", c->kind);
    }
    return mpirc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, mpirc, what);
}
