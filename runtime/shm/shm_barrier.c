/* shm_barrier.c — barriers of the shared-memory runtime: the family's
 * (sense-reversing, MDL_Barrier) and any subset's (pairwise counters,
 * MDL_Sbarrier, the collectives). */
#include "shm_internal.h"

static int sense_reached(mdl_rt *rt, void *arg)
{
    uint32_t *word = arg;
    return __atomic_load_n(word, __ATOMIC_ACQUIRE) == rt->sense;
}

/* Who has arrived is not recorded (a counter): mdlrun takes the family's
 * instances that are not asleep in the family barrier as the missing ones. */
static void awaits_family(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list)
{
    (void)arg;
    (void)list;
    w->kind = MDL_AWAIT_FAMILY;
    w->task = rt->c.d->self;
}

static const shm_waiting family_barrier = { sense_reached, awaits_family };

/* Sense-reversing barrier over the own family; its counter lives in the
 * family's first slot.  The last arriver flips the sense and rings every
 * member's doorbell. */
int shm_family_barrier(mdl_rt *rt, const char *fn)
{
    int task = rt->c.d->self;
    int n = rt->c.fam_size[task];
    shm_info *lead = &rt->info[shm_slot_of(rt, task, 0)];
    rt->sense ^= 1u;
    if (__atomic_add_fetch(&lead->bar_count, 1, __ATOMIC_ACQ_REL) == (uint32_t)n) {
        __atomic_store_n(&lead->bar_count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&lead->bar_sense, rt->sense, __ATOMIC_SEQ_CST);
        for (int i = 0; i < n; i++)
            if (i != rt->c.inst)
                shm_notify(rt, shm_slot_of(rt, task, i));
        return 0;
    }
    return shm_wait(rt, &family_barrier, &lead->bar_sense, fn);
}

struct subset_arg {
    const int *slots;
    int n;
};

static int subset_reached(mdl_rt *rt, void *arg)
{
    struct subset_arg *a = arg;
    for (int i = 0; i < a->n; i++) {
        int s = a->slots[i];
        if (s == rt->me)
            continue;
        uint32_t their = __atomic_load_n(&rt->arrive[(size_t)s * rt->nslots + rt->me],
                                         __ATOMIC_ACQUIRE);
        if ((int32_t)(their - rt->sbar[s]) < 0)
            return 0;
    }
    return 1;
}

/* Exactly the members that have not arrived. */
static void awaits_subset(mdl_rt *rt, void *arg, mdl_shm_wait *w, int32_t *list)
{
    struct subset_arg *a = arg;
    w->kind = MDL_AWAIT_ALL_OF;
    for (int i = 0; i < a->n; i++) {
        int s = a->slots[i];
        uint32_t their = __atomic_load_n(&rt->arrive[(size_t)s * rt->nslots + rt->me],
                                         __ATOMIC_ACQUIRE);
        if (s != rt->me && (int32_t)(their - rt->sbar[s]) < 0)
            shm_await_add(w, list, s);
    }
}

static const shm_waiting subset_barrier = { subset_reached, awaits_subset };

/* Barrier over any subset: one counter per ordered pair counts the subset
 * barriers the two have entered together, so overlapping subsets in any
 * order work and instances outside the subset are never touched. */
int shm_subset_barrier(mdl_rt *rt, const int *slots, int n, const char *fn)
{
    for (int i = 0; i < n; i++) {
        int s = slots[i];
        if (s == rt->me)
            continue;
        rt->sbar[s]++;
        __atomic_store_n(&rt->arrive[(size_t)rt->me * rt->nslots + s], rt->sbar[s],
                         __ATOMIC_SEQ_CST);
        shm_notify(rt, s);
    }
    struct subset_arg a = {slots, n};
    return shm_wait(rt, &subset_barrier, &a, fn);
}

int be_barrier(mdl_rt *rt)
{
    return shm_family_barrier(rt, MDL_FN_NAME(BARRIER));
}

int be_sbarrier(mdl_rt *rt, const int *insts, int n)
{
    int slots[n];               /* n distinct instances: at most the family */
    for (int i = 0; i < n; i++)
        slots[i] = shm_slot_of(rt, rt->c.d->self, insts[i]);
    return shm_subset_barrier(rt, slots, n, MDL_FN_NAME(SBARRIER));
}
