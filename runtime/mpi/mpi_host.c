/* mpi_host.c — which processes of the job share this process's host, by
 * medley's own identity of it, for the one-copy path (mpi_direct.c).
 *
 * MPI_COMM_TYPE_SHARED alone is not enough: MPI-3 lets it group
 * processes that do not share a kernel, and some MPI builds give every
 * process a communicator of its own on one host.  The one-copy path maps
 * a peer's memfd through /proc/<pid>/fd, which needs the same kernel and
 * the same pid namespace; so the host is named by the host name, the
 * boot id, the /dev/shm mount and the pid namespace.  The whole job
 * exchanges, per process, only the identity's 64-bit FNV-1a hash and the
 * host name in RT_HOST_NAME_BYTES, cut and NUL-terminated (72 bytes, not
 * the identity's 512: the name is for the SIGTERM line, rt_stop.c); the
 * processes of one hash and name then compare their identities with the
 * lowest rank's, and a group that
 * holds another identity (the hashes collided) is split again by the
 * identities themselves, so a collision never puts two hosts together.
 * The processes of one identity are then intersected with MPI's shared
 * communicator, unless that gave every one of them a communicator of its
 * own: then the identity alone groups them (the mapping checks each
 * peer's file anyway, all or nothing).  MDL_MPI_HOST, when set, is part
 * of the identity: processes that set different values are on different
 * hosts (the tests' "hosts" on one machine).  When the identities show
 * more than one host, the ports of the SIGTERM line's liveness probe
 * (api/rt_probe.c) are exchanged too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fnv.h"
#include "mpi_rt.h"

enum { IDENTITY_BYTES = 512 };

/* What each process sends the whole job at MDL_Init. */
typedef struct {
    uint64_t hash;                      /* of the identity (identity_hash) */
    char name[RT_HOST_NAME_BYTES];      /* host name, truncated, NUL-terminated */
} host_card;

/* This process's host identity into id (zeroed first); 0 when a part of
 * it could not be read (then the process is a host of its own). */
static int host_identity(char id[IDENTITY_BYTES])
{
    memset(id, 0, IDENTITY_BYTES);
    char name[256] = "", boot[64] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    int known = f && fgets(boot, sizeof boot, f) && gethostname(name, sizeof name - 1) == 0;
    if (f)
        fclose(f);
    struct stat shm, pidns;
    known = known && stat("/dev/shm", &shm) == 0 && stat("/proc/self/ns/pid", &pidns) == 0;
    if (!known)
        return 0;
    const char *tag = getenv("MDL_MPI_HOST");
    boot[strcspn(boot, "\n")] = 0;
    snprintf(id, IDENTITY_BYTES, "%s\n%s\n%llx\n%llx:%llx\n%.100s", name, boot,
             (unsigned long long)shm.st_dev, (unsigned long long)pidns.st_dev,
             (unsigned long long)pidns.st_ino, tag ? tag : "");
    return 1;
}

/* The hash of an identity.  MDL_TEST_ONLY_HOST_HASH, when set, is every
 * process's hash instead (a number): the tests' way to make hashes collide
 * (docs/runtime-mpi.md, "Which host"); nothing else reads it. */
static uint64_t identity_hash(const char id[IDENTITY_BYTES])
{
    const char *forced = getenv("MDL_TEST_ONLY_HOST_HASH");
    return forced ? strtoull(forced, NULL, 0) : mdl_fnv1a(MDL_FNV_OFFSET, id, IDENTITY_BYTES);
}

/* comm split by what its processes hold (size bytes each at mine): the
 * lowest rank of comm that holds the same names the group; a process that
 * does not know its identity (known 0) is a group of its own.  gathered,
 * when not NULL, receives what all of comm hold (rank by rank; the caller
 * frees it). */
static int split_alike(mdl_rt *rt, const char *fn, MPI_Comm comm, const void *mine, int size,
                       int known, MPI_Comm *out, void **gathered)
{
    int n, me;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    char *all = malloc((size_t)n * (size_t)size);
    if (!all)
        return rt_fail_oom(rt, fn);
    int rc = MPI_Allgather(mine, size, MPI_BYTE, all, size, MPI_BYTE, comm);
    int color = me;
    for (int r = 0; known && rc == MPI_SUCCESS && r < me; r++)
        if (memcmp(all + (size_t)r * (size_t)size, mine, (size_t)size) == 0) {
            color = r;
            break;
        }
    if (rc == MPI_SUCCESS && gathered) {
        *gathered = all;
        all = NULL;
    }
    free(all);
    if (rc != MPI_SUCCESS)
        return mpi_fail(rt, fn, rc, "MPI_Allgather");
    rc = MPI_Comm_split(comm, color, me, out);
    return rc == MPI_SUCCESS ? 0 : mpi_fail(rt, fn, rc, "MPI_Comm_split");
}

/* The processes of the job split by their cards (the hash of the identity,
 * and the host name, which is part of the identity); the host names
 * handed to rt_stop.c on the way, and every process's card into *all
 * (the caller frees it). */
static int split_by_hash(mdl_rt *rt, const char *fn, const char mine[IDENTITY_BYTES], int known,
                         MPI_Comm *by_hash, host_card **all)
{
    host_card card;
    memset(&card, 0, sizeof card);
    card.hash = identity_hash(mine);
    size_t len = strcspn(mine, "\n");
    memcpy(card.name, mine, len < sizeof card.name - 1 ? len : sizeof card.name - 1);
    int rc = split_alike(rt, fn, rt->job.world, &card, sizeof card, known, by_hash,
                         (void **)all);
    if (rc == 0)        /* the hosts a SIGTERM's line names */
        rt_stop_hosts(rt->c.d, rt->c.fam_size, rt->job.world_size, rt->job.task_of,
                      rt->job.inst_of, (*all)->name, sizeof **all);
    return rc;
}

/* The processes of the job with this process's identity: split by its
 * hash, then checked against the group's lowest rank's identity, and
 * split again by the identities when any differs.  *cards: every
 * process's card, as split_by_hash. */
static int same_identity(mdl_rt *rt, const char *fn, MPI_Comm *same, host_card **cards)
{
    char mine[IDENTITY_BYTES], first[IDENTITY_BYTES];
    int known = host_identity(mine);
    MPI_Comm by_hash;
    int rc = split_by_hash(rt, fn, mine, known, &by_hash, cards);
    if (rc)
        return rc;
    memcpy(first, mine, IDENTITY_BYTES);
    int mpirc = MPI_Bcast(first, IDENTITY_BYTES, MPI_BYTE, 0, by_hash);
    int differs = memcmp(first, mine, IDENTITY_BYTES) != 0, any = 0;
    if (mpirc == MPI_SUCCESS)
        mpirc = MPI_Allreduce(&differs, &any, 1, MPI_INT, MPI_MAX, by_hash);
    if (mpirc != MPI_SUCCESS) {
        MPI_Comm_free(&by_hash);
        return mpi_fail(rt, fn, mpirc, "MPI_Bcast/MPI_Allreduce");
    }
    if (!any) {
        *same = by_hash;
        return 0;
    }
    rc = split_alike(rt, fn, by_hash, mine, IDENTITY_BYTES, known, same, NULL);
    MPI_Comm_free(&by_hash);
    return rc;
}

/* What each process sends the whole job when it spans hosts: the port of
 * its probe, and its task's name, which the line names among the lost
 * (a task this one is not connected with is not in its descriptor). */
typedef struct {
    int port;
    char task[RT_TASK_NAME_BYTES];      /* cut, NUL-terminated */
} probe_card;

/* In a job that spans hosts (same, this process's identity, is not the
 * whole job: then no group is), the liveness probe of the SIGTERM line
 * (api/rt_probe.c): each process's port and task name exchanged; the
 * other hosts' addresses looked up by the lowest rank of each host alone
 * (a job of many processes a host would ask its name service as many
 * times) and shared with its host.  One host: no socket, no exchange. */
static int probe_hosts(mdl_rt *rt, const char *fn, MPI_Comm same, const host_card *cards)
{
    int n = rt->job.world_size, nsame, me_same;
    MPI_Comm_size(same, &nsame);
    MPI_Comm_rank(same, &me_same);
    if (nsame == n)
        return 0;
    int *port = malloc((3 * sizeof(int) + sizeof(uint32_t)) * (size_t)n);
    probe_card *all = malloc(sizeof *all * (size_t)n);
    if (!port || !all) {
        free(port);
        free(all);
        return rt_fail_oom(rt, fn);
    }
    int *apart = port + n, *here = apart + n;
    uint32_t *ipv4 = (uint32_t *)(here + n);
    /* every process takes part, even one that does not listen (port 0) */
    probe_card mine = { .port = rt_probe_listen(n) };
    strncpy(mine.task, rt->c.who.task, sizeof mine.task - 1);
    int rc = MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE,
                           rt->job.world);
    if (rc == MPI_SUCCESS) {
        for (int r = 0; r < n; r++)
            port[r] = all[r].port;
        rt_stop_task_names(n, all->task, sizeof *all);
        MPI_Group world_group, same_group;
        MPI_Comm_group(rt->job.world, &world_group);
        MPI_Comm_group(same, &same_group);
        for (int r = 0; r < n; r++)
            apart[r] = r;
        MPI_Group_translate_ranks(world_group, n, apart, same_group, here);
        MPI_Group_free(&same_group);
        MPI_Group_free(&world_group);
        for (int r = 0; r < n; r++)
            apart[r] = here[r] == MPI_UNDEFINED;
        if (me_same == 0)
            rt_probe_resolve(n, apart, port, cards->name, sizeof *cards, ipv4);
        rc = MPI_Bcast(ipv4, n, MPI_UINT32_T, 0, same);
    }
    if (rc == MPI_SUCCESS)
        rt_probe_peers(n, rt->job.world_rank, apart, port, ipv4);
    free(port);
    free(all);
    return rc == MPI_SUCCESS ? 0 : mpi_fail(rt, fn, rc, "MPI_Allgather/MPI_Bcast");
}

int mpi_host_comm(mdl_rt *rt, const char *fn, MPI_Comm *host)
{
    MPI_Comm same;
    host_card *cards = NULL;
    int rc = same_identity(rt, fn, &same, &cards);
    if (!rc && (rc = probe_hosts(rt, fn, same, cards)) != 0)
        MPI_Comm_free(&same);
    free(cards);
    if (rc)
        return rc;
    /* its rank 0 is the host's lowest world rank (split keyed by it) */
    MPI_Group world_group, same_group;
    int first = 0;
    MPI_Comm_group(rt->job.world, &world_group);
    MPI_Comm_group(same, &same_group);
    MPI_Group_translate_ranks(same_group, 1, &first, world_group, &rt->job.host_leader);
    MPI_Group_free(&same_group);
    MPI_Group_free(&world_group);
    rc = MPI_Comm_split_type(same, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, host);
    if (rc != MPI_SUCCESS) {
        MPI_Comm_free(&same);
        return mpi_fail(rt, fn, rc, "MPI_Comm_split_type");
    }
    int shared = 0, most = 0, nsame = 0;
    MPI_Comm_size(*host, &shared);
    MPI_Comm_size(same, &nsame);
    rc = MPI_Allreduce(&shared, &most, 1, MPI_INT, MPI_MAX, same);
    if (rc != MPI_SUCCESS) {
        MPI_Comm_free(&same);
        MPI_Comm_free(host);
        return mpi_fail(rt, fn, rc, "MPI_Allreduce");
    }
    if (most == 1 && nsame > 1) {
        MPI_Comm_free(host);
        *host = same;
    } else {
        MPI_Comm_free(&same);
    }
    return 0;
}
