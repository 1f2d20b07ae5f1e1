/* mpi_init.c — start and end of the MPI runtime, identification of the
 * instance, the fatal path and barriers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "mpi_rt.h"

/* One instance per process, so one runtime state. */
static struct mdl_rt the_rt;

/* Between MDL_Init and MDL_End: an exit now is reported (exit_hook). */
static int exit_armed;

/* Set by MDL_Init when MPI must not be started, even to end the job:
 * the program was started by mdlrun, or MPI_Init itself failed. */
static int mpi_unusable;

/* How long a fatal error before MPI_Init waits for the other processes to
 * join it in MPI_Init (be_abort). */
#define ABORT_JOIN_SECONDS 10

/* Whether a launcher started this process as one of several (PMI: MPICH's
 * hydra and Slurm set PMI_RANK and PMI_SIZE; PMIx: PMIX_RANK). */
static int in_a_job(void)
{
    const char *size = getenv("PMI_SIZE");
    if (size)
        return atoi(size) > 1;
    return getenv("PMI_RANK") || getenv("PMIX_RANK");
}

void be_abort(int code)
{
    (void)code;
    exit_armed = 0;
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    /* A fatal error before MPI_Init (a call before MDL_Init): the other
     * processes wait in MPI_Init for this one for ever — hydra does not end
     * a job when a process exits before MPI_Init.  It joins them there, to
     * end the job with MPI_Abort.  MPI_Init returns only once every process
     * has called it: if one has exited before, or computes for long, the
     * alarm ends this process by a signal, which mpiexec takes as a bad
     * termination and ends the job too. */
    if (!up && !down && !mpi_unusable && in_a_job()) {
        signal(SIGALRM, SIG_DFL);
        alarm(ABORT_JOIN_SECONDS);
        up = MPI_Init(NULL, NULL) == MPI_SUCCESS;
        alarm(0);
    }
    if (up && !down) {
        /* mpiexec's proxy forwards our stderr through a pipe, and on an
         * abort it may kill the job before reading what is left in it: the
         * one-line report was lost about once in 40 runs.  Give it time. */
        struct timespec ts = { 0, 200 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    exit(1);
}

int rt_mpi_fail(mdl_rt *rt, const char *fn, int mpirc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, cls = 0;
    MPI_Error_class(mpirc, &cls);
    if (cls == MPI_ERR_TRUNCATE)
        return rt_fail(rt, fn, MDL_ERR_TRUNCATE,
                       "the message that arrived is larger than the receive");
    /* the class's text: MPICH's full error stack spans several lines and
       the report must stay one line */
    if (MPI_Error_string(cls, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", mpirc);
    for (char *c = text; *c; c++)
        if (*c == '\n')
            *c = ' ';
    return rt_fail(rt, fn, MDL_ERR_INTERN, "%s failed: %s", what, text);
}

/* A process that exits after MDL_Init without MDL_End (returns from main,
 * calls exit): one line in mdlrun's words, then the job ends as on a fatal
 * error (MPICH 4.0 would otherwise end the job silently with status 0, or
 * name only the signal it killed the others with). */
static void exit_hook(void)
{
    if (!exit_armed)
        return;
    exit_armed = 0;
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
    if (rt->rank_of)
        for (int t = 0; t < rt->c.d->ntasks; t++)
            free(rt->rank_of[t]);
    free(rt->rank_of);
    free(rt->task_of);
    free(rt->inst_of);
    free(rt->scratch_reqs);
    free(rt->scratch_sts);
    free(rt->targets);
    rt->rank_of = NULL;
    rt->task_of = rt->inst_of = rt->targets = NULL;
    rt->scratch_reqs = NULL;
    rt->scratch_sts = NULL;
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
    unsigned long long *all = malloc(3 * sizeof *all * (size_t)rt->world_size);
    if (!all)
        return rt_fail_oom(rt, fn);
    int rc = MPI_Allgather(mine, 3, MPI_UNSIGNED_LONG_LONG, all, 3, MPI_UNSIGNED_LONG_LONG,
                           rt->world);
    if (rc != MPI_SUCCESS) {
        free(all);
        return rt_mpi_fail(rt, fn, rc, "MPI_Allgather");
    }
    rt->task_of = malloc(sizeof(int) * (size_t)rt->world_size);
    rt->inst_of = malloc(sizeof(int) * (size_t)rt->world_size);
    rt->rank_of = calloc((size_t)d->ntasks, sizeof(int *));
    rc = rt->task_of && rt->inst_of && rt->rank_of ? 0 : rt_fail_oom(rt, fn);
    for (int r = 0; r < rt->world_size && !rc; r++) {
        unsigned long long ti = all[3 * r + 1];
        if (all[3 * r] != d->spec_hash)
            rc = rt_fail_spec(rt, r, all[3 * r]);
        else if (ti >= (unsigned long long)d->ntasks)
            rc = rt_fail_task_index(rt, r, (long long)ti);
        else {
            rt->task_of[r] = (int)ti;
            rt->inst_of[r] = size[ti]++;
        }
    }
    for (int t = 0; t < d->ntasks && !rc; t++)
        if (!(rt->rank_of[t] = malloc(sizeof(int) * (size_t)(size[t] ? size[t] : 1))))
            rc = rt_fail_oom(rt, fn);
    if (!rc) {
        for (int r = 0; r < rt->world_size; r++)
            rt->rank_of[rt->task_of[r]][rt->inst_of[r]] = r;
        rc = rt_common_identified(rt, rt->inst_of[rt->world_rank]);
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
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &rt->world);
    if (rc != MPI_SUCCESS)
        return rt_mpi_fail(rt, fn, rc, "MPI_Comm_dup");
    MPI_Comm_set_errhandler(rt->world, MPI_ERRORS_RETURN);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &rt->world_eh);
    MPI_Comm_rank(rt->world, &rt->world_rank);
    MPI_Comm_size(rt->world, &rt->world_size);
    if ((rc = identify(rt, fn)))
        return rc;

    int max = rt->c.maxfam;
    rt->scratch_reqs = malloc(sizeof(MPI_Request) * (size_t)max);
    rt->scratch_sts = malloc(sizeof(MPI_Status) * (size_t)max);
    rt->targets = malloc(sizeof(int) * (size_t)max);
    if (!rt->scratch_reqs || !rt->scratch_sts || !rt->targets)
        return rt_fail_oom(rt, fn);

    /* Families keep instance order: key = world rank. */
    rc = MPI_Comm_split(rt->world, d->self, rt->world_rank, &rt->family);
    if (rc != MPI_SUCCESS)
        return rt_mpi_fail(rt, fn, rc, "MPI_Comm_split");
    MPI_Comm_set_errhandler(rt->family, MPI_ERRORS_RETURN);

    /* Tags above the channels.  On the world duplicate, between tasks, so
     * the same in every program of the job (nchannels is the spec's, ncolls
     * the task's own): the traces, then one per channel for withdrawn
     * large messages.  On the family communicator: one per collective
     * (Mcast), then the two of Sbarrier. */
    rt->tag_trace = d->nchannels;
    rt->tag_withdrawn = rt->tag_trace + 1;
    rt->tag_mcast = d->nchannels;
    rt->tag_sb_gather = d->nchannels + d->ncolls;
    rt->tag_sb_release = rt->tag_sb_gather + 1;
    int top = rt->tag_withdrawn + d->nchannels - 1;   /* the highest tag used */
    if (top < rt->tag_sb_release)
        top = rt->tag_sb_release;
    int *ub = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    if (flag && ub && top > *ub)
        return rt_fail(rt, fn, MDL_ERR_INTERN, "the spec needs %d tags, MPI allows %d", top + 1,
                       *ub + 1);

    /* A caller's own struct (mdl_init_at) stays where it is. */
    int rc_task = 0;
    if (rt->task_users)
        mpi_direct_alias(rt, rt->c.task, rt->user_size);
    else
        rc_task = alloc_task(rt, fn);
    /* collective: every process takes part, whatever its struct */
    int rc_direct = mpi_direct_start(rt, fn);
    rc = rc_task ? rc_task : rc_direct ? rc_direct : rt_types_init(rt);
    if (!rc)
        mpi_direct_receives(rt);
    return rc || !rt->trace_on ? rc : mpi_trace_start(rt);
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
    rt_types_free(rt);
    mpi_coll_free(rt);
    if (rt->family != MPI_COMM_NULL)
        MPI_Comm_free(&rt->family);
    if (rt->world != MPI_COMM_NULL) {
        MPI_Comm_free(&rt->world);
        MPI_Errhandler_free(&rt->world_eh);
    }
    free_tables(rt);
    int heap_task = !rt->task_mapped && !rt->task_users;
    mpi_direct_free(rt);
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
    rt->world = rt->family = MPI_COMM_NULL;
    rt->task_fd = rt->alias_fd = -1;
    rt->c.task = user;
    rt->task_users = user != NULL;
    rt->user_size = user_size;
    int rc = rt_common_start(rt, d);
    if (rc)
        return rc;
    if (!up) {
        if (MPI_Init(argc, argv) != MPI_SUCCESS) {
            mpi_unusable = 1;
            rt_common_free(rt);
            return rt_fail(rt, fn, MDL_ERR_INTERN, "MPI_Init failed");
        }
        rt->mpi_ours = 1;
    }
    rc = start(rt, fn);
    if (rc < 0) {
        teardown(rt);
        if (rt->mpi_ours)
            MPI_Finalize();
        return rc;
    }
    static int hooked;
    if (!hooked)
        hooked = atexit(exit_hook) == 0;
    exit_armed = 1;
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
    exit_armed = 0;
    int rc = rt_complete_all(rt);
    if (rt->trace_on) {
        int trc = mpi_trace_collect(rt);
        rc = rc ? rc : trc;
    }
    teardown(rt);
    if (rt->mpi_ours) {
        /* waits for the other processes of the job */
        rt_block_begin();
        MPI_Finalize();
        rt_block_end();
    }
    return rc;
}

/* ---------------------------------------------------------------- barriers */

int be_barrier(mdl_rt *rt)
{
    rt_block_begin();
    int rc = MPI_Barrier(rt->family);
    rt_block_end();
    return rc == MPI_SUCCESS ? MDL_SUCCESS
                             : rt_mpi_fail(rt, MDL_FN_NAME(BARRIER), rc, "MPI_Barrier");
}

static int sbarrier(mdl_rt *rt, const int *insts, int n);

int be_sbarrier(mdl_rt *rt, const int *insts, int n)
{
    rt_block_begin();
    int rc = sbarrier(rt, insts, n);
    rt_block_end();
    return rc;
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
        rc = MPI_Send(NULL, 0, MPI_BYTE, leader, rt->tag_sb_gather, rt->family);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(NULL, 0, MPI_BYTE, leader, rt->tag_sb_release, rt->family,
                          MPI_STATUS_IGNORE);
        return rc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, rc, "MPI_Send/MPI_Recv");
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (insts[i] != leader)
            rt->targets[k++] = insts[i];
    rc = MPI_SUCCESS;
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)
        rc = MPI_Irecv(NULL, 0, MPI_BYTE, rt->targets[i], rt->tag_sb_gather, rt->family,
                       &rt->scratch_reqs[i]);
    if (rc == MPI_SUCCESS)
        rc = MPI_Waitall(k, rt->scratch_reqs, rt->scratch_sts);
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++)
        rc = MPI_Isend(NULL, 0, MPI_BYTE, rt->targets[i], rt->tag_sb_release, rt->family,
                       &rt->scratch_reqs[i]);
    if (rc == MPI_SUCCESS)
        rc = MPI_Waitall(k, rt->scratch_reqs, rt->scratch_sts);
    return rc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, rc, "barrier messages");
}
