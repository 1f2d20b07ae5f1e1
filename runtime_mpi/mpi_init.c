/* mpi_init.c — start and end of the MPI runtime, identification of the
 * instance, error reporting, sizes and barriers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_rt.h"

/* One instance per process, so one runtime state; static so that a call
 * after MDL_End still finds it (and reports MDL_ERR_STATE). */
struct mdl_rt mdl_the_rt;

static void abort_job(int code)
{
    (void)code;
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
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

int rt_fail(mdl_rt *rt, const char *fn, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = mdl_vfail(rt ? rt->who : (mdl_who){ "?", -1 }, fn, code,
                       abort_job, fmt, ap);
    va_end(ap);
    return rc;
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

int rt_check(mdl_rt *rt, const char *fn)
{
    if (rt != &mdl_the_rt || rt->state != RT_ACTIVE)
        return rt_fail(rt == &mdl_the_rt ? rt : NULL, fn, MDL_ERR_STATE,
                       rt == &mdl_the_rt && rt->state == RT_ENDED
                           ? "called after MDL_End"
                           : "called before MDL_Init");
    return 0;
}

int rt_check_list(mdl_rt *rt, const char *fn, int task, const int *insts, int n,
                  int code)
{
    int size = rt->task_size[task];
    if (n < 0 || (n > 0 && !insts))
        return rt_fail(rt, fn, MDL_ERR_ARG, "invalid instance list (n = %d%s)", n,
                       insts ? "" : ", list NULL");
    int bad = -1, i;
    for (i = 0; i < n && bad < 0; i++) {
        if (insts[i] < 0 || insts[i] >= size || rt->seen[insts[i]])
            bad = i;
        else
            rt->seen[insts[i]] = 1;
    }
    /* only the entries read: past the first bad one, a wrong n may point
       beyond the list */
    for (int k = 0; k < i; k++)
        if (insts[k] >= 0 && insts[k] < size)
            rt->seen[insts[k]] = 0;
    if (bad >= 0) {
        if (insts[bad] < 0 || insts[bad] >= size)
            return rt_fail(rt, fn, code,
                           "instance %d (entry %d of the list) is out of range: %s has %d instances",
                           insts[bad], bad, rt->d->tasks[task], size);
        return rt_fail(rt, fn, code, "instance %d appears twice in the list", insts[bad]);
    }
    return 0;
}

/* ---------------------------------------------------------------- init */

static void free_tables(mdl_rt *rt)
{
    if (rt->rank_of)
        for (int t = 0; t < rt->d->ntasks; t++)
            free(rt->rank_of[t]);
    free(rt->rank_of);
    free(rt->task_of);
    free(rt->inst_of);
    free(rt->task_size);
    free(rt->scratch_reqs);
    free(rt->scratch_sts);
    free(rt->seen);
    free(rt->targets);
}

/* Everything after the MPI set-up; on failure the caller tears down. */
static int identify(mdl_rt *rt, const char *fn)
{
    const mdl_task_desc *d = rt->d;
    int rc;
    unsigned long long mine[2] = { d->spec_hash, (unsigned long long)d->self };
    unsigned long long *all = malloc(2 * sizeof *all * (size_t)rt->world_size);
    if (!all)
        return rt_fail(rt, fn, MDL_ERR_INTERN, "out of memory");
    rc = MPI_Allgather(mine, 2, MPI_UNSIGNED_LONG_LONG, all, 2, MPI_UNSIGNED_LONG_LONG,
                       rt->world);
    if (rc != MPI_SUCCESS) {
        free(all);
        return rt_mpi_fail(rt, fn, rc, "MPI_Allgather");
    }
    for (int r = 0; r < rt->world_size; r++) {
        if (all[2 * r] != d->spec_hash) {
            unsigned long long h = all[2 * r];
            free(all);
            return rt_fail(rt, fn, MDL_ERR_LAUNCH,
                           "world rank %d runs a program built from another spec "
                           "(spec hash %016llx, this program from %s has %016llx): "
                           "regenerate and rebuild all programs of the job",
                           r, h, d->spec, d->spec_hash);
        }
    }
    rt->task_of = malloc(sizeof(int) * (size_t)rt->world_size);
    rt->inst_of = malloc(sizeof(int) * (size_t)rt->world_size);
    rt->task_size = calloc((size_t)d->ntasks, sizeof(int));
    rt->rank_of = calloc((size_t)d->ntasks, sizeof(int *));
    if (!rt->task_of || !rt->inst_of || !rt->task_size || !rt->rank_of) {
        free(all);
        return rt_fail(rt, fn, MDL_ERR_INTERN, "out of memory");
    }
    for (int r = 0; r < rt->world_size; r++) {
        unsigned long long ti = all[2 * r + 1];
        if (ti >= (unsigned long long)d->ntasks) {
            free(all);
            return rt_fail(rt, fn, MDL_ERR_LAUNCH, "world rank %d declares task %llu of %d", r,
                           ti, d->ntasks);
        }
        int t = (int)ti;
        rt->task_of[r] = t;
        rt->inst_of[r] = rt->task_size[t]++;
    }
    free(all);
    int maxsize = 1;
    for (int t = 0; t < d->ntasks; t++) {
        rt->rank_of[t] = malloc(sizeof(int) * (size_t)(rt->task_size[t] ? rt->task_size[t] : 1));
        if (!rt->rank_of[t])
            return rt_fail(rt, fn, MDL_ERR_INTERN, "out of memory");
        if (rt->task_size[t] > maxsize)
            maxsize = rt->task_size[t];
    }
    for (int r = 0; r < rt->world_size; r++)
        rt->rank_of[rt->task_of[r]][rt->inst_of[r]] = r;
    rt->self = d->self;
    rt->inst = rt->inst_of[rt->world_rank];
    rt->nfamily = rt->task_size[d->self];
    rt->who.inst = rt->inst;
    if (d->single && rt->nfamily > 1)
        return rt_fail(rt, fn, MDL_ERR_LAUNCH,
                       "task %s is declared without (i) in %s: it runs as one instance, "
                       "but %d were launched", rt->who.task, d->spec, rt->nfamily);

    rt->scratch_reqs = malloc(sizeof(MPI_Request) * (size_t)maxsize);
    rt->scratch_sts = malloc(sizeof(MPI_Status) * (size_t)maxsize);
    rt->seen = calloc((size_t)maxsize, 1);
    rt->targets = malloc(sizeof(int) * (size_t)maxsize);
    if (!rt->scratch_reqs || !rt->scratch_sts || !rt->seen || !rt->targets)
        return rt_fail(rt, fn, MDL_ERR_INTERN, "out of memory");

    /* Families keep instance order: key = world rank. */
    rc = MPI_Comm_split(rt->world, d->self, rt->world_rank, &rt->family);
    if (rc != MPI_SUCCESS)
        return rt_mpi_fail(rt, fn, rc, "MPI_Comm_split");
    MPI_Comm_set_errhandler(rt->family, MPI_ERRORS_RETURN);

    /* Tags: channels first, then one per collective (Mcast), then the two
     * of Sbarrier. */
    rt->tag_mcast = d->nchannels;
    rt->tag_sb_gather = d->nchannels + d->ncolls;
    rt->tag_sb_release = rt->tag_sb_gather + 1;
    int *ub = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    if (flag && ub && rt->tag_sb_release > *ub)
        return rt_fail(rt, fn, MDL_ERR_INTERN,
                       "the spec needs %d tags, MPI allows %d", rt->tag_sb_release + 1, *ub);

    /* The task struct: zeroed, may be very large (unless the caller gave
     * its own, mdl_init_at); whole pages, page-aligned, as C++ sees it
     * (the class is page-aligned, TMDL.h). */
    if (rt->task_users)
        return rt_types_init(rt);
    size_t page = 4096;
    size_t size = (d->struct_size + page - 1) / page * page;
    if (posix_memalign(&rt->task, page, size ? size : page) != 0) {
        rt->task = NULL;
        return rt_fail(rt, fn, MDL_ERR_INTERN, "cannot allocate the task struct (%zu bytes)",
                       d->struct_size);
    }
    memset(rt->task, 0, size);
    return rt_types_init(rt);
}

static void teardown(mdl_rt *rt)
{
    rt_types_free(rt);
    if (rt->cart != MPI_COMM_NULL)
        MPI_Comm_free(&rt->cart);
    if (rt->family != MPI_COMM_NULL)
        MPI_Comm_free(&rt->family);
    if (rt->world != MPI_COMM_NULL)
        MPI_Comm_free(&rt->world);
    free_tables(rt);
    if (!rt->task_users)
        free(rt->task);
    rt->task = NULL;
}

/* mdl_init and mdl_init_at: `user` is the caller's task struct, or NULL
 * to allocate one. */
static int start(const mdl_task_desc *d, int *argc, char ***argv, void *user, void **task,
                 mdl_rt **rtp)
{
    static const char fn[] = "MDL_Init";
    mdl_rt *rt = &mdl_the_rt;
    mdl_who who = { d && d->tasks && d->self >= 0 && d->self < d->ntasks ? d->tasks[d->self] : "?",
                    -1 };
    if (!d || !task || !rtp)
        return mdl_fail(who, fn, MDL_ERR_ARG, abort_job, "NULL argument");
    if (rt->state == RT_ACTIVE)
        return mdl_fail(rt->who, fn, MDL_ERR_STATE, abort_job, "MDL_Init called twice");
    if (getenv("MDL_SHM_FD"))
        return mdl_fail(who, fn, MDL_ERR_LAUNCH, abort_job,
                        "this program is linked with the MPI runtime (libmdl_mpi) but was "
                        "started by mdlrun: launch it with mpiexec, or link it with libmdl_shm");
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (down)
        return mdl_fail(who, fn, MDL_ERR_STATE, abort_job,
                        "MPI has been finalized (by an earlier MDL_End): the runtime cannot restart");
    memset(rt, 0, sizeof *rt);
    rt->d = d;
    rt->who = who;
    rt->task = user;
    rt->task_users = user != NULL;
    rt->world = rt->family = rt->cart = MPI_COMM_NULL;
    if (!up) {
        if (MPI_Init(argc, argv) != MPI_SUCCESS)
            return mdl_fail(who, fn, MDL_ERR_INTERN, abort_job, "MPI_Init failed");
        rt->mpi_ours = 1;
    }
    rt->state = RT_ACTIVE;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &rt->world);
    if (rc != MPI_SUCCESS) {
        rc = rt_mpi_fail(rt, fn, rc, "MPI_Comm_dup");
    } else {
        MPI_Comm_set_errhandler(rt->world, MPI_ERRORS_RETURN);
        MPI_Comm_rank(rt->world, &rt->world_rank);
        MPI_Comm_size(rt->world, &rt->world_size);
        if (d->self < 0 || d->self >= d->ntasks)
            rc = rt_fail(rt, fn, MDL_ERR_ARG, "task index %d out of range", d->self);
        else
            rc = identify(rt, fn);
    }
    if (rc < 0) {
        teardown(rt);
        if (rt->mpi_ours)
            MPI_Finalize();
        rt->state = RT_ENDED;
        return rc;
    }
    *task = rt->task;
    *rtp = rt;
    return MDL_SUCCESS;
}

MDL_API int mdl_init(const mdl_task_desc *d, int *argc, char ***argv, void **task, mdl_rt **rtp)
{
    return start(d, argc, argv, NULL, task, rtp);
}

MDL_API int mdl_init_at(const mdl_task_desc *d, int *argc, char ***argv, void *task,
                        size_t size, mdl_rt **rtp)
{
    void *same;
    mdl_who who = { d && d->tasks && d->self >= 0 && d->self < d->ntasks
                        ? d->tasks[d->self] : "?", -1 };
    if (!task)
        return mdl_fail(who, "MDL_Init", MDL_ERR_ARG, abort_job, "NULL task object");
    if (d && size < d->struct_size)
        return mdl_fail(who, "MDL_Init", MDL_ERR_ARG, abort_job,
                        "task object of %zu bytes, the task struct needs %zu", size,
                        d->struct_size);
    return start(d, argc, argv, task, &same, rtp);
}

MDL_API int mdl_end(mdl_rt *rt, void *task)
{
    static const char fn[] = "MDL_End";
    int rc = rt_check(rt, fn);
    if (rc)
        return rc;
    if (task != rt->task)
        return rt_fail(rt, fn, MDL_ERR_ARG, "not this instance's task struct");
    teardown(rt);
    rt->state = RT_ENDED;
    if (rt->mpi_ours)
        MPI_Finalize();
    return MDL_SUCCESS;
}

/* ---------------------------------------------------------------- sizes, barriers */

MDL_API int mdl_my_rank(mdl_rt *rt)
{
    int rc = rt_check(rt, "MDL_MyRank");
    return rc ? rc : rt->inst;
}

MDL_API int mdl_task_size(mdl_rt *rt, int task_index)
{
    static const char fn[] = "MDL_FamilySize";
    int rc = rt_check(rt, fn);
    if (rc)
        return rc;
    if (task_index < 0 || task_index >= rt->d->ntasks)
        return rt_fail(rt, fn, MDL_ERR_ARG, "task index %d out of range", task_index);
    return rt->task_size[task_index];
}

MDL_API int mdl_barrier(mdl_rt *rt)
{
    static const char fn[] = "MDL_Barrier";
    int rc = rt_check(rt, fn);
    if (rc)
        return rc;
    rc = MPI_Barrier(rt->family);
    return rc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, rc, "MPI_Barrier");
}

/* Only the listed instances take part: the lowest listed instance collects
 * one empty message from every other member, then releases them.  An
 * instance not in the list is not involved and returns at once. */
MDL_API int mdl_sbarrier(mdl_rt *rt, const int *ranks, int n)
{
    static const char fn[] = "MDL_Sbarrier";
    int rc = rt_check(rt, fn);
    if (rc)
        return rc;
    rc = rt_check_list(rt, fn, rt->self, ranks, n, MDL_ERR_RANK);
    if (rc)
        return rc;
    int leader = -1, member = 0;
    for (int i = 0; i < n; i++) {
        if (leader < 0 || ranks[i] < leader)
            leader = ranks[i];
        member |= ranks[i] == rt->inst;
    }
    if (!member || n == 1)
        return MDL_SUCCESS;
    if (rt->inst != leader) {
        rc = MPI_Send(NULL, 0, MPI_BYTE, leader, rt->tag_sb_gather, rt->family);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(NULL, 0, MPI_BYTE, leader, rt->tag_sb_release, rt->family,
                          MPI_STATUS_IGNORE);
        return rc == MPI_SUCCESS ? MDL_SUCCESS : rt_mpi_fail(rt, fn, rc, "MPI_Send/MPI_Recv");
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (ranks[i] != leader)
            rt->targets[k++] = ranks[i];
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
