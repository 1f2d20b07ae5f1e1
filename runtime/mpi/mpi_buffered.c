/* mpi_buffered.c — messages in flight from a buffer of their own
 * (mpi_buffered): sync sends to the sending instance itself (mpi_p2p.c)
 * and withdrawn large messages (mpi_direct.c), freed once MPI is done with
 * them. */
#include <stdlib.h>

#include "mpi_rt.h"

void mpi_buffered_append(mpi_buffered **list, mpi_buffered *x)
{
    while (*list)
        list = &(*list)->next;
    x->next = NULL;
    *list = x;
}

void mpi_buffered_reap(mpi_buffered **list)
{
    for (mpi_buffered **pp = list; *pp;) {
        mpi_buffered *x = *pp;
        int done = 0;
        MPI_Test(&x->req, &done, MPI_STATUS_IGNORE);
        if (done) {
            *pp = x->next;
            free(x);
        } else {
            pp = &x->next;
        }
    }
}
