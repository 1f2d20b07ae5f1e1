/* mpi_coll.c — collectives on the family communicator (transport: the
 * validation layer has checked every count against the capacity of its
 * variable and resolved derived counts and Mcast members, rt_coll.c).
 *
 * In place (send and recv the same variable): MPI_IN_PLACE where MPI has
 * it; for Gather/Scatter and their V forms every instance's own block sits
 * at its own position in the shared-layout array (rank*count, or
 * displs[rank]), so non-roots send from / receive into that position.
 * Mcast is point-to-point from the root to the listed instances on a tag
 * reserved for the collective. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mdl_tables.h"
#include "mpi_rt.h"

static char *at(void *p, long elems, size_t esize)
{
    return p ? (char *)p + (size_t)elems * esize : NULL;
}

/* MDL_<id> is MPI_<id> (the validation layer has checked the operator). */
static MPI_Op op_of(int op)
{
    switch (op) {
#define MDL_X(id, value) case MDL_##id: return MPI_##id;
    MDL_REDUCTIONS(MDL_X)
#undef MDL_X
    }
    return MPI_OP_NULL;
}

/* MPICH 4.0.2 (Debian 12) compares unsigned integers as signed in MPI_MIN
 * and MPI_MAX, so MIN(200, 1) of unsigned char is 200
 * (pmodels/mpich#6083): unsigned types get our own MIN and MAX. */
#define MINMAX(T, better)                                                  \
    do {                                                                   \
        const T *a = in;                                                   \
        T *b = inout;                                                      \
        for (int i = 0; i < *len; i++)                                     \
            if (a[i] better b[i])                                          \
                b[i] = a[i];                                               \
    } while (0)
#define UNSIGNED_OP(name, better)                                          \
    static void name(void *in, void *inout, int *len, MPI_Datatype *dt)    \
    {                                                                      \
        if (*dt == MPI_UNSIGNED_CHAR)                                      \
            MINMAX(unsigned char, better);                                 \
        else if (*dt == MPI_UNSIGNED_SHORT)                                \
            MINMAX(unsigned short, better);                                \
        else if (*dt == MPI_UNSIGNED)                                      \
            MINMAX(unsigned, better);                                      \
        else if (*dt == MPI_UNSIGNED_LONG)                                 \
            MINMAX(unsigned long, better);                                 \
        else                                                               \
            MINMAX(unsigned long long, better);                            \
    }
UNSIGNED_OP(unsigned_min, <)
UNSIGNED_OP(unsigned_max, >)

static int is_unsigned(int base)
{
    return base == MDL_T_UCHAR || base == MDL_T_USHORT || base == MDL_T_UINT ||
           base == MDL_T_ULONG || base == MDL_T_ULLONG ||
           (base == MDL_T_CHAR && CHAR_MIN == 0);
}

void mpi_coll_free(mdl_rt *rt)
{
    if (rt->coll.unsigned_ops_made) {
        MPI_Op_free(&rt->coll.unsigned_ops[0]);
        MPI_Op_free(&rt->coll.unsigned_ops[1]);
        rt->coll.unsigned_ops_made = 0;
    }
}

/* The MPI operation of c on its element type (MPI_OP_NULL: out of
 * handles, the caller reports). */
static MPI_Op op_for(mdl_rt *rt, const mdl_coll_desc *c)
{
    if ((c->op == MDL_MIN || c->op == MDL_MAX) && is_unsigned(c->type->base)) {
        if (!rt->coll.unsigned_ops_made) {
            if (MPI_Op_create(unsigned_min, 1, &rt->coll.unsigned_ops[0]) != MPI_SUCCESS)
                return MPI_OP_NULL;
            if (MPI_Op_create(unsigned_max, 1, &rt->coll.unsigned_ops[1]) != MPI_SUCCESS) {
                MPI_Op_free(&rt->coll.unsigned_ops[0]);
                return MPI_OP_NULL;
            }
            rt->coll.unsigned_ops_made = 1;
        }
        return rt->coll.unsigned_ops[c->op == MDL_MAX];
    }
    return op_of(c->op);
}

/* A failed MPI collective; a truncation means the instances' counts differ. */
static int coll_mpi_fail(mdl_rt *rt, const char *fn, int mpirc, const char *what)
{
    int cls = 0;
    MPI_Error_class(mpirc, &cls);
    return cls == MPI_ERR_TRUNCATE ? rt_fail_coll_size(rt, fn) : mpi_fail(rt, fn, mpirc, what);
}

/* The root sends to every other member; the listed members receive. */
static int mcast(mdl_rt *rt, const mdl_coll_desc *c, const mdl_coll_call *a, MPI_Datatype e,
                 size_t esize)
{
    int tag = rt->tags.mcast + c->index, mpirc = MPI_SUCCESS;
    if (a->me == 0) {
        if (a->root_listed && !c->in_place)
            memmove(a->recv, a->send, (size_t)a->count * esize);
        int j = 0;
        for (int i = 1; i < a->nmembers && mpirc == MPI_SUCCESS; i++) {
            mpirc = MPI_Isend(a->send, (int)a->count, e, a->members[i], tag, rt->job.family,
                              &rt->scratch.reqs[j]);
            j += mpirc == MPI_SUCCESS;
        }
        int w = MPI_Waitall(j, rt->scratch.reqs, rt->scratch.sts);
        if (mpirc == MPI_SUCCESS)
            mpirc = w;
        return mpirc == MPI_SUCCESS ? MDL_SUCCESS : coll_mpi_fail(rt, c->fn, mpirc, "MPI_Isend");
    }
    MPI_Status st;
    mpirc = MPI_Recv(a->recv, (int)a->count, e, c->root, tag, rt->job.family, &st);
    if (mpirc != MPI_SUCCESS)
        return coll_mpi_fail(rt, c->fn, mpirc, "MPI_Recv");
    int got = 0;
    MPI_Get_count(&st, e, &got);
    return got == a->count ? MDL_SUCCESS : rt_fail_coll_size(rt, c->fn);
}

static int collective(mdl_rt *rt, const mdl_coll_desc *c, const mdl_coll_call *a);

/* The root of an in-place Reduce that is not instance 0: its input is
 * copied out first and MPI_Reduce is called without MPI_IN_PLACE, because
 * MPICH 4.0.2 (Debian 12) and 4.1.1 crash in MPI_Reduce with MPI_IN_PLACE
 * at a non-zero root above 2 KiB (pmodels/mpich#6540, fixed by #6543).
 * Costs one copy, on the root only. */
static int reduce_in_place_nonzero_root(mdl_rt *rt, const mdl_coll_desc *c, void *buf, int cnt,
                                        MPI_Datatype e, size_t es)
{
    void *in = malloc(cnt ? (size_t)cnt * es : 1);
    if (!in)
        return rt_fail_oom(rt, c->fn);
    memcpy(in, buf, (size_t)cnt * es);
    int mpirc = MPI_Reduce(in, buf, cnt, e, op_for(rt, c), c->root, rt->job.family);
    free(in);
    return mpirc == MPI_SUCCESS ? MDL_SUCCESS : coll_mpi_fail(rt, c->fn, mpirc, "MPI_Reduce");
}

int be_collective(mdl_rt *rt, const mdl_coll_desc *c, const mdl_coll_call *a)
{
    int flushed = mpi_self_flushed(rt);       /* reported, the others not left waiting */
    rt_block_begin();
    int rc = collective(rt, c, a);
    rt_block_end();
    return flushed ? flushed : rc;
}

static int collective(mdl_rt *rt, const mdl_coll_desc *c, const mdl_coll_call *a)
{
    /* MPI cannot tell the others that this instance refused its part: a
     * wrong capacity is refused by all (the layer checks every one on every
     * instance), anything else by this one only, as in MPI. */
    if (a->err)
        return a->err;
    const char *fn = c->fn;
    MPI_Datatype e = mpi_elem_type(rt, c->type);
    size_t es = c->type->size;
    int r = rt->c.inst, root = c->root, is_root = r == root, ip = c->in_place;
    int cnt = (int)a->count;
    void *send = a->send, *recv = a->recv;
    const int *counts = a->counts, *displs = a->displs;
    MPI_Comm fam = rt->job.family;
    int mpirc = MPI_SUCCESS;
    const char *what = "";
    switch (c->kind) {
    case MDL_COLL_BCAST:
        if (is_root && !ip)     /* the root's own receive gets the value too */
            memmove(recv, send, (size_t)cnt * es);
        what = "MPI_Bcast";
        mpirc = MPI_Bcast(is_root ? send : recv, cnt, e, root, fam);
        break;
    case MDL_COLL_MCAST:
        return mcast(rt, c, a, e, es);
    case MDL_COLL_SCATTER:
        what = "MPI_Scatter";
        mpirc = MPI_Scatter(is_root ? send : NULL, cnt, e,
                            is_root && ip ? MPI_IN_PLACE : ip ? at(recv, (long)r * cnt, es) : recv,
                            cnt, e, root, fam);
        break;
    case MDL_COLL_SCATTERV:
        what = "MPI_Scatterv";
        mpirc = MPI_Scatterv(is_root ? send : NULL, counts, displs, e,
                             is_root && ip ? MPI_IN_PLACE : ip ? at(recv, displs[r], es) : recv,
                             counts[r], e, root, fam);
        break;
    case MDL_COLL_GATHER:
        what = "MPI_Gather";
        mpirc = MPI_Gather(is_root && ip ? MPI_IN_PLACE : ip ? at(send, (long)r * cnt, es) : send,
                           cnt, e, is_root ? recv : NULL, cnt, e, root, fam);
        break;
    case MDL_COLL_GATHERV:
        what = "MPI_Gatherv";
        mpirc = MPI_Gatherv(is_root && ip ? MPI_IN_PLACE : ip ? at(send, displs[r], es) : send,
                            counts[r], e, is_root ? recv : NULL, counts, displs, e, root, fam);
        break;
    case MDL_COLL_ALLGATHER:
        what = "MPI_Allgather";
        mpirc = MPI_Allgather(ip ? MPI_IN_PLACE : send, cnt, e, recv, cnt, e, fam);
        break;
    case MDL_COLL_ALLGATHERV:
        what = "MPI_Allgatherv";
        mpirc = MPI_Allgatherv(ip ? MPI_IN_PLACE : send, counts[r], e, recv, counts, displs, e,
                               fam);
        break;
    case MDL_COLL_ALLTOALL:
        what = "MPI_Alltoall";
        mpirc = MPI_Alltoall(ip ? MPI_IN_PLACE : send, cnt, e, recv, cnt, e, fam);
        break;
    case MDL_COLL_REDUCE:
        what = "MPI_Reduce";
        if (is_root && ip && root != 0)
            return reduce_in_place_nonzero_root(rt, c, recv, cnt, e, es);
        mpirc = MPI_Reduce(is_root && ip ? MPI_IN_PLACE : send, is_root ? recv : NULL, cnt, e,
                           op_for(rt, c), root, fam);
        break;
    case MDL_COLL_ALLREDUCE:
        what = "MPI_Allreduce";
        mpirc = MPI_Allreduce(ip ? MPI_IN_PLACE : send, recv, cnt, e, op_for(rt, c), fam);
        break;
    }
    return mpirc == MPI_SUCCESS ? MDL_SUCCESS : coll_mpi_fail(rt, fn, mpirc, what);
}
