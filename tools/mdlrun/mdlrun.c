/* mdlrun — launcher of MeDLey jobs on the shared-memory runtime.
 *
 *   mdlrun -n 1 ./father : -n 4 ./son
 *
 * Creates the job's segment (runtime/shm/shm_job.h is the contract with
 * libmdl_shm), starts every instance, and supervises them: the first
 * failure tears the whole job down.  Usage and exit statuses: mdlrun(1). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mdlrun.h"

/* A closed 0, 1 or 2 would be taken by the segment or /dev/null and then
 * be clobbered in the instances. */
static void ensure_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
            return;
}

/* The segment is a memfd: it has no name in any file system, so no exit
 * path can leave it behind.  Sparse: pages appear only when touched. */
static int segment_create(struct mdlrun_job *job)
{
    char name[32];
    snprintf(name, sizeof name, "mdl-job-%d", (int)job->launcher);
    job->fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (job->fd < 0) {
        mdlrun_err("cannot create the job's shared segment: memfd_create: %s", strerror(errno));
        return -1;
    }
    if (ftruncate(job->fd, (off_t)MDL_SHM_SEGMENT_SIZE) < 0) {
        mdlrun_err("cannot size the job's shared segment: %s", strerror(errno));
        return -1;
    }
    /* An instance that resized the segment would make the others' mappings
     * fault (SIGBUS); the seals forbid it. */
    if (fcntl(job->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
        mdlrun_err("cannot seal the job's shared segment: %s", strerror(errno));
        return -1;
    }
    /* The launcher only needs the header and the slots. */
    job->map_len = mdl_shm_lib_offset(job->nslots);
    void *p = mmap(NULL, job->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, job->fd, 0);
    if (p == MAP_FAILED) {
        mdlrun_err("cannot map the job's shared segment: %s", strerror(errno));
        return -1;
    }
    mdl_shm_header *h = job->hdr = p;
    h->abi = MDL_SHM_ABI;
    h->nslots = job->nslots;
    h->ngroups = job->ngroups;
    h->aborting = 0;
    h->failed = 0;
    h->size = MDL_SHM_SEGMENT_SIZE;
    h->lib_offset = mdl_shm_lib_offset(job->nslots);
    for (unsigned g = 0; g < job->ngroups; g++)
        for (unsigned i = 0; i < job->groups[g].n; i++) {
            unsigned s = job->groups[g].first_slot + i;
            h->slots[s].pid = 0;
            h->slots[s].group = (int32_t)g;
            h->slots[s].state = MDL_SLOT_STARTED;
            h->slots[s].task = -1;      /* the library writes the declared one */
            h->slots[s].doorbell = 0;
            job->inst[s].group = g;
            job->inst[s].index = i;
        }
    mdlrun_waits_init(job);
    h->magic = MDL_SHM_MAGIC;
    return 0;
}

/* Starts every instance in slot order; stops at the first one that
 * cannot be started and returns the status the job then ends with. */
static int launch(struct mdlrun_job *job)
{
    for (unsigned s = 0; s < job->nslots; s++) {
        int exec_err;
        pid_t pid = mdlrun_spawn(job, s, &exec_err);
        if (pid > 0) {
            job->inst[s].pid = pid;
            job->running++;
            continue;
        }
        const struct mdlrun_group *g = &job->groups[job->inst[s].group];
        if (exec_err) {
            mdlrun_err("cannot run '%s': %s", g->argv[0], strerror(exec_err));
            return exec_err == ENOENT ? MDLRUN_EXIT_NOTFOUND : MDLRUN_EXIT_NOEXEC;
        }
        mdlrun_err("cannot start %s[%u]: %s", g->name, job->inst[s].index, strerror(errno));
        return MDLRUN_EXIT_FAIL;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct mdlrun_job job = { .fd = -1, .devnull = -1 };
    int status;
    job.launcher = getpid();

    if (mdlrun_parse(argc, argv, &job, &status) < 0)
        goto out;
    if ((status = mdlrun_resolve(&job)) != 0)
        goto out;
    if (mdlrun_trace_setup(&job, argc, argv, &status) < 0)
        goto out;
    ensure_std_fds();

    /* Inherited SIG_IGN for SIGCHLD would make the kernel reap instances
     * before mdlrun can see how they ended. */
    signal(SIGCHLD, SIG_DFL);
    /* A stop signal mdlrun was started with ignored (nohup, a background
     * job of a script) stays ignored, for mdlrun and the instances alike. */
    sigemptyset(&job.stop_sigs);
    static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t k = 0; k < sizeof stops / sizeof *stops; k++) {
        struct sigaction sa;
        if (sigaction(stops[k], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
            sigaddset(&job.stop_sigs, stops[k]);
    }
    struct sigaction tstp;
    job.suspendable = sigaction(SIGTSTP, NULL, &tstp) == 0 && tstp.sa_handler != SIG_IGN;
    sigset_t block = job.stop_sigs;
    sigaddset(&block, SIGCHLD);
    if (job.suspendable)
        sigaddset(&block, SIGTSTP);
    sigprocmask(SIG_BLOCK, &block, &job.orig_mask);

    status = MDLRUN_EXIT_FAIL;
    job.inst = calloc(job.nslots, sizeof *job.inst);
    if (!job.inst) {
        mdlrun_err("out of memory");
        goto out;
    }
    if (segment_create(&job) < 0)
        goto out;
    job.devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    mdlrun_trace_header(&job);

    status = mdlrun_watch(&job, launch(&job));
    mdlrun_trace_write(&job, status);

out:
    if (job.hdr)
        munmap(job.hdr, job.map_len);
    if (job.fd >= 0)
        close(job.fd);
    if (job.devnull >= 0)
        close(job.devnull);
    mdlrun_scan_free(&job);
    mdlrun_trace_free(&job);
    mdlrun_free(&job);
    return status;
}
