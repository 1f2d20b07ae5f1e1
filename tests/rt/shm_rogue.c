/* A peer that writes into the segment what the library never writes
 * (issue 30: bounds on what peers write, checked on the cold path).  Two
 * instances: t[1] forges a record in its ring to t[0], then sends t[0] a
 * real message; t[0] receives it (coll: t[1] plays the root of a Bcast).  t[0] must end with one line naming
 * the forger — never a crash, a hang or an allocation of a forged size.
 *   shm_rogue eager   an eager message of 2^64 - 16 bytes, unexpected
 *                     (its size once wrapped the allocation: SIGSEGV)
 *   shm_rogue node    an overflow record outside the segment (SIGSEGV)
 *   shm_rogue rdv     a rendezvous record outside the segment (SIGSEGV)
 *   shm_rogue span    a rendezvous record whose span is outside (SIGSEGV)
 *   shm_rogue coll    the root of a Bcast publishes a buffer outside
 * Built from the library's sources (tests/suite-rt-shm.sh): it reaches
 * into the rings as a misbehaving process of the same user could. */
#include "shm_rtt.h"

#include "shm/shm_internal.h"

#include <unistd.h>

struct T {
    double v[10];
    int stop;
    mdl_rt *mdl_rt_;
};
typedef struct T T;

static const mdl_item_desc i_v[] = {ITEM(T, v, t_double, 1, 0, 10)};
static const long b_v[] = {0, 9};
static const mdl_item_desc i_stop[] = {ITEM(T, stop, t_int, 0, 0)};

enum { M_V, M_V_R, M_STOP_R, NMSG };
static const mdl_msg_desc msgs[NMSG] = {
    MSG("v", M_V, 1, 0, 1, 0, MDL_PEER_ONE, i_v, 1, b_v),
    MSG("v", M_V_R, 0, 0, 1, 0, MDL_PEER_ONE, i_v, 1, b_v),
    MSG("stop", M_STOP_R, 0, 0, 2, 0, MDL_PEER_ONE, i_stop, 0, NULL),
};
static const mdl_msg_desc *const msgp[NMSG] = {&msgs[0], &msgs[1], &msgs[2]};
static const mdl_coll_desc bcast = {"b", "MDL_Bcast_b", 0, MDL_COLL_BCAST, 1, 0, &t_double,
                                     10, 10, 1};
static const mdl_coll_desc *const collp[] = {&bcast};
static const char *const tasks[] = {"t"};
static const mdl_task_desc desc = {
    MDL_ABI, "shm_rogue.mdl", 0x7e57, 1, tasks, 0, 0, {0, 0, 0}, 3, NMSG, msgp, 1, collp,
    sizeof(T), 0,
};

/* Past the end of every mapping of the job. */
static uint64_t outside(const mdl_rt *rt)
{
    return rt->segsize + (1ull << 20);
}

static void forge_cell(mdl_rt *rt, uint32_t channel, uint32_t kind, uint64_t bytes,
                       uint64_t rdv)
{
    shm_ring *r = shm_ring_of(rt, rt->me, 0);
    shm_cell *c = &r->cells[r->tail % SHM_NCELLS];
    c->channel = channel;
    c->kind = kind;
    c->bytes = bytes;
    c->rdv = rdv;
    __atomic_store_n(&r->tail, r->tail + 1, __ATOMIC_RELEASE);
}

static void forge(mdl_rt *rt, const char *mode)
{
    if (strcmp(mode, "eager") == 0) {
        forge_cell(rt, 0, CELL_EAGER, UINT64_MAX - 16, 0);
    } else if (strcmp(mode, "node") == 0) {
        shm_ring *r = shm_ring_of(rt, rt->me, 0);
        __atomic_store_n(&r->ov_first, outside(rt), __ATOMIC_RELEASE);
        __atomic_store_n(&r->ov_sent, 1, __ATOMIC_RELEASE);
    } else if (strcmp(mode, "rdv") == 0) {
        forge_cell(rt, 1, CELL_RDV, sizeof(double) * 10, outside(rt));
    } else if (strcmp(mode, "span") == 0) {
        uint64_t off = shm_alloc(rt, sizeof(shm_rdv) + sizeof(shm_rspan));
        CHECK(off != 0);
        shm_rdv *r = shm_ptr(rt, off);
        r->remaining = 1;
        r->nspans = 1;
        r->bytes = sizeof(double) * 10;
        r->pid = getpid();
        r->spans[0].s = (mdl_span){(char *)(uintptr_t)outside(rt), 80, 0, {0}, {0}, 80};
        r->spans[0].remote = 0;
        forge_cell(rt, 1, CELL_RDV, 80, off);
    } else if (strcmp(mode, "coll") == 0) {
        /* the collective's protocol (shm_coll.c), its publication forged */
        shm_info *mine = &rt->info[rt->me];
        mine->c_count = 10;
        mine->c_src = outside(rt);
        mine->c_err = 0;
        shm_family_barrier(rt, "rogue");               /* published */
        shm_family_barrier(rt, "rogue");               /* stopped by t[0]'s end */
        exit(4);
    } else {
        CHECK(!"mode: eager, node, rdv, span or coll");
    }
    shm_notify(rt, 0);
}

int main(int argc, char **argv)
{
    T *t;
    mdl_rt *rt;
    CHECK(argc == 2);
    CHECK(mdl_init(&desc, &argc, &argv, (void **)&t, &rt) == 0);
    CHECK(mdl_task_size(rt, 0) == 2);
    if (mdl_my_rank(rt) == 1) {
        forge(rt, argv[1]);
        if (strcmp(argv[1], "eager") == 0 || strcmp(argv[1], "node") == 0)
            CHECK(mdl_send(rt, &msgs[M_V], t, 0, NULL, 0, NULL) == 0);
        mdl_recv(rt, &msgs[M_STOP_R], t, 0, NULL);     /* stopped by t[0]'s end */
        return 4;
    }
    if (strcmp(argv[1], "coll") == 0)
        mdl_collective(rt, &bcast, t->v, t->v, 10, NULL, NULL, NULL, 0);
    else
        mdl_recv(rt, &msgs[M_V_R], t, 1, NULL);
    puts("t[0] received the message: the forged record went unnoticed");
    return 5;
}
