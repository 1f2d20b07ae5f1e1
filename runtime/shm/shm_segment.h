/* shm_segment.h — what the instances of a job share: the layout of the
 * library's part of the segment.  Everything here is read and written by
 * several processes (each maps the segment at its own address, so every
 * reference is an offset from the segment start); what one process keeps
 * for itself is in shm_internal.h.
 *
 * Segment:
 *   header + slots            written by mdlrun (shm_job.h)
 *   shm_lib                   bump pointer, startup barrier
 *   shm_info[nslots]          per instance: identity, sleeping flag,
 *                             family barrier (in the family's first slot),
 *                             collective publication
 *   arrive[nslots][nslots]    pairwise counters of subset barriers
 *   shm_ring[nslots][nslots]  one SPSC ring per ordered pair (sender, receiver)
 *   heap                      bump-allocated: task structs, rendezvous
 *                             records, overflow nodes, scratch buffers
 *
 * Fields written by different processes sit on different cache lines; the
 * padding that keeps them apart is counted by hand and checked below. */
#ifndef MDL_SHM_SEGMENT_H
#define MDL_SHM_SEGMENT_H

#include <stddef.h>
#include <stdint.h>

#include "core/rt_common.h"
#include "shm_job.h"

#define SHM_LINE 64             /* cache line */

/* Payload bytes of one ring cell: messages up to this size are copied
 * through the ring (eager), larger ones are copied once, straight from the
 * sender's variables (rendezvous).  Chosen by measurement, see
 * docs/runtime-shm.md. */
#ifndef SHM_EAGER
#define SHM_EAGER 8192
#endif
#define SHM_NCELLS 8            /* cells per ring: in-flight eager messages per pair */
#define SHM_OVERFLOW 1024       /* overflow nodes per pair before a sender waits */

enum { CELL_EAGER = 1, CELL_RDV = 2 };

/* The payload follows the header on its line: a message of up to 40
 * bytes is one line for the receiver to fetch, not two. */
typedef struct shm_cell {
    uint32_t channel;
    uint32_t kind;              /* CELL_EAGER or CELL_RDV */
    uint64_t bytes;             /* message size */
    uint64_t rdv;               /* CELL_RDV: segment offset of the shm_rdv */
    char data[SHM_EAGER];       /* CELL_EAGER: the packed message */
    char pad_[SHM_LINE - 24];   /* to whole lines (SHM_EAGER is whole lines) */
} shm_cell;

/* When the ring is full, messages go to an overflow list of nodes in the
 * sender's heap (a send never waits for room); the sender uses the ring
 * again only once the receiver has consumed every node, so order holds. */
typedef struct shm_ring {
    /* the sender's line */
    uint64_t tail;              /* written by the sender only */
    uint64_t ov_sent;           /* sender: overflow nodes appended */
    uint64_t ov_first;          /* sender, once: offset of the first node */
    uint64_t pad0_[5];
    /* the receiver's line */
    uint64_t head;              /* written by the receiver only */
    uint64_t ov_done;           /* receiver: overflow nodes consumed */
    uint64_t pad1_[6];
    shm_cell cells[SHM_NCELLS];
} shm_ring;

typedef struct shm_node {
    uint64_t next;              /* offset of the next node, 0 until linked */
    uint64_t size;              /* allocated bytes, for the sender's free */
    uint32_t channel;
    uint32_t kind;
    uint64_t bytes;
    uint64_t rdv;
    uint64_t pad_[3];
    char data[];                /* CELL_EAGER: the packed message */
} shm_node;

/* One span of a rendezvous record: base is a segment offset, or with
 * `remote` an address in the sender's own space (read with
 * process_vm_readv). */
typedef struct shm_rspan {
    mdl_span s;
    uint64_t remote;
} shm_rspan;

/* A large message waiting to be pulled: where the sender's data lies.
 * Lives in the sender's heap until every receiver has copied it. */
typedef struct shm_rdv {
    uint32_t remaining;         /* receivers that have not copied yet */
    uint32_t nspans;
    uint64_t bytes;
    int32_t pid;                /* the sender, for remote spans */
    int32_t pad_;
    shm_rspan spans[];
} shm_rdv;

/* Version of everything in this file and of its use: two programs of one
 * job linked with different builds of the library (static linking) are
 * refused.  Change it with the layout. */
#ifndef SHM_LAYOUT
#define SHM_LAYOUT 0x4d444c0000000003ull
#endif

typedef struct shm_lib {
    uint64_t layout;            /* SHM_LAYOUT of the first instance; stays first */
    uint64_t bump;              /* bytes handed out from the heap */
    uint32_t ninit;             /* instances through the startup barrier */
    uint32_t go;                /* futex word: start-up phases completed */
    uint64_t maplimit;          /* smallest mapping of any instance: heap end */
} shm_lib;

typedef struct shm_info {
    /* identity and waiting: written by the instance (bar_*: by its family) */
    uint64_t spec_hash;
    int32_t task;               /* task index, -1 until published */
    uint32_t sleeping;          /* 1 while the instance may sleep on its doorbell */
    uint32_t bar_count;         /* family barrier (used in the family's first slot) */
    uint32_t bar_sense;
    int32_t pid;                /* getpid() of the instance */
    int32_t cma;                /* 1: it could read its neighbour's memory */
    uint64_t probe;             /* address (in its own space) of a word to read */
    uint32_t pad0_[6];
    /* Collective publication, valid between a collective's barriers. */
    int32_t c_err;              /* this instance's arguments were refused */
    int32_t pad1_;
    int64_t c_count;            /* elements this instance sends */
    uint64_t c_src;             /* segment offsets */
    uint64_t c_dst;
    uint64_t c_counts;
    uint64_t c_displs;
    uint64_t pad2_[2];
} shm_info;

/* Where the library's areas of a job of n instances start, each on its
 * own pages, and where the heap begins.  One computation for mdlrun, which
 * sizes its jobs by it, and for every instance, which carves its mapping. */
typedef struct shm_areas {
    uint64_t lib, info, arrive, rings, heap;
} shm_areas;

static inline uint64_t shm_page_up(uint64_t x)
{
    return (x + 4095) & ~(uint64_t)4095;
}

static inline shm_areas shm_carve(uint32_t nslots)
{
    uint64_t n = nslots;
    shm_areas a;
    a.lib = mdl_shm_lib_offset(nslots);
    a.info = shm_page_up(a.lib + sizeof(shm_lib));
    a.arrive = shm_page_up(a.info + n * sizeof(shm_info));
    a.rings = shm_page_up(a.arrive + n * n * sizeof(uint32_t));
    a.heap = shm_page_up(a.rings + n * n * sizeof(shm_ring));
    return a;
}

/* The hand-counted padding: one line per writer. */
_Static_assert(offsetof(shm_cell, data) == 24, "shm_cell: the payload starts on the header's line");
_Static_assert(SHM_EAGER % SHM_LINE == 0, "SHM_EAGER is whole lines");
_Static_assert(sizeof(shm_cell) % SHM_LINE == 0, "shm_cell is whole lines");
_Static_assert(offsetof(shm_ring, head) == SHM_LINE, "ring: sender and receiver lines apart");
_Static_assert(offsetof(shm_ring, cells) == 2 * SHM_LINE, "ring: cells on their own lines");
_Static_assert(sizeof(shm_ring) % SHM_LINE == 0, "shm_ring is whole lines");
_Static_assert(offsetof(shm_node, data) == SHM_LINE, "shm_node header is one line");
_Static_assert(offsetof(shm_info, c_err) == SHM_LINE, "info: publication on its own line");
_Static_assert(sizeof(shm_info) == 2 * SHM_LINE, "shm_info is two lines");
_Static_assert(sizeof(shm_lib) <= 4096, "shm_lib fits its page");

#endif
