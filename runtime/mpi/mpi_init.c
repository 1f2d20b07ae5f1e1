/* mpi_init.c — start and end of the MPI runtime, identification of the
 * instance, a process that exits without MDL_End, barriers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_rt.h"

/* One instance per process, so one runtime state. */
static struct mdl_rt the_rt;

/* A process that exits after MDL_Init without MDL_End (returns from main,
 * calls exit): one line in mdlrun's words, then the job ends as on a fatal
 * error (MPICH 4.0 would otherwise end the job silently with status 0, or
 * name only the signal it killed the others with). */
static void exit_hook(void)
{
    if (!mpi_exit_armed)
        return;
    mpi_exit_armed = 0;
    char line[256];
    snprintf(line, sizeof line, "%s[%d] exited without calling MDL_End\n", the_rt.c.who.task,
             the_rt.c.who.inst);
    fflush(stdout);
    if (write(STDERR_FILENO, line, strlen(line)) < 0)
        return;
    be_abort(MDL_ERR_STATE);
}

/* ---------------------------------------------------------------- init */

static void free_tables(mdl_rt *rt)
{
    if (rt->job.rank_of)
        for (int t = 0; t < rt->c.d->ntasks; t++)
            free(rt->job.rank_of[t]);
    free(rt->job.rank_of);
    free(rt->job.task_of);
    free(rt->job.inst_of);
    free(rt->tally.sent);
    rt->tally.sent = NULL;
    free(rt->scratch.reqs);
    free(rt->scratch.sts);
    free(rt->scratch.targets);
    rt->job.rank_of = NULL;
    rt->job.task_of = rt->job.inst_of = rt->scratch.targets = NULL;
    rt->scratch.reqs = NULL;
    rt->scratch.sts = NULL;
}

/* Every world rank's spec hash and task: the job is checked and the
 * families numbered (instances in world-rank order). */
static int identify(mdl_rt *rt, const char *fn)
{
    const mdl_task_desc *d = rt->c.d;
    int *size = rt->c.fam_size;
    /* the third word: whether the process traces (all or none do) */
    unsigned long long mine[3] = { d->spec_hash, (unsigned long long)d->self,
                                   (unsigned long long)mpi_trace_wanted(rt) };
    unsigned long long *all = malloc(3 * sizeof *all * (size_t)rt->job.world_size);
    if (!all)
        return rt_fail_oom(rt, fn);
    int rc = MPI_Allgather(mine, 3, MPI_UNSIGNED_LONG_LONG, all, 3, MPI_UNSIGNED_LONG_LONG,
                           rt->job.world);
    if (rc != MPI_SUCCESS) {
        free(all);
        return mpi_fail(rt, fn, rc, "MPI_Allgather");
    }
    rt->job.task_of = malloc(sizeof(int) * (size_t)rt->job.world_size);
    rt->job.inst_of = malloc(sizeof(int) * (size_t)rt->job.world_size);
    rt->job.rank_of = calloc((size_t)d->ntasks, sizeof(int *));
    rc = rt->job.task_of && rt->job.inst_of && rt->job.rank_of ? 0 : rt_fail_oom(rt, fn);
    for (int r = 0; r < rt->job.world_size && !rc; r++) {
        unsigned long long ti = all[3 * r + 1];
        if (all[3 * r] != d->spec_hash)
            rc = rt_fail_spec(rt, r, all[3 * r]);
        else if (ti >= (unsigned long long)d->ntasks)
            rc = rt_fail_task_index(rt, r, (long long)ti);
        else {
            rt->job.task_of[r] = (int)ti;
            rt->job.inst_of[r] = size[ti]++;
        }
    }
    for (int t = 0; t < d->ntasks && !rc; t++)
        if (!(rt->job.rank_of[t] = malloc(sizeof(int) * (size_t)(size[t] ? size[t] : 1))))
            rc = rt_fail_oom(rt, fn);
    if (!rc) {
        for (int r = 0; r < rt->job.world_size; r++)
            rt->job.rank_of[rt->job.task_of[r]][rt->job.inst_of[r]] = r;
        rc = rt_common_identified(rt, rt->job.inst_of[rt->job.world_rank]);
    }
    /* identified: a refusal names the instance */
    if (!rc)
        rc = mpi_trace_agree(rt, all, 3);
    free(all);
    return rc;
}

static int alloc_task(mdl_rt *rt, const char *fn);

/* Everything after MPI_Init; on failure the caller tears down. */
static int start(mdl_rt *rt, const char *fn)
{
    const mdl_task_desc *d = rt->c.d;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &rt->job.world);
    if (rc != MPI_SUCCESS)
        return mpi_fail(rt, fn, rc, "MPI_Comm_dup");
    MPI_Comm_set_errhandler(rt->job.world, MPI_ERRORS_RETURN);
    MPI_Comm_rank(rt->job.world, &rt->job.world_rank);
    MPI_Comm_size(rt->job.world, &rt->job.world_size);
    if ((rc = mpi_errhandlers_probe(rt, fn)))
        return rc;
    /* A program started by another MPI's launcher finds no launcher of its
     * own in MPI_Init, and each of its processes is a world of one. */
    long launched = rt_launcher_size();
    if (launched > rt->job.world_size)
        return rt_fail(rt, fn, MDL_ERR_LAUNCH,
                       "the launcher started %ld processes, the MPI world has %d: the "
                       "program was started by another MPI's launcher, or as separate "
                       "jobs; start it with the mpiexec of the MPI it is built with",
                       launched, rt->job.world_size);
    if ((rc = identify(rt, fn)))
        return rc;

    int max = rt->c.maxfam;
    rt->scratch.reqs = malloc(sizeof(MPI_Request) * (size_t)max);
    rt->scratch.sts = malloc(sizeof(MPI_Status) * (size_t)max);
    rt->scratch.targets = malloc(sizeof(int) * (size_t)max);
    rt->tally.sent = calloc((size_t)rt->job.world_size, sizeof *rt->tally.sent);
    if (!rt->scratch.reqs || !rt->scratch.sts || !rt->scratch.targets || !rt->tally.sent)
        return rt_fail_oom(rt, fn);

    /* Families keep instance order: key = world rank. */
    rc = MPI_Comm_split(rt->job.world, d->self, rt->job.world_rank, &rt->job.family);
    if (rc != MPI_SUCCESS)
        return mpi_fail(rt, fn, rc, "MPI_Comm_split");
    MPI_Comm_set_errhandler(rt->job.family, MPI_ERRORS_RETURN);

    /* Tags above the channels.  On the world duplicate, between tasks, so
     * the same in every program of the job (nchannels is the spec's, ncolls
     * the task's own): the traces, then one per channel for withdrawn
     * large messages.  On the family communicator: one per collective
     * (Mcast), then the two of Sbarrier. */
    rt->tags.trace = d->nchannels;
    rt->tags.withdrawn = rt->tags.trace + 1;
    rt->tags.mcast = d->nchannels;
    rt->tags.sb_gather = d->nchannels + d->ncolls;
    rt->tags.sb_release = rt->tags.sb_gather + 1;
    int top = rt->tags.withdrawn + d->nchannels - 1;   /* the highest tag used */
    if (top < rt->tags.sb_release)
        top = rt->tags.sb_release;
    int *ub = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    if (flag && ub && top > *ub)
        return rt_fail(rt, fn, MDL_ERR_INTERN, "the spec needs %d tags, MPI allows %d", top + 1,
                       *ub + 1);

    /* A caller's own struct (mdl_init_at) stays where it is. */
    int rc_task = 0;
    if (rt->mem.users)
        mpi_direct_alias(rt, rt->c.task, rt->mem.user_size);
    else
        rc_task = alloc_task(rt, fn);
    /* collective: every process takes part, whatever its struct */
    int rc_direct = mpi_direct_start(rt, fn);
    rc = rc_task ? rc_task : rc_direct ? rc_direct : 0;
    if (!rc && !(rt->msgs = calloc((size_t)d->nmsgs + 1, sizeof *rt->msgs)))
        rc = rt_fail_oom(rt, fn);
    if (!rc)
        rc = mpi_types_init(rt);
    if (!rc)
        rc = mpi_self_init(rt);
    if (!rc)
        mpi_direct_receives(rt);
    return rc || !rt->trace.on ? rc : mpi_trace_start(rt);
}

/* The task struct: zeroed, may be very large; whole pages, page-aligned,
 * as C++ sees it (the class is page-aligned, TMDL.h).  A memfd when the
 * processes of a host can share it (mpi_direct.c), else private. */
static int alloc_task(mdl_rt *rt, const char *fn)
{
    const mdl_task_desc *d = rt->c.d;
    size_t page = 4096;
    size_t size = (d->struct_size + page - 1) / page * page;
    if (!size)
        size = page;
    if ((rt->c.task = mpi_direct_alloc(rt, size)))
        return 0;           /* a fresh memfd is zero */
    if (posix_memalign(&rt->c.task, page, size) != 0) {
        rt->c.task = NULL;
        return rt_fail(rt, fn, MDL_ERR_INTERN, "cannot allocate the task struct (%zu bytes)",
                       d->struct_size);
    }
    memset(rt->c.task, 0, size);
    return 0;
}

static void teardown(mdl_rt *rt)
{
    mpi_reqs_free(rt);
    mpi_self_free(rt);
    mpi_types_free(rt);
    mpi_coll_free(rt);
    if (rt->job.family != MPI_COMM_NULL)
        MPI_Comm_free(&rt->job.family);
    if (rt->job.world != MPI_COMM_NULL) {
        MPI_Comm_free(&rt->job.world);
        mpi_errhandlers_free(rt);
    }
    free_tables(rt);
    int heap_task = !rt->mem.mapped && !rt->mem.users;
    mpi_direct_free(rt);
    free(rt->msgs);
    rt->msgs = NULL;
    if (heap_task)
        free(rt->c.task);
    rt->c.task = NULL;
    rt_common_free(rt);
    mpi_trace_free(rt);
}

int be_init(const mdl_task_desc *d, int *argc, char ***argv, void *user, size_t user_size,
            mdl_rt **out)
{
    const char *const fn = MDL_FN_NAME(INIT);
    mdl_rt *rt = &the_rt;
    mdl_who who = { d->tasks[d->self], -1 };
    mpi_unusable = 0;
    if (getenv("MDL_SHM_FD")) {
        mpi_unusable = 1;
        return rt_fail_who(who, fn, MDL_ERR_LAUNCH,
                           "this program is linked with the MPI runtime (libmdl_mpi) but was "
                           "started by mdlrun: launch it with mpiexec, or link it with libmdl_shm");
    }
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (down)
        return rt_fail_who(who, fn, MDL_ERR_STATE,
                           "MPI has been finalized by the program: the runtime cannot start");
    memset(rt, 0, sizeof *rt);
    rt->job.world = rt->job.family = MPI_COMM_NULL;
    rt->mem.fd = rt->mem.alias_fd = -1;
    rt->c.task = user;
    rt->mem.users = user != NULL;
    rt->mem.user_size = user_size;
    int rc = rt_common_start(rt, d);
    if (rc)
        return rc;
    if (!up) {
        if (MPI_Init(argc, argv) != MPI_SUCCESS) {
            mpi_unusable = 1;
            rt_common_free(rt);
            return rt_fail(rt, fn, MDL_ERR_INTERN, "MPI_Init failed");
        }
        rt->job.mpi_ours = 1;
    }
    rc = start(rt, fn);
    if (rc < 0) {
        teardown(rt);
        rt_stop_end();
        if (rt->job.mpi_ours)
            MPI_Finalize();
        return rc;
    }
    rt_stop_start(d, rt->c.who);
    static int hooked;
    if (!hooked)
        hooked = atexit(exit_hook) == 0;
    mpi_exit_armed = 1;
    *out = rt;
    return MDL_SUCCESS;
}

int be_restartable(void)
{
    int down = 0;
    MPI_Finalized(&down);
    return !down;
}

int be_end(mdl_rt *rt)
{
    mpi_exit_armed = 0;
    int rc = mpi_p2p_end(rt);
    if (rt->trace.on) {
        int trc = mpi_trace_collect(rt);
        rc = rc ? rc : trc;
    }
    teardown(rt);
    if (rt->job.mpi_ours) {
        /* waits for the other processes of the job */
        rt_block_begin();
        MPI_Finalize();
        rt_block_end();
    }
    rt_stop_end();
    return rc;
}

/* ---------------------------------------------------------------- barriers */

int be_barrier(mdl_rt *rt)
{
    int flushed = mpi_self_flushed(rt);       /* reported, the others not left waiting */
    rt_block_begin();
    int rc = MPI_Barrier(rt->job.family);
    rt_block_end();
    return flushed           ? flushed
           : rc == MPI_SUCCESS ? MDL_SUCCESS
                             : mpi_fail(rt, MDL_FN_NAME(BARRIER), rc, "MPI_Barrier");
}

static int sbarrier(mdl_rt *rt, const int *insts, int n);

int be_sbarrier(mdl_rt *rt, const int *insts, int n)
{
    int flushed = mpi_self_flushed(rt);       /* reported, the others not left waiting */
    rt_block_begin();
    int rc = sbarrier(rt, insts, n);
    rt_block_end();
    return flushed ? flushed : rc;
}

/* Only the listed instances take part: the lowest listed instance collects
 * one empty message from every other member, then releases them. */
static int sbarrier(mdl_rt *rt, const int *insts, int n)
{
    const char *const fn = MDL_FN_NAME(SBARRIER);
    int leader = insts[0], rc;
    for (int i = 1; i < n; i++)
        if (insts[i] < leader)
            leader = insts[i];
    if (rt->c.inst != leader) {
        rc = MPI_Send(NULL, 0, MPI_BYTE, leader, rt->tags.sb_gather, rt->job.family);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(NULL, 0, MPI_BYTE, leader, rt->tags.sb_release, rt->job.family,
                          MPI_STATUS_IGNORE);
        return rc == MPI_SUCCESS ? MDL_SUCCESS : mpi_fail(rt, fn, rc, "MPI_Send/MPI_Recv");
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (insts[i] != leader)
            rt->scratch.targets[k++] = insts[i];
    rc = MPI_SUCCESS;
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)
        rc = MPI_Irecv(NULL, 0, MPI_BYTE, rt->scratch.targets[i], rt->tags.sb_gather, rt->job.family,
                       &rt->scratch.reqs[i]);
    if (rc == MPI_SUCCESS)
        rc = MPI_Waitall(k, rt->scratch.reqs, rt->scratch.sts);
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)
        rc = MPI_Isend(NULL, 0, MPI_BYTE, rt->scratch.targets[i], rt->tags.sb_release, rt->job.family,
                       &rt->scratch.reqs[i]);
    if (rc == MPI_SUCCESS)
        rc = MPI_Waitall(k, rt->scratch.reqs, rt->scratch.sts);
    return rc == MPI_SUCCESS ? MDL_SUCCESS : mpi_fail(rt, fn, rc, "barrier messages");
}
