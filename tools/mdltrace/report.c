/* report.c — `mdltrace FILE`: the job in a few lines, then one table of
 * call statistics per message, per task and in total. */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "table.h"

void mt_inst_list(const mt_trace *t, FILE *out, size_t max_groups)
{
    size_t groups = 0;
    for (size_t i = 0; i < t->ninsts;) {
        const mt_inst *in = &t->insts[i];
        size_t k = i + 1;
        /* a run of consecutive indexes of one task prints as son[0..2] */
        while (in->index >= 0 && k < t->ninsts && t->insts[k].task == in->task &&
               t->insts[k].index == t->insts[k - 1].index + 1)
            k++;
        if (groups == max_groups) {
            fprintf(out, ", …");
            return;
        }
        fprintf(out, "%s", groups ? ", " : "");
        if (k - i > 1)
            fprintf(out, "%s[%ld..%ld]", mt_s(t, in->task), in->index, t->insts[k - 1].index);
        else
            fprintf(out, "%s", mt_s(t, in->name));
        groups++;
        i = k;
    }
}

/* The instances whose otherData entry satisfies a condition, as a list. */
static void list_where(const mt_trace *t, FILE *out, int (*cond)(const mt_trace *, const mt_info *))
{
    int n = 0;
    for (size_t i = 0; i < t->ninsts; i++) {
        const mt_inst *in = &t->insts[i];
        if (in->info < 0 || !cond(t, &t->infos[in->info]))
            continue;
        if (n == 8) {
            fputs(", …", out);
            break;
        }
        fprintf(out, "%s%s", n++ ? ", " : "", mt_s(t, in->name));
    }
}

static int dropped_some(const mt_trace *t, const mt_info *in)
{
    (void)t;
    return in->dropped > 0;
}

static int lost(const mt_trace *t, const mt_info *in)
{
    return in->end >= 0 && strcmp(mt_s(t, in->end), RT_TF_END_LOST) == 0;
}

static int ended_error(const mt_trace *t, const mt_info *in)
{
    return in->end >= 0 && strcmp(mt_s(t, in->end), RT_TF_END_ERROR) == 0;
}

int mt_uses_totals(const mt_trace *t, const mt_inst *in)
{
    return in->info >= 0 && t->infos[in->info].has_totals;
}

void mt_report_header(const mt_trace *t, FILE *out)
{
    fprintf(out, "%s: ", t->path);
    if (t->spec >= 0)
        fprintf(out, "%s, ", mt_s(t, t->spec));
    if (t->runtime >= 0)
        fprintf(out, "runtime %s, ", mt_s(t, t->runtime));
    fprintf(out, "%zu instance%s (", t->ninsts, t->ninsts == 1 ? "" : "s");
    mt_inst_list(t, out, 12);
    fputs(")", out);
    const char *end = t->end >= 0 ? mt_s(t, t->end) : NULL;
    if (!t->has_other)
        fputs("; no " RT_TF_KEY_OTHER_DATA ": not written by a medley runtime?\n", out);
    else if (end && strcmp(end, RT_TF_END_NORMAL) == 0)
        fputs(", ended normally\n", out);
    else if (end && strcmp(end, RT_TF_END_ERROR) == 0)
        fprintf(out, ", ended by an error:\n  %s\n",
                t->error >= 0 ? mt_s(t, t->error) : "(no message recorded)");
    else
        fprintf(out, ", end not recorded\n");
    int any_error = 0;
    for (size_t i = 0; i < t->ninfos; i++)
        any_error |= ended_error(t, &t->infos[i]);
    if (any_error) {
        fputs("  instances that stopped on an error: ", out);
        list_where(t, out, ended_error);
        fputc('\n', out);
    }
    /* what failed besides the job's own error: calls that returned one
     * (MDL_ERRORS=return), the others' calls torn down with the job, the
     * calls each process was in when an MPI job ended under it */
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < t->ncall_errors; i++) {
        if (t->call_errors[i] == t->error)
            continue;
        if (shown == 10) {
            more++;
            continue;
        }
        fprintf(out, "%s%s\n", shown++ ? "    " : "  calls that failed:\n    ",
                mt_s(t, t->call_errors[i]));
    }
    if (more)
        fprintf(out, "    and %zu more\n", more);
    if (t->command >= 0)
        fprintf(out, "  started as: %s\n", mt_s(t, t->command));
    if (t->host_clocks >= 0)
        fprintf(out, "  hosts' clocks against rank 0's: %s\n", mt_s(t, t->host_clocks));
    if (t->any_lost) {
        fputs("  no data from: ", out);
        list_where(t, out, lost);
        fputc('\n', out);
    }

    fprintf(out, "events: %lld recorded", t->nx);
    if (t->all_infos) {
        fprintf(out, ", %lld dropped", t->dropped_total);
        if (t->dropped_total) {
            fputs(" (buffer", out);
            if (t->buffer_events > 0)
                fprintf(out, " of %lld events", t->buffer_events);
            fputs(" full on ", out);
            list_where(t, out, dropped_some);
            fputs(")", out);
        }
    }
    fprintf(out, "; messages traced: %lld", t->flows_matched + t->flows_unreceived +
            t->flows_unsent + t->flows_duplicate);
    if (t->flows_unreceived || t->flows_unsent || t->flows_duplicate) {
        const char *sep = " (";
        if (t->flows_unreceived) {
            fprintf(out, "%s%lld sent but not received", sep, t->flows_unreceived);
            sep = ", ";
        }
        if (t->flows_unsent) {
            fprintf(out, "%s%lld received with no send recorded", sep, t->flows_unsent);
            sep = ", ";
        }
        if (t->flows_duplicate)
            fprintf(out, "%s%lld ids used more than once", sep, t->flows_duplicate);
        if (t->dropped_total || t->any_lost)
            fputs(": events are missing", out);
        fputs(")", out);
    } else if (t->flows_matched) {
        fputs(", all received", out);
    }
    fputc('\n', out);
    if (t->dropped_total) {
        int all = t->ninsts > 0;
        for (size_t i = 0; i < t->ninsts; i++)
            all &= t->insts[i].track < 0 || mt_uses_totals(t, &t->insts[i]);
        fputs(all ? "  the table below is exact (the runtime's totals); the message matrix "
                    "and --spec see recorded events only\n"
                  : "  figures count recorded events only: they are lower bounds\n", out);
    }
    if (t->nunusable)
        fprintf(out, "  %lld event%s could not be used (see the warnings)\n", t->nunusable,
                t->nunusable == 1 ? "" : "s");
    if (t->nignored)
        fprintf(out, "  %lld event%s of other types ignored\n", t->nignored,
                t->nignored == 1 ? "" : "s");
}

/* ---------------------------------------------------------------- rows */

typedef struct row {
    int msg, task, fn, cat;
    long long task_order;
    mt_stats st;
} row;

static const mt_trace *cmp_trace;

static int row_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    /* calls without a message (barriers) last */
    if ((x->msg < 0) != (y->msg < 0))
        return x->msg < 0 ? 1 : -1;
    /* m2 before m10 */
    int c = x->msg >= 0 ? strverscmp(mt_s(cmp_trace, x->msg), mt_s(cmp_trace, y->msg)) : 0;
    if (c)
        return c;
    if (x->task_order != y->task_order)
        return x->task_order < y->task_order ? -1 : 1;
    return strcmp(mt_s(cmp_trace, x->fn), mt_s(cmp_trace, y->fn));
}

/* The instance an aggregate belongs to, or -1 if it is not to be counted:
 * an instance's calls come from its exact totals when the runtime wrote
 * them, else from its recorded events. */
int mt_agg_inst(const mt_trace *t, const mt_agg *a)
{
    if (a->track >= 0) {
        int i = t->tracks[a->track].inst;
        return i >= 0 && !mt_uses_totals(t, &t->insts[i]) ? i : -1;
    }
    return mt_inst_by_name(t, mt_s(t, a->inst_name));
}

static int any_partial;

/* Sums over several functions mix calls that wait (receives) with calls
 * that do not report it (sends): only a function's own row is marked
 * when some of its calls lack the figure. */
static void put_time(mt_table *tab, double v, long long n, long long calls, int mark)
{
    if (n == 0)
        mt_table_cell(tab, "-");
    else {
        mt_table_cell(tab, "%.1f%s", v, mark && n < calls ? "*" : "");
        any_partial |= mark && n < calls;
    }
}

static void put_row(mt_table *tab, const mt_trace *t, const char *msg, const char *task,
                    const char *fn, const row *r, int errcol)
{
    mt_table_row(tab);
    mt_table_cell(tab, "%s", msg);
    mt_table_cell(tab, "%s", task);
    mt_table_cell(tab, "%s", fn);
    const mt_stats *st = &r->st;
    mt_table_cell(tab, "%lld", st->calls);
    mt_table_cell(tab, "%lld", st->msgs);
    mt_table_cell(tab, "%lld", st->bytes);
    mt_table_cell(tab, "%.1f", st->dur);
    mt_table_cell(tab, "%.2f", st->calls ? st->dur / (double)st->calls : 0.0);
    put_time(tab, st->wait, st->nwait, st->calls, *fn != '\0');
    put_time(tab, st->copy, st->ncopy, st->calls, *fn != '\0');
    if (errcol)
        mt_table_cell(tab, "%lld", st->errors);
    (void)t;
}

void mt_report_table(const mt_trace *t, int by_instance, FILE *out)
{
    row *rows = NULL;
    size_t nrows = 0, caprows = 0;
    mt_map map = { 0 };
    long long errors = 0;
    for (size_t i = 0; i < t->naggs; i++) {
        const mt_agg *a = &t->aggs[i];
        int inst = mt_agg_inst(t, a);
        if (inst < 0)
            continue;
        /* by_instance: a row per instance, named as its track ("son[2]") */
        int task = by_instance ? t->insts[inst].name : t->insts[inst].task;
        mt_key k = mt_key4(a->msg, task, a->fn, a->cat);
        int added;
        uint32_t r = mt_map_put(&map, &k, (uint32_t)nrows, &added);
        if (added) {
            MT_VEC_RESERVE(rows, caprows, nrows + 1);
            memset(&rows[nrows], 0, sizeof *rows);
            rows[nrows].msg = a->msg;
            rows[nrows].task = task;
            rows[nrows].fn = a->fn;
            rows[nrows].cat = a->cat;
            rows[nrows].task_order = inst;
            nrows++;
        }
        /* a task sorts where its first instance does */
        if (inst < rows[r].task_order)
            rows[r].task_order = inst;
        mt_stats_add(&rows[r].st, &a->st, 1);
        errors = mt_add(errors, a->st.errors);
    }
    mt_map_free(&map);
    if (nrows == 0) {
        fputs("\nno MDL call was recorded\n", out);
        free(rows);
        return;
    }
    for (size_t i = 0; i < nrows; i++)
        for (size_t k = 0; k < t->ninsts; k++)
            if ((by_instance ? t->insts[k].name : t->insts[k].task) == rows[i].task) {
                rows[i].task_order = (long long)k;
                break;
            }
    cmp_trace = t;
    qsort(rows, nrows, sizeof *rows, row_cmp);

    const char *const heads[] = { "message", by_instance ? "instance" : "task", "function",
                                  "calls", "msgs", "bytes", "time µs", "mean µs", "wait µs",
                                  "copy µs", "errors" };
    int errcol = errors > 0;
    mt_table *tab = mt_table_new(errcol ? 11 : 10, heads, "lllrrrrrrrr");
    row all;
    memset(&all, 0, sizeof all);
    any_partial = 0;
    int any_send = 0;
    for (size_t i = 0; i < nrows; i++)
        any_send |= rows[i].cat == MT_CAT_SEND;
    for (size_t i = 0; i < nrows;) {
        size_t k = i;
        row sub;
        memset(&sub, 0, sizeof sub);
        int has_send = 0;
        for (k = i; k < nrows && rows[k].msg == rows[i].msg; k++)
            has_send |= rows[k].cat == MT_CAT_SEND;
        for (k = i; k < nrows && rows[k].msg == rows[i].msg; k++) {
            put_row(tab, t, k == i ? (rows[i].msg >= 0 ? mt_s(t, rows[i].msg) : "-") : "",
                    mt_s(t, rows[k].task), mt_s(t, rows[k].fn), &rows[k], errcol);
            /* a message counts once: on the sending side when the group
             * has one, else on the receiving side */
            mt_stats_add(&sub.st, &rows[k].st, rows[k].cat != MT_CAT_RECV || !has_send);
        }
        if (k - i > 1 && rows[i].msg >= 0)
            put_row(tab, t, "", "total", "", &sub, errcol);
        /* the job's total counts each message once too: a receive may be
         * paired with a send of another name (rule 3 of the pairing) */
        for (size_t x = i; x < k; x++)
            mt_stats_add(&all.st, &rows[x].st, rows[x].cat != MT_CAT_RECV || !any_send);
        i = k;
    }
    mt_table_row(tab);
    put_row(tab, t, "all", "", "", &all, errcol);
    fputc('\n', out);
    mt_table_print(tab, out);
    mt_table_free(tab);
    fputs("\nbytes: payload moved by the calls; totals count each message once, on the "
          "sending side\ntime: inside the calls; wait: blocked on a peer; copy: moving data; "
          "-: not recorded\n", out);
    if (any_partial)
        fputs("*: not every call of the row has the figure (copy: the calls that copied a "
              "large message)\n", out);
    free(rows);
}
