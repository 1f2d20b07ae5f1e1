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
 * A program linked with libmdl_shm but started without these says so. */
#ifndef MDL_SHM_JOB_H
#define MDL_SHM_JOB_H

#include <stddef.h>
#include <stdint.h>

#define MDL_SHM_MAGIC   0x4d444c53484d4a42ull   /* "MDLSHMJB" */
/* Changes whenever this header or the library's use of the segment
 * changes: an mdlrun from another build is then refused. */
#define MDL_SHM_ABI     1u

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
    uint32_t pad_[11];          /* one cache line per slot */
} mdl_shm_slot;

typedef struct mdl_shm_header {
    uint64_t magic;
    uint32_t abi;
    uint32_t nslots;            /* total instances in the job */
    uint32_t ngroups;
    uint32_t aborting;          /* set by mdlrun when it tears the job down */
    uint64_t size;              /* segment size in bytes */
    uint64_t lib_offset;        /* first byte the library may use (aligned) */
    uint64_t pad_[3];
    mdl_shm_slot slots[];       /* nslots */
} mdl_shm_header;

/* The padding above is counted by hand: one cache line per slot, so that
 * instances ringing different doorbells do not share a line. */
_Static_assert(sizeof(mdl_shm_slot) == 64, "one cache line per slot");
_Static_assert(offsetof(mdl_shm_header, slots) == 64, "slots start on a cache line");

static inline uint64_t mdl_shm_lib_offset(uint32_t nslots)
{
    uint64_t end = sizeof(mdl_shm_header) + (uint64_t)nslots * sizeof(mdl_shm_slot);
    return (end + 4095) & ~(uint64_t)4095;
}

#endif
