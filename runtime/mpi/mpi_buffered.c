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

void mpi_buffered_reap(mpi_buffered **list, mpi_buffered_pool *pool)
{
    for (mpi_buffered **pp = list; *pp;) {
        mpi_buffered *x = *pp;
        int done = 0;
        MPI_Test(&x->req, &done, MPI_STATUS_IGNORE);
        if (done) {
            *pp = x->next;
            mpi_buffered_keep(pool, x);
        } else {
            pp = &x->next;
        }
    }
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
