/* self_kept: messages to itself (see spec.mdl).  Message k carries
 * 100 * k + j in element j. */
#include <stdio.h>
#include <string.h>
#include "dMDL.h"

static int fails;

static void call(const char *what, int rc)
{
    if (rc < 0) {
        fprintf(stderr, "self_kept: %s returned %d\n", what, rc);
        fails++;
    }
}

static void check(const char *what, const double *got, int k)
{
    for (int j = 0; j < 4; j++)
        if (got[j] != 100.0 * k + j) {
            fprintf(stderr, "self_kept: %s: element %d is %g, want %g\n", what, j, got[j],
                    100.0 * k + j);
            fails++;
            return;
        }
}

/* Sync message k on s (v changes after the send returns). */
static void send_s(struct d *t, int k)
{
    for (int j = 0; j < 4; j++)
        t->v[j] = 100.0 * k + j;
    call("send s", MDL_SendTo_d_s(t, MDL_MyRank(t), 0, 3));
    memset(t->v, 0, sizeof t->v);
}

/* Async message k on a, from slot `slot` of u (untouched until the Wait). */
static void send_a(struct d *t, int k, int slot)
{
    for (int j = 0; j < 4; j++)
        t->u[4 * slot + j] = 100.0 * k + j;
    call("send a", MDL_SendTo_d_a(t, MDL_MyRank(t), 4 * slot, 4 * slot + 3));
}

static void recv_s(struct d *t, int k)
{
    char what[32];
    snprintf(what, sizeof what, "s message %d", k);
    memset(t->r, 0, sizeof t->r);
    call(what, MDL_RecvFrom_d_rs(t, MDL_MyRank(t), 0, 3));
    check(what, t->r, k);
}

static void recv_a(struct d *t, int k)
{
    char what[32];
    snprintf(what, sizeof what, "a message %d", k);
    memset(t->r, 0, sizeof t->r);
    call(what, MDL_RecvFrom_d_ra(t, MDL_MyRank(t)));
    check(what, t->r, k);
}

/* One channel's order with some of its messages in MPI (the barrier puts
 * those kept there) and later ones sent while they are unreceived; a
 * second channel beside it. */
static void order(struct d *t)
{
    send_s(t, 1);
    send_a(t, 2, 0);
    send_s(t, 3);
    call("Barrier", MDL_Barrier(t));
    send_s(t, 4);
    send_a(t, 5, 1);
    recv_s(t, 1);
    send_s(t, 6);
    recv_a(t, 2);
    recv_s(t, 3);
    recv_s(t, 4);
    recv_a(t, 5);
    recv_s(t, 6);
    call("Wait a", MDL_aWait(t));
    /* all received: kept again, taken in order */
    send_s(t, 7);
    send_a(t, 8, 2);
    send_s(t, 9);
    recv_s(t, 7);
    send_s(t, 10);
    send_a(t, 11, 3);
    recv_s(t, 9);
    recv_a(t, 8);
    recv_s(t, 10);
    recv_a(t, 11);
    call("Wait a", MDL_aWait(t));
}

/* MDL_ANY on instance 0: from itself and from instance 1, sync and async
 * (each message's value names its sender: 100 * (50 + sender)). */
static void any(struct d *t)
{
    int me = MDL_MyRank(t), seen = 0;
    for (int j = 0; j < 4; j++)
        t->w[j] = 100.0 * (50 + me) + j;
    if (me == 1) {
        call("send x to 0", MDL_SendTo_d_x(t, 0));
        call("send y to 0", MDL_SendTo_d_y(t, 0));
        call("Wait y", MDL_yWait(t));
        return;
    }
    call("send x to itself", MDL_SendTo_d_x(t, 0));
    call("send y to itself", MDL_SendTo_d_y(t, 0));
    for (int n = 0; n < 2; n++) {
        int from = MDL_RecvFrom_d_rx(t, MDL_ANY);
        call("receive x from any", from);
        if (from == 0 || from == 1) {
            check(from ? "x from 1" : "x from itself", t->q, 50 + from);
            seen |= 1 << from;
        }
    }
    for (int n = 0; n < 2; n++) {
        memset(t->q, 0, sizeof t->q);
        call("receive y from any", MDL_RecvFrom_d_ry(t, MDL_ANY));
        call("Wait ry", MDL_ryWait(t));
        int from = t->q[0] == 5000 ? 0 : t->q[0] == 5100 ? 1 : -1;
        if (from >= 0) {
            check(from ? "y from 1" : "y from itself", t->q, 50 + from);
            seen |= 4 << from;
        }
    }
    call("Wait y", MDL_yWait(t));
    if (seen != 15) {
        fprintf(stderr, "self_kept: MDL_ANY received from %#x, want 0xf\n", (unsigned)seen);
        fails++;
    }
}

int main(int argc, char **argv)
{
    struct d *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "larger") == 0 || strcmp(mode, "smaller") == 0) {
        int large = mode[0] == 'l';
        call("send", MDL_SendTo_d_s(t, 0, 0, large ? 3 : 1));
        MDL_RecvFrom_d_rs(t, 0, 0, large ? 1 : 3);     /* fails: its line, exit 1 */
        MDL_End(t);
        return 0;
    }
    if (strcmp(mode, "unreceived") == 0) {
        send_s(t, 1);
        MDL_End(t);     /* fails: its line, exit 1 */
        return 0;
    }
    int me = MDL_MyRank(t);
    order(t);
    if (MDL_FamilySize(t) == 2)
        any(t);
    call("MDL_End", MDL_End(t));
    if (fails)
        return 1;
    if (me == 0)        /* one line: MPICH's launcher may interleave two */
        printf("self_kept: ok\n");
    return 0;
}
