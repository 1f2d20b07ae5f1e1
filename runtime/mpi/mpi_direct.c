/* mpi_direct.c — large messages between processes of one host in one
 * copy: the receiver copies straight from the sender's task struct.
 *
 * MPICH moves a large message between two processes of a host through
 * its shared cells: the sender copies into them, the receiver out of them,
 * two copies of every byte.  Here every process's task struct is a memfd,
 * followed by one control page, and the other processes of its host map
 * both at MDL_Init.  A send of MPI_DIRECT_MIN bytes or more whose message
 * is one section of the struct writes an announcement (mpi_direct_note:
 * where the section lies, for whom) into a slot of its control page, and
 * sends, instead of the data, the slot's number (MPI_DIRECT_WIRE_MIN
 * bytes, padded to the channel's largest element, both agreed by the host
 * at MDL_Init) on the message's own tag, so that MPI matches it exactly
 * as it would have matched the data.  The receiver takes the slot
 * (POSTED -> COPYING), copies the section from its mapping of the sender's
 * struct into its own layout, and marks it DONE, which completes the send.
 *
 * The receiver posts its receive as always (its own datatype): the
 * slot's number lands in the first bytes of its layout, and is recognised
 * on completion by its size — smaller than any message that takes this
 * path — and by the slot it names: one posted for this process and
 * channel, of that generation.  So receives, MDL_ANY included, decide
 * nothing before they match, and only the cold size-mismatch path looks
 * for an announcement.  A sync receive of at most the wire's bytes, or an
 * async one of fewer than MPI_DIRECT_OWN_BYTES, on a channel where some
 * process of the host may announce, goes through a buffer of its own
 * instead (mpi_direct_recv_small): MPICH writes nothing of a truncated
 * message, and its sender would wait for ever; one of exactly the wire's
 * bytes is the message unless its slot says otherwise.
 *
 * A receiver copies when it completes its receive, not when MPI matches
 * it: an async receive posted early is copied at its Wait or Test, or
 * while its process waits for a send of its own or polls with Test
 * (mpi_p2p.c, the progress hook it passes down).  A sender never waits on
 * that alone, or a program
 * that MPI runs (the receiver blocked in another call, a barrier, a
 * receive of something the sender sends next) would hang.  The control
 * page publishes which blocking call its process is in (rt_block_shared);
 * a receiver blocked in a receive that this sender's announcement matches
 * (mpi_recv_shared) will get it and is waited for; a sender whose
 * receiver has been blocked in another call for
 * MPI_DIRECT_STUCK_US of the receiver's own time on a CPU (so that a
 * receiver waiting for a CPU is not taken for a stuck one), or has not
 * taken the slot for MPI_DIRECT_LAST_RESORT_US whatever it does, withdraws
 * it (POSTED -> WITHDRAWN, one compare-and-swap against the receiver's)
 * and sends the data through MPI from a buffer of its own, reused, which
 * the receiver then receives on the channel's withdrawal tag; the slot
 * stays the receiver's until it has read the announcement (DONE).  A receiver
 * that computes is not withdrawn from: it will copy at its receive, Wait
 * or Test, as MPICH's rendezvous would wait for it too.  See
 * docs/runtime-mpi.md, "Large messages on one host". */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi_rt.h"
#include "trace/rt_trace.h"

/* Where mpi_recv_shared points while nothing is shared: as rt_block_shared. */
static mpi_recv_blocked recv_unshared;
mpi_recv_blocked *mpi_recv_shared = &recv_unshared;

/* A slot word: generation << 2 | state.  A withdrawn slot is the
 * sender's again only once its receiver has read the announcement and
 * marked it DONE: until a receiver has its announcement, the slot is
 * never reused, so the wire's slot and generation bits find it. */
enum { SLOT_POSTED, SLOT_COPYING, SLOT_DONE, SLOT_WITHDRAWN };
#define SLOT_WORD(gen, state) ((gen) << 2 | (uint64_t)(state))

/* The announcement on the wire: slot | generation << WIRE_SLOT_BITS, its
 * low bits (a check: the slot alone finds it, see above). */
#define WIRE_SLOT_BITS 9
#define WIRE_GEN_MASK ((UINT32_C(1) << (32 - WIRE_SLOT_BITS)) - 1)
_Static_assert(MPI_DIRECT_SLOTS <= 1 << WIRE_SLOT_BITS, "a slot must fit the wire");
_Static_assert(MPI_DIRECT_WIRE_MIN == sizeof(uint32_t), "the wire's word");

/* The control pages after the struct: the process's blocking call,
 * whether its SIGTERM line is written, then the slots of its announced
 * sends and their announcements. */
typedef struct mpi_direct_ctl {
    unsigned long blocked;      /* rt_block_shared */
    mpi_recv_blocked receiving; /* mpi_recv_shared */
    unsigned said;              /* rt_stop_share */
    char pad[64 - sizeof(unsigned long) - sizeof(mpi_recv_blocked) - sizeof(unsigned)];
    uint64_t slot[MPI_DIRECT_SLOTS];
    mpi_direct_note note[MPI_DIRECT_SLOTS];
} mpi_direct_ctl;
#define CTL_BYTES ((sizeof(mpi_direct_ctl) + 4095) / 4096 * 4096)

_Static_assert(MPI_DIRECT_WIRE_MAX < MPI_DIRECT_MIN && MPI_DIRECT_WIRE_MAX < MPI_DIRECT_MIN_STRIDED &&
                   MPI_DIRECT_WIRE_MAX < MPI_DIRECT_MIN_STRIDED_OMPI,
               "an announcement must be smaller than any direct message");
_Static_assert(sizeof(double) <= MPI_DIRECT_WIRE_MAX && sizeof(long long) <= MPI_DIRECT_WIRE_MAX,
               "a basic element must fit the wire");

/* An announced send, until its slot is DONE or withdrawn. */
struct mpi_direct_out {
    mpi_direct_note note;       /* its dest and channel: whom it is for */
    unsigned long seen;         /* the receiver's blocking call last seen */
    double seen_at;             /* since when (seconds, clock seen_cpu) */
    int seen_cpu;               /* seen_at is the receiver's time on a CPU,
                                   else the wall clock */
    double sent_at;
    unsigned char wire[MPI_DIRECT_WIRE_MAX];    /* what MPI sends */
};

static mpi_direct_ctl *ctl_of(char *base, size_t struct_size)
{
    return (mpi_direct_ctl *)(void *)(base + struct_size);
}

static int disabled_by_env(void)
{
    const char *v = getenv("MDL_MPI_DIRECT");
    if (v && strcmp(v, "0") == 0)
        return 1;
    /* every rank on a node of its own, as MPICH simulates it: a host's
     * memory is not to be shared either */
    v = getenv("MPIR_CVAR_NOLOCAL");
    return v && *v && strcmp(v, "0") != 0;
}

/* A memfd of `size` bytes, the control page and `heap` bytes, mapped
 * whole (NULL: not possible); its descriptor in *fd.  Sparse: pages cost
 * memory once written. */
static char *task_file(size_t size, size_t heap, int *fd)
{
    *fd = -1;
    if (disabled_by_env())
        return NULL;
    int f = memfd_create("mdl-task", MFD_CLOEXEC);
    if (f < 0)
        return NULL;
    void *p = MAP_FAILED;
    if (ftruncate(f, (off_t)(size + CTL_BYTES + heap)) == 0)
        p = mmap(NULL, size + CTL_BYTES + heap, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_NORESERVE, f, 0);
    if (p == MAP_FAILED) {
        close(f);
        return NULL;
    }
    *fd = f;
    return p;
}

void *mpi_direct_alloc(mdl_rt *rt, size_t size)
{
    /* the storage of run-time-sized variables in the same file, so that
     * their large messages take this path as the struct's do */
    size_t heap = rt->c.d->nrtvars > 0 ? MPI_SIZED_HEAP : 0;
    char *p = task_file(size, heap, &rt->mem.fd);
    if (!p)
        return NULL;
    rt->mem.size = size;
    rt->mem.heap = heap;
    rt->mem.heap_lo = (uintptr_t)p + size + CTL_BYTES;
    rt->mem.mapped = size + CTL_BYTES + heap;
    rt->mem.ctl = ctl_of(p, size);
    return p;
}

/* The bytes of this process's file an announcement may point into. */
static size_t own_span(const mdl_rt *rt)
{
    return rt->mem.heap ? rt->mem.size + CTL_BYTES + rt->mem.heap : rt->mem.size;
}

/* The object keeps its address; its pages become the memfd's first ones
 * (a second mapping of the file, at the object), so host peers map it as
 * any struct.  Its control page is reached through the whole file's
 * mapping: the page after the object is not the runtime's.  0: not
 * possible (not whole pages, no memfd, a refused mapping). */
static int alias_object(mdl_rt *rt, void *obj, size_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || size == 0 || (uintptr_t)obj % (size_t)page || size % (size_t)page)
        return 0;
    int fd;
    char *p = task_file(size, 0, &fd);
    if (!p)
        return 0;
    mdl_copy_nonzero_pages(p, obj, size, (size_t)page);
    if (mmap(obj, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        munmap(p, size + CTL_BYTES);
        close(fd);
        return 0;
    }
    rt->mem.fd = fd;
    rt->mem.alias_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);  /* for unalias; -1: a slower copy */
    rt->mem.size = size;
    rt->mem.alias = p;
    rt->mem.alias_size = size + CTL_BYTES;
    rt->mem.ctl = ctl_of(p, size);
    return 1;
}

/* A caller's object (mdl_init_at).  One that cannot be aliased is not
 * shared: its process sends through MPI, but still takes part with a
 * control page of its own (a memfd of that page alone, task_size 0), so
 * that it receives its host peers' large messages in one copy and the
 * path stays on for the rest of the host. */
void mpi_direct_alias(mdl_rt *rt, void *obj, size_t size)
{
    rt->mem.fd = -1;
    if (alias_object(rt, obj, size))
        return;
    char *p = task_file(0, 0, &rt->mem.fd);
    if (!p)
        return;
    rt->mem.size = 0;
    rt->mem.ctl_only = p;
    rt->mem.ctl = ctl_of(p, 0);
}

/* The runtime ends (MDL_End has delivered every announced send): the
 * object gets private pages again, with its bytes, as it had them. */
static void unalias(mdl_rt *rt)
{
    size_t size = rt->mem.size;
    if (mmap(rt->c.task, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
             -1, 0) != MAP_FAILED)
        mdl_copy_file_data(rt->mem.alias_fd, 0, rt->c.task, rt->mem.alias, size,
                           (size_t)sysconf(_SC_PAGESIZE));
    munmap(rt->mem.alias, rt->mem.alias_size);
    rt->mem.alias = NULL;
    if (rt->mem.alias_fd >= 0)
        close(rt->mem.alias_fd);
    rt->mem.alias_fd = -1;
}

/* Another process's struct, which this process only reads, then its
 * control page, where it takes and releases slots. */
static void *map_peer(int fd, size_t size, size_t heap)
{
    size_t all = size + CTL_BYTES + heap;
    char *p = mmap(NULL, all, PROT_READ, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (p == MAP_FAILED)
        return p;
    if (mmap(p + size, CTL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
             (off_t)size) == MAP_FAILED) {
        munmap(p, all);
        return MAP_FAILED;
    }
    return p;
}

/* Whether a send of m may ever be announced (make_note, direct_peer in
 * mpi_p2p.c): one item of a basic type whose largest section is large
 * enough for the smaller of the two thresholds, strided_min the strided
 * one (never above MPI_DIRECT_MIN). */
static int may_announce(const mdl_msg_desc *m, size_t strided_min)
{
    if (!m->is_send || m->nitems != 1)
        return 0;
    const mdl_item_desc *it = &m->items[0];
    if ((it->is_pointer && it->rtvar < 0) || it->type->base == MDL_T_STRUCT)
        return 0;
    uint64_t most = it->type->size;
    for (int d = 0; d < it->ndims; d++) {
        long ext = m->fixed_bounds ? m->fixed_bounds[2 * d + 1] - m->fixed_bounds[2 * d] + 1
                                   : it->extent[d];
        if (ext < 0)            /* set at MDL_Allocate: any size */
            return 1;
        most *= (uint64_t)ext;
    }
    return most >= strided_min;
}

/* Per channel, two bytes to be maxed over the host (NULL: out of memory):
 * whether this process may announce a send on it, and the largest
 * element of its messages there (the wire's padding, mpi_rt.h). */
static unsigned char *announcing_channels(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    unsigned char *mine = calloc(2 * (size_t)(d->nchannels ? d->nchannels : 1), 1);
    int shared = rt->mem.size > 0;     /* else a control page alone */
    for (int i = 0; mine && i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        if (shared && may_announce(m, rt->host.direct_min_strided))
            mine[2 * m->channel] = 1;
        for (int k = 0; k < m->nitems; k++)
            if (m->items[k].type->base != MDL_T_STRUCT && m->items[k].type->size > mine[2 * m->channel + 1])
                mine[2 * m->channel + 1] = (unsigned char)m->items[k].type->size;
    }
    return mine;
}

/* The SIGTERM line's words (rt_stop_share): this process's and its n host
 * peers', in their control pages; out of memory, none (the fixed pause). */
static void share_said(mdl_rt *rt, int n)
{
    unsigned **peers = malloc(sizeof *peers * (size_t)(n ? n : 1));
    int k = 0;
    for (int r = 0; peers && r < rt->job.world_size; r++)
        if (rt->host.peer_base[r])
            peers[k++] = &ctl_of(rt->host.peer_base[r], rt->host.peer_size[r])->said;
    if (peers && k == n)
        rt_stop_share(&rt->mem.ctl->said, peers, n);
    free(peers);
}

/* Collective over the job: every process of a host maps the task struct
 * and control page of every other one, or none of them does (then every
 * message of the host goes through MPI).  A process without a memfd
 * (MDL_MPI_DIRECT=0, none to be had) takes part and says no; one with a
 * control page alone (a caller's object not aliased) maps its peers and
 * is mapped, but announces nothing. */
int mpi_direct_start(mdl_rt *rt, const char *fn)
{
    MPI_Comm node;
    int rc = mpi_host_comm(rt, fn, &node);
    if (rc)
        return rc;
    int nsize = 0, me = 0, nchan = rt->c.d->nchannels;
    rt->host.direct_min_strided = mpi_direct_min_strided();
    MPI_Comm_size(node, &nsize);
    MPI_Comm_rank(node, &me);
    enum { OK, PID, FD, SIZE, HEAP, RANK, N };
    long long mine[N] = { rt->mem.fd >= 0, (long long)getpid(), rt->mem.fd,
                          (long long)rt->mem.size, (long long)rt->mem.heap, rt->job.world_rank };
    long long *all = malloc(sizeof mine * (size_t)nsize);
    if (!all) {
        MPI_Comm_free(&node);
        return rt_fail_oom(rt, fn);
    }
    rc = MPI_Allgather(mine, N, MPI_LONG_LONG, all, N, MPI_LONG_LONG, node);
    int ok = rc == MPI_SUCCESS && nsize > 1;
    for (int i = 0; ok && i < nsize; i++)
        ok = all[N * i + OK] != 0;
    if (ok && !(rt->host.peer_base = calloc((size_t)rt->job.world_size, sizeof *rt->host.peer_base)))
        ok = 0;
    if (ok && !(rt->host.peer_size = calloc((size_t)rt->job.world_size, sizeof *rt->host.peer_size)))
        ok = 0;
    if (ok && !(rt->host.peer_span = calloc((size_t)rt->job.world_size, sizeof *rt->host.peer_span)))
        ok = 0;
    if (ok && !(rt->host.peer_sched = malloc(sizeof *rt->host.peer_sched * (size_t)rt->job.world_size)))
        ok = 0;
    for (int r = 0; ok && r < rt->job.world_size; r++)
        rt->host.peer_sched[r] = -1;
    for (int i = 0; ok && i < nsize; i++) {
        if (i == me)
            continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/%lld/fd/%lld", all[N * i + PID], all[N * i + FD]);
        int fd = open(path, O_RDWR | O_CLOEXEC);
        size_t size = (size_t)all[N * i + SIZE], heap = (size_t)all[N * i + HEAP];
        int peer = (int)all[N * i + RANK];
        /* the file that process said, whole (a reused pid would show) */
        struct stat st;
        void *p = MAP_FAILED;
        if (fd >= 0 && fstat(fd, &st) == 0 && (size_t)st.st_size == size + CTL_BYTES + heap)
            p = map_peer(fd, size, heap);
        if (fd >= 0)
            close(fd);
        if (p == MAP_FAILED) {
            ok = 0;
            break;
        }
        rt->host.peer_base[peer] = p;
        rt->host.peer_size[peer] = size;
        rt->host.peer_span[peer] = heap ? size + CTL_BYTES + heap : size;
        snprintf(path, sizeof path, "/proc/%lld/schedstat", all[N * i + PID]);
        rt->host.peer_sched[peer] = open(path, O_RDONLY | O_CLOEXEC);
    }
    /* all or nothing: the peers' fds stay open until everyone has mapped */
    int all_ok = 0;
    unsigned char *announcing = ok ? announcing_channels(rt) : NULL;
    unsigned char *host = calloc(2 * (size_t)(nchan ? nchan : 1), 1);
    if (!announcing || !host || !(rt->host.wire_bytes = calloc((size_t)(nchan ? nchan : 1), 1)))
        ok = 0;
    int rc2 = MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, node);
    /* the channels on which a receive of this process may get an
     * announcement, and its bytes there */
    if (rc2 == MPI_SUCCESS && all_ok)
        rc2 = MPI_Allreduce(announcing, host, 2 * (nchan ? nchan : 1), MPI_UNSIGNED_CHAR,
                            MPI_MAX, node);
    for (int c = 0; rc2 == MPI_SUCCESS && all_ok && c < nchan; c++)
        rt->host.wire_bytes[c] =
            host[2 * c] ? (host[2 * c + 1] > MPI_DIRECT_WIRE_MIN ? host[2 * c + 1] : MPI_DIRECT_WIRE_MIN)
                        : 0;
    free(host);
    free(announcing);
    free(all);
    if (rt->mem.fd >= 0) {
        close(rt->mem.fd);
        rt->mem.fd = -1;
    }
    MPI_Comm_free(&node);
    if (rc2 != MPI_SUCCESS || !all_ok) {
        mpi_direct_unmap_peers(rt);
        free(rt->host.wire_bytes);
        rt->host.wire_bytes = NULL;
    } else {
        mpi_direct_ctl *ctl = rt->mem.ctl;
        rt->host.nfree_slots = 0;
        rt->host.nheld_slots = 0;
        /* generations begin apart from small numbers, which a message of
         * the wrong size is likelier to hold than an announcement's word */
        uint64_t seed = (uint64_t)getpid() * UINT64_C(0x9e3779b1);
        for (int k = MPI_DIRECT_SLOTS - 1; k >= 0; k--) {
            rt->host.free_slots[rt->host.nfree_slots++] = k;
            rt->host.slot_gen[k] = (seed + (uint64_t)k * UINT64_C(0x85ebca6b)) & UINT32_MAX;
        }
        rt_block_shared = &ctl->blocked;
        mpi_recv_shared = &ctl->receiving;
        rt->host.announces = rt->mem.size > 0;
        share_said(rt, nsize - 1);
    }
    if (rc != MPI_SUCCESS)
        return mpi_fail(rt, fn, rc, "MPI_Allgather");
    return rc2 == MPI_SUCCESS ? 0 : mpi_fail(rt, fn, rc2, "MPI_Allreduce");
}

/* The messages of the announcing channels: their wire bytes; the
 * receives among them that may get an announcement (noted, mpi_rt.h);
 * the channels are forgotten. */
void mpi_direct_receives(mdl_rt *rt)
{
    const mdl_task_desc *d = rt->c.d;
    for (int i = 0; rt->host.wire_bytes && i < d->nmsgs; i++) {
        const mdl_msg_desc *m = d->msgs[i];
        int basic = !m->is_send;
        for (int k = 0; basic && k < m->nitems; k++)
            basic = m->items[k].type->base != MDL_T_STRUCT;
        rt->msgs[i].direct.wire = rt->host.wire_bytes[m->channel];
        rt->msgs[i].direct.noted = basic && rt->msgs[i].direct.wire;
    }
    free(rt->host.wire_bytes);
    rt->host.wire_bytes = NULL;
}

int mpi_direct_reserve(mdl_rt *rt, const mdl_msg_desc *m, int cap)
{
    mpi_msg_direct *dx = &rt->msgs[m->index].direct;
    int was = dx->cap, ok = 1;
    if (rt->host.peer_base && m->is_send) {
        struct mpi_direct_out **n = realloc(dx->notes, sizeof *n * (size_t)cap);
        if ((ok = n != NULL)) {
            memset(n + was, 0, sizeof *n * (size_t)(cap - was));
            dx->notes = n;
        }
    }
    if (ok && dx->noted) {
        rt_layout *p = realloc(dx->posted, sizeof *p * (size_t)cap);
        if ((ok = p != NULL))
            dx->posted = p;
        size_t nspans = (size_t)cap * (size_t)(m->nitems ? m->nitems : 1);
        mdl_span *sp = ok ? realloc(dx->posted_spans, sizeof *sp * nspans) : NULL;
        if ((ok = sp != NULL))
            dx->posted_spans = sp;
        unsigned char *x = ok ? realloc(dx->early, (size_t)cap) : NULL;
        if ((ok = x != NULL))
            dx->early = x;
        /* buffers of their own: MPI writes into those in flight */
        unsigned char **o = ok ? realloc(dx->own, sizeof *o * (size_t)cap) : NULL;
        if ((ok = o != NULL)) {
            memset(o + was, 0, sizeof *o * (size_t)(cap - was));
            dx->own = o;
        }
    }
    if (ok)
        dx->cap = cap;
    return ok;
}

/* The one-copy arrays of every message (MDL_End has completed its
 * requests). */
static void msgs_free(mdl_rt *rt)
{
    for (int i = 0; rt->msgs && i < rt->c.d->nmsgs; i++) {
        mpi_msg_direct *dx = &rt->msgs[i].direct;
        free(dx->notes);
        free(dx->posted);
        free(dx->posted_spans);
        free(dx->early);
        for (int k = 0; dx->own && k < dx->cap; k++)
            free(dx->own[k]);
        free(dx->own);
        *dx = (mpi_msg_direct){ 0 };
    }
}

void mpi_direct_unmap_peers(mdl_rt *rt)
{
    for (int r = 0; rt->host.peer_base && r < rt->job.world_size; r++)
        if (rt->host.peer_base[r]) {
            size_t all = rt->host.peer_size[r] + CTL_BYTES;
            munmap(rt->host.peer_base[r], rt->host.peer_span[r] > all ? rt->host.peer_span[r] : all);
        }
    for (int r = 0; rt->host.peer_sched && r < rt->job.world_size; r++)
        if (rt->host.peer_sched[r] >= 0)
            close(rt->host.peer_sched[r]);
    free(rt->host.peer_base);
    free(rt->host.peer_size);
    free(rt->host.peer_span);
    free(rt->host.peer_sched);
    rt->host.peer_sched = NULL;
    rt->host.announces = 0;
    rt->host.peer_base = NULL;
    rt->host.peer_size = NULL;
    rt->host.peer_span = NULL;
}

void mpi_direct_free(mdl_rt *rt)
{
    rt_stop_share(NULL, NULL, 0);       /* before the control pages go */
    msgs_free(rt);
    rt_block_unshare();
    mpi_recv_shared = &recv_unshared;
    if (rt->mem.fd >= 0)       /* MDL_Init failed before the host mapped it */
        close(rt->mem.fd);
    rt->mem.fd = -1;
    free(rt->host.wire_bytes);
    rt->host.wire_bytes = NULL;
    mpi_direct_unmap_peers(rt);
    mpi_buffered_pool_free(&rt->host.spares);
    free(rt->host.unpack);
    rt->host.unpack = NULL;
    rt->host.unpack_cap = 0;
    if (rt->mem.mapped && rt->c.task)
        munmap(rt->c.task, rt->mem.mapped);
    rt->mem.mapped = 0;
    if (rt->mem.alias)
        unalias(rt);
    if (rt->mem.ctl_only)
        munmap(rt->mem.ctl_only, CTL_BYTES);
    rt->mem.ctl_only = NULL;
    rt->mem.ctl = NULL;
}

/* The announcement of m laid out as lay, or 0 when m is not one section
 * of the struct (those go through MPI). */
static int make_note(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay,
                     mpi_direct_note *n)
{
    /* one item of a basic type: its layout has no padding, so the
     * announcement's bytes are where the receiver's layout begins; a
     * run-time-sized variable's when its storage is in the file's heap
     * (mpi_sized.c) */
    if (m->nitems != 1 || m->items[0].type->base == MDL_T_STRUCT)
        return 0;
    const mdl_span *sp = &lay->spans[0];
    if (m->items[0].is_pointer &&
        (m->items[0].rtvar < 0 || !rt->mem.heap || (uintptr_t)sp->base < rt->mem.heap_lo ||
         (uintptr_t)sp->base - rt->mem.heap_lo >= rt->mem.heap))
        return 0;
    memset(n, 0, sizeof *n);
    n->bytes = lay->bytes;
    n->offset = (uint64_t)(sp->base - (char *)rt->c.task);
    n->block = sp->block;
    n->nloops = sp->nloops;
    for (int d = 0; d < sp->nloops; d++) {
        n->count[d] = sp->count[d];
        n->stride[d] = sp->stride[d];
    }
    return 1;
}

/* The span an announcement describes, based at `base` (a struct of
 * `size` bytes), if it lies inside. */
static int note_span(const mpi_direct_note *n, char *base, size_t size, mdl_span *sp)
{
    if (n->nloops < 0 || n->nloops > MDL_MAX_DIMS || n->offset > size)
        return 0;
    uint64_t end = n->offset + n->block, bytes = n->block;
    for (int d = 0; d < n->nloops; d++) {
        if (n->count[d] <= 0 || n->stride[d] < 0)
            return 0;
        end += (uint64_t)(n->count[d] - 1) * (uint64_t)n->stride[d];
        bytes *= (uint64_t)n->count[d];
    }
    if (end > size || bytes != n->bytes)
        return 0;
    memset(sp, 0, sizeof *sp);
    sp->base = base + n->offset;
    sp->block = n->block;
    sp->nloops = (int)n->nloops;
    for (int d = 0; d < sp->nloops; d++) {
        sp->count[d] = n->count[d];
        sp->stride[d] = n->stride[d];
    }
    sp->bytes = n->bytes;
    return 1;
}

/* ---------------------------------------------------------------- sender */

static uint64_t *own_slot(mdl_rt *rt, const mpi_direct_note *n)
{
    return &rt->mem.ctl->slot[n->slot];
}

/* The function an error of m's send names: the send, or its Wait/Test. */
static const char *send_fn(const mdl_msg_desc *m, int wait, char *buf, size_t len)
{
    return m->async ? rt_completion_fn(m, wait, buf, len) : m->fn;
}

/* The slot withdrawn: the data goes through MPI, from a copy (the one
 * MPICH's eager path would make: the sender must not wait for a receiver
 * that may not come), in a buffer reused from earlier withdrawals. */
static int withdraw(mdl_rt *rt, const mdl_msg_desc *m, int wait, const struct mpi_direct_out *o)
{
    char fn[160];
    mpi_buffered_reap(&rt->host.withdrawn, &rt->host.spares);
    mdl_span sp;
    if (!note_span(&o->note, rt->c.task, own_span(rt), &sp))
        return rt_fail(rt, send_fn(m, wait, fn, sizeof fn), MDL_ERR_INTERN,
                       "a large message's layout was lost");
    mpi_buffered *x = mpi_buffered_get(&rt->host.spares, o->note.bytes);
    if (!x)
        return rt_fail_oom(rt, send_fn(m, wait, fn, sizeof fn));
    mdl_spans_pack(&sp, 1, x->data);
    int dest = (int)o->note.dest, tag = rt->tags.withdrawn + (int)o->note.channel;
    int mpirc = MPI_Isend(x->data, (int)o->note.bytes, MPI_BYTE, dest, tag, rt->job.world,
                          &x->req);
    if (mpirc != MPI_SUCCESS) {
        mpi_buffered_keep(&rt->host.spares, x);
        return mpi_fail(rt, send_fn(m, wait, fn, sizeof fn), mpirc, "MPI_Isend");
    }
    x->tag = tag;
    x->m = m;
    x->dest = dest;
    mpi_buffered_append(&rt->host.withdrawn, x);
    return 0;
}

/* The time host peer `rank` has spent on a CPU (seconds), from its
 * /proc/<pid>/schedstat; 0: unreadable (the file is then closed, and the
 * wall clock counts for that peer from there on). */
static int peer_cpu_seconds(mdl_rt *rt, int rank, double *s)
{
    int fd = rt->host.peer_sched[rank];
    char buf[96];
    ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;
    if (n > 0) {
        buf[n] = 0;
        char *end;
        unsigned long long ns = strtoull(buf, &end, 10);
        if (end != buf) {
            *s = 1e-9 * (double)ns;
            return 1;
        }
    }
    if (fd >= 0)
        close(fd);
    rt->host.peer_sched[rank] = -1;
    return 0;
}

/* Whether o is to be withdrawn: its receiver has been blocked in one call
 * other than a receive the announcement matches (that one completes when
 * MPI delivers it, however long MPI takes: a first connection, a busy
 * machine) for MPI_DIRECT_STUCK_US of its own time on a CPU (a receiver spinning in
 * MPI runs; one that waits for a CPU does not, and is only late), or has
 * not taken the slot for MPI_DIRECT_LAST_RESORT_US whatever it does: it
 * may be inside an MPI call of the program's own, waiting for what this
 * process sends next, which nothing shows.  That bound is long so that a
 * receiver that is only computing is waited for as MPICH's rendezvous
 * would; a withdrawal after it costs a pack and MPI's transfer, a few per
 * cent of the second already waited. */
static int receiver_stuck(mdl_rt *rt, struct mpi_direct_out *o)
{
    double t = mdl_mono_seconds();
    if (t - o->sent_at >= 1e-6 * MPI_DIRECT_LAST_RESORT_US)
        return 1;
    int dest = (int)o->note.dest;
    unsigned long b = __atomic_load_n(
        &ctl_of(rt->host.peer_base[dest], rt->host.peer_size[dest])->blocked, __ATOMIC_RELAXED);
    if (b == 0) {
        o->seen = 0;
        return 0;
    }
    const mpi_recv_blocked *r = &ctl_of(rt->host.peer_base[dest],
                                        rt->host.peer_size[dest])->receiving;
    if (__atomic_load_n(&r->block, __ATOMIC_ACQUIRE) == b &&
        mpi_recv_awaits(__atomic_load_n(&r->from, __ATOMIC_RELAXED), rt->job.world_rank,
                        (int)o->note.channel)) {
        o->seen = 0;    /* in the receive this announcement completes: it will copy */
        return 0;
    }
    double clock = t;
    int cpu = rt->host.peer_sched[dest] >= 0 && peer_cpu_seconds(rt, dest, &clock);
    if (b != o->seen || cpu != o->seen_cpu) {
        o->seen = b;
        o->seen_at = clock;
        o->seen_cpu = cpu;
        return 0;
    }
    return clock - o->seen_at >= 1e-6 * MPI_DIRECT_STUCK_US;
}

/* 1 when o is complete (copied by the receiver, or withdrawn and sent
 * through MPI), 0 when not yet and !block, or an error. */
static int out_progress(mdl_rt *rt, const mdl_msg_desc *m, int wait, struct mpi_direct_out *o,
                        int block, mpi_progress_fn *progress)
{
    uint64_t *w = own_slot(rt, &o->note), gen = o->note.gen;
    int rc = 0, blocked = 0;
    for (;;) {
        uint64_t v = __atomic_load_n(w, __ATOMIC_ACQUIRE);
        if (v == SLOT_WORD(gen, SLOT_DONE)) {
            rc = 1;
            break;
        }
        if (v == SLOT_WORD(gen, SLOT_POSTED) && receiver_stuck(rt, o)) {
            uint64_t want = SLOT_WORD(gen, SLOT_POSTED);
            if (__atomic_compare_exchange_n(w, &want, SLOT_WORD(gen, SLOT_WITHDRAWN), 0,
                                            __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                /* a failed withdrawal keeps its slot: the receiver may still
                 * wait for the data on it */
                rc = withdraw(rt, m, wait, o);
                if (rc < 0)
                    goto out;
                rt->host.held_slots[rt->host.nheld_slots++] = (int)o->note.slot;
                rc = 1;
                goto out;
            }
            continue;
        }
        if (!block)
            break;
        if (!blocked) {
            rt_block_begin();   /* a sender waiting for its receiver is blocked */
            blocked = 1;
        }
        /* MPI's progress for the rest of the program meanwhile, and the
         * copies this process owes: its receiver may be waiting for one */
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, rt->job.world, &flag, MPI_STATUS_IGNORE);
        progress(rt);
    }
    if (rc > 0)
        rt->host.free_slots[rt->host.nfree_slots++] = (int)o->note.slot;
out:
    if (blocked)
        rt_block_end();
    return rc;
}

/* The withdrawn slots whose receivers have read their announcements,
 * free again. */
static void reclaim_held(mdl_rt *rt)
{
    int kept = 0;
    for (int i = 0; i < rt->host.nheld_slots; i++) {
        int k = rt->host.held_slots[i];
        if (__atomic_load_n(&rt->mem.ctl->slot[k], __ATOMIC_ACQUIRE) ==
            SLOT_WORD(rt->host.slot_gen[k], SLOT_DONE))
            rt->host.free_slots[rt->host.nfree_slots++] = k;
        else
            rt->host.held_slots[kept++] = k;
    }
    rt->host.nheld_slots = kept;
}

int mpi_direct_send(mdl_rt *rt, const mdl_msg_desc *m, const rt_layout *lay, int dest,
                    mpi_progress_fn *progress)
{
    struct mpi_direct_out local, *o = &local;
    int wire = rt->msgs[m->index].direct.wire;
    if (rt->host.nfree_slots == 0)
        reclaim_held(rt);
    if (!wire || rt->host.nfree_slots == 0 || !make_note(rt, m, lay, &local.note))
        return 1;
    /* async: the announcement must live until completion: a buffer of its
     * own (notes may move when it grows) */
    if (m->async && !(o = malloc(sizeof *o)))
        return rt_fail_oom(rt, m->fn);
    if (o != &local)
        o->note = local.note;
    int slot = rt->host.free_slots[--rt->host.nfree_slots];
    o->note.slot = (uint64_t)slot;
    o->note.gen = ++rt->host.slot_gen[slot];
    o->note.dest = dest;
    o->note.channel = m->channel;
    o->seen = 0;
    o->seen_at = 0;
    o->seen_cpu = 0;
    o->sent_at = mdl_mono_seconds();
    uint32_t word = (uint32_t)slot | ((uint32_t)o->note.gen & WIRE_GEN_MASK) << WIRE_SLOT_BITS;
    memset(o->wire, 0, sizeof o->wire);
    memcpy(o->wire, &word, sizeof word);
    /* the announcement's rest where its receiver reads it, published with
     * the slot */
    rt->mem.ctl->note[slot] = o->note;
    __atomic_store_n(own_slot(rt, &o->note), SLOT_WORD(o->note.gen, SLOT_POSTED),
                     __ATOMIC_RELEASE);
    int mpirc;
    if (!m->async) {
        rt_block_begin();
        mpirc = MPI_Send(o->wire, wire, MPI_BYTE, dest, m->channel, rt->job.world);
        rt_block_end();
        if (mpirc != MPI_SUCCESS)
            return mpi_fail(rt, m->fn, mpirc, "MPI_Send");
        mpi_count_sent(rt, dest);
        int rc = out_progress(rt, m, 1, o, 1, progress);
        return rc < 0 ? rc : MDL_SUCCESS;
    }
    mpi_msg_reqs *rq = &rt->msgs[m->index].reqs;
    mpi_msg_direct *dx = &rt->msgs[m->index].direct;
    int k = rq->n;
    mpirc = MPI_Isend(o->wire, wire, MPI_BYTE, dest, m->channel, rt->job.world, &rq->reqs[k]);
    if (mpirc != MPI_SUCCESS) {
        rt->host.free_slots[rt->host.nfree_slots++] = slot;
        free(o);
        return mpi_fail(rt, m->fn, mpirc, "MPI_Isend");
    }
    mpi_count_sent(rt, dest);
    rq->send_dest[k] = dest;
    dx->notes[k] = o;
    rq->n++;
    dx->nnotes++;
    return MDL_SUCCESS;
}

/* In order, and no further than the first not complete: the withdrawn
 * messages of one channel and receiver must leave in the order of their
 * announcements, which is the order their receiver takes them in. */
int mpi_direct_sends_done(mdl_rt *rt, const mdl_msg_desc *m, int wait, int block,
                          mpi_progress_fn *progress)
{
    mpi_msg_direct *dx = &rt->msgs[m->index].direct;
    for (int k = 0; k < rt->msgs[m->index].reqs.n; k++) {
        if (!dx->notes[k])
            continue;
        int rc = out_progress(rt, m, wait, dx->notes[k], block, progress);
        if (rc == 0)
            return 0;
        free(dx->notes[k]);     /* complete, or failed: not waited for again */
        dx->notes[k] = NULL;
        dx->nnotes--;
        if (rc < 0)
            return rc;
    }
    return 1;
}

void mpi_direct_release(mpi_msg_direct *dx, int n)
{
    for (int i = 0; dx->nnotes && i < n; i++) {
        dx->nnotes -= dx->notes[i] != NULL;
        free(dx->notes[i]);
        dx->notes[i] = NULL;
    }
}

void mpi_direct_name_pending(mdl_rt *rt)
{
    if (!rt->host.withdrawn) {
        rt_enter_end(NULL, NULL, 0);
        return;
    }
    int inst = rt->job.inst_of[rt->host.withdrawn->dest];
    rt_enter_end(rt->host.withdrawn->m, &inst, 1);
}

void mpi_direct_flush(mdl_rt *rt)
{
    while (rt->host.withdrawn) {
        mpi_buffered *x = rt->host.withdrawn;
        mpi_direct_name_pending(rt);
        rt_block_begin();
        MPI_Wait(&x->req, MPI_STATUS_IGNORE);
        rt_block_end();
        rt->host.withdrawn = x->next;
        free(x);
    }
}

/* ---------------------------------------------------------------- receiver */

/* The first bytes of a receive's layout, where an announcement lands. */
static void read_head(const mdl_span *spans, int n, void *out, size_t len)
{
    mdl_run_iter r;
    mdl_run_iter_init(&r, spans, n);
    char *p, *o = out;
    size_t run;
    while (len && mdl_next_run(&r, &p, &run)) {
        size_t k = run < len ? run : len;
        memcpy(o, p, k);
        o += k;
        len -= k;
    }
}

/* A withdrawn message: received through MPI, straight into its place if
 * that is one contiguous run, else into a buffer kept for the next ones
 * and unpacked (the copy MPI would make of a datatype); dropped if it does
 * not fit. */
static int recv_withdrawn(mdl_rt *rt, const char *fn, const mdl_msg_desc *m, int src,
                          const mpi_direct_note *n, const mdl_span *spans, int fits)
{
    int in_place = fits && m->nitems == 1 && spans[0].nloops == 0;
    size_t need = n->bytes ? n->bytes : 1;
    if (!in_place && rt->host.unpack_cap < need) {
        free(rt->host.unpack);
        rt->host.unpack_cap = 0;
        if (!(rt->host.unpack = malloc(need)))
            return rt_fail_oom(rt, fn);
        rt->host.unpack_cap = need;
    }
    char *to = in_place ? spans[0].base : rt->host.unpack;
    rt_block_begin();
    int mpirc = MPI_Recv(to, (int)n->bytes, MPI_BYTE, src, rt->tags.withdrawn + m->channel,
                         rt->job.world, MPI_STATUS_IGNORE);
    rt_block_end();
    if (mpirc == MPI_SUCCESS && fits && !in_place) {
        uint64_t c0 = rt_trace_copy_begin(rt->c.tr);
        mdl_spans_unpack(spans, m->nitems, to);
        rt_trace_copy_end(rt->c.tr, c0);
    }
    return mpirc == MPI_SUCCESS ? 0 : mpi_fail(rt, fn, mpirc, "MPI_Recv");
}

/* The announcement whose wire word is `word`, from world rank src, a host
 * peer, for a receive of m: its slot's word and the announcement there,
 * read into *n (0: the word finds no announcement to this process on m's
 * channel; the bytes were a message, of the wrong size).  The slot is
 * held for this receiver until it marks it DONE, so what is read is its
 * announcement whenever the slot is still POSTED when it is taken, and
 * whatever the slot says once WITHDRAWN. */
static uint64_t find_note(mdl_rt *rt, const mdl_msg_desc *m, int src, uint32_t word,
                          mpi_direct_note *n)
{
    uint32_t slot = word & ((UINT32_C(1) << WIRE_SLOT_BITS) - 1);
    if (slot >= MPI_DIRECT_SLOTS)
        return 0;
    mpi_direct_ctl *ctl = ctl_of(rt->host.peer_base[src], rt->host.peer_size[src]);
    uint64_t v = __atomic_load_n(&ctl->slot[slot], __ATOMIC_ACQUIRE);
    int state = (int)(v & 3);
    if (((v >> 2) & WIRE_GEN_MASK) != word >> WIRE_SLOT_BITS ||
        (state != SLOT_POSTED && state != SLOT_WITHDRAWN))
        return 0;
    memcpy(n, (const void *)&ctl->note[slot], sizeof *n);
    if (n->slot != slot || n->gen != v >> 2 || n->dest != rt->job.world_rank ||
        n->channel != m->channel)
        return 0;
    return v;
}

/* The announcement found (find_note: its slot's word v, itself n) from
 * world rank src for a receive of m whose layout is `spans`, `total`
 * bytes (spans unused if the message does not fit): taken, then copied
 * if it fits, or received through MPI if withdrawn; its sender is
 * released either way. */
static int take(mdl_rt *rt, const char *fn, const mdl_msg_desc *m, int src, uint64_t v,
                const mpi_direct_note *n, const mdl_span *spans, size_t total, int copy)
{
    mdl_span from;
    int bad = !note_span(n, rt->host.peer_base[src], rt->host.peer_span[src], &from);
    if (copy == MPI_DIRECT_EARLY && (bad || n->bytes != total))
        return 1;               /* for the receive's own Wait or Test to report */
    if (bad)
        return rt_fail(rt, fn, MDL_ERR_INTERN, "a large message from %s[%d] was announced "
                       "outside its sender's memory", rt->c.d->tasks[rt->job.task_of[src]],
                       rt->job.inst_of[src]);
    int fits = copy && n->bytes == total, rc = 0;
    uint64_t *w = &ctl_of(rt->host.peer_base[src], rt->host.peer_size[src])->slot[n->slot];
    uint64_t want = SLOT_WORD(n->gen, SLOT_POSTED);
    if ((v & 3) == SLOT_POSTED &&
        __atomic_compare_exchange_n(w, &want, SLOT_WORD(n->gen, SLOT_COPYING), 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        if (fits) {
            uint64_t c0 = rt_trace_copy_begin(rt->c.tr);
            mdl_spans_copy(spans, m->nitems, &from, 1);
            rt_trace_copy_end(rt->c.tr, c0);
        }
        /* the sender is released whatever the outcome, as on shm */
        __atomic_store_n(w, SLOT_WORD(n->gen, SLOT_DONE), __ATOMIC_RELEASE);
    } else if (copy == MPI_DIRECT_EARLY) {
        return 1;               /* withdrawn: the receive's Wait receives it */
    } else {
        /* withdrawn (n read whole: the slot is held until this DONE) */
        __atomic_store_n(w, SLOT_WORD(n->gen, SLOT_DONE), __ATOMIC_RELEASE);
        rc = recv_withdrawn(rt, fn, m, src, n, spans, fits);
    }
    if (rc || copy != MPI_DIRECT_COPY)
        return rc;
    if (n->bytes != total)
        return rt_fail_size(rt, fn, rt->job.task_of[src], rt->job.inst_of[src], n->bytes,
                            rt->msgs[m->index].types.layout_bytes);
    return 0;
}

static int from_host_peer(const mdl_rt *rt, const MPI_Status *st)
{
    return st->MPI_SOURCE >= 0 && st->MPI_SOURCE < rt->job.world_size && rt->host.peer_base[st->MPI_SOURCE];
}

int mpi_direct_recv(mdl_rt *rt, const char *fn, const mdl_msg_desc *m, const MPI_Status *st,
                    const mdl_span *spans, int copy)
{
    if (!from_host_peer(rt, st))
        return 1;
    size_t total = 0;
    for (int i = 0; i < m->nitems; i++) {
        if (m->items[i].type->base == MDL_T_STRUCT)
            return 1;       /* never announced: see make_note */
        total += spans[i].bytes;
    }
    uint32_t word;
    if (total < sizeof word)
        return 1;
    read_head(spans, m->nitems, &word, sizeof word);
    mpi_direct_note n;
    uint64_t v = find_note(rt, m, st->MPI_SOURCE, word, &n);
    return v ? take(rt, fn, m, st->MPI_SOURCE, v, &n, spans, total, copy) : 1;
}

int mpi_direct_is_note(mdl_rt *rt, const mdl_msg_desc *m, const MPI_Status *st, const void *got,
                       mpi_direct_found *found)
{
    uint32_t word;
    memcpy(&word, got, sizeof word);
    found->slot_word =
        from_host_peer(rt, st) ? find_note(rt, m, st->MPI_SOURCE, word, &found->note) : 0;
    return found->slot_word != 0;
}

int mpi_direct_recv_small(mdl_rt *rt, const char *fn, const mdl_msg_desc *m,
                          const MPI_Status *st, const void *got, size_t total, int copy,
                          const mpi_direct_found *found)
{
    if (found && found->slot_word)
        return take(rt, fn, m, st->MPI_SOURCE, found->slot_word, &found->note, NULL, total,
                    copy);
    if (!from_host_peer(rt, st))
        return 1;
    uint32_t word;
    mpi_direct_note n;
    memcpy(&word, got, sizeof word);
    uint64_t v = find_note(rt, m, st->MPI_SOURCE, word, &n);
    return v ? take(rt, fn, m, st->MPI_SOURCE, v, &n, NULL, total, copy) : 1;
}
