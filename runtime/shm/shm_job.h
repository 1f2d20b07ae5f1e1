/* shm_job.h — the contract between mdlrun and libmdl_shm.
 *
 * mdlrun creates one anonymous shared segment per job (memfd_create: it
 * has no name in /dev/shm, so nothing can be left behind on any exit
 * path), sizes it sparse with ftruncate, writes this header, and passes
 * the descriptor to every instance it starts.  The library maps the whole
 * segment; everything after the header and the slots is the library's.
 *
 * Environment of an instance started by mdlrun:
 *   MDL_SHM_FD     the segment's file descriptor (inherited)
 *   MDL_SHM_SLOT   this instance's slot, 0..nslots-1
 * A program linked with libmdl_shm but started without these says so.
 *
 * Tracing (MDL_TRACE, docs/tracing.md): mdlrun sets trace_slots; each
 * instance then keeps its trace image in the segment's heap and publishes
 * its offset in its slot, and mdlrun writes the job's file from the images
 * once every instance has exited, whatever the way. */
#ifndef MDL_SHM_JOB_H
#define MDL_SHM_JOB_H

#include <stddef.h>
#include <stdint.h>

#define MDL_SHM_MAGIC   0x4d444c53484d4a42ull   /* "MDLSHMJB" */
/* Changes whenever this header or the library's use of the segment
 * changes: an mdlrun from another build is then refused. */
#define MDL_SHM_ABI     2u

#define MDL_SHM_SEGMENT_SIZE (64ull << 30)     /* sparse: pages appear on touch */

enum mdl_slot_state {
    MDL_SLOT_STARTED = 0,       /* forked by mdlrun */
    MDL_SLOT_INIT = 1,          /* MDL_Init done */
    MDL_SLOT_ENDED = 2          /* MDL_End done: its exit is a normal one */
};

typedef struct mdl_shm_slot {
    int32_t pid;                /* written by mdlrun after fork */
    int32_t group;              /* which ':'-separated program, 0-based */
    int32_t state;              /* enum mdl_slot_state, written by the library */
    int32_t task;               /* the task index the instance declared */
    uint32_t doorbell;          /* futex word the instance sleeps on */
    uint32_t pad0_;
    uint64_t trace;             /* MDL_TRACE: offset of the instance's trace
                                   image (rt_trace_image.h), 0 until written */
    uint32_t pad_[8];           /* one cache line per slot */
} mdl_shm_slot;

typedef struct mdl_shm_header {
    uint64_t magic;
    uint32_t abi;
    uint32_t nslots;            /* total instances in the job */
    uint32_t ngroups;
    uint32_t aborting;          /* set by mdlrun when it tears the job down */
    uint64_t size;              /* segment size in bytes */
    uint64_t lib_offset;        /* first byte the library may use (aligned) */
    uint64_t trace_slots;       /* MDL_TRACE: record slots per instance, 0: off */
    uint32_t trace_clock;       /* its clock (enum rt_trace_clock) */
    uint32_t failed;            /* 1 + the slot of the first instance that
                                   failed fatally (be_abort), 0: none */
    uint64_t pad_[1];
    mdl_shm_slot slots[];       /* nslots */
} mdl_shm_header;

/* What an instance waits for, published by the library when a wait goes
 * to sleep and read by mdlrun's deadlock detector (mdlrun_deadlock.c;
 * docs/runtime-shm.md, "Deadlock detection").  After the slots, one
 * record per slot, then one list of nslots entries per slot.
 *
 * Only the instance writes its record, only on the way to sleep and on
 * waking (never on a path that does not sleep), under a sequence lock:
 * `seq` is odd while it writes, so a reader copies the record and keeps
 * the copy only if `seq` was even and unchanged around it. */
enum mdl_await {
    MDL_AWAIT_ANY_OF = 1,       /* one of list[0..n-1] (a receive, room in a
                                   ring, or a superset of those needed) */
    MDL_AWAIT_ALL_OF = 2,       /* every one of list[0..n-1] (rendezvous
                                   receivers, a subset barrier's missing) */
    MDL_AWAIT_TASK = 3,         /* any instance of task `task` (MDL_ANY) */
    MDL_AWAIT_FAMILY = 4        /* the family barrier of task `task`: every
                                   instance of it not in that barrier */
};

#define MDL_SHM_NAME 64
#define MDL_SHM_FN 128

typedef struct mdl_shm_wait {
    uint32_t seq;               /* sequence lock, odd while written */
    uint32_t epoch;             /* waits of this instance that have slept */
    uint32_t active;            /* 1: in a wait that has slept (fields valid) */
    uint32_t asleep;            /* 1: on its doorbell after a failed check */
    uint32_t bell;              /* asleep: the doorbell value of that check */
    uint32_t kind;              /* enum mdl_await */
    int32_t task;               /* MDL_AWAIT_TASK, _FAMILY */
    uint32_t n;                 /* entries of the list */
    uint64_t since_ns;          /* CLOCK_MONOTONIC when the wait first slept */
    /* identity, written once by MDL_Init (inst last, release) */
    int32_t inst;               /* instance number in its family, -1 before */
    uint32_t left;              /* 1: MDL_End has returned (never acts again) */
    char task_name[MDL_SHM_NAME];
    char fn[MDL_SHM_FN];        /* the call: "MDL_RecvFrom_d_r" */
    uint64_t consumed;          /* asleep: messages it has taken so far (a
                                   progress counter: it changes if the
                                   instance took one while briefly awake) */
    uint64_t pad2_;
} mdl_shm_wait;

/* The padding above is counted by hand: one cache line per slot, so that
 * instances ringing different doorbells do not share a line. */
_Static_assert(sizeof(mdl_shm_slot) == 64, "one cache line per slot");
_Static_assert(offsetof(mdl_shm_header, slots) == 64, "slots start on a cache line");
_Static_assert(sizeof(mdl_shm_wait) == 256, "four cache lines per wait record");

static inline uint64_t mdl_shm_waits_offset(uint32_t nslots)
{
    uint64_t end = sizeof(mdl_shm_header) + (uint64_t)nslots * sizeof(mdl_shm_slot);
    return (end + 255) & ~(uint64_t)255;
}

static inline uint64_t mdl_shm_lists_offset(uint32_t nslots)
{
    return mdl_shm_waits_offset(nslots) + (uint64_t)nslots * sizeof(mdl_shm_wait);
}

static inline uint64_t mdl_shm_lib_offset(uint32_t nslots)
{
    uint64_t end = mdl_shm_lists_offset(nslots) + (uint64_t)nslots * nslots * sizeof(int32_t);
    return (end + 4095) & ~(uint64_t)4095;
}

#endif
