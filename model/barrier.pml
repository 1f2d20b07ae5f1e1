/* barrier.pml — three instances pass two family barriers in a row: the
 * sense-reversing counter is reused while the last arriver may still be
 * publishing the previous round, and two waiters are woken at once. */
#define N 3
#include "protocol.pml"

init {
    d_step {
        at(0);
        barrier();
        barrier();

        at(1);
        barrier();
        barrier();

        at(2);
        barrier();
        barrier()
    };
    run_all()
}
