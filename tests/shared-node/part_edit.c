/* part_edit — changes an MPI trace part in place, as damage would
 * (tests/suite-shared-node.sh):
 *   part_edit PART FIELD=VALUE...
 * FIELD is a field of the image's header (rt_trace_img) listed below, set
 * to VALUE (decimal, may be negative; @FIELD: that field's value), or
 * `quote_task=K`: the first two
 * bytes of task K's name become `"` and `\`; or `pairs=N`: the first
 * record of a send says it is followed by N (instance, number) pairs; or
 * `image=FILE`: the part's
 * image, its head and the records it counts, is written to FILE (the
 * seeds of `make fuzz FUZZ_TARGET=image`, tests/fuzz/trace_seeds.sh). */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracefile/rt_trace_parts.h"

#define FIELD(f) { #f, offsetof(rt_trace_img, f), sizeof(((rt_trace_img *)0)->f) }
static const struct {
    const char *name;
    size_t off, size;
} fields[] = { FIELD(used), FIELD(texts), FIELD(funcs), FIELD(error_text),
               FIELD(error_reported), FIELD(end), FIELD(tick0), FIELD(tick1),
               FIELD(ns0), FIELD(ns1) };

static size_t field(const char *name)
{
    size_t k = 0;
    while (k < sizeof fields / sizeof *fields && strcmp(fields[k].name, name) != 0)
        k++;
    if (k == sizeof fields / sizeof *fields) {
        fprintf(stderr, "part_edit: no field %s\n", name);
        exit(1);
    }
    return k;
}

static void die(const char *what)
{
    perror(what);
    exit(1);
}

int main(int argc, char **argv)
{
    int fd = argc > 1 ? open(argv[1], O_RDWR) : -1;
    rt_trace_part_head h;
    rt_trace_img img;
    if (fd < 0 || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
        pread(fd, &img, sizeof img, (off_t)h.image) != (ssize_t)sizeof img)
        die(argc > 1 ? argv[1] : "usage: part_edit PART FIELD=VALUE...");
    for (int i = 2; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            die(argv[i]);
        *eq = '\0';
        long long v = 0;
        if (eq[1] == '@')       /* little-endian: the field's bytes are v's low ones */
            memcpy(&v, (const char *)&img + fields[field(eq + 2)].off, fields[field(eq + 2)].size);
        else
            v = strtoll(eq + 1, NULL, 10);
        if (strcmp(argv[i], "image") == 0) {
            size_t n = img.recs + img.used * sizeof(rt_trace_rec);
            char *buf = malloc(n);
            FILE *out = fopen(eq + 1, "wb");
            if (!buf || !out || pread(fd, buf, n, (off_t)h.image) != (ssize_t)n ||
                fwrite(buf, 1, n, out) != n || fclose(out) != 0)
                die(eq + 1);
            free(buf);
            continue;
        }
        if (strcmp(argv[i], "pairs") == 0) {
            rt_trace_rec r;
            rt_trace_func f = { 0 };
            off_t at = (off_t)(h.image + img.recs);
            for (uint64_t k = 0; k < img.used && f.cat != RT_CAT_SEND; k += 1 + r.ncont) {
                at = (off_t)(h.image + img.recs + k * sizeof r);
                if (pread(fd, &r, sizeof r, at) != (ssize_t)sizeof r ||
                    pread(fd, &f, sizeof f, (off_t)(h.image + img.funcs + r.func * sizeof f)) !=
                        (ssize_t)sizeof f)
                    die("pairs");
            }
            if (f.cat != RT_CAT_SEND)
                die("pairs: no send");
            r.flags |= RT_F_PAIRS;
            r.seq = (uint32_t)v;
            if (pwrite(fd, &r, sizeof r, at) != (ssize_t)sizeof r)
                die("pairs");
            continue;
        }
        if (strcmp(argv[i], "quote_task") == 0) {
            uint32_t name;
            if (pread(fd, &name, sizeof name, (off_t)(h.image + img.tasks + 4 * (uint64_t)v)) !=
                    (ssize_t)sizeof name ||
                pwrite(fd, "\"\\", 2, (off_t)(h.image + name)) != 2)
                die("quote_task");
            continue;
        }
        size_t k = field(argv[i]);
        /* little-endian: the low bytes of v are the field */
        if (pwrite(fd, &v, fields[k].size, (off_t)(h.image + fields[k].off)) !=
            (ssize_t)fields[k].size)
            die(argv[i]);
    }
    close(fd);
    return 0;
}
