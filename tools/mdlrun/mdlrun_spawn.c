/* mdlrun_spawn.c — starting one instance.
 *
 * The child gets, between fork and exec: death with the launcher
 * (PR_SET_PDEATHSIG, even if mdlrun is SIGKILLed), the segment descriptor
 * made inheritable (it stays close-on-exec in the launcher, so nothing
 * else it might start sees it), MDL_SHM_FD / MDL_SHM_SLOT, stdin from
 * /dev/null except for slot 0 (as mpiexec gives stdin to rank 0 only),
 * and the signal mask mdlrun was started with.
 *
 * Every instance is a session of its own, as MPICH's Hydra starts every
 * rank: with the kernel's autogroup scheduling (Debian's default) a
 * session is one scheduling group, so instances sharing mdlrun's session
 * would together get the CPU share of one program on a busy machine
 * (issue 31: 4 instances on 2 cores beside two busy processes ran up to
 * 1.25 x slower than MPI ranks).  Job control therefore goes through
 * mdlrun: Ctrl-C, `kill %1` (SIGINT, SIGTERM, SIGHUP) tear the job down,
 * Ctrl-Z stops every instance and then mdlrun, `fg`/`bg` continue them
 * (mdlrun_watch.c).  mdlrun signals instances by pid; they are its
 * unreaped children, so a pid cannot have been reused. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mdlrun.h"

/* Tells the launcher why the child could not become the program. */
static void __attribute__((noreturn)) child_fail(int pipe_fd, int err)
{
    ssize_t r;
    do
        r = write(pipe_fd, &err, sizeof err);
    while (r < 0 && errno == EINTR);
    _exit(MDLRUN_EXIT_NOTFOUND);
}

static void __attribute__((noreturn)) child(struct mdlrun_job *job, unsigned slot, int pipe_fd)
{
    const struct mdlrun_group *g = &job->groups[job->inst[slot].group];

    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
        child_fail(pipe_fd, errno);
    /* The launcher may have died before prctl took effect: then no signal
     * will ever come, and this child must not start a lone instance. */
    if (getppid() != job->launcher)
        _exit(MDLRUN_EXIT_FAIL);

    /* Set here too so it is valid before the program runs; the launcher
     * writes the same value after fork returns. */
    __atomic_store_n(&job->hdr->slots[slot].pid, (int32_t)getpid(), __ATOMIC_RELEASE);

    if (fcntl(job->fd, F_SETFD, 0) < 0)
        child_fail(pipe_fd, errno);
    if (slot > 0 && job->devnull >= 0 && dup2(job->devnull, STDIN_FILENO) < 0)
        child_fail(pipe_fd, errno);

    char buf[16];
    snprintf(buf, sizeof buf, "%d", job->fd);
    if (setenv("MDL_SHM_FD", buf, 1) < 0)
        child_fail(pipe_fd, errno);
    snprintf(buf, sizeof buf, "%u", slot);
    if (setenv("MDL_SHM_SLOT", buf, 1) < 0)
        child_fail(pipe_fd, errno);

    if (setsid() < 0)
        child_fail(pipe_fd, errno);
    sigprocmask(SIG_SETMASK, &job->orig_mask, NULL);
    execv(g->path, g->argv);
    child_fail(pipe_fd, errno);
}

pid_t mdlrun_spawn(struct mdlrun_job *job, unsigned slot, int *exec_err)
{
    int pfd[2];
    *exec_err = 0;
    /* Close-on-exec: a successful exec closes the child's end, so the
     * launcher reads EOF; a failed one sends the errno. */
    if (pipe2(pfd, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(pfd[0]);
        close(pfd[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        close(pfd[0]);
        child(job, slot, pfd[1]);
    }
    close(pfd[1]);
    __atomic_store_n(&job->hdr->slots[slot].pid, (int32_t)pid, __ATOMIC_RELEASE);

    int err;
    ssize_t r;
    do
        r = read(pfd[0], &err, sizeof err);
    while (r < 0 && errno == EINTR);
    close(pfd[0]);
    if (r == (ssize_t)sizeof err) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        *exec_err = err;
        errno = err;
        return -1;
    }
    return pid;
}
