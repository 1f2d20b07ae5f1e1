/* shm_abort.c — the fatal path of the shared-memory runtime (be_abort):
 * the peers told, the process gone, mdlrun tearing the job down.  It
 * rings doorbells (shm_bell.c) and calls nothing that reports: the error
 * reporting calls it. */
#include "shm_internal.h"

#include <stdio.h>
#include <unistd.h>

mdl_rt *shm_the_rt;

/* The trace stays in the segment, where mdlrun reads it after the job:
 * nothing to hand over on the fatal path. */
void be_trace_fatal(mdl_rt *rt)
{
    (void)rt;
}

/* Fatal errors: tell the peers (they fail with MDL_ERR_PEER instead of
 * hanging) and exit, so that mdlrun tears the job down. */
void be_abort(int code)
{
    (void)code;
    mdl_rt *rt = shm_the_rt;
    if (rt && rt->hdr) {
        /* before `aborting`: the peers it stops leave after this is seen,
         * so mdlrun knows whose failure theirs are whatever order it
         * reaps them in */
        uint32_t none = 0;
        __atomic_compare_exchange_n(&rt->hdr->failed, &none, (uint32_t)rt->me + 1, 0,
                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        __atomic_store_n(&rt->hdr->aborting, 1, __ATOMIC_SEQ_CST);
        for (int s = 0; s < rt->nslots; s++) {
            __atomic_fetch_add(&rt->hdr->slots[s].doorbell, 1, __ATOMIC_SEQ_CST);
            shm_futex_wake(&rt->hdr->slots[s].doorbell);
        }
        if (rt->lib)
            shm_futex_wake(&rt->lib->go);
    }
    fflush(stdout);
    _exit(1);
}
