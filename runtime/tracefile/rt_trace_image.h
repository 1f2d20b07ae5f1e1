/* rt_trace_image.h — one instance's trace while the job runs (MDL_TRACE,
 * docs/tracing.md): a self-describing, position-independent block of
 * memory — names, the traced functions of the task, compact binary
 * records — that whoever writes the job's file reads without the program's
 * descriptors.  The shared-memory runtime keeps it in the job's segment,
 * where it outlives the instance and mdlrun reads it; the MPI runtime
 * keeps it in the process and sends it to world rank 0 at MDL_End.
 *
 * Layout (offsets from the image's start, every area 8-byte aligned):
 *   rt_trace_img        the header below
 *   strings             NUL-terminated names
 *   task names          uint32_t[ntasks]: string offsets, 0 when unknown
 *   functions           rt_trace_func[nfuncs]
 *   statistics          rt_trace_stat[nfuncs]: calls that were dropped
 *   error texts         ntexts_cap slots of RT_TEXT bytes
 *   records             rt_trace_rec[cap]
 * Everything up to the records is the "head": small, written once at
 * MDL_Init (then only counters change). */
#ifndef MDL_RT_TRACE_IMAGE_H
#define MDL_RT_TRACE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_trace_format.h"

#define RT_TRACE_MAGIC   0x4d444c5452414345ull     /* "MDLTRACE" */
#define RT_TRACE_VERSION 2u
#define RT_TEXT          256        /* bytes of one error text */
#define RT_TEXTS         32         /* error texts kept per instance */

/* Function ids: per message index i, its send or receive (i), Wait
 * (nmsgs + i), Test (2 nmsgs + i); collective j (3 nmsgs + j); then the
 * synchronisations, each X(id) the public function MDL_FN_<id>
 * (common/mdl_api.h). */
#define RT_TRACE_SYNCS(X) X(BARRIER) X(SBARRIER) X(GRID_CREATE) X(GRID_SCREATE)
enum rt_trace_sync {
#define RT_X(id) RT_SYNC_##id,
    RT_TRACE_SYNCS(RT_X)
#undef RT_X
    RT_NSYNC
};

/* The `cat` of docs/tracing.md §2.3 (rt_trace_format.h). */
enum rt_trace_cat {
#define RT_X(id, name) RT_CAT_##id,
    RT_TF_CATS(RT_X)
#undef RT_X
    RT_NCAT
};

typedef struct rt_trace_func {
    uint32_t name;              /* string: "MDL_RecvFrom_son_inMessage" */
    uint32_t msg;               /* string: message name; 0 for a synchronisation */
    uint8_t cat;                /* enum rt_trace_cat */
    uint8_t rooted;             /* a collective with a root */
    uint8_t mcast;              /* the Mcast collective: peers are its members */
    uint8_t pad_;
    int32_t peer_task;          /* point to point: the peer task, else -1 */
    int32_t channel;            /* point to point: the pair's channel */
    int32_t root;               /* rooted collective: the root instance */
} rt_trace_func;

typedef struct rt_trace_stat {  /* the calls of one function that were dropped */
    uint64_t calls, msgs, bytes, ticks, wait_ticks, copy_ticks;
} rt_trace_stat;

/* One call: 32 bytes, then `ncont` continuation slots (an rt_trace_ext
 * first when RT_F_EXT, an rt_trace_times when RT_F_TIMES, then
 * rt_trace_pair slots when RT_F_PAIRS). */
typedef struct rt_trace_rec {
    uint64_t t0;                /* ticks at entry */
    uint32_t dur;               /* ticks in the call (RT_F_EXT: in the extension) */
    uint32_t func;              /* function id */
    int32_t peer;               /* the one peer instance, or -1 */
    uint32_t seq;               /* with peer: the pair's message number on the
                                   channel; RT_F_PAIRS: the number of pairs */
    uint32_t bytes;             /* RT_F_EXT: in the extension */
    uint16_t flags;
    uint16_t ncont;
} rt_trace_rec;

#define RT_F_EXT     1u         /* an rt_trace_ext follows */
#define RT_F_PAIRS   2u         /* (instance, seq) pairs follow: the receivers
                                   of a send, the senders of the async receives
                                   a Wait/Test completed, the Mcast members */
#define RT_F_POSTED  4u         /* an async receive posted (its flow ends in
                                   the Wait/Test that completes it) */
#define RT_F_ANYPOST 8u         /* ... posted with MDL_ANY: one message */
#define RT_F_TIMES   16u        /* an rt_trace_times follows */

typedef struct rt_trace_ext {
    uint64_t dur;               /* ticks */
    uint64_t bytes;
    int32_t err;                /* the call's error code, or 0 */
    int32_t text;               /* its text: index of an error text, or -1 */
    uint64_t pad_;
} rt_trace_ext;

/* Where a call's time went, on a runtime whose waits poll (waits_timed):
 * written when either is not 0. */
typedef struct rt_trace_times {
    uint64_t wait;              /* ticks blocked on peers: from the first to
                                   the last poll of its waits, less the
                                   copies made between them */
    uint64_t copy;              /* ticks of the large copies the backend
                                   times (shm: rendezvous messages) */
    uint64_t pad_[2];
} rt_trace_times;

typedef struct rt_trace_pair {
    int32_t inst;
    uint32_t seq;
} rt_trace_pair;

#define RT_PAIRS_PER_SLOT ((int)(sizeof(rt_trace_rec) / sizeof(rt_trace_pair)))

enum rt_trace_end { RT_END_RUNNING, RT_END_NORMAL, RT_END_ERROR };

/* The clock of the ticks (chosen once per job, the same everywhere). */
enum rt_trace_clock { RT_CLOCK_MONO, RT_CLOCK_TSC };

typedef struct rt_trace_img {
    uint64_t magic;
    uint32_t version;
    uint32_t clock;             /* enum rt_trace_clock */
    uint64_t size;              /* bytes of the whole image */
    uint64_t spec_hash;
    int32_t slot;               /* job-wide number: MPI world rank, mdlrun slot */
    int32_t task, inst, ntasks;
    int32_t nfuncs, nmsgs, ncolls;
    uint32_t spec;              /* string: the spec's file name */
    uint32_t tasks;             /* offset of the task names */
    uint32_t funcs, stats;      /* offsets */
    uint32_t texts;             /* offset of the error texts */
    uint32_t ntexts;            /* texts written, at most RT_TEXTS */
    uint32_t waits_timed;       /* the runtime's waits poll and are timed, and
                                   so are its large copies (rt_trace_times) */
    uint64_t recs;              /* offset of the records */
    uint64_t cap;               /* record slots */
    uint64_t used;              /* slots written; each call's slots are
                                   complete before they are counted */
    uint64_t dropped;           /* calls not recorded: the buffer was full */
    int32_t end;                /* enum rt_trace_end */
    int32_t error_text;         /* the error this instance stopped on, or -1 */
    int32_t error_reported;     /* it reported that error itself (printed) */
    int32_t pad1_;
    uint64_t error_tick;
    /* the call in progress, on a backend that stamps at entry (MPI): its
     * start (0: none) and function; a reader of the image of a process
     * that did not end learns where it was */
    uint64_t open_t0;
    uint32_t open_func;
    int32_t open_peer;          /* a send or receive: whom it waits for, the
                                   peer instance, MDL_ANY, or < -1 (none) */
    int32_t pad2_;
    int32_t pid;                /* its process, and when it started (clock
                                   ticks after boot, /proc/PID/stat): MPI's
                                   mdltrace --recover refuses a part whose
                                   process still runs */
    uint64_t pid_start;
    /* the clock against CLOCK_MONOTONIC (ns): at MDL_Init (after a barrier
     * on MPI) and at the end */
    uint64_t tick0, ns0, tick1, ns1;
    char host[64];              /* where it ran (clocks of one host agree) */
} rt_trace_img;

/* Slots for n pairs (in 64 bits: a damaged record's count near 2^32 must
 * not wrap to a few slots). */
static inline uint64_t rt_trace_pair_slots(uint32_t npairs)
{
    return ((uint64_t)npairs + RT_PAIRS_PER_SLOT - 1) / RT_PAIRS_PER_SLOT;
}

/* The image is well-formed within `avail` bytes: header, areas (in the
 * order above, none over another), strings and records inside it
 * (records counted up to `used`).  It may come from
 * an instance that was killed, or that wrote over its memory: whoever
 * reads an image checks it first.  Returns NULL or what is wrong. */
const char *rt_trace_img_check(const rt_trace_img *img, uint64_t avail, int with_records);

/* A string of the image (between the header and the task names), or NULL
 * when the offset is 0 or invalid. */
const char *rt_trace_img_str(const rt_trace_img *img, uint32_t off);

/* The name of task `task` (0 <= task < ntasks) in the image, or NULL. */
const char *rt_trace_img_task(const rt_trace_img *img, int task);

/* Error text i of the image, or NULL when there is none (i outside
 * 0..ntexts-1, or the text has no end within its slot). */
const char *rt_trace_img_text(const rt_trace_img *img, int32_t i);

/* Whether this machine's TSC can serve as the job's clock: invariant (a
 * constant rate in every power state, the same on every core). */
int rt_trace_tsc_usable(void);

#endif
