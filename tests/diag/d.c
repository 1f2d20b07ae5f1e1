/* d.c — one scenario per argv[1], run by tests/suite-diag.sh on both
 * runtimes: hangs the shm runtime must report as deadlocks (and the MPI
 * runtime with MDL_HANG_SECONDS), phases of computing, sleeping and I/O
 * that must not be reported, an MDL_End waiting for a late receiver,
 * synchronous sends to oneself, calls through a NULL task pointer and an
 * instance that returns without MDL_End. */
#define _POSIX_C_SOURCE 200809L /* nanosleep, clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dMDL.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Computes (no system call) for s seconds. */
static volatile double sink;
static void compute(double s)
{
    double end = now() + s, x = 1;
    while (now() < end)
        for (int k = 0; k < 100000; k++)
            x = x * 1.0000001 + 1e-9;
    sink = x;
}

static void nap(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
    nanosleep(&ts, NULL);
}

/* Writes and reads back a file for s seconds. */
static void io(double s)
{
    char path[64];
    snprintf(path, sizeof path, "diag-io-%ld.tmp", (long)clock());
    double end = now() + s;
    static char buf[1 << 16];
    while (now() < end) {
        FILE *f = fopen(path, "w+");
        if (!f)
            return;
        for (int k = 0; k < 16; k++)
            fwrite(buf, 1, sizeof buf, f);
        fflush(f);
        rewind(f);
        while (fread(buf, 1, sizeof buf, f) > 0)
            ;
        fclose(f);
    }
    remove(path);
}

static int fail(const char *what, int rc)
{
    printf("d: %s returned %d\n", what, rc);
    return 1;
}

/* Calls before MDL_Init through a NULL task pointer: reported, never a crash. */
static int null_calls(int *argc, char ***argv)
{
    struct d *t = NULL;
    int rc;
    if ((rc = MDL_RecvFrom_d_r(t, 0)) != MDL_ERR_STATE)
        return fail("a receive before MDL_Init", rc);
    if ((rc = MDL_SendTo_d_b(t, 1)) != MDL_ERR_STATE)
        return fail("a send before MDL_Init", rc);
    if ((rc = MDL_Barrier(t)) != MDL_ERR_STATE)
        return fail("a barrier before MDL_Init", rc);
    if ((rc = MDL_Bcast_bc(t)) != MDL_ERR_STATE)
        return fail("a Bcast before MDL_Init", rc);
    if ((rc = MDL_aWait(t)) != MDL_ERR_STATE)
        return fail("a Wait before MDL_Init", rc);
    if ((rc = MDL_MyRank(t)) != MDL_ERR_STATE)
        return fail("MDL_MyRank before MDL_Init", rc);
    if ((rc = MDL_End(t)) != MDL_ERR_STATE)
        return fail("MDL_End before MDL_Init", rc);
    if ((rc = MDL_Init((struct d **)NULL, argc, argv)) != MDL_ERR_ARG)
        return fail("MDL_Init(NULL)", rc);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    struct d *t;
    if (strcmp(mode, "null") == 0 && null_calls(&argc, &argv))
        return 1;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), n = MDL_FamilySize(t);

    if (strcmp(mode, "null") == 0) {
        int rc = MDL_RecvFrom_d_r((struct d *)NULL, 0);
        if (rc != MDL_ERR_ARG)
            return fail("a receive through NULL after MDL_Init", rc);
        if (MDL_End(t) != MDL_SUCCESS)
            return 1;
        if ((rc = MDL_Barrier(t = NULL)) != MDL_ERR_STATE)
            return fail("a barrier through NULL after MDL_End", rc);
        printf("null %d: OK\n", me);
        return 0;
    }
    if (strcmp(mode, "cycle") == 0) {               /* each waits for the other */
        MDL_RecvFrom_d_r(t, 1 - me);
    } else if (strcmp(mode, "ended") == 0) {        /* waits for one that has ended */
        if (me == 1)
            return MDL_End(t) == MDL_SUCCESS ? 0 : 1;
        MDL_RecvFrom_d_r(t, 1);
    } else if (strcmp(mode, "any") == 0) {          /* MDL_ANY: every sender waits too */
        MDL_RecvFrom_d_r(t, me == 0 ? MDL_ANY : 0);
    } else if (strcmp(mode, "anyended") == 0) {     /* MDL_ANY: every sender has ended */
        if (me > 0)
            return MDL_End(t) == MDL_SUCCESS ? 0 : 1;
        MDL_RecvFrom_d_r(t, MDL_ANY);
    } else if (strcmp(mode, "anyone") == 0) {       /* MDL_ANY from a family of one */
        MDL_RecvFrom_d_r(t, MDL_ANY);
    } else if (strcmp(mode, "ssend") == 0) {        /* 1 MiB sync sends, both first */
        MDL_SendTo_d_b(t, 1 - me);
    } else if (strcmp(mode, "wait") == 0) {         /* Wait for a receive never sent */
        MDL_RecvFrom_d_a(t, 1 - me);
        MDL_aWait(t);
    } else if (strcmp(mode, "selfwait") == 0) {     /* Wait for an async send to itself */
        MDL_SendTo_d_ab(t, me);
        MDL_abWait(t);
    } else if (strcmp(mode, "endwait") == 0) {      /* MDL_End waits for its receiver */
        if (me == 0) {
            MDL_SendTo_d_ab(t, 1);
            MDL_End(t);
        } else {
            MDL_RecvFrom_d_r(t, 0);
        }
    } else if (strcmp(mode, "barrier") == 0) {      /* d[2] never reaches the barrier */
        if (me < 2)
            MDL_Barrier(t);
        else
            MDL_RecvFrom_d_r(t, 0);
    } else if (strcmp(mode, "sbarrier") == 0) {
        static const int all3[] = { 0, 1, 2 };
        if (me < 2)
            MDL_Sbarrier(t, all3, 3);
        else
            MDL_RecvFrom_d_r(t, 0);
    } else if (strcmp(mode, "coll") == 0) {         /* d[2] never reaches the Bcast */
        if (me < 2)
            MDL_Bcast_bc(t);
        else
            MDL_RecvFrom_d_r(t, 1);
    } else if (strcmp(mode, "busy") == 0) {
        /* Long phases outside MDL calls while the others wait: never a
         * deadlock.  d[1] computes, sleeps and does I/O before sending;
         * d[2] sleeps before the barrier. */
        if (me == 1) {
            compute(2.5);
            nap(1);
            io(1);
            t->x = 7;
            if (MDL_SendTo_d_r(t, 0) < 0 || MDL_SendTo_d_a(t, 0) < 0 || MDL_aWait(t) < 0)
                return 1;
        } else if (me == 0) {
            if (MDL_RecvFrom_d_r(t, 1) != 1 || t->x != 7)
                return fail("the receive after the long phases", t->x);
            if (MDL_RecvFrom_d_a(t, MDL_ANY) < 0 || MDL_aWait(t) < 0 || t->y != 7)
                return fail("the async receive", t->y);
        } else {
            nap(3);
        }
        if (MDL_Barrier(t) < 0)
            return 1;
        if (me == 0)
            compute(2);
        if (MDL_Bcast_bc(t) < 0)
            return 1;
        printf("busy %d: OK\n", me);
    } else if (strcmp(mode, "hang") == 0) {         /* a long wait, not a deadlock */
        if (me == 1) {
            compute(2.6);
            t->x = 5;
            MDL_SendTo_d_r(t, 0);
        } else if (me == 0) {
            MDL_RecvFrom_d_r(t, 1);
        }
        printf("hang %d: OK\n", me);
    } else if (strcmp(mode, "endlate") == 0) {      /* MDL_End waits for a late receiver */
        if (me == 0) {
            for (int k = 0; k < 131072; k++)
                t->big[k] = k;
            if (MDL_SendTo_d_ab(t, 1) < 0 || MDL_End(t) != MDL_SUCCESS)
                return 1;
            printf("endlate 0: OK\n");
            return 0;
        }
        compute(2.6);
        if (MDL_RecvFrom_d_ab(t, 0) != 0)
            return 1;
        long bad = 0;
        for (int k = 0; k < 131072; k++)
            bad += t->big[k] != k;
        if (bad)
            return fail("the late receive", (int)bad);
        printf("endlate 1: OK\n");
    } else if (strcmp(mode, "timeout") == 0) {      /* for mdlrun --timeout */
        if (me == 0)
            MDL_RecvFrom_d_r(t, 1);
        else
            compute(30);
    } else if (strcmp(mode, "self") == 0) {
        /* Sync sends to itself, small and 1 MiB, received afterwards; a
         * last one never received (MDL_End reports it: run with errors
         * returned). */
        t->x = 40 + me;
        if (MDL_SendTo_d_r(t, me) < 0)
            return 1;
        t->x = 0;
        if (MDL_RecvFrom_d_r(t, me) != me || t->x != 40 + me)
            return fail("the small message to itself", t->x);
        /* each is copied at the send: the variable changes before the receive */
        for (int round = 0; round < 2; round++) {
            for (int k = 0; k < 131072; k++)
                t->big[k] = k + me + round;
            if (MDL_SendTo_d_b(t, me) < 0)
                return 1;
        }
        memset(t->big, 0, sizeof t->big);
        long bad = 0;
        for (int round = 0; round < 2; round++) {
            if (MDL_RecvFrom_d_b(t, me) != me)
                return 1;
            for (int k = 0; k < 131072; k++)
                bad += t->big[k] != k + me + round;
        }
        if (bad)
            return fail("the 1 MiB messages to itself", (int)bad);
        if (MDL_SendTo_d_b(t, me) < 0)
            return 1;
        if (MDL_End(t) != MDL_ERR_STATE)
            return fail("MDL_End after a message to itself never received", 0);
        printf("self %d: OK\n", me);
        return 0;
    } else if (strcmp(mode, "noend") == 0) {        /* returns without MDL_End */
        if (me == 0)
            return 0;
        MDL_RecvFrom_d_r(t, 0);
    } else {
        fprintf(stderr, "d: unknown scenario '%s'\n", mode);
        return 2;
    }
    (void)n;
    return MDL_End(t) == MDL_SUCCESS ? 0 : 1;
}
