/* mdlrun_args.c — the command line (mpiexec's MPMD form) and the look-up
 * of each program before anything is started. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mdlrun.h"
#include "shm/shm_segment.h"

static void usage(FILE *out)
{
    fputs("Usage: mdlrun [options] [-n N] program [args...] [: [-n N] program [args...]]...\n"
          "Runs a MeDLey job on this machine with the shared-memory runtime: N instances\n"
          "of each ':'-separated program (1 when -n is not given), as mpiexec does:\n"
          "    mdlrun -n 1 ./father : -n 4 ./son\n"
          "\n"
          "Options (before a program):\n"
          "  -n N, -np N     number of instances of the program that follows\n"
          "  --timeout SEC   tear the job down after SEC seconds (exit status 124)\n"
          "  -h, --help      print this help and exit\n"
          "  --version       print the version and exit\n"
          "  --              end of options: the next word is the program\n"
          "\n"
          "The job fails as soon as one instance is killed, exits non-zero, or exits\n"
          "without calling MDL_End; the others are then stopped.  Exit status: 0 on\n"
          "success, the failing instance's status (128+signal if killed, 1 if it\n"
          "skipped MDL_End), 128+signal if mdlrun is interrupted, 2 on usage errors,\n"
          "126/127 if a program cannot be executed / is not found.  See mdlrun(1).\n",
          out);
}

static int usage_error(int *status, const char *fmt, const char *arg)
{
    fputs("mdlrun: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (mdlrun --help for usage)\n", stderr);
    *status = MDLRUN_EXIT_USAGE;
    return -1;
}

#define PAGE_UP(x) (((x) + 4095) & ~(uint64_t)4095)

/* Whether the library's areas for n instances leave it a heap in the
 * job's segment: the arithmetic of seg_carve (runtime/shm/shm_init.c),
 * whose instances would otherwise each fail with "the segment is too
 * small". */
static int segment_holds(uint64_t n)
{
    uint64_t off = mdl_shm_lib_offset((uint32_t)n);
    off = PAGE_UP(off + sizeof(shm_lib));
    off = PAGE_UP(off + n * sizeof(shm_info));
    off = PAGE_UP(off + n * n * sizeof(uint32_t));
    off = PAGE_UP(off + n * n * sizeof(shm_ring));
    return off < MDL_SHM_SEGMENT_SIZE;
}

/* The most instances a job can have: the segment holds a message ring
 * per ordered pair of instances, so about sqrt(64 GiB / 65 KiB). */
static unsigned max_instances(void)
{
    unsigned lo = 1, hi = MDLRUN_MAX_INSTANCES;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo + 1) / 2;
        if (segment_holds(mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* A count is digits only: "-3", "+3", " 3", "3x" are all refused. */
static int parse_count(const char *s, unsigned *n)
{
    unsigned long v = 0;
    if (*s == '\0')
        return -1;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (unsigned long)(*p - '0');
        if (v > MDLRUN_MAX_INSTANCES)
            return -1;
    }
    if (v == 0)
        return -1;
    *n = (unsigned)v;
    return 0;
}

static int parse_seconds(const char *s, double *sec)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !isfinite(v) || v <= 0)
        return -1;
    *sec = v;
    return 0;
}

int mdlrun_parse(int argc, char **argv, struct mdlrun_job *job, int *status)
{
    /* A group needs at least its program word: at most argc groups. */
    job->groups = calloc((size_t)argc, sizeof *job->groups);
    if (!job->groups) {
        mdlrun_err("out of memory");
        *status = MDLRUN_EXIT_FAIL;
        return -1;
    }
    if (argc < 2)
        return usage_error(status, "no program to run%s", "");

    unsigned total = 0;
    int i = 1;
    while (i < argc) {
        struct mdlrun_group *g = &job->groups[job->ngroups];
        int have_n = 0;
        g->n = 1;
        while (i < argc && argv[i][0] == '-') {
            const char *opt = argv[i];
            if (strcmp(opt, "--") == 0) {
                i++;
                break;
            } else if (strcmp(opt, "-n") == 0 || strcmp(opt, "-np") == 0) {
                if (i + 1 >= argc)
                    return usage_error(status, "option %s needs a number of instances", opt);
                if (have_n)
                    return usage_error(status, "option %s given twice for one program", opt);
                if (parse_count(argv[i + 1], &g->n) < 0) {
                    fprintf(stderr, "mdlrun: %s expects a number of instances from 1 to %u, got '%s'"
                            " (mdlrun --help for usage)\n", opt, max_instances(), argv[i + 1]);
                    *status = MDLRUN_EXIT_USAGE;
                    return -1;
                }
                have_n = 1;
                i += 2;
            } else if (strcmp(opt, "--timeout") == 0) {
                if (i + 1 >= argc || parse_seconds(argv[i + 1], &job->timeout) < 0)
                    return usage_error(status, "--timeout expects a positive number of seconds, got '%s'",
                                       i + 1 < argc ? argv[i + 1] : "");
                i += 2;
            } else if (strcmp(opt, "-h") == 0 || strcmp(opt, "--help") == 0) {
                usage(stdout);
                *status = 0;
                return -1;
            } else if (strcmp(opt, "--version") == 0) {
                printf("mdlrun (medley) %s\n", MEDLEY_VERSION);
                *status = 0;
                return -1;
            } else {
                return usage_error(status, "unknown option '%s'", opt);
            }
        }
        if (i >= argc || strcmp(argv[i], ":") == 0)
            return usage_error(status, "missing program%s",
                               job->ngroups ? " after ':'" : "");

        unsigned most = max_instances();
        if (g->n > most - (total < most ? total : most)) {
            fprintf(stderr, "mdlrun: %u instances in all: at most %u fit in the job's segment "
                    "(%llu GiB, one message ring of %zu KiB per ordered pair of instances) "
                    "(mdlrun --help for usage)\n", total + g->n, most,
                    MDL_SHM_SEGMENT_SIZE >> 30, sizeof(shm_ring) >> 10);
            *status = MDLRUN_EXIT_USAGE;
            return -1;
        }
        int start = i;
        while (i < argc && strcmp(argv[i], ":") != 0)
            i++;
        g->argv = calloc((size_t)(i - start + 1), sizeof *g->argv);
        if (!g->argv) {
            mdlrun_err("out of memory");
            *status = MDLRUN_EXIT_FAIL;
            return -1;
        }
        memcpy(g->argv, &argv[start], (size_t)(i - start) * sizeof *g->argv);
        const char *slash = strrchr(g->argv[0], '/');
        g->name = slash && slash[1] ? slash + 1 : g->argv[0];

        g->first_slot = total;
        total += g->n;
        job->ngroups++;

        if (i < argc) {         /* at ':' */
            i++;
            if (i >= argc)
                return usage_error(status, "missing program after ':'%s", "");
        }
    }
    job->nslots = total;
    return 0;
}

/* Why `path` cannot be executed (0 if it can), like execve would say. */
static int check_exec(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return errno;
    if (S_ISDIR(st.st_mode))
        return EISDIR;
    if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0)
        return EACCES;
    return 0;
}

/* execvp's search: PATH entries in order, an empty one meaning ".", and a
 * file found but not executable reported as such if nothing better is found. */
static char *search_path(const char *name, int *err)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/bin:/usr/bin";
    size_t nlen = strlen(name);
    *err = ENOENT;
    for (const char *p = path;; ) {
        const char *colon = strchr(p, ':');
        size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
        char *cand = malloc(dlen + nlen + 3);
        if (!cand) {
            *err = ENOMEM;
            return NULL;
        }
        if (dlen == 0)
            sprintf(cand, "./%s", name);
        else
            sprintf(cand, "%.*s/%s", (int)dlen, p, name);
        int e = check_exec(cand);
        if (e == 0)
            return cand;
        free(cand);
        if (e == EACCES)
            *err = EACCES;
        if (!colon)
            return NULL;
        p = colon + 1;
    }
}

int mdlrun_resolve(struct mdlrun_job *job)
{
    for (unsigned k = 0; k < job->ngroups; k++) {
        struct mdlrun_group *g = &job->groups[k];
        const char *prog = g->argv[0];
        int err;
        if (strchr(prog, '/')) {
            err = check_exec(prog);
            if (err == 0 && !(g->path = strdup(prog)))
                err = ENOMEM;
        } else {
            g->path = search_path(prog, &err);
            if (g->path)
                err = 0;
        }
        if (err) {
            mdlrun_err("cannot run '%s': %s", prog, strerror(err));
            return err == ENOENT || err == ENOTDIR ? MDLRUN_EXIT_NOTFOUND
                 : err == ENOMEM ? MDLRUN_EXIT_FAIL : MDLRUN_EXIT_NOEXEC;
        }
    }
    return 0;
}

void mdlrun_free(struct mdlrun_job *job)
{
    if (job->groups) {
        for (unsigned k = 0; k < job->ngroups; k++) {
            free(job->groups[k].argv);
            free(job->groups[k].path);
        }
        free(job->groups);
    }
    free(job->inst);
}
