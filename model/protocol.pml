/* protocol.pml — the point-to-point protocol of the shared-memory runtime
 * (runtime/shm/shm_p2p.c, shm_arrive.c, shm_wait.c, shm_bell.c) and its
 * family barrier (shm_barrier.c), for SPIN.
 * A scenario (pair.pml, exchange.pml, three.pml, barrier.pml) defines N
 * and the instances' programs and includes this file; model/verify.sh
 * (make model) runs them.  Correspondence with the C code, the orderings
 * assumed and what is abstracted: docs/runtime-shm.md, "Model checking".
 *
 * SPIN interleaves atomic steps: sequential consistency.  Each step holds
 * at most one access to memory that another instance may touch at that
 * moment, plus process-local work (which commutes with everything, so
 * merging it changes no outcome); writes that no one can read before a
 * later publishing store (a cell before tail, a node before ov_sent, a
 * record before its cell) are merged with their neighbours too.  The
 * orderings the C code relies on appear as program order; the -D switches
 * below put one such pair in the order a weaker ordering (or an edit)
 * would allow, and the checker must then fail:
 *   WEAK_TAIL      tail visible before the cell is written (relaxed tail store)
 *   WEAK_HEAD      head visible before the cell is read (relaxed head store)
 *   WEAK_RDV       rendezvous count-down before the copy (relaxed sub_fetch)
 *   WEAK_SLEEP     re-check reads before `sleeping` is visible (no seq_cst)
 *   LATE_BELL      doorbell read after the re-check
 *   NO_RECHECK     sleep without the re-check
 *   SLEEP_PENDING  sleep although the re-check left messages behind
 *                  (the C code before the fix that this model found)
 *   LATE_OVS       overflow nodes counted after the ring is drained
 *   RING_WHILE_OV  a sender uses the ring while overflow nodes are pending
 *   EAGER_RECLAIM  the newest consumed overflow node is freed too
 *   WEAK_BAR       barrier count reset after the sense is published */

#ifndef NCELLS
#define NCELLS 2                /* SHM_NCELLS */
#endif
#ifndef OVMAX
#define OVMAX 1                 /* SHM_OVERFLOW: pending nodes before a sender waits */
#endif
#ifndef PER_PASS
#define PER_PASS 2              /* PER_PASS of shm_progress */
#endif
#ifndef UDEPTH
#define UDEPTH 4                /* longest unexpected list the scenario needs */
#endif
#ifndef NREC
#define NREC 1                  /* rendezvous records of the scenario */
#endif
/* Overflow nodes of one pair: at most OVMAX pending plus the newest
 * consumed one, which ov_reclaim keeps (its next may still be read). */
#define NNODES (OVMAX + 1)

#define NONE 255
#define GARBAGE 254             /* shm_free writes the free-list link over next */
#define EAGER 1                 /* CELL_EAGER */
#define RDV 2                   /* CELL_RDV */
#define P(s, r) ((s) * N + (r))                     /* ring_of(rt, s, r) */
#define CELL(s, r, t) (P(s, r) * NCELLS + (t) % NCELLS)
#define NODE0(s, r) (P(s, r) * NNODES)              /* node ids NODE0+1 .. NODE0+NNODES */
#define UQ(s, i) ((s) * UDEPTH + (i))

/* shm_ring[s][r]: cells, tail (sender), head (receiver), overflow counters */
byte ckind[N * N * NCELLS], cval[N * N * NCELLS];
byte tail[N * N], head[N * N];
byte ov_sent[N * N], ov_first[N * N], ov_done[N * N];
/* shm_node: the overflow nodes in the sender's heap; id 0 is the null offset */
byte nnext[N * N * NNODES + 1], nkind[N * N * NNODES + 1], nval[N * N * NNODES + 1];
bit nused[N * N * NNODES + 1];
/* shm_rdv.remaining of each rendezvous record */
byte rem[NREC];
/* The sender's variable a rendezvous reads in place (one per instance). */
byte var[N];
/* shm_info.sleeping; rang: the doorbell (futex word) changed since its
 * owner last read it — FUTEX_WAIT(bell, v) blocks iff bell == v, and the
 * counter's value matters for nothing else (it cannot wrap while one
 * waits); asleep: blocked in FUTEX_WAIT. */
bit sleeping[N], rang[N], asleep[N];
/* Family barrier: shm_info.bar_count / bar_sense of the family's first slot. */
byte bar_count;
bit bar_sense;
byte finished;

/* Process-local state of an instance (struct mdl_rt) and temporaries.
 * Unexpected messages (shm_umsg list) per sender, in arrival order: one
 * channel per pair, so the list filtered by the match is a FIFO per
 * sender.  pw: the posted receive's sender (NONE: none posted). */
#define LOCALS \
    byte k, s, h, ovs, taken, d, d0, off, nx, ck, cv, t; \
    bit skipov, more, z, pdone, sense, lastin; \
    byte pw = NONE, got; \
    byte uk[N * UDEPTH], uv[N * UDEPTH], un[N]; \
    byte osent[N], olast[N], oldest[N], oldest_idx[N]; \
    byte ovl[N]

/* ------------------------------------------------------------- doorbell */

/* futex_wait(bell, v): FUTEX_WAIT compares and enqueues atomically.  The
 * C code's 100 ms timeout (liveness of peers) is left out on purpose: a
 * lost wake-up is then a process blocked for ever, an invalid end state. */
inline futex_wait() {
    atomic {
        if
        :: !rang[me] -> asleep[me] = 1
        :: else -> skip
        fi
    };
    asleep[me] == 0
}

/* shm_notify(rt, slot): one load of sleeping; if set, the doorbell
 * increment (__atomic_fetch_add) and futex_wake. */
inline notify(slot) {
    if          /* shm_notify: fence(SEQ_CST), then load(sleeping) */
    :: sleeping[slot] ->
        rang[slot] = 1;
        asleep[slot] = 0
    :: else -> skip
    fi
}

/* ------------------------------------------------------------- receiving */

/* deliver() of a rendezvous: copy from the sender's variable
 * (shm_copy_rdv), then count the record down (__atomic_sub_fetch) and
 * notify the sender when it reaches 0. */
inline deliver_rdv(from, rec) {
#ifdef WEAK_RDV
    atomic { rem[rec]--; z = (rem[rec] == 0) };
    got = var[from];
#else
    got = var[from];
    atomic { rem[rec]--; z = (rem[rec] == 0) };
#endif
    if
    :: z -> z = 0; notify(from)
    :: else -> skip
    fi;
    pdone = 1
}

/* arrive() of the message (ck, cv) from s, local part: to the posted
 * receive if it matches (an eager one is complete: deliver()), else to the
 * unexpected list.  z: a rendezvous to deliver now (shared accesses). */
inline arrive_local() {
    if
    :: pw == s && ck == EAGER -> pw = NONE; got = cv; pdone = 1
    :: pw == s && ck == RDV -> pw = NONE; z = 1
    :: else ->
        assert(un[s] < UDEPTH);
        uk[UQ(s, un[s])] = ck;
        uv[UQ(s, un[s])] = cv;
        un[s]++
    fi
}

inline arrive_shared() {
    if
    :: z -> z = 0; deliver_rdv(s, cv)
    :: else -> skip
    fi
}

/* shm_progress(): every incoming ring; at most PER_PASS messages per
 * sender; overflow nodes counted before the ring is drained are taken once
 * it is empty.  more: messages were left behind.  The senders are polled
 * in slot order: the C code's round-robin start (rt->rr, fairness between
 * senders) changes only which ring is read first in a pass, and no
 * property here relates different senders (any-fair tests it). */
inline progress(keep_more) {
    k = 0;
    do
    :: d_step { k < N && !used[P(k, me)] -> k++ }
    :: d_step { k < N && used[P(k, me)] -> s = k; h = head[P(s, me)]; taken = 0 };
#ifndef LATE_OVS
        ovs = ov_sent[P(s, me)];
#endif
        /* The cell at head is read in the step that reads tail: no one
         * writes it while head < tail (the sender's room check), so the
         * read commutes with every other step.  WEAK_HEAD reads it after
         * publishing head, where that no longer holds. */
        do
        :: atomic { h != tail[P(s, me)] && taken == PER_PASS -> skipov = 1; more = 1 }; break
#ifdef WEAK_HEAD
        :: atomic { h != tail[P(s, me)] && taken < PER_PASS -> taken++ };
            head[P(s, me)] = h + 1;
            atomic { ck = ckind[CELL(s, me, h)]; cv = cval[CELL(s, me, h)]; h++; arrive_local() };
            arrive_shared();
#else
        :: atomic {
                h != tail[P(s, me)] && taken < PER_PASS ->
                taken++;
                ck = ckind[CELL(s, me, h)];
                cv = cval[CELL(s, me, h)];
                arrive_local()
            };
            arrive_shared();
            atomic { h++; head[P(s, me)] = h };
#endif
        :: atomic { h == tail[P(s, me)] }; break
        od;
#ifdef LATE_OVS
        ovs = ov_sent[P(s, me)];
#endif
        if
        :: !skipov ->
            d = ov_done[P(s, me)];      /* its own counter */
            d0 = d;
            do
            :: d < ovs && taken == PER_PASS -> more = 1; break
            :: d < ovs && taken < PER_PASS ->
                /* The link and the node it leads to, in one step: both
                 * were written before ov_sent counted the node, and no one
                 * writes them until it is consumed. */
                atomic {
                    taken++;
                    if
                    :: ovl[s] != 0 ->
                        assert(nused[ovl[s]]);  /* the node whose next we read is not freed */
                        off = nnext[ovl[s]]
                    :: else -> off = ov_first[P(s, me)]
                    fi;
                    assert(off != 0 && off != GARBAGE && nused[off]);
                    ck = nkind[off];
                    cv = nval[off];
                    arrive_local()
                };
                arrive_shared();
                atomic { ovl[s] = off; off = 0; d++; ov_done[P(s, me)] = d }
            :: else -> break
            od;
            if
            :: d != d0 -> notify(s)     /* it may wait for room */
            :: else -> skip
            fi
        :: else -> skip
        fi;
        d_step { skipov = 0; k++; h = 0; ovs = 0; taken = 0; d = 0; d0 = 0; ck = 0; cv = 0 }
    :: d_step { k == N -> k = 0; s = 0; more = more && keep_more }; break
    od
}


/* What shm_wait waits for (its cond argument): a posted receive done
 * (rreq_done), overflow room towards a (ov_has_room), rendezvous record a
 * completed (rdv_done), the barrier's sense (sense_reached).  One shared
 * read whichever it is. */
#define W_RECV 1
#define W_ROOM 2
#define W_RDV 3
#define W_BAR 4
#define COND ((wk == W_RECV && pdone) || \
              (wk == W_ROOM && osent[a] - ov_done[P(me, a)] < OVMAX) || \
              (wk == W_RDV && rem[a] == 0) || \
              (wk == W_BAR && bar_sense == sense))

/* shm_wait(rt, cond): poll (progress + condition), then the sleep
 * sequence: sleeping = 1, read the doorbell, progress and re-check, wait
 * on the value read unless messages were left behind, sleeping = 0;
 * again.  Consecutive passes of the C code with no other step of this
 * instance between them (the poll loop's, the one after the wake-up and
 * the next poll) are one pass here: another instance's step between two
 * of them is the same as before or after the single one. */
inline shm_wait() {
    do
    :: progress(0);
        if
        :: COND -> break
        :: else -> skip
        fi;
#if defined(NO_RECHECK)
        sleeping[me] = 1;
        rang[me] = 0;
#elif defined(WEAK_SLEEP)
        rang[me] = 0;
        progress(1);
        if
        :: COND -> break
        :: else -> skip
        fi;
        sleeping[me] = 1;
#elif defined(LATE_BELL)
        sleeping[me] = 1;
        progress(1);
        if
        :: COND -> sleeping[me] = 0; break
        :: else -> skip
        fi;
        rang[me] = 0;
#else
        sleeping[me] = 1;
        rang[me] = 0;                   /* v = doorbell */
        progress(1);
        if
        :: COND -> sleeping[me] = 0; break
        :: else -> skip
        fi;
#endif
#ifdef SLEEP_PENDING
        more = 0;
#endif
        if
        :: more -> more = 0             /* messages left behind: poll on */
        :: else -> futex_wait()
        fi;
        /* After the wake-up, C runs progress + cond, then loops to the
         * poll's progress + cond: two passes in a row, one here. */
        sleeping[me] = 0
    od;
    more = 0
}

/* post_recv(): the first unexpected message of the sender, else the
 * receive is posted (pw). */
inline post_recv(from) {
    if
    :: d_step { un[from] > 0 ->
            s = from;
            ck = uk[UQ(from, 0)];
            cv = uv[UQ(from, 0)];
            for (t : 1 .. UDEPTH - 1) {
                uk[UQ(from, t - 1)] = uk[UQ(from, t)];
                uv[UQ(from, t - 1)] = uv[UQ(from, t)]
            }
            uk[UQ(from, UDEPTH - 1)] = 0;
            uv[UQ(from, UDEPTH - 1)] = 0;
            un[from]--;
            t = 0;
            if
            :: ck == EAGER -> got = cv; pdone = 1
            :: else -> z = 1
            fi
        };
        arrive_shared();
        d_step { s = 0; ck = 0; cv = 0 }
    :: un[from] == 0 -> pw = from
    fi
}

/* ------------------------------------------------------------- sending */

/* ov_reclaim(): frees the consumed overflow nodes but the newest. */
inline ov_reclaim(to) {
    d = ov_done[P(me, to)];
    do
#ifdef EAGER_RECLAIM
    :: oldest[to] != 0 && oldest_idx[to] < d ->
#else
    :: oldest[to] != 0 && oldest_idx[to] + 1 < d ->
#endif
        atomic {
            nx = nnext[oldest[to]];
            nused[oldest[to]] = 0;          /* shm_free: the first word */
            nnext[oldest[to]] = GARBAGE;    /* becomes the free-list link */
            oldest[to] = nx;
            oldest_idx[to]++;
            nx = 0
        }
    :: else -> break
    od;
    d = 0
}

/* post_msg() after its flow control: a ring cell if there is room and no
 * overflow node is pending, else a new overflow node.  Never waits for
 * ring room. */
inline post_msg(to, kind, val) {
    ov_reclaim(to);
#ifdef RING_WHILE_OV
    z = 1;
#else
    z = (osent[to] == ov_done[P(me, to)]);
#endif
    if
    :: z -> z = (tail[P(me, to)] - head[P(me, to)] < NCELLS)
    :: else -> skip
    fi;
    if
    :: z ->
        t = tail[P(me, to)];            /* its own counter */
#ifdef WEAK_TAIL
        atomic { z = 0; tail[P(me, to)] = t + 1 };
        ckind[CELL(me, to, t)] = kind;
        cval[CELL(me, to, t)] = val;
#else
        atomic { z = 0; ckind[CELL(me, to, t)] = kind; cval[CELL(me, to, t)] = val };
        tail[P(me, to)] = t + 1;        /* __atomic_store_n(tail, RELEASE) */
#endif
        t = 0;
        notify(to)
    :: else ->
        /* shm_alloc: any free node of the sender's heap (the allocator's
         * choice is left open), filled and linked while no one can see it
         * (the receiver reads a link only once ov_sent counts the node). */
        if
        :: !nused[NODE0(me, to) + 1] -> off = NODE0(me, to) + 1
        :: !nused[NODE0(me, to) + 2] -> off = NODE0(me, to) + 2
#if NNODES > 2
        :: !nused[NODE0(me, to) + 3] -> off = NODE0(me, to) + 3
#endif
        :: else -> assert(false)        /* NNODES too small: cannot happen */
        fi;
        atomic {
            nused[off] = 1;
            nnext[off] = 0;
            nkind[off] = kind;
            nval[off] = val;
            if
            :: olast[to] != 0 -> nnext[olast[to]] = off    /* RELEASE */
            :: else -> ov_first[P(me, to)] = off
            fi;
            if
            :: oldest[to] == 0 -> oldest[to] = off; oldest_idx[to] = osent[to]
            :: else -> skip
            fi;
            olast[to] = off;
            osent[to]++;
            off = 0
        };
        ov_sent[P(me, to)] = osent[to]; /* __atomic_store_n(ov_sent, RELEASE) */
        notify(to)
    fi
}

/* ------------------------------------------------------------- barrier */

/* shm_family_barrier, arrival: sense-reversing; the last arriver resets
 * the count, publishes the new sense and notifies the others; the others
 * wait for the sense (lastin = 0). */
inline barrier_arrive() {
    atomic { sense = 1 - sense; bar_count++; lastin = (bar_count == N) };
    if
    :: lastin ->
#ifdef WEAK_BAR
        bar_sense = sense;
        bar_count = 0;
#else
        bar_count = 0;                  /* RELAXED, before the SEQ_CST store below */
        bar_sense = sense;
#endif
        k = 0;
        do
        :: k < N && k != me -> notify(k); k++
        :: k < N && k == me -> k++
        :: k == N -> k = 0; break
        od
    :: else -> skip
    fi
}

/* ------------------------------------------------------------- programs */

/* The instances' programs, a table written by the scenario's init (hidden:
 * constant, not part of the state).  Operations: */
#define O_EAGER 1       /* a: to, b: value            mdl_send, eager */
#define O_RDVREC 2      /* a: record, b: receivers, c: value
                                        the variable and the rendezvous record */
#define O_RDV 3         /* a: to, b: record           mdl_send, its cell */
#define O_WAITRDV 4     /* a: record                  end of a sync send / mdl_wait;
                                        then the program changes its variable */
#define O_RECV 5        /* a: from, b: value          mdl_recv (blocking) */
#define O_BARRIER 6     /*                            mdl_barrier */
#ifndef MAXOPS
#define MAXOPS 12
#endif
hidden byte op_code[N * MAXOPS], op_a[N * MAXOPS], op_b[N * MAXOPS], op_c[N * MAXOPS];
hidden byte op_n[N];
hidden byte prog_at;
/* The pairs a program sends on.  progress skips the others: a ring no
 * one writes reads the same at every step, so reading it commutes with
 * everything and changes nothing (and costs states). */
hidden byte used[N * N];

/* Building the table: at(i) starts instance i's program. */
inline at(i) { prog_at = i }
inline put_op(code, x, y, w) {
    assert(op_n[prog_at] < MAXOPS);
    op_code[prog_at * MAXOPS + op_n[prog_at]] = code;
    op_a[prog_at * MAXOPS + op_n[prog_at]] = x;
    op_b[prog_at * MAXOPS + op_n[prog_at]] = y;
    op_c[prog_at * MAXOPS + op_n[prog_at]] = w;
    op_n[prog_at]++
}
inline send_eager(to, val) { put_op(O_EAGER, to, val, 0); used[P(prog_at, to)] = 1 }
inline send_rdv(to, rec, val) {
    put_op(O_RDVREC, rec, 1, val); put_op(O_RDV, to, rec, 0); used[P(prog_at, to)] = 1
}
inline send_rdv2(to1, to2, rec, val) {     /* to {A}: one record, two receivers */
    put_op(O_RDVREC, rec, 2, val); put_op(O_RDV, to1, rec, 0); put_op(O_RDV, to2, rec, 0);
    used[P(prog_at, to1)] = 1; used[P(prog_at, to2)] = 1
}
inline wait_rdv(rec) { put_op(O_WAITRDV, rec, 0, 0) }
inline recv(from, val) { put_op(O_RECV, from, val, 0) }
inline barrier() { put_op(O_BARRIER, 0, 0, 0) }

/* An instance runs its program: each operation's first part, its wait
 * (shm_wait) if it needs one, its last part. */
proctype inst(byte me)
{
    LOCALS;
    byte pc, op, a, b, c, wk;
    do
    :: d_step {
            pc < op_n[me] ->
            op = op_code[me * MAXOPS + pc];
            a = op_a[me * MAXOPS + pc];
            b = op_b[me * MAXOPS + pc];
            c = op_c[me * MAXOPS + pc]
        };
        if
        :: op == O_EAGER || op == O_RDV ->
            /* post_msg's flow control */
            if
            :: osent[a] - ov_done[P(me, a)] >= OVMAX -> wk = W_ROOM
            :: else -> skip
            fi
        :: op == O_RDVREC ->
            atomic { var[me] = c; rem[a] = b }  /* no one reads them yet */
        :: op == O_WAITRDV -> wk = W_RDV
        :: op == O_RECV ->
            post_recv(a);
            if
            :: !pdone -> wk = W_RECV
            :: else -> skip
            fi
        :: op == O_BARRIER ->
            barrier_arrive();
            if
            :: !lastin -> wk = W_BAR
            :: else -> lastin = 0
            fi
        fi;
        if
        :: wk != 0 -> shm_wait()
        :: else -> skip
        fi;
        if
        :: op == O_EAGER -> post_msg(a, EAGER, b)
        :: op == O_RDV -> post_msg(a, RDV, b)
        :: op == O_WAITRDV -> var[me] = 0
        :: op == O_RECV ->
            assert(got == b);           /* nothing lost, duplicated or reordered */
            got = 0;
            pdone = 0
        :: else -> skip
        fi;
        atomic { pc++; op = 0; a = 0; b = 0; c = 0; wk = 0 }
    :: else -> break
    od;
    /* No unexpected message left (a duplicate would be one). */
    atomic {
        for (t : 0 .. N - 1) {
            assert(un[t] == 0)
        }
        t = 0
    };
    finished++
}

/* Runs the instances, then checks once every one has finished: every ring
 * drained, every overflow node consumed, every rendezvous completed,
 * nobody asleep. */
inline run_all() {
    byte i;
    atomic {
        for (i : 0 .. N - 1) {
            run inst(i)
        }
        i = 0
    };
    finished == N;
    for (i : 0 .. N * N - 1) {
        assert(head[i] == tail[i] && ov_done[i] == ov_sent[i])
    }
    for (i : 0 .. NREC - 1) {
        assert(rem[i] == 0)
    }
    for (i : 0 .. N - 1) {
        assert(!asleep[i] && !sleeping[i])
    }
}
