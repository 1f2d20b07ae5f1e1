/* rt_trace_parts.c — the MPI runtime's per-process trace files
 * (rt_trace_parts.h): made by each process, read by the instance that
 * reports a fatal error and by mdltrace --recover. */
#include "rt_trace_parts.h"

#include "fnv.h"
#include "mdl.h"
#include "mdl_grow.h"
#include "safe_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A trace's absolute path: a resolved directory and a name. */
#define PATH_BYTES (PATH_MAX + NAME_MAX + 1)

/* "trace.<H>.", the start of the names of FILE's parts. */
static void name_prefix(const char *file, char *buf, size_t n)
{
    snprintf(buf, n, "trace.%016" PRIx64 ".", mdl_fnv1a_str(file));
}

/* The name of part (job, rank) of FILE followed by `suffix`, malloc'd,
 * or NULL with why. */
static char *part_name(const char *file, uint64_t job, int rank, const char *suffix, char *why,
                       size_t len)
{
    char pre[32], *p;
    name_prefix(file, pre, sizeof pre);
    if (asprintf(&p, "%s%016" PRIx64 ".%d%s", pre, job, rank, suffix) < 0) {
        p = NULL;
        snprintf(why, len, "out of memory");
    }
    return p;
}

/* The path of part (job, rank) of FILE in the private directory,
 * malloc'd, or NULL with why. */
static char *part_path(const char *file, uint64_t job, int rank, char *why, size_t len)
{
    char *dir = mdl_private_dir(0, why, len);
    char *name = dir ? part_name(file, job, rank, "", why, len) : NULL, *p = NULL;
    if (name && asprintf(&p, "%s/%s", dir, name) < 0) {
        p = NULL;
        snprintf(why, len, "out of memory");
    }
    free(name);
    free(dir);
    return p;
}

/* Where a part is made, under a name no listing takes for a part
 * (parse_id), until its image is whole (rt_trace_part_publish). */
#define UNPUBLISHED ".new"

/* The path of `part` unpublished; malloc'd, or NULL with why. */
static char *unpublished_path(const char *part, char *why, size_t len)
{
    char *p = NULL;
    if (part && asprintf(&p, "%s" UNPUBLISHED, part) < 0) {
        p = NULL;
        snprintf(why, len, "out of memory");
    }
    return p;
}

int rt_trace_parts_usable(char *why, size_t len)
{
    char *dir = mdl_private_dir(1, why, len);
    free(dir);
    return dir ? 0 : -1;
}

void rt_trace_parts_done(void)
{
    mdl_private_dir_release();
}

uint64_t rt_trace_part_new_job(void)
{
    uint64_t id = 0;
    while (id == 0)
        if (getrandom(&id, sizeof id, 0) != (ssize_t)sizeof id) {
            /* no entropy to be had: this process now is unique on its host */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            id = mdl_fnv1a(MDL_FNV_OFFSET, &ts, sizeof ts) ^ (uint64_t)getpid();
        }
    return id;
}

int rt_trace_part_create(const char *file, uint64_t job, int rank, int size, size_t image_size,
                         void **img, char *why, size_t len)
{
    size_t plen = strlen(file);
    if (plen >= PATH_BYTES) {
        snprintf(why, len, "the trace's path is longer than %d bytes", PATH_BYTES - 1);
        return -1;
    }
    /* messages name the part (path); it is made as `made` */
    char *name = part_name(file, job, rank, UNPUBLISHED, why, len), *made = NULL;
    int fd = name ? mdl_create_in_private(name, O_RDWR, &made, why, len) : -1;
    free(name);
    char *path = fd >= 0 ? strndup(made, strlen(made) - strlen(UNPUBLISHED)) : NULL;
    if (!path) {
        if (fd >= 0) {
            snprintf(why, len, "out of memory");
            close(fd);
            unlink(made);
            rt_trace_parts_done();
        }
        free(made);
        return -1;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    rt_trace_part_head h = { RT_TRACE_PART_MAGIC, RT_TRACE_PART_VERSION, (uint32_t)plen, job,
                             rank, size, 0, image_size };
    h.image = (sizeof h + plen + 1 + page - 1) / page * page;
    void *p = MAP_FAILED;
    int rc = posix_fallocate(fd, 0, (off_t)(h.image + image_size));
    if (rc)
        snprintf(why, len, "no room for the trace buffer %s (%" PRIu64 " bytes): %s: set "
                 "MDL_TRACE_BUFFER lower", path, h.image + image_size, strerror(rc));
    else if (pwrite(fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
             pwrite(fd, file, plen + 1, sizeof h) != (ssize_t)(plen + 1))
        snprintf(why, len, "cannot write %s: %s", path, strerror(errno));
    else if ((p = mmap(NULL, image_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                       (off_t)h.image)) == MAP_FAILED)
        snprintf(why, len, "cannot map %s: %s", path, strerror(errno));
    close(fd);
    if (p == MAP_FAILED) {
        unlink(made);
        rt_trace_parts_done();
    }
    free(path);
    free(made);
    *img = p == MAP_FAILED ? NULL : p;
    return p == MAP_FAILED ? -1 : 0;
}

int rt_trace_part_publish(const char *file, uint64_t job, int rank, char *why, size_t len)
{
    char *to = part_path(file, job, rank, why, len);
    char *from = unpublished_path(to, why, len);
    int rc = from && to ? rename(from, to) : -1;
    if (rc && from && to)
        snprintf(why, len, "cannot rename %s to %s: %s", from, to, strerror(errno));
    free(from);
    free(to);
    return rc;
}

int rt_trace_part_remove(const char *file, uint64_t job, int rank)
{
    char why[256];
    char *part = part_path(file, job, rank, why, sizeof why);
    char *unpublished = unpublished_path(part, why, sizeof why);
    int rc = part ? unlink(part) : -1;
    if (rc && unpublished)
        rc = unlink(unpublished);
    free(part);
    free(unpublished);
    rt_trace_parts_done();
    return rc;
}

/* "<J>.<R>" of a part's name: 16 hex digits, a rank in decimal (no sign,
 * no leading zero) below RT_TRACE_MAX_PROCS.  0, or -1. */
static int parse_id(const char *s, rt_trace_part_id *id)
{
    uint64_t job = 0;
    for (int i = 0; i < 16; i++, s++) {
        const char *hex = "0123456789abcdef", *d = *s ? strchr(hex, *s) : NULL;
        if (!d)
            return -1;
        job = job << 4 | (uint64_t)(d - hex);
    }
    if (*s++ != '.' || *s < '0' || *s > '9' || (s[0] == '0' && s[1]))
        return -1;
    int32_t rank = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        if ((rank = rank * 10 + (*s - '0')) >= RT_TRACE_MAX_PROCS)
            return -1;
    if (*s)
        return -1;
    id->job = job;
    id->rank = rank;
    return 0;
}

int rt_trace_parts_list(const char *file, rt_trace_part_id **ids, char *why, size_t len)
{
    *ids = NULL;
    char *dir = mdl_private_dir(0, why, len);
    if (!dir)
        return errno == ENOENT ? 0 : -1;        /* none made yet: no part */
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(why, len, "%s: %s", dir, strerror(errno));
        free(dir);
        return -1;
    }
    char pre[32];
    name_prefix(file, pre, sizeof pre);
    size_t np = strlen(pre);
    rt_trace_part_id *v = NULL, id;
    int n = 0;
    size_t cap = 0;
    for (struct dirent *e; n >= 0 && (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, pre, np) != 0 || parse_id(e->d_name + np, &id) < 0)
            continue;
        if ((size_t)n == cap) {
            rt_trace_part_id *w = n < RT_TRACE_MAX_PARTS
                                      ? mdl_grow(v, &cap, (size_t)n + 1, sizeof *v, 16)
                                      : NULL;
            if (!w) {
                snprintf(why, len, n < RT_TRACE_MAX_PARTS ? "out of memory"
                                                          : "%s holds more than %d parts of %s",
                         dir, RT_TRACE_MAX_PARTS, file);
                n = -1;
                break;
            }
            v = w;
        }
        v[n++] = id;
    }
    closedir(d);
    free(dir);
    if (n < 0)
        free(v);
    else
        *ids = v;
    return n;
}

static int read_at(int fd, void *buf, uint64_t n, uint64_t at)
{
    char *p = buf;
    while (n) {
        ssize_t k = pread(fd, p, n, (off_t)at);
        if (k <= 0)
            return -1;
        p += k;
        n -= (uint64_t)k;
        at += (uint64_t)k;
    }
    return 0;
}

/* The part's head checked against the file's size and against what the
 * reader looks for: FILE, job, rank.  NULL, or what is wrong. */
static const char *check_head(int fd, rt_trace_part_head *h, const char *file,
                              uint64_t job, int rank)
{
    struct stat st;
    if (fstat(fd, &st) < 0 || read_at(fd, h, sizeof *h, 0) < 0 ||
        h->magic != RT_TRACE_PART_MAGIC)
        return "not a trace part";
    if (h->version != RT_TRACE_PART_VERSION)
        return "a trace part of another version";
    uint64_t fsize = (uint64_t)st.st_size, plen = strlen(file);
    if (h->size < 1 || h->size > RT_TRACE_MAX_PROCS || h->rank < 0 || h->rank >= h->size ||
        h->path_len >= PATH_BYTES || h->image % 8 || h->image < sizeof *h + h->path_len + 1 ||
        h->image > fsize || h->image_size > fsize - h->image)
        return "its head is damaged";
    if (h->job != job || h->rank != rank)
        return "its head names another job or process";
    char path[PATH_BYTES];
    if (h->path_len != plen || read_at(fd, path, plen + 1, sizeof *h) < 0 || path[plen] ||
        memcmp(path, file, plen) != 0)
        return "it is the part of another trace";
    return NULL;
}

/* The image of a part: its head, and its records when `records`.  NULL
 * with the reason in why; *size the job's number of processes. */
static rt_trace_img *load_image(int fd, const char *file, uint64_t job, int rank, int records,
                                int *size, char *why, size_t len)
{
    rt_trace_part_head ph;
    const char *bad = check_head(fd, &ph, file, job, rank);
    rt_trace_img h;
    if (!bad && (ph.image_size < sizeof h || read_at(fd, &h, sizeof h, ph.image) < 0 ||
                 h.magic != RT_TRACE_MAGIC || h.recs < sizeof h || h.recs > ph.image_size ||
                 h.recs > RT_TRACE_MAX_HEAD))
        bad = "its image is not a trace image";
    if (bad) {
        snprintf(why, len, "%s", bad);
        return NULL;
    }
    rt_trace_img *head = malloc(h.recs);
    if (!head) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    if (read_at(fd, head, h.recs, ph.image) < 0)
        bad = "it is cut short";
    else if (!(bad = rt_trace_img_check(head, h.recs, 0)) && head->size != ph.image_size)
        bad = "its image's size is not the one its head gives";
    if (bad) {
        free(head);
        snprintf(why, len, "%s", bad);
        return NULL;
    }
    if (head->slot != rank) {
        snprintf(why, len, "its image is that of process %d", head->slot);
        free(head);
        return NULL;
    }
    *size = ph.size;
    if (!records)
        return head;
    /* the records counted in the head, however many there are by now
     * (within the image: rt_trace_img_check bounds them by its size) */
    uint64_t recbytes = head->used * sizeof(rt_trace_rec);
    rt_trace_img *img = realloc(head, head->recs + recbytes);
    if (!img) {
        free(head);
        snprintf(why, len, "out of memory");
        return NULL;
    }
    if (read_at(fd, (char *)img + img->recs, recbytes, ph.image + img->recs) < 0) {
        free(img);
        snprintf(why, len, "its records cannot be read");
        return NULL;
    }
    return img;
}

/* The call the process of img was in, recorded as having failed: until
 * `end`.  img, or NULL when out of memory (img freed). */
static rt_trace_img *close_open_call(rt_trace_img *img, uint64_t end)
{
    const rt_trace_func *f = (const rt_trace_func *)((const char *)img + img->funcs) +
                             img->open_func;
    /* whom a send or a receive waited for, as mdlrun says it on shm (only
     * they set open_peer) */
    char whom[128] = "";
    const char *peer_task = (f->cat == RT_CAT_SEND || f->cat == RT_CAT_RECV) && f->peer_task >= 0
                                ? rt_trace_img_task(img, f->peer_task)
                                : NULL;
    if (peer_task && img->open_peer >= 0)
        snprintf(whom, sizeof whom, " (waiting for %s[%d])", peer_task, img->open_peer);
    else if (peer_task && img->open_peer == MDL_ANY)
        snprintf(whom, sizeof whom, " (waiting for %s[any])", peer_task);
    char text[RT_TEXT];
    snprintf(text, sizeof text, "%s[%d]: %s: had not returned when the job ended%s",
             rt_trace_img_task(img, img->task), img->inst, rt_trace_img_str(img, f->name),
             whom);
    uint64_t t0 = img->open_t0;
    img->open_t0 = 0;
    return rt_trace_img_add_unfinished(img, img->open_func, t0, end, MDL_ERR_PEER, text);
}

rt_trace_img *rt_trace_part_load(int fd, const char *name, const char *file, uint64_t job,
                                 int rank, int alive, int *in_call, int *size, char *why,
                                 size_t len)
{
    if (in_call)
        *in_call = 0;
    char bad[300];
    int nprocs;
    rt_trace_img *img = load_image(fd, file, job, rank, 1, &nprocs, bad, sizeof bad);
    if (!img) {
        snprintf(why, len, "%s: %s", name, bad);
        return NULL;
    }
    if (!img->tick1) {
        char host[sizeof img->host] = "";
        gethostname(host, sizeof host - 1);
        if (strncmp(host, img->host, sizeof host) != 0) {
            snprintf(why, len, "%s: its process did not end and ran on host %.64s: only that host "
                     "can read its clock", name, img->host);
            free(img);
            return NULL;
        }
        /* the tick between two readings of the monotonic clock */
        uint64_t ns = rt_trace_read_clock(RT_CLOCK_MONO);
        img->tick1 = rt_trace_read_clock(img->clock);
        img->ns1 = (ns + rt_trace_read_clock(RT_CLOCK_MONO)) / 2;
        if (img->open_t0 && img->open_func < (uint32_t)img->nfuncs) {
            if (in_call)
                *in_call = 1;
            if (!(img = close_open_call(img, alive ? img->tick1 : img->open_t0)))
                snprintf(why, len, "%s: out of memory", name);
        }
    }
    if (img && size)
        *size = nprocs;
    return img;
}

/* Part (job, rank) of FILE opened for reading: a regular file of the
 * user's, not a link.  Its path in *path (malloc'd, or NULL).  The
 * descriptor, or -1 with the reason in why. */
static int open_part(const char *file, uint64_t job, int rank, char **path, char *why,
                     size_t len)
{
    *path = part_path(file, job, rank, why, len);
    return *path ? mdl_open_own(*path, why, len) : -1;
}

rt_trace_img *rt_trace_part_read(const char *file, uint64_t job, int rank, int alive,
                                 int *in_call, int *size, char *why, size_t len)
{
    if (in_call)
        *in_call = 0;
    char *path;
    int fd = open_part(file, job, rank, &path, why, len);
    rt_trace_img *img =
        fd >= 0 ? rt_trace_part_load(fd, path, file, job, rank, alive, in_call, size, why, len)
                : NULL;
    if (fd >= 0)
        close(fd);
    free(path);
    return img;
}

rt_trace_img *rt_trace_part_read_head(const char *file, uint64_t job, int rank, int *size,
                                      char *why, size_t len)
{
    char *path;
    int fd = open_part(file, job, rank, &path, why, len), nprocs;
    char bad[300];
    rt_trace_img *h = fd >= 0 ? load_image(fd, file, job, rank, 0, &nprocs, bad, sizeof bad)
                              : NULL;
    if (fd >= 0 && !h)
        snprintf(why, len, "%s: %s", path, bad);
    if (h && size)
        *size = nprocs;
    if (fd >= 0)
        close(fd);
    free(path);
    return h;
}

int rt_trace_part_stale(const char *file, uint64_t job, int rank)
{
    char why[600];
    rt_trace_img *h = rt_trace_part_read_head(file, job, rank, NULL, why, sizeof why);
    int stale = h && rt_trace_proc_start(h->pid) != h->pid_start;
    free(h);
    return stale;
}

void rt_trace_parts_sweep(const char *file, uint64_t job, int rank, int size)
{
    rt_trace_part_id *ids;
    char why[512];
    int n = rt_trace_parts_list(file, &ids, why, sizeof why);
    for (int i = 0; i < n; i++)
        if (ids[i].job != job && (ids[i].rank == rank || (rank == 0 && ids[i].rank >= size)) &&
            rt_trace_part_stale(file, ids[i].job, ids[i].rank))
            rt_trace_part_remove(file, ids[i].job, ids[i].rank);
    free(ids);
}

void rt_trace_set_clocks(rt_trace_job *job, const rt_trace_img *ref)
{
    double origin = 0;
    for (int i = 0; i < job->ninst; i++) {
        rt_trace_inst *in = &job->inst[i];
        const rt_trace_img *h = in->head;
        if (!h)
            continue;
        uint64_t dt = h->tick1 - h->tick0;
        in->ns_per_tick = h->tick1 > h->tick0 ? (double)(h->ns1 - h->ns0) / (double)dt : 1.0;
        in->tick_at = h->tick0;
        in->ns_at = (double)h->ns0;
        if (ref && strncmp(h->host, ref->host, sizeof h->host) != 0)
            in->ns_at = (double)ref->ns0;
        if (in->ns_at < origin || origin == 0)
            origin = in->ns_at;
    }
    for (int i = 0; i < job->ninst; i++)
        job->inst[i].ns_at -= origin;
}
