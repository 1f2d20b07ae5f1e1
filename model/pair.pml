/* pair.pml — two instances, the overflow path: five eager messages into a
 * ring of two cells with room for two overflow nodes (the fifth waits for
 * room: flow control), then a family barrier, which the receiver enters
 * first and during which it drains them; then it receives them (Isend×5;
 * Barrier against Barrier; Recv×5).  Posting while nodes are pending,
 * nodes freed and reused, and a sleeper woken by a sender are all here. */
#define N 2
#define OVMAX 2
#define UDEPTH 5
#include "protocol.pml"

init {
    d_step {
        at(0);
        send_eager(1, 1);
        send_eager(1, 2);
        send_eager(1, 3);
        send_eager(1, 4);
        send_eager(1, 5);
        barrier();

        at(1);
        barrier();
        recv(0, 1);
        recv(0, 2);
        recv(0, 3);
        recv(0, 4);
        recv(0, 5)
    };
    run_all()
}
