/* mpi_buffered.c — messages in flight from a buffer of their own
 * (mpi_buffered): sends to the sending instance itself (mpi_p2p.c)
 * and withdrawn large messages (mpi_direct.c), freed once MPI is done with
 * them, or kept for the next ones (mpi_buffered_pool). */
#include <stdlib.h>

#include "mpi_rt.h"

void mpi_buffered_append(mpi_buffered **list, mpi_buffered *x)
{
    while (*list)
        list = &(*list)->next;
    x->next = NULL;
    *list = x;
}

/* x kept in pool (NULL: freed), in place of a smaller spare when the
 * pool is full. */
void mpi_buffered_keep(mpi_buffered_pool *pool, mpi_buffered *x)
{
    if (!pool) {
        free(x);
        return;
    }
    if (pool->n < MPI_DIRECT_SPARES) {
        pool->spare[pool->n++] = x;
        return;
    }
    int least = 0;
    for (int i = 1; i < pool->n; i++)
        if (pool->spare[i]->cap < pool->spare[least]->cap)
            least = i;
    if (pool->spare[least]->cap < x->cap) {
        free(pool->spare[least]);
        pool->spare[least] = x;
    } else {
        free(x);
    }
}

/* One MPI_Testsome per MPI_BUFFERED_BATCH buffers: a single progress pass
 * of the MPI for all of them, where an MPI_Test each made one each (a
 * system call across hosts, docs/performance.md "Across hosts"). */
int mpi_buffered_reap(mpi_buffered **list, mpi_buffered_pool *pool)
{
    int reaped = 0;
    for (mpi_buffered *batch = *list; batch;) {
        MPI_Request reqs[MPI_BUFFERED_BATCH];
        mpi_buffered *in[MPI_BUFFERED_BATCH];
        MPI_Status sts[MPI_BUFFERED_BATCH];     /* not MPI_STATUSES_IGNORE: GCC 12 warns on MPICH's */
        int n = 0, done = 0, idx[MPI_BUFFERED_BATCH];
        for (; batch && n < MPI_BUFFERED_BATCH; batch = batch->next, n++) {
            in[n] = batch;
            reqs[n] = batch->req;
        }
        MPI_Testsome(n, reqs, &done, idx, sts);
        for (int i = 0; i < n; i++)
            in[i]->req = reqs[i];       /* MPI_REQUEST_NULL: complete */
    }
    for (mpi_buffered **pp = list; *pp;) {
        mpi_buffered *x = *pp;
        if (x->req == MPI_REQUEST_NULL) {
            *pp = x->next;
            mpi_buffered_keep(pool, x);
            reaped++;
        } else {
            pp = &x->next;
        }
    }
    return reaped;
}

/* The smallest spare that holds `bytes`, else a new buffer. */
mpi_buffered *mpi_buffered_get(mpi_buffered_pool *pool, size_t bytes)
{
    int best = -1;
    for (int i = 0; pool && i < pool->n; i++)
        if (pool->spare[i]->cap >= bytes &&
            (best < 0 || pool->spare[i]->cap < pool->spare[best]->cap))
            best = i;
    if (best >= 0) {
        mpi_buffered *x = pool->spare[best];
        pool->spare[best] = pool->spare[--pool->n];
        return x;
    }
    mpi_buffered *x = malloc(sizeof *x + bytes);
    if (x)
        x->cap = bytes;
    return x;
}

void mpi_buffered_pool_free(mpi_buffered_pool *pool)
{
    while (pool->n)
        free(pool->spare[--pool->n]);
}
