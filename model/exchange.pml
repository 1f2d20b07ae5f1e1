/* exchange.pml — two instances send to each other before receiving: three
 * eager messages each (ring full, overflow, then both wait for overflow
 * room at once, each draining the other's messages meanwhile) and an
 * asynchronous rendezvous each (Isend; Recv; Wait), whose variables are
 * changed once Wait returns. */
#define N 2
#define NREC 2
#include "protocol.pml"

init {
    d_step {
        at(0);
        send_eager(1, 1);
        send_eager(1, 2);
        send_eager(1, 3);
        send_rdv(1, 0, 4);
        recv(1, 11);
        recv(1, 12);
        recv(1, 13);
        recv(1, 14);
        wait_rdv(0);

        at(1);
        send_eager(0, 11);
        send_eager(0, 12);
        send_eager(0, 13);
        send_rdv(0, 1, 14);
        recv(0, 1);
        recv(0, 2);
        recv(0, 3);
        recv(0, 4);
        wait_rdv(1)
    };
    run_all()
}
