/* stress_grid: the family m, connected with the grid families g and h
 * (see grid_body.h for a round).  Every round it sends down to {g} and
 * hdown to an [h] list drawn from the seed (async), receives the up
 * messages of the g and h instances that chose it (sync; named, or
 * MDL_ANY with several senders of one size: the sender the receive
 * returns says which values must be there), completes its sends, and
 * ends the round for the whole job: m[0] receives a done from every g
 * and h instance after a barrier of m, then sends them go. */
#include "mMDL.h"
#include "common.h"

static struct m *t;
static int me, n;
static double *shb;
static struct Q shqr[QN];
static long nmessages, nbytes;

static void check_rc(int rc, const char *what)
{
    if (rc != MDL_SUCCESS)
        fail("%s returned %d", what, rc);
}

static void run_round(const cross_plan *x, stream *mine)
{
    double s = sentinel();
    for (long i = 0; i < GV; i++)
        t->b[i] = shb[i] = s;
    for (int i = 0; i < QN; i++) {
        qset(&t->qr[i], s);
        shqr[i] = t->qr[i];
    }
    /* 1. down to {g}, hdown to [h] */
    for (long i = 0; i < x->down_na[me]; i++)
        t->a[i] = mval(K_DOWN, me, i);
    for (long i = 0; i < x->down_nq[me]; i++)
        qset(&t->qs[i], mval(K_DOWN, me, QIDX + i));
    for (long i = 0; i < x->hd_na[me]; i++)
        t->a[GV / 2 + i] = mval(K_HDOWN, me, i);
    for (long i = 0; i < x->hd_nq[me]; i++)
        qset(&t->qs[QN / 2 + i], mval(K_HDOWN, me, QIDX + i));
    if (x->ng)
        check_rc(MDL_SendTo_g_down(t, 0, (int)x->down_na[me] - 1, 0, (int)x->down_nq[me] - 1),
                 "send down");
    check_rc(MDL_SendTo_h_hdown(t, x->hd_list[me], x->hd_n[me], GV / 2,
                                (int)(GV / 2 + x->hd_na[me] - 1), QN / 2,
                                (int)(QN / 2 + x->hd_nq[me] - 1)),
             "send hdown");
    /* 3. the up messages, in the plan's order of channels; named ones in
     * instance order */
    int next[2] = { 0, 0 };
    long a0 = 0, q0 = 0;
    int seen[2][MAXF] = { { 0 } };
    for (int k = 0; k < x->m_nrecv[me]; k++) {
        int c = x->m_order[me][k], nf = c ? x->nh : x->ng, from = MDL_ANY;
        if (!x->any[c][me]) {
            while (x->up_tgt[c][next[c]] != me)
                next[c]++;
            from = next[c]++;
        }
        long na = x->up_na[c], nq = x->up_nq[c];
        int lo = (int)a0, hi = (int)(a0 + na - 1), qlo = (int)q0, qhi = (int)(q0 + nq - 1);
        int rc = c ? MDL_RecvFrom_h_hup(t, from, lo, hi, qlo, qhi)
                   : MDL_RecvFrom_g_up(t, from, lo, hi, qlo, qhi);
        if (rc < 0 || rc >= nf || (from != MDL_ANY && rc != from) || x->up_tgt[c][rc] != me ||
            seen[c][rc]++)
            fail("up from %s[%d] returned %d", c ? "h" : "g", from, rc);
        int kind = c ? K_UPH : K_UPG;
        for (long i = 0; i < na; i++) {
            double w = mval(kind, rc, i);
            if (t->b[a0 + i] != w)
                fail("up from %s[%d]: b[%ld] = %.17g, not %.17g", c ? "h" : "g", rc, a0 + i,
                     t->b[a0 + i], w);
            shb[a0 + i] = w;
        }
        for (long i = 0; i < nq; i++) {
            struct Q w;
            qset(&w, mval(kind, rc, QIDX + i));
            if (!qeq(&t->qr[q0 + i], &w))
                fail("up from %s[%d]: qr[%ld] wrong", c ? "h" : "g", rc, q0 + i);
            shqr[q0 + i] = w;
        }
        a0 += na;
        q0 += nq;
        nmessages++;
        nbytes += na * 8 + nq * (long)sizeof(struct Q);
    }
    /* 4. */
    int mode = below(mine, 3);
    check_rc(mode ? MDL_downWait(t) : MDL_hdownWait(t), "a Wait");
    while (MDL_downTest(t) == 0 || MDL_hdownTest(t) == 0)
        if (mode == 2)
            usleep(20);
    check_rc(MDL_downWait(t) | MDL_hdownWait(t), "a Wait");
    for (long i = 0; i < GV; i++)
        if (t->b[i] != shb[i])
            fail("end of round: b[%ld] = %.17g, not %.17g", i, t->b[i], shb[i]);
    for (int i = 0; i < QN; i++)
        if (!qeq(&t->qr[i], &shqr[i]))
            fail("end of round: qr[%d] changed", i);
    check_rc(MDL_Barrier(t), "MDL_Barrier");
    if (me == 0) {
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < (c ? x->nh : x->ng); i++) {
                int rc = c ? MDL_RecvFrom_h_hdone(t, i) : MDL_RecvFrom_g_done(t, i);
                if (rc != i || t->tok != i)
                    fail("done from %s[%d] returned %d, token %d", c ? "h" : "g", i, rc, t->tok);
            }
        t->tok = 0;
        if (x->ng)
            check_rc(MDL_SendTo_g_go(t), "send go");
        if (x->nh)
            check_rc(MDL_SendTo_h_hgo(t), "send hgo");
    }
}

int main(int argc, char **argv)
{
    who_task = "m";
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = who_inst = MDL_MyRank(t);
    n = MDL_FamilySize(t);
    long first, count, rounds;
    int ng, nh, nm;
    args(argc, argv, &first, &count, &rounds, &ng, &nh, &nm);
    if (nm != n || MDL_gSize(t) != ng || MDL_hSize(t) != nh || n > MAXF || ng > MAXF || nh > MAXF)
        fail("launched with %d g, %d h, %d m; the arguments say %d, %d, %d", MDL_gSize(t),
             MDL_hSize(t), n, ng, nh, nm);
    shb = malloc(GV * sizeof(double));
    if (!shb)
        return 1;
    static cross_plan xp;
    for (long sd = first; sd < first + count; sd++) {
        seed_now = (uint64_t)sd;
        stream xs = { stress_mix((uint64_t)sd, 7, 0) | 1 };
        stream mine = { stress_mix((uint64_t)sd, 9, (uint64_t)me) | 1 };
        for (round_now = 0; round_now < rounds; round_now++) {
            plan_cross(&xs, &xp, ng, nh, nm);
            run_round(&xp, &mine);
        }
    }
    free(shb);
    if (MDL_End(t) != MDL_SUCCESS)
        return 1;
    printf("m[%d] ok: %ld seeds, %ld messages received, %ld bytes\n", me, count, nmessages, nbytes);
    return 0;
}
