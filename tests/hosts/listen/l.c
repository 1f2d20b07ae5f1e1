/* The TCP sockets MDL_Init leaves listening (the liveness probe of the
 * SIGTERM line, docs/runtime-mpi.md, Faults): the program starts MPI
 * itself, so the sockets the MPI listens on are there before; those
 * listening after MDL_Init and not before are medley's, and MDL_End must
 * have closed them.  Prints "l[i]: MDL_Init listens on N, MDL_End leaves
 * M". */
#define _DEFAULT_SOURCE     /* DT_LNK */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "lMDL.h"

enum { MAX_FDS = 4096 };

/* listening[fd] = the inode of fd when it is a listening IPv4 or IPv6 socket */
static void listening(unsigned long *ino)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    for (int fd = 0; fd < MAX_FDS; fd++)
        ino[fd] = 0;
    while (d && (e = readdir(d))) {
        int fd = atoi(e->d_name), on = 0, dom = 0;
        socklen_t len = sizeof on, dlen = sizeof dom;
        struct stat st;
        if (e->d_name[0] == '.' || fd < 0 || fd >= MAX_FDS || fd == dirfd(d) ||
            fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode) ||
            getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &len) != 0 || !on ||
            getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &dlen) != 0 ||
            (dom != AF_INET && dom != AF_INET6))
            continue;
        ino[fd] = (unsigned long)st.st_ino;
    }
    if (d)
        closedir(d);
}

/* the listening sockets in now that were not in before */
static int added(const unsigned long *before, const unsigned long *now)
{
    int n = 0;
    for (int fd = 0; fd < MAX_FDS; fd++)
        n += now[fd] && now[fd] != before[fd];
    return n;
}

int main(int argc, char **argv)
{
    static unsigned long before[MAX_FDS], inited[MAX_FDS], ended[MAX_FDS];
    struct l *t;
    MPI_Init(&argc, &argv);
    listening(before);
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t);
    listening(inited);
    MDL_End(t);
    listening(ended);
    printf("l[%d]: MDL_Init listens on %d, MDL_End leaves %d\n", me, added(before, inited),
           added(before, ended));
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
