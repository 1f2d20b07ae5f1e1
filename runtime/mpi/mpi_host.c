/* mpi_host.c — which processes of the job share this process's host, by
 * medley's own identity of it, for the one-copy path (mpi_direct.c).
 *
 * MPI_COMM_TYPE_SHARED alone is not enough: MPI-3 lets it group
 * processes that do not share a kernel, and some MPI builds give every
 * process a communicator of its own on one host.  The one-copy path maps
 * a peer's memfd through /proc/<pid>/fd, which needs the same kernel and
 * the same pid namespace; so the host is named by the host name, the
 * boot id, the /dev/shm mount and the pid namespace, exchanged once.
 * The processes of one identity are then intersected with MPI's shared
 * communicator, unless that gave every one of them a communicator of its
 * own: then the identity alone groups them (the mapping checks each
 * peer's file anyway, all or nothing).  MDL_MPI_HOST, when set, is part
 * of the identity: processes that set different values are on different
 * hosts (the tests' "hosts" on one machine). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mpi_rt.h"

enum { IDENTITY_BYTES = 512 };

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

int mpi_host_comm(mdl_rt *rt, const char *fn, MPI_Comm *host)
{
    int n = rt->job.world_size, me = rt->job.world_rank;
    char mine[IDENTITY_BYTES];
    int known = host_identity(mine);
    char *all = malloc((size_t)n * IDENTITY_BYTES);
    if (!all)
        return rt_fail_oom(rt, fn);
    int rc = MPI_Allgather(mine, IDENTITY_BYTES, MPI_CHAR, all, IDENTITY_BYTES, MPI_CHAR,
                           rt->job.world);
    if (rc == MPI_SUCCESS)      /* the hosts a SIGTERM's line names */
        rt_stop_hosts(rt->c.d, rt->c.fam_size, n, rt->job.task_of, rt->job.inst_of, all,
                      IDENTITY_BYTES);
    /* the lowest world rank of this identity names the host */
    int color = me;
    for (int r = 0; known && rc == MPI_SUCCESS && r < me; r++)
        if (memcmp(all + (size_t)r * IDENTITY_BYTES, mine, IDENTITY_BYTES) == 0) {
            color = r;
            break;
        }
    free(all);
    if (rc != MPI_SUCCESS)
        return mpi_fail(rt, fn, rc, "MPI_Allgather");
    rt->job.host_leader = color;
    MPI_Comm same;
    rc = MPI_Comm_split(rt->job.world, color, me, &same);
    if (rc != MPI_SUCCESS)
        return mpi_fail(rt, fn, rc, "MPI_Comm_split");
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
