/* rt_trace_parts.c — the MPI runtime's per-process trace files
 * (rt_trace_parts.h), read by the instance that reports a fatal error
 * and by mdltrace --recover. */
#include "rt_trace_parts.h"

#include "mdl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHM_DIR "/dev/shm"

char *rt_trace_part_prefix(const char *file)
{
    size_t n = strlen(file);
    char *p = malloc(sizeof SHM_DIR + n + 48);
    if (!p)
        return NULL;
    int k = snprintf(p, sizeof SHM_DIR + 48, SHM_DIR "/mdltrace.%u.", (unsigned)getuid());
    /* the name after the directory, the rank's ten digits included */
    if (n + (size_t)k - sizeof SHM_DIR + 16 > NAME_MAX || access(SHM_DIR, W_OK | X_OK) != 0) {
        snprintf(p, n + 8, "%s.part.", file);
        return p;
    }
    char *q = p + k;
    for (const char *c = file; *c; c++)
        *q++ = *c == '/' ? '%' : *c;
    strcpy(q, ".part.");
    return p;
}

char *rt_trace_part_path(const char *file, int rank)
{
    char *pre = rt_trace_part_prefix(file);
    size_t n = pre ? strlen(pre) + 16 : 0;
    char *p = pre ? malloc(n) : NULL;
    if (p)
        snprintf(p, n, "%s%d", pre, rank);
    free(pre);
    return p;
}

int rt_trace_part_remove(const char *file, int rank)
{
    char *part = rt_trace_part_path(file, rank);
    int rc = part ? unlink(part) : -1;
    free(part);
    return rc;
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

static rt_trace_img *read_image(int fd, char *why, size_t len)
{
    rt_trace_img h;
    if (read_at(fd, &h, sizeof h, 0) < 0 || h.magic != RT_TRACE_MAGIC || h.recs < sizeof h ||
        h.recs > (64u << 20)) {
        snprintf(why, len, "not a trace image");
        return NULL;
    }
    rt_trace_img *head = malloc(h.recs);
    if (!head) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    if (read_at(fd, head, h.recs, 0) < 0) {
        free(head);
        snprintf(why, len, "it is cut short");
        return NULL;
    }
    const char *bad = rt_trace_img_check(head, h.recs, 0);
    if (bad) {
        free(head);
        snprintf(why, len, "%s", bad);
        return NULL;
    }
    /* the records counted in the head, however many there are by now */
    uint64_t recbytes = head->used * sizeof(rt_trace_rec);
    rt_trace_img *img = realloc(head, head->recs + recbytes);
    if (!img) {
        free(head);
        snprintf(why, len, "out of memory");
        return NULL;
    }
    if (read_at(fd, (char *)img + img->recs, recbytes, img->recs) < 0) {
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

rt_trace_img *rt_trace_part_read(const char *file, int rank, int alive, int *in_call, char *why,
                                  size_t len)
{
    if (in_call)
        *in_call = 0;
    char *path = rt_trace_part_path(file, rank);
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0) {
        snprintf(why, len, "%s: %s", path ? path : file, path ? strerror(errno) : "out of memory");
        free(path);
        return NULL;
    }
    char bad[300];
    rt_trace_img *img = read_image(fd, bad, sizeof bad);
    close(fd);
    if (!img) {
        snprintf(why, len, "%s: %s", path, bad);
        free(path);
        return NULL;
    }
    if (img->slot != rank) {
        snprintf(why, len, "%s: it is the part of process %d", path, img->slot);
        free(img);
        free(path);
        return NULL;
    }
    if (!img->tick1) {
        char host[sizeof img->host] = "";
        gethostname(host, sizeof host - 1);
        if (strncmp(host, img->host, sizeof host) != 0) {
            snprintf(why, len, "%s: its process did not end and ran on host %.64s: only that host "
                     "can read its clock", path, img->host);
            free(img);
            free(path);
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
                snprintf(why, len, "%s: out of memory", path);
        }
    }
    free(path);
    return img;
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
