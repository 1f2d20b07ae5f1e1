/* writer.c — in-memory buffers and atomic output of a set of files.
 *
 * medleyc must never leave half-written outputs: every file of a run is
 * first written in full to a temporary name next to its final place (same
 * directory, so the rename is atomic), and only when all of them were
 * written and closed are they renamed into place.  On a failure while
 * writing, the temporaries are removed and the previous outputs stay
 * untouched; only a rename failing after others succeeded (same directory,
 * already proven writable) could leave the set partly replaced.  A target
 * that exists and is not a regular file (`--dot /dev/stdout`, a FIFO, a
 * symlink) is written through its path instead, before the renames — if
 * only the user or root could have put it there: in a directory another
 * user controls, a planted link is refused, not followed
 * (common/safe_files.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit_internal.h"
#include "safe_files.h"

void *cg_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("medleyc: error: out of memory\n", stderr);
        exit(2);
    }
    return q;
}

static void buf_reserve(mdl_buf *b, size_t more)
{
    if (b->n + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + more + 1)
        cap *= 2;
    b->s = cg_xrealloc(b->s, cap);
    b->cap = cap;
}

void *cg_xcalloc(size_t n, size_t size)
{
    void *p = cg_xrealloc(NULL, n * size);
    memset(p, 0, n * size);
    return p;
}

void cg_buf_printf(mdl_buf *b, const char *fmt, ...)
{
    /* Formatted straight into the free space; a second pass only when it
     * did not fit (formatting twice every time was a third of generation). */
    buf_reserve(b, 256);
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    if (k < 0) {
        b->s[b->n] = 0;
        return;
    }
    if ((size_t)k >= b->cap - b->n) {
        buf_reserve(b, (size_t)k);
        va_start(ap, fmt);
        vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
        va_end(ap);
    }
    b->n += (size_t)k;
}

void cg_buf_puts(mdl_buf *b, const char *s)
{
    size_t k = strlen(s);
    buf_reserve(b, k);
    memcpy(b->s + b->n, s, k + 1);
    b->n += k;
}

void cg_buf_free(mdl_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->n = b->cap = 0;
}

/* ---------------------------------------------------------------- output sets */

struct outfile {
    char *path;
    char *tmp;          /* temporary name once created */
    int direct;         /* path is a symlink, device or FIFO: written in place */
    mdl_buf data;
};

struct mdl_outset {
    struct outfile *f;
    int n, cap;
};

mdl_outset *cg_outset_new(void)
{
    mdl_outset *o = cg_xrealloc(NULL, sizeof *o);
    memset(o, 0, sizeof *o);
    return o;
}

void cg_outset_add(mdl_outset *o, const char *path, mdl_buf *b)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 8;
        o->f = cg_xrealloc(o->f, (size_t)o->cap * sizeof *o->f);
    }
    struct outfile *f = &o->f[o->n++];
    f->path = cg_xrealloc(NULL, strlen(path) + 1);
    strcpy(f->path, path);
    f->tmp = NULL;
    f->direct = 0;
    f->data = *b;
    memset(b, 0, sizeof *b);
}

void cg_outset_free(mdl_outset *o)
{
    if (!o)
        return;
    for (int i = 0; i < o->n; i++) {
        free(o->f[i].path);
        free(o->f[i].tmp);
        cg_buf_free(&o->f[i].data);
    }
    free(o->f);
    free(o);
}

/* Writes f->data to fd and closes it; reports against f->path. */
static int write_close(struct outfile *f, int fd)
{
    size_t off = 0;
    while (off < f->data.n) {
        ssize_t w = write(fd, f->data.s + off, f->data.n - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "medleyc: error: cannot write '%s': %s\n",
                    f->path, strerror(errno));
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    if (close(fd) != 0) {
        fprintf(stderr, "medleyc: error: cannot write '%s': %s\n", f->path,
                strerror(errno));
        return -1;
    }
    return 0;
}

/* `--dot /dev/stdout`, `/dev/null`, a FIFO, a symlink: written through
 * the path.  A rename over them would replace the link or the device (as
 * root, /dev/null itself) by a regular file. */
static int write_direct(struct outfile *f)
{
    int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        fprintf(stderr, "medleyc: error: cannot write '%s': %s\n", f->path,
                strerror(errno));
        return -1;
    }
    return write_close(f, fd);
}

/* Writes f->data to a fresh temporary beside f->path (generated sources
 * are ordinary files: mode 0666 less the umask). */
static int write_temp(struct outfile *f)
{
    int fd = mdl_temp_beside(f->path, 0666, &f->tmp);
    if (fd < 0) {
        fprintf(stderr, "medleyc: error: cannot create '%s': %s\n", f->path,
                strerror(errno));
        return -1;
    }
    return write_close(f, fd);
}

int cg_outset_commit(mdl_outset *o)
{
    int rc = 0;
    /* A target that cannot be replaced by a file (a directory) would make
     * its rename fail after others were done, and one that may not be
     * written through is refused: both before anything is written. */
    for (int i = 0; i < o->n && rc == 0; i++) {
        char why[256];
        int mode = mdl_write_mode(o->f[i].path, why, sizeof why);
        if (mode < 0) {
            fprintf(stderr, "medleyc: error: cannot write '%s': %s\n", o->f[i].path, why);
            rc = -1;
        }
        o->f[i].direct = mode == MDL_WRITE_THROUGH;
    }
    for (int i = 0; i < o->n && rc == 0; i++)
        if (!o->f[i].direct)
            rc = write_temp(&o->f[i]);
    /* devices before the renames: a full one fails the run with nothing
     * replaced */
    for (int i = 0; i < o->n && rc == 0; i++)
        if (o->f[i].direct)
            rc = write_direct(&o->f[i]);
    for (int i = 0; i < o->n && rc == 0; i++) {
        if (o->f[i].direct)
            continue;
        if (rename(o->f[i].tmp, o->f[i].path) != 0) {
            fprintf(stderr, "medleyc: error: cannot write '%s': %s\n",
                    o->f[i].path, strerror(errno));
            rc = -1;
            break;
        }
        free(o->f[i].tmp);
        o->f[i].tmp = NULL;
    }
    if (rc != 0)
        for (int i = 0; i < o->n; i++)
            if (o->f[i].tmp)
                unlink(o->f[i].tmp);
    cg_outset_free(o);
    return rc;
}
