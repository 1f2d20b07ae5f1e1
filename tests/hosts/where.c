/* Where each rank runs: prints "rank R of N on HOST net NETNS shm SHMRANK"
 * and checks, with every other rank's answer, that the test hosts are
 * distinct: ranks with the same host name share a network namespace, ranks
 * on different hosts do not, and MPI_COMM_TYPE_SHARED groups exactly the
 * ranks of one host.  Then one message around the ring, carrying the rank.
 * Rank 0 prints "where: ok H hosts" or "where: FAIL ..." (exit 1).
 * Each line ends with "probe VALUE", the rank's MDL_HOSTS_PROBE ("-" when
 * unset), to check that the launcher passed the variable to every host. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LEN 64

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    char me[2 * LEN] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    char *host = me, *net = me + LEN;
    gethostname(host, LEN - 1);
    ssize_t k = readlink("/proc/self/ns/net", net, LEN - 1);
    if (k < 0)
        strcpy(net, "?");

    /* ranks of one host, as MPI sees it: lowest world rank of the group */
    MPI_Comm node;
    int first = rank;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, node);

    static char all[1024][2 * LEN];
    static int firsts[1024];
    if (size > 1024)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Allgather(me, 2 * LEN, MPI_CHAR, all, 2 * LEN, MPI_CHAR, MPI_COMM_WORLD);
    MPI_Allgather(&first, 1, MPI_INT, firsts, 1, MPI_INT, MPI_COMM_WORLD);

    const char *probe = getenv("MDL_HOSTS_PROBE");
    printf("rank %d of %d on %s net %s node %d probe %s\n", rank, size, host, net, first,
           probe && *probe ? probe : "-");
    fflush(stdout);

    int hosts = 0;
    for (int i = 0; i < size; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++) {
            int same_host = !strcmp(all[i], all[j]);
            int same_net = !strcmp(all[i] + LEN, all[j] + LEN);
            int same_node = firsts[i] == firsts[j];
            if (same_host != same_net || same_host != same_node) {
                if (rank == 0)
                    printf("where: FAIL ranks %d and %d: host %s/%s net %s/%s node %d/%d\n",
                           j, i, all[j], all[i], all[j] + LEN, all[i] + LEN, firsts[j], firsts[i]);
                bad = 1;
            }
            seen |= same_host;
        }
        hosts += !seen;
    }

    /* one token around the ring: every pair of neighbours can talk */
    int token = -1, next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(&rank, 1, MPI_INT, next, 7, &token, 1, MPI_INT, prev, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (token != prev) {
        printf("where: FAIL rank %d got %d from %d\n", rank, token, prev);
        bad = 1;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !bad)
        printf("where: ok %d hosts\n", hosts);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return bad;
}
