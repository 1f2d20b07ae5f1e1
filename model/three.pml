/* three.pml — three instances: instance 0 sends one synchronous
 * rendezvous to both others (to {A}: one record counted down by two
 * receivers, either of which may complete it and wake the sender) and
 * changes its variable when the send returns; each of them has sent it
 * a reply first, which it receives afterwards (its progress polls two
 * senders). */
#define N 3
#define NREC 1
#define UDEPTH 2
#include "protocol.pml"

init {
    d_step {
        at(0);
        send_rdv2(1, 2, 0, 1);
        wait_rdv(0);
        recv(1, 2);
        recv(2, 3);

        at(1);
        send_eager(0, 2);
        recv(0, 1);

        at(2);
        send_eager(0, 3);
        recv(0, 1)
    };
    run_all()
}
