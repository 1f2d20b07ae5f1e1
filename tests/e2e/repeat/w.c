/* repeat: instance 0 sends, 1 and 2 (and 0, sending to itself) receive
 * and check every byte.  Each phase repeats calls whose bounds are the same
 * while what they send or where to is not: a send made from what the
 * runtime noted of an earlier call must still go where, and carry what,
 * the call says.  The sends of v, s and p go through mdl_send_site (one
 * pair of bounds, by value), as every generated send of one pair does. */
#define _POSIX_C_SOURCE 200809L    /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wMDL.h"

static int me;

static int fail(const char *what, int k)
{
    fprintf(stderr, "w %d: %s (call %d)\n", me, what, k);
    return 1;
}

static char byte(int k, long j)
{
    return (char)(k * 31 + j % 97);
}

/* The bytes call k sends from v[lo..hi], and their check at the receiver,
 * which receives them into v[0..hi-lo]. */
static void fill(struct w *t, int k, long lo, long hi)
{
    for (long j = lo; j <= hi; j++)
        t->v[j] = byte(k, j - lo);
}

static int got(struct w *t, int k, long len)
{
    for (long j = 0; j < len; j++)
        if (t->v[j] != byte(k, j))
            return 0;
    return 1;
}

/* One send of v[lo..hi] to `to` (instance 0), and its receive there
 * (instance 0 too when it sends to itself). */
static int hop(struct w *t, int k, int to, long lo, long hi)
{
    if (me == 0) {
        fill(t, k, lo, hi);
        if (MDL_SendTo_w_bytes(t, to, (int)lo, (int)hi) != MDL_SUCCESS)
            return fail("send", k);
    }
    if (me != to)
        return 0;
    memset(t->v, 0, sizeof t->v);
    if (MDL_RecvFrom_w_bytes(t, 0, 0, (int)(hi - lo)) != 0)
        return fail("receive", k);
    return got(t, k, hi - lo + 1) ? 0 : fail("wrong bytes", k);
}

/* s[0..7] (sized) or p[0..7] (ptr), from instance 0 to 1: first the value
 * of element 0 expected. */
static int doubles(struct w *t, int sized, double first, int k)
{
    if (me == 0) {
        int rc = sized ? MDL_SendTo_w_sized(t, 1, 0, 7) : MDL_SendTo_w_ptr(t, 1, 0, 7);
        return rc == MDL_SUCCESS ? 0 : fail("send doubles", k);
    }
    if (me != 1)
        return 0;
    double *at = sized ? t->s : t->p;
    memset(at, 0, 8 * sizeof *at);
    int rc = sized ? MDL_RecvFrom_w_sized(t, 0, 0, 7) : MDL_RecvFrom_w_ptr(t, 0, 0, 7);
    if (rc != 0)
        return fail("receive doubles", k);
    for (int j = 0; j < 8; j++)
        if (at[j] != first + j)
            return fail("wrong doubles", k);
    return 0;
}

static int allocate(struct w *t, int n, double first)
{
    t->n = n;
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return fail("MDL_Allocate", n);
    for (int j = 0; j < n; j++)
        t->s[j] = first + j;
    return 0;
}

int main(int argc, char **argv)
{
    /* without the MPI runtime's one-copy path a large message goes through
     * MPI as a small one does, noted too */
    int nodirect = argc > 1 && strcmp(argv[1], "nodirect") == 0;
    if (nodirect)
        setenv("MDL_MPI_DIRECT", "0", 1);
    struct w *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    if (MDL_FamilySize(t) != 3)
        return fail("launch with -n 3", 0);
    int bad = 0;
    /* the same bounds to one instance, then the other, back, and to the
     * sender itself (which MPI does not send as to the others) */
    const int to[] = { 1, 1, 2, 2, 1, 2, 0, 1, 0, 0, 2 };
    int k = 0;
    for (; k < (int)(sizeof to / sizeof *to); k++)
        bad |= hop(t, k, to[k], 0, 7);
    /* a section moved (the same shape elsewhere), and back */
    bad |= hop(t, k++, 1, 0, 7);
    bad |= hop(t, k++, 1, 8, 15);
    bad |= hop(t, k++, 1, 8, 15);
    bad |= hop(t, k++, 1, 0, 7);
    /* a large message after a small one of the same call, repeated: on one
     * host the MPI runtime copies it once (mpi_direct.c), not through the
     * small send's MPI_Send */
    bad |= hop(t, k++, 1, 0, 7);
    bad |= hop(t, k++, 1, 0, BIG - 1);
    bad |= hop(t, k++, 1, 0, BIG - 1);
    bad |= hop(t, k++, 1, 0, 7);
    bad |= hop(t, k++, 1, 0, 7);
    /* a large message to another instance, then to the sender itself
     * (which MPI would make wait for its receive), then back */
    bad |= hop(t, k++, 1, 0, BIG - 1);
    bad |= hop(t, k++, 1, 0, BIG - 1);
    bad |= hop(t, k++, 0, 0, BIG - 1);
    bad |= hop(t, k++, 1, 0, BIG - 1);
    /* storage given again by MDL_Allocate under the same call */
    bad |= allocate(t, 8, 100);
    bad |= doubles(t, 1, 100, k++);
    bad |= doubles(t, 1, 100, k++);
    bad |= allocate(t, 4096, 200);
    bad |= doubles(t, 1, 200, k++);
    bad |= doubles(t, 1, 200, k++);
    /* a pointer item moved under the same call */
    double x[8], y[8], r[8];
    for (int j = 0; j < 8; j++) {
        x[j] = 300 + j;
        y[j] = 400 + j;
    }
    t->p = me == 0 ? x : r;
    bad |= doubles(t, 0, 300, k++);
    bad |= doubles(t, 0, 300, k++);
    t->p = me == 0 ? y : r;
    bad |= doubles(t, 0, 400, k++);
    bad |= doubles(t, 0, 400, k++);
    t->p = me == 0 ? x : r;
    bad |= doubles(t, 0, 300, k++);
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    if (!bad)
        printf("w %d: OK\n", me);
    return bad;
}
