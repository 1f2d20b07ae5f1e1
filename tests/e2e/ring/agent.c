/* ring: instance r sends to (r+1) % n and receives from (r-1+n) % n.
 * Sync sends, so even ranks send first and odd ranks receive first (with
 * an odd n the last even rank's send completes when instance 0 reaches its
 * receive phase).  Needs n >= 2. */
#include <stdio.h>
#include "agentMDL.h"

static int fail(int me, const char *what)
{
    fprintf(stderr, "agent %d: %s\n", me, what);
    return 1;
}

int main(int argc, char **argv)
{
    struct agent *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), n = MDL_FamilySize(t);
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    if (n < 2 || MDL_agentSize(t) != n)
        return fail(me, "needs at least 2 instances");

    /* part: V[2..5] of the sender goes to V[4..7] of the receiver */
    for (int j = 0; j < 10; j++)
        t->V[j] = 1000 * me + j;
    /* even ranks send first, odd ranks receive first: no reliance on buffering */
    for (int phase = 0; phase < 2; phase++) {
        if ((me % 2) == phase) {
            t->tag = me;
            if (MDL_SendTo_agent_part(t, next, 2, 5) != MDL_SUCCESS)
                return fail(me, "send part");
        } else {
            for (int j = 0; j < 10; j++)
                t->V[j] = -1;
            int from = MDL_RecvFrom_agent_part(t, MDL_ANY, 4, 7);
            if (from != prev || t->tag != prev)
                return fail(me, "part: wrong sender");
            for (int j = 0; j < 10; j++) {
                int want = (j >= 4 && j <= 7) ? 1000 * prev + (j - 2) : -1;
                if (t->V[j] != want)
                    return fail(me, "part: wrong values");
            }
            for (int j = 0; j < 10; j++)
                t->V[j] = 1000 * me + j;
        }
    }
    /* col: column me % N of the sender lands in column (me+1) % N of the
       receiver (each side reads c at the call) */
    for (int phase = 0; phase < 2; phase++) {
        if ((me % 2) == phase) {
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++)
                    t->M[i][j] = 100.0 * i + j + 0.5 * me;
            t->c = me % N;
            if (MDL_SendTo_agent_col(t, next) != MDL_SUCCESS)
                return fail(me, "send col");
        } else {
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++)
                    t->M[i][j] = -1;
            t->c = (me + 1) % N;
            if (MDL_RecvFrom_agent_col(t, prev) != prev)
                return fail(me, "col: wrong sender");
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++) {
                    double want = j == t->c ? 100.0 * i + prev % N + 0.5 * prev : -1;
                    if (t->M[i][j] != want)
                        return fail(me, "col: wrong values");
                }
        }
    }

    /* blk: rows 1..2 x cols 2..4 of the sender -> rows 3..4 x cols 0..2 */
    for (int phase = 0; phase < 2; phase++) {
        if ((me % 2) == phase) {
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++)
                    t->M[i][j] = 10 * i + j + 100 * me;
            if (MDL_SendTo_agent_blk(t, next) != MDL_SUCCESS)
                return fail(me, "send blk");
        } else {
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++)
                    t->M[i][j] = -1;
            if (MDL_RecvFrom_agent_blk(t, prev) != prev)
                return fail(me, "blk: wrong sender");
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++) {
                    int in = i >= 3 && i <= 4 && j <= 2;
                    double want = in ? 10 * (i - 2) + (j + 2) + 100 * prev : -1;
                    if (t->M[i][j] != want)
                        return fail(me, "blk: wrong values");
                }
        }
    }
    if (MDL_Barrier(t) != MDL_SUCCESS)
        return fail(me, "barrier");
    if (me == 0)
        printf("ring ok with %d instances\n", n);
    MDL_End(t);
    return 0;
}
