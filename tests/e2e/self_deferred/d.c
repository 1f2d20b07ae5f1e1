/* self_deferred: async sends to itself (see spec.mdl).  Column c of g
 * holds 10 * c + row, a strided section (4 spans of 1 double). */
#include <stdio.h>
#include <string.h>
#include "dMDL.h"

static int fails;

static void check(const char *what, const double *got, int c)
{
    for (int k = 0; k < 4; k++)
        if (got[k] != 10.0 * c + k) {
            fprintf(stderr, "self_deferred: %s: element %d is %g, want %g\n", what, k, got[k],
                    10.0 * c + k);
            fails++;
            return;
        }
}

static void fill(struct d *t)
{
    for (int k = 0; k < 4; k++)
        for (int c = 0; c < 6; c++)
            t->g[k][c] = 10.0 * c + k;
}

static void spoil(struct d *t, int c)
{
    for (int k = 0; k < 4; k++)
        t->g[k][c] = -1;
}

static void call(const char *what, int rc)
{
    if (rc < 0) {
        fprintf(stderr, "self_deferred: %s returned %d\n", what, rc);
        fails++;
    }
}

int main(int argc, char **argv)
{
    struct d *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    fill(t);
    if (argc > 1 && strcmp(argv[1], "unreceived") == 0) {
        t->c = 5;
        call("send", MDL_SendTo_d_col(t, 0));
        call("Wait", MDL_colWait(t));
        int rc = MDL_End(t);
        printf("self_deferred: MDL_End %s\n", rc == MDL_ERR_STATE ? "MDL_ERR_STATE" : "other");
        return 0;
    }
    /* one channel, two sends in flight: received in their order */
    t->c = 1;
    call("send 1", MDL_SendTo_d_col(t, 0));
    t->c = 2;
    call("send 2", MDL_SendTo_d_col(t, 0));
    call("receive 1", MDL_RecvFrom_d_rcol(t, 0));
    check("first of two", t->r, 1);
    call("receive 2", MDL_RecvFrom_d_rcol(t, 0));
    check("second of two", t->r, 2);
    call("Wait", MDL_colWait(t));
    /* the data changed right after the Wait: the message is as it was */
    t->c = 3;
    call("send 3", MDL_SendTo_d_col(t, 0));
    call("Wait 3", MDL_colWait(t));
    spoil(t, 3);
    call("receive 3", MDL_RecvFrom_d_rcol(t, 0));
    check("changed after its Wait", t->r, 3);
    /* the same after a Test that completes it */
    t->c = 4;
    call("send 4", MDL_SendTo_d_col(t, 0));
    int done = 0;
    for (int i = 0; i < 1000000 && !done; i++) {
        done = MDL_colTest(t);
        call("Test 4", done);
    }
    spoil(t, 4);
    call("receive 4", MDL_RecvFrom_d_rcol(t, 0));
    check("changed after its Test", t->r, 4);
    /* an async receive posted first, polled with Test: it must complete */
    for (int k = 0; k < 4; k++)
        t->w[k] = 10.0 * 7 + k;
    call("receive pol", MDL_RecvFrom_d_rpol(t, 0));
    call("send pol", MDL_SendTo_d_pol(t, 0));
    done = 0;
    for (long i = 0; i < 100000000L && !done; i++) {
        done = MDL_rpolTest(t);
        call("Test pol", done);
    }
    if (!done) {
        fprintf(stderr, "self_deferred: the receive polled with Test never completed\n");
        fails++;
    }
    call("Wait pol", MDL_polWait(t));
    check("polled", t->p, 7);
    /* one message, two sizes in flight: each received whole, in order */
    for (int k = 0; k < 4; k++)
        t->w[k] = 10.0 * 8 + k;
    call("send part 2", MDL_SendTo_d_part(t, 0, 0, 1));
    call("send part 4", MDL_SendTo_d_part(t, 0, 0, 3));
    memset(t->r, 0, sizeof t->r);
    call("receive part 2", MDL_RecvFrom_d_rpart(t, 0, 0, 1));
    if (t->r[0] != 80 || t->r[1] != 81 || t->r[2] != 0) {
        fprintf(stderr, "self_deferred: part of 2: %g %g %g\n", t->r[0], t->r[1], t->r[2]);
        fails++;
    }
    call("receive part 4", MDL_RecvFrom_d_rpart(t, 0, 0, 3));
    check("part of 4", t->r, 8);
    call("Wait part", MDL_partWait(t));
    /* a send left in flight across a barrier, received after it */
    t->c = 5;
    call("send 5", MDL_SendTo_d_col(t, 0));
    call("Barrier", MDL_Barrier(t));
    call("receive 5", MDL_RecvFrom_d_rcol(t, 0));
    check("across a barrier", t->r, 5);
    call("Wait 5", MDL_colWait(t));
    call("MDL_End", MDL_End(t));
    if (fails)
        return 1;
    printf("self_deferred: ok\n");
    return 0;
}
