/* main.c — mdltrace [options] TRACE: what a traced MeDLey job communicated.
 *
 * Exit status: 0 ok; 1 --spec found a difference or --check a problem;
 * 2 usage error, unreadable or malformed trace, spec with errors, output
 * that cannot be written. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "matrix.h"
#include "recover.h"
#include "report.h"
#include "speccheck.h"
#include "trace.h"
#include "validate.h"

static const char usage_text[] =
    "usage: mdltrace [options] TRACE\n"
    "Reads a trace written by a MeDLey job run with MDL_TRACE=TRACE and prints,\n"
    "per message, calls, messages, bytes and the time spent in the calls.\n"
    "\n"
    "options:\n"
    "  --matrix OUT.svg  draw the instance-by-instance matrix of bytes sent\n"
    "  --csv             print that matrix as CSV instead of the table\n"
    "  --instances       the table with a line per instance instead of per task\n"
    "  --spec SPEC.mdl   compare bytes per call with the sizes the spec declares\n"
    "  -D NAME=VALUE     with --spec: the -D given to medleyc\n"
    "  --check           check that TRACE follows the trace format\n"
    "  --recover         write TRACE from the buffers an MPI job that did not end\n"
    "                    left, one per process of this host, then remove them:\n"
    "                    /dev/shm/medley-<uid>/trace.<hash>.<job>.<rank>, <hash>\n"
    "                    that of TRACE's absolute path (your private directory;\n"
    "                    docs/tracing.md, section 5)\n"
    "  --version         print the version and exit\n"
    "  --help            print this help and exit\n"
    "\n"
    "TRACE may be - for standard input.\n"
    "exit status: 0 ok, 1 --spec or --check found a difference, 2 error\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("mdltrace: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'mdltrace --help' for more information.\n", stderr);
    return 2;
}

enum { OPT_MATRIX = 256, OPT_CSV, OPT_INSTANCES, OPT_SPEC, OPT_CHECK, OPT_RECOVER, OPT_VERSION,
       OPT_HELP };

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "matrix", required_argument, NULL, OPT_MATRIX },
        { "csv", no_argument, NULL, OPT_CSV },
        { "instances", no_argument, NULL, OPT_INSTANCES },
        { "spec", required_argument, NULL, OPT_SPEC },
        { "check", no_argument, NULL, OPT_CHECK },
        { "recover", no_argument, NULL, OPT_RECOVER },
        { "version", no_argument, NULL, OPT_VERSION },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    const char *svg = NULL, *spec = NULL;
    int csv = 0, by_instance = 0, check = 0, recover = 0, opt, status = 2;
    mdl_define *defs = calloc((size_t)argc, sizeof *defs);
    int ndefs = 0;
    if (!defs) {
        fputs("mdltrace: out of memory\n", stderr);
        return 2;
    }
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":D:", longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_MATRIX:
            svg = optarg;
            break;
        case OPT_CSV:
            csv = 1;
            break;
        case OPT_INSTANCES:
            by_instance = 1;
            break;
        case OPT_SPEC:
            spec = optarg;
            break;
        case 'D':
            if (mdl_define_parse(optarg, &defs[ndefs]) != 0) {
                usage_error("invalid -D '%s': expected NAME=INTEGER", optarg);
                goto out;
            }
            ndefs++;
            break;
        case OPT_CHECK:
            check = 1;
            break;
        case OPT_RECOVER:
            recover = 1;
            break;
        case OPT_VERSION:
            printf("mdltrace %s\n", MEDLEY_VERSION);
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
        usage_error("%s", "no trace file");
        goto out;
    }
    if (optind + 1 < argc) {
        usage_error("more than one trace file ('%s')", argv[optind + 1]);
        goto out;
    }
    if (ndefs && !spec) {
        usage_error("%s", "-D is for --spec");
        goto out;
    }
    if (by_instance && (svg || csv || spec || check)) {
        usage_error("%s", "--instances is for the table (no --matrix, --csv, --spec, --check)");
        goto out;
    }
    if (recover && (svg || csv || spec || check || by_instance)) {
        usage_error("%s", "--recover takes no other option");
        goto out;
    }
    if (recover) {
        status = mt_recover(argv[optind], stdout);
        goto out;
    }

    mt_trace t;
    int read_rc = mt_trace_read(&t, argv[optind], check);
    if (strcmp(argv[optind], "-") != 0)
        mt_recover_note(argv[optind], read_rc == 0, stderr);
    if (read_rc != 0) {
        mt_trace_free(&t);
        goto out;
    }
    mt_trace_finish(&t);
    status = 0;
    if (check) {
        mt_validate(&t);
        long long problems = t.nwarnings;   /* reading and validation together */
        if (problems) {
            if (problems > 200)
                fprintf(stderr, "mdltrace: %lld more problems not shown\n", problems - 200);
            printf("%s: %lld problem%s with the trace format\n", t.path, problems,
                   problems == 1 ? "" : "s");
            status = 1;
        } else {
            printf("%s: follows the medley trace format (%lld complete events, %zu flow "
                   "events, %zu instances)\n", t.path, t.nx, t.nflows, t.ninsts);
        }
    } else if (t.nwarnings > 5) {
        fprintf(stderr, "mdltrace: %lld more warnings not shown (mdltrace --check lists "
                "them)\n", t.nwarnings - 5);
    }
    if (spec) {
        int rc = mt_spec_check(&t, spec, defs, ndefs, stdout);
        if (rc > status)
            status = rc;
    }
    if (svg || csv) {
        mt_matrix m;
        if (mt_matrix_build(&t, &m) != 0) {
            status = 2;
        } else {
            if (csv)
                mt_matrix_csv(&t, &m, stdout);
            if (svg) {
                if (mt_matrix_svg(&t, &m, svg) != 0)
                    status = 2;
                else if (!csv)
                    printf("wrote %s: %zu instances, %zu sender-receiver pairs\n", svg, m.n,
                           m.nonempty);
            }
            mt_matrix_free(&m);
        }
    }
    if (!svg && !csv && !spec && !check) {
        mt_report_header(&t, stdout);
        mt_report_table(&t, by_instance, stdout);
    }
    mt_trace_free(&t);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("mdltrace: error: writing the output");
        status = 2;
    }
out:
    free(defs);
    return status;
}
