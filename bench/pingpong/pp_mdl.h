/* The stubs' ping-pong round trips (pp.c alone, on either runtime;
 * side.c beside the hand-written ones): the same loop as pp_mpi.h. */
#ifndef PP_MDL_H
#define PP_MDL_H
#include "ppMDL.h"

static inline void pp_mdl_trips(struct pp *t, int me, long size, int iters)
{
    int other = 1 - me, hi = (int)size - 1;
    for (int k = 0; k < iters; k++) {
        if (me == 0) {
            MDL_SendTo_pp_hop(t, other, 0, hi);
            MDL_RecvFrom_pp_hop(t, other, 0, hi);
        } else {
            MDL_RecvFrom_pp_hop(t, other, 0, hi);
            MDL_SendTo_pp_hop(t, other, 0, hi);
        }
    }
}
#endif
