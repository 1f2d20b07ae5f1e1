/* main.c — the driver: medleyc [options] spec.mdl
 *
 * load and check (the front end: frontend.h) → emit (codegen/).  Exit
 * status 0 (ok, warnings allowed), 1 (errors in the spec: nothing is
 * written), 2 (usage or I/O error). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "frontend.h"

static const char usage_text[] =
    "usage: medleyc [options] spec.mdl\n"
    "Compiles a MeDLey communication spec into C (TMDL.h and TMDL.c per task,\n"
    "specMDL_common.h per spec).\n"
    "\n"
    "options:\n"
    "  -o DIR            write the generated files into DIR (default: .; created\n"
    "                    with its parents if missing)\n"
    "  -D NAME=VALUE     define or override the integer const NAME\n"
    "  --check           parse and check only; write nothing\n"
    "  --dot FILE        also write the communication graph (Graphviz) to FILE\n"
    "  --fortran         also write the Fortran modules (TMDL.f90 per task,\n"
    "                    specMDL_common.f90 per spec)\n"
    "  --version         print the version and exit\n"
    "  --help            print this help and exit\n"
    "\n"
    "exit status: 0 ok, 1 errors in the spec (nothing written), 2 usage or I/O error\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("medleyc: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'medleyc --help' for more information.\n", stderr);
    return 2;
}

/* Why files cannot be created in dir, or NULL if they can.  A directory
 * that does not exist yet will be created (as mkdir -p does): then its
 * nearest existing ancestor must be a directory we can write into. */
static const char *dir_problem(const char *dir)
{
    struct stat st;
    char *up = NULL;
    const char *p = dir;
    while (stat(p, &st) != 0) {
        if (errno != ENOENT)
            break;
        /* the parent: drop trailing slashes, then the last component */
        char *q = up ? up : (up = strdup(dir));
        if (!q)
            return strerror(ENOMEM);
        size_t n = strlen(q);
        while (n > 1 && q[n - 1] == '/')
            q[--n] = '\0';
        char *slash = strrchr(q, '/');
        if (!slash)
            strcpy(q, ".");
        else if (slash == q)
            q[1] = '\0';
        else
            *slash = '\0';
        p = q;
    }
    int err = errno;
    const char *why = NULL;
    if (stat(p, &st) != 0)
        why = strerror(err);
    else if (!S_ISDIR(st.st_mode))
        why = strerror(ENOTDIR);
    else if (access(p, W_OK | X_OK) != 0)
        why = strerror(errno);
    free(up);
    return why;
}

/* The directory of the --dot file. */
static char *dot_dir(const char *dot)
{
    const char *slash = strrchr(dot, '/');
    return slash ? strndup(dot, slash == dot ? 1 : (size_t)(slash - dot)) : strdup(".");
}

/* Checked before anything is written, so that an unusable place fails
 * the run without leaving some of the outputs behind. */
static int check_outputs(const char *outdir, const char *dot)
{
    const char *why = dir_problem(outdir);
    if (why) {
        fprintf(stderr, "medleyc: error: cannot write to '%s': %s\n", outdir, why);
        return -1;
    }
    if (dot) {
        char *dir = dot_dir(dot);
        if (!dir) {
            fputs("medleyc: out of memory\n", stderr);
            return -1;
        }
        why = dir_problem(dir);
        free(dir);
        if (why) {
            fprintf(stderr, "medleyc: error: cannot write '%s': %s\n", dot, why);
            return -1;
        }
    }
    return 0;
}

/* The directories this run created, removed again if writing fails. */
typedef struct made_dirs {
    char **v;
    int n, cap;
} made_dirs;

/* mkdir -p dir, recording what it created; only once the spec is known to
 * be correct, so a run with errors leaves no trace. */
static int make_dirs(const char *dir, made_dirs *made)
{
    char *p = strdup(dir);
    if (!p) {
        fputs("medleyc: out of memory\n", stderr);
        return -1;
    }
    int rc = 0;
    for (char *c = p + 1;; c++) {
        if (*c != '/' && *c != '\0')
            continue;
        char saved = *c;
        *c = '\0';
        if (mkdir(p, 0777) == 0) {
            if (made->n == made->cap) {
                made->cap = made->cap ? 2 * made->cap : 8;
                char **v = realloc(made->v, (size_t)made->cap * sizeof *v);
                if (!v) {
                    fputs("medleyc: out of memory\n", stderr);
                    exit(2);
                }
                made->v = v;
            }
            made->v[made->n++] = strdup(p);
        } else if (errno != EEXIST) {
            fprintf(stderr, "medleyc: error: cannot create directory '%s': %s\n", p,
                    strerror(errno));
            rc = -1;
        }
        *c = saved;
        if (rc || saved == '\0')
            break;
    }
    free(p);
    return rc;
}

/* Frees the record; with `remove`, deletes the directories first (the
 * deepest first; rmdir leaves anything not empty alone). */
static void forget_dirs(made_dirs *made, int remove)
{
    while (made->n > 0) {
        char *d = made->v[--made->n];
        if (d && remove)
            rmdir(d);
        free(d);
    }
    free(made->v);
}

/* Creates the output directories if needed, writes every output (all or
 * nothing); 0, or 2 after a "medleyc: error:" line. */
static int emit(const mdl_spec *spec, const char *outdir, const char *dot, int fortran)
{
    made_dirs made = { NULL, 0, 0 };
    char *ddir = dot ? dot_dir(dot) : NULL;
    if (dot && !ddir) {
        fputs("medleyc: out of memory\n", stderr);
        return 2;
    }
    int failed = make_dirs(outdir, &made) != 0 || (ddir && make_dirs(ddir, &made) != 0) ||
                 mdl_emit_all(spec, outdir, dot, fortran) != 0;
    forget_dirs(&made, failed);
    free(ddir);
    return failed ? 2 : 0;
}

enum { OPT_CHECK = 256, OPT_DOT, OPT_FORTRAN, OPT_VERSION, OPT_HELP };

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "check", no_argument, NULL, OPT_CHECK },
        { "dot", required_argument, NULL, OPT_DOT },
        { "fortran", no_argument, NULL, OPT_FORTRAN },
        { "version", no_argument, NULL, OPT_VERSION },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    const char *outdir = ".", *dot = NULL;
    int check_only = 0, fortran = 0;
    mdl_define *defs = calloc((size_t)argc, sizeof *defs);
    int ndefs = 0, opt, status = 2;
    if (!defs) {
        fputs("medleyc: out of memory\n", stderr);
        return 2;
    }

    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:D:", longopts, NULL)) != -1) {
        switch (opt) {
        case 'o':
            outdir = optarg;
            break;
        case 'D':
            if (mdl_define_parse(optarg, &defs[ndefs]) != 0) {
                usage_error("invalid -D '%s': expected NAME=INTEGER", optarg);
                goto out;
            }
            ndefs++;
            break;
        case OPT_CHECK:
            check_only = 1;
            break;
        case OPT_DOT:
            dot = optarg;
            break;
        case OPT_FORTRAN:
            fortran = 1;
            break;
        case OPT_VERSION:
            printf("medleyc %s\n", MEDLEY_VERSION);
            status = 0;
            goto out;
        case OPT_HELP:
            fputs(usage_text, stdout);
            status = 0;
            goto out;
        case ':':
            usage_error("option '%s' needs an argument", argv[optind - 1]);
            goto out;
        default:
            usage_error("unknown option '%s'", argv[optind - 1]);
            goto out;
        }
    }
    if (optind >= argc) {
        usage_error("%s", "no input file");
        goto out;
    }
    if (optind + 1 < argc) {
        usage_error("more than one input file ('%s')", argv[optind + 1]);
        goto out;
    }
    const char *path = argv[optind];
    if (!check_only && check_outputs(outdir, dot) != 0)
        goto out;

    mdl_front *front = mdl_front_load(path, defs, ndefs, NULL);
    if (!front) {
        fprintf(stderr, "medleyc: error: cannot read '%s': %s\n", path,
                strerror(errno));
        goto out;
    }
    int errors = mdl_front_check(front);
    if (errors == 0 && fortran)
        errors = mdl_check_fortran(front);
    if (errors > 0)
        status = 1;
    else if (check_only)
        status = 0;
    else
        status = emit(mdl_front_spec(front), outdir, dot, fortran);
    mdl_front_free(front);
out:
    free(defs);
    return status;
}
