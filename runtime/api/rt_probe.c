/* rt_probe.c — which processes of the other hosts are gone, for the line
 * of a process stopped by SIGTERM (rt_stop.c; docs/runtime-mpi.md, Faults).
 *
 * No launcher tells the survivors of a lost host which processes it lost
 * (Open MPI's PMIx delivers them no event: tests/hosts/README.md, Faults).
 * So, in a job that spans hosts, each process listens on a TCP port of its
 * own from MDL_Init on and never accepts nor reads: while the process
 * lives its kernel completes a connection to that port; once the process
 * is gone its kernel refuses one, and a host that is down answers nothing.
 * The transport exchanges the ports; the other hosts' addresses are
 * resolved at MDL_Init (here, by one process of each host, which the
 * transport has share them), and one probe to another host must succeed
 * there: else (a firewall, a name that resolves elsewhere) the line would
 * call every remote process lost, so it names none.  The SIGTERM handler
 * then connects to every process of the other hosts at once, within
 * PROBE_BOUND_MS in all, with async-signal-safe calls only (socket,
 * connect, poll, getsockopt, clock_gettime, close). */
#include "rt_layer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum {
    PROBE_BOUND_MS = 300,   /* all the probes of one SIGTERM, or of MDL_Init's check */
    PROBE_WAVE = 128,       /* sockets open at once: the process's descriptors are few */
    PROBE_MAX_PROCS = 1024  /* beyond, no probe: every survivor connects to every
                               remote process, each listener must queue them all */
};

static struct {
    int listener;               /* -1: none */
    int n;                      /* processes of the job */
    struct sockaddr_in *addr;   /* [n] sin_port 0: not probed (this host) */
    unsigned char *lost;        /* [n] the handler's answer */
    int on;                     /* the check at MDL_Init succeeded */
} probe = { .listener = -1 };

/* net.core.somaxconn: the kernel cuts listen's backlog to it. */
static long somaxconn(void)
{
    long v = 0;
    FILE *f = fopen("/proc/sys/net/core/somaxconn", "r");
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = 0;
        fclose(f);
    }
    return v;
}

int rt_probe_listen(int n)
{
    rt_probe_end();
    const char *v = getenv("MDL_LOST_PROBE");
    /* each listener queues, never accepted, a connection from every
     * process of the other hosts and at most n checks from MDL_Init */
    if ((v && strcmp(v, "0") == 0) || n > PROBE_MAX_PROCS || somaxconn() < 2L * n)
        return 0;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
    socklen_t len = sizeof a;
    if (fd < 0)
        return 0;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, SOMAXCONN) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        close(fd);
        return 0;
    }
    probe.listener = fd;
    return ntohs(a.sin_port);
}

static long long now_ms(void)
{
    return (long long)(mdl_mono_ns() / 1000000);
}

/* Connects to the processes ranks[0..k-1] at once, until all answered or
 * the deadline: lost[r] = 1 for one refused, unreachable or silent.
 * Signal-safe.  0, or -1 when one could not be tried (no descriptor, no
 * local port). */
static int probe_wave(const int *ranks, int k, long long deadline)
{
    struct pollfd pfd[PROBE_WAVE];
    int at[PROBE_WAVE], open = 0, rc = 0;
    for (int i = 0; i < k; i++) {
        int r = ranks[i];
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            rc = -1;
            break;
        }
        if (connect(fd, (struct sockaddr *)&probe.addr[r], sizeof probe.addr[r]) == 0) {
            probe.lost[r] = 0;
        } else if (errno == EINPROGRESS) {
            pfd[open] = (struct pollfd){ fd, POLLOUT, 0 };
            at[open++] = r;
            continue;
        } else if (errno == ECONNREFUSED || errno == ENETUNREACH || errno == EHOSTUNREACH ||
                   errno == ETIMEDOUT) {
            probe.lost[r] = 1;
        } else {
            rc = -1;
        }
        close(fd);
        if (rc)
            break;
    }
    int waiting = open;
    while (waiting > 0) {
        long long left = deadline - now_ms();
        if (left <= 0)
            break;
        int got = poll(pfd, (nfds_t)open, (int)left);
        if (got < 0 && errno != EINTR)
            break;
        for (int i = 0; got > 0 && i < open; i++) {
            if (pfd[i].fd < 0 || !pfd[i].revents)
                continue;
            int err = 0;
            socklen_t len = sizeof err;
            if (getsockopt(pfd[i].fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
                err = -1;
            probe.lost[at[i]] = err != 0;
            close(pfd[i].fd);
            pfd[i].fd = -1;     /* poll skips it */
            waiting--;
        }
    }
    for (int i = 0; i < open; i++)
        if (pfd[i].fd >= 0) {  /* no answer within the bound */
            probe.lost[at[i]] = 1;
            close(pfd[i].fd);
        }
    return rc;
}

/* Probes every process of the other hosts within PROBE_BOUND_MS;
 * signal-safe.  0 when each was tried. */
static int probe_all(void)
{
    long long deadline = now_ms() + PROBE_BOUND_MS;
    int ranks[PROBE_WAVE], k = 0;
    for (int r = 0; r < probe.n; r++) {
        if (!probe.addr[r].sin_port)
            continue;
        ranks[k++] = r;
        if (k == PROBE_WAVE) {
            if (now_ms() >= deadline || probe_wave(ranks, k, deadline) != 0)
                return -1;
            k = 0;
        }
    }
    return k == 0 || (now_ms() < deadline && probe_wave(ranks, k, deadline) == 0) ? 0 : -1;
}

/* The IPv4 address of host name, network order; 0 when it has none or
 * one of this machine's loopback (the name would not lead to that host). */
static uint32_t resolve(const char *name)
{
    struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res = NULL;
    if (getaddrinfo(name, NULL, &hints, &res) != 0 || !res)
        return 0;
    uint32_t a = ((const struct sockaddr_in *)res->ai_addr)->sin_addr.s_addr;
    freeaddrinfo(res);
    return (ntohl(a) >> 24) == 127 ? 0 : a;
}

/* Whether every process of the job listens: else no process probes (a
 * list of the lost without one of them would be false), and every
 * process decides so from the same ports. */
static int all_listen(int n, const int *port)
{
    for (int r = 0; r < n; r++)
        if (port[r] <= 0)
            return 0;
    return 1;
}

void rt_probe_resolve(int n, const int *apart, const int *port, const char *names, size_t stride,
                      uint32_t *ipv4)
{
    int wanted = all_listen(n, port);
    for (int r = 0; r < n; r++) {
        const char *name = names + (size_t)r * stride;
        int same = -1;      /* a rank of the same host name, resolved before */
        for (int s = 0; same < 0 && wanted && apart[r] && s < r; s++)
            if (apart[s] && strcmp(names + (size_t)s * stride, name) == 0)
                same = s;
        ipv4[r] = !wanted || !apart[r] ? 0 : same >= 0 ? ipv4[same] : resolve(name);
    }
}

void rt_probe_peers(int n, int me, const int *apart, const int *port, const uint32_t *ipv4)
{
    if (probe.listener < 0)
        return;
    probe.n = n;
    probe.addr = calloc((size_t)n, sizeof *probe.addr);
    probe.lost = calloc((size_t)n, 1);
    int ok = probe.addr && probe.lost && all_listen(n, port), nremote = 0, check = -1;
    for (int r = 0; r < n; r++)
        nremote += apart[r] != 0;
    for (int r = 0, k = 0; ok && r < n; r++) {
        if (!apart[r])
            continue;
        ok = ipv4[r] != 0;
        probe.addr[r] = (struct sockaddr_in){ .sin_family = AF_INET,
                                              .sin_port = htons((unsigned short)port[r]),
                                              .sin_addr.s_addr = ipv4[r] };
        /* the checks of the job spread over the listeners */
        if (k++ == me % nremote)
            check = r;
    }
    /* a firewall that drops or refuses would make every remote process
     * look lost: one probe to another host must get through */
    if (ok && check >= 0)
        ok = probe_wave(&check, 1, now_ms() + PROBE_BOUND_MS) == 0 && !probe.lost[check];
    probe.on = ok;
    if (!ok) {  /* the listener stays: the others' probes must find this process */
        free(probe.addr);
        free(probe.lost);
        probe.addr = NULL;
        probe.lost = NULL;
    }
}

const unsigned char *rt_probe_lost(void)
{
    return probe.on && probe_all() == 0 ? probe.lost : NULL;
}

void rt_probe_end(void)
{
    if (probe.listener >= 0)
        close(probe.listener);
    free(probe.addr);
    free(probe.lost);
    probe.listener = -1;
    probe.addr = NULL;
    probe.lost = NULL;
    probe.n = probe.on = 0;
}
