/* speccheck.c — `mdltrace --spec spec.mdl FILE`: bytes per call against
 * the sizes the spec declares.
 *
 * The spec goes through the compiler's own front end (frontend.h: parser,
 * -D, checks), which names each message's function as the generated code
 * does and lays out the structs as C does, so the names and sizes
 * compared are exactly those of the program's TMDL.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "speccheck.h"
#include "table.h"

/* ---------------------------------------------------------------- sizes */

static long long elem_size(const mdl_var *v)
{
    return v ? mdl_type_size(&v->type) : -1;
}

/* The most elements an item can select: its declared extents where the
 * bounds are known only at run time; -1 for a pointer. */
static long long item_max(const mdl_item *it)
{
    const mdl_var *v = it->var;
    if (!v || v->form == MDL_V_POINTER)
        return -1;
    if (it->idx.n == 0)
        return v->nelems;
    long long n = 1;
    for (int d = 0; d < it->idx.n && d < v->dims.n; d++) {
        const mdl_index *ix = it->idx.v[d];
        long long k = ix->kind == MDL_IX_SINGLE ? 1
                      : ix->is_const ? ix->hi_val - ix->lo_val + 1 : v->dimval[d];
        if (k < 0)
            return -1;          /* an extent set at MDL_Allocate */
        n = mt_mul(n, k);
    }
    return n;
}

/* What the spec says one call moves: a fixed size, or (fixed < 0) at most
 * `max` bytes (-1: unbounded or unknown). */
typedef struct declared {
    long long fixed, max;
    const char *why;            /* when not fixed */
} declared;

static declared p2p_size(const mdl_msg *m)
{
    declared d = { 0, 0, NULL };
    for (int k = 0; k < m->items.n; k++) {
        const mdl_item *it = m->items.v[k];
        long long es = it ? elem_size(it->var) : -1;
        if (es < 0) {
            d.fixed = d.max = -1;
            d.why = "element size unknown";
            return d;
        }
        if (it->count >= 0) {
            d.fixed = d.fixed >= 0 ? mt_add(d.fixed, mt_mul(it->count, es)) : -1;
            if (d.max >= 0)
                d.max = mt_add(d.max, mt_mul(it->count, es));
        } else {
            long long mx = item_max(it);
            d.fixed = -1;
            d.max = d.max >= 0 && mx >= 0 ? mt_add(d.max, mt_mul(mx, es)) : -1;
            d.why = "bounds read at the call";
        }
    }
    return d;
}

/* One instance's block (docs/tracing.md): count × element size, with the
 * derived count of Scatter and Allgather taken from a capacity as the
 * runtimes do (docs/language.md §7). */
static declared coll_size(const mdl_msg *m, long family)
{
    declared d = { -1, -1, "counts read at the call" };
    const mdl_coll_operands *a = &m->cargs;
    const mdl_item *buf = a->send ? a->send : a->recv;
    long long es = buf ? elem_size(buf->var) : -1;
    if (es < 0) {
        d.why = "element size unknown";
        return d;
    }
    switch (m->coll->kind) {
    case MDL_CO_SCATTER:
    case MDL_CO_ALLGATHER: {
        const mdl_item *cap = a->in_place ? a->send
                            : m->coll->kind == MDL_CO_SCATTER ? a->recv : a->send;
        if (!cap || cap->count < 0 || family <= 0)
            return d;
        d.fixed = mt_mul(a->in_place ? cap->count / family : cap->count, es);
        return d;
    }
    case MDL_CO_SCATTERV:
    case MDL_CO_GATHERV:
    case MDL_CO_ALLGATHERV:
        return d;
    default:
        if (a->count && a->count->count >= 0 && !a->count->var)
            d.fixed = mt_mul(a->count->count, es);
        else
            d.why = "count read at the call";
        return d;
    }
}

/* ---------------------------------------------------------------- the check */

typedef struct fnrow {
    int task, fn;               /* trace string ids */
    long long calls;            /* calls that carried bytes */
    long long bmin, bmax;
    int first_size;             /* index of the first of its sizes */
} fnrow;

typedef struct sizerow {
    int row;
    long long bytes, calls;
} sizerow;

static int sizerow_cmp(const void *a, const void *b)
{
    const sizerow *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

/* The checked spec, or NULL after saying why. */
static mdl_front *read_spec(const char *path, const mdl_define *defs, int ndefs)
{
    /* the user saw the spec's warnings when compiling: show errors only */
    char *msgs = NULL;
    size_t msglen = 0;
    FILE *cap = open_memstream(&msgs, &msglen);
    mdl_front *f = mdl_front_load(path, defs, ndefs, cap);
    if (!f) {
        fprintf(stderr, "mdltrace: error: cannot read '%s': %s\n", path, strerror(errno));
        if (cap)
            fclose(cap);
        free(msgs);
        return NULL;
    }
    int errors = mdl_front_check(f);
    if (cap)
        fclose(cap);
    if (errors) {
        fputs(msgs ? msgs : "", stderr);
        fprintf(stderr, "mdltrace: error: '%s' has errors: fix the spec first\n", path);
        mdl_front_free(f);
        f = NULL;
    }
    free(msgs);
    return f;
}

/* The task's messages in the order of their functions in TMDL.h: sends,
 * receives, collective messages. */
static const mdl_msg **task_msgs(const mdl_task *task, int *n)
{
    int cap = task->sends.n + task->recvs.n;
    for (int c = 0; c < task->colls.n; c++)
        cap += task->colls.v[c]->msgs.n;
    const mdl_msg **v = mt_xcalloc((size_t)cap + 1, sizeof *v);
    *n = 0;
    for (int k = 0; k < task->sends.n; k++)
        v[(*n)++] = task->sends.v[k];
    for (int k = 0; k < task->recvs.n; k++)
        v[(*n)++] = task->recvs.v[k];
    for (int c = 0; c < task->colls.n; c++)
        for (int k = 0; k < task->colls.v[c]->msgs.n; k++)
            v[(*n)++] = task->colls.v[c]->msgs.v[k];
    return v;
}

static void put_size(char *buf, size_t cap, long long b)
{
    snprintf(buf, cap, "%lld", b);
}

int mt_spec_check(const mt_trace *t, const char *spec_path, const mdl_define *defs,
                  int ndefs, FILE *out)
{
    mdl_front *front = read_spec(spec_path, defs, ndefs);
    if (!front)
        return 2;
    const mdl_spec *spec = mdl_front_spec(front);

    /* calls per (task, function) and their sizes, over the instances */
    fnrow *rows = NULL;
    size_t nrows = 0, caprows = 0;
    sizerow *sz = NULL;
    size_t nsz = 0, capsz = 0;
    mt_map rmap = { 0 }, smap = { 0 };
    for (size_t i = 0; i < t->nsizes; i++) {
        const mt_size *s = &t->sizes[i];
        const mt_agg *a = &t->aggs[s->agg];
        int inst = mt_track_inst(t, a->track);
        if (inst < 0)
            continue;
        mt_key k = mt_key4(t->insts[inst].task, a->fn, 0, 0);
        int added;
        uint32_t r = mt_map_put(&rmap, &k, (uint32_t)nrows, &added);
        if (added) {
            MT_VEC_RESERVE(rows, caprows, nrows + 1);
            rows[nrows] = (fnrow){ t->insts[inst].task, a->fn, 0, s->bytes, s->bytes, 0 };
            nrows++;
        }
        fnrow *fr = &rows[r];
        fr->calls = mt_add(fr->calls, s->calls);
        if (s->bytes < fr->bmin)
            fr->bmin = s->bytes;
        if (s->bytes > fr->bmax)
            fr->bmax = s->bytes;
        mt_key sk = mt_key4(r, s->bytes, 0, 0);
        uint32_t si = mt_map_put(&smap, &sk, (uint32_t)nsz, &added);
        if (added) {
            MT_VEC_RESERVE(sz, capsz, nsz + 1);
            sz[nsz++] = (sizerow){ (int)r, s->bytes, 0 };
        }
        sz[si].calls = mt_add(sz[si].calls, s->calls);
    }
    if (nsz > 1)
        qsort(sz, nsz, sizeof *sz, sizerow_cmp);
    for (size_t i = nsz; i-- > 0;)
        rows[sz[i].row].first_size = (int)i;

    static const char *const heads[] = { "task", "function", "calls", "bytes/call",
                                         "spec", "verdict" };
    mt_table *tab = mt_table_new(6, heads, "llrrrl");
    int mismatches = 0, unknown = 0;
    char *done = mt_xcalloc(nrows + 1, 1);
    mt_table *never = NULL;
    size_t nnever = 0;

    for (int ti = 0; ti < spec->tasks.n; ti++) {
        const mdl_task *task = spec->tasks.v[ti];
        int task_id = mt_strtab_find(&t->str, task->name);
        long family = 0;
        for (size_t i = 0; task_id >= 0 && i < t->ninsts; i++)
            family += t->insts[i].task == task_id;
        if (family == 0)
            continue;                   /* not part of this run */
        int nmsgs;
        const mdl_msg **msgs = task_msgs(task, &nmsgs);
        for (int f = 0; f < nmsgs; f++) {
            const mdl_msg *m = msgs[f];
            int fn_id = mt_strtab_find(&t->str, m->fn_name);
            mt_key k = mt_key4(task_id, fn_id, 0, 0);
            uint32_t r = fn_id >= 0 ? mt_map_get(&rmap, &k) : UINT32_MAX;
            if (r == UINT32_MAX) {
                if (!never)
                    never = mt_table_new(2, (const char *const[]){ "task", "function" }, "ll");
                mt_table_row(never);
                mt_table_cell(never, "%s", task->name);
                mt_table_cell(never, "%s", m->fn_name);
                nnever++;
                continue;
            }
            done[r] = 1;
            const fnrow *fr = &rows[r];
            declared d = m->coll ? coll_size(m, family) : p2p_size(m);
            char seen[64], want[64];
            if (fr->bmin == fr->bmax)
                put_size(seen, sizeof seen, fr->bmin);
            else
                snprintf(seen, sizeof seen, "%lld..%lld", fr->bmin, fr->bmax);
            mt_table_row(tab);
            mt_table_cell(tab, "%s", task->name);
            mt_table_cell(tab, "%s", m->fn_name);
            mt_table_cell(tab, "%lld", fr->calls);
            mt_table_cell(tab, "%s", seen);
            if (d.fixed >= 0) {
                put_size(want, sizeof want, d.fixed);
                mt_table_cell(tab, "%s", want);
                /* the distinct sizes that differ, with their calls */
                char verdict[256] = "";
                size_t vn = 0;
                int shown = 0, bad = 0;
                for (size_t i = (size_t)fr->first_size; i < nsz && sz[i].row == (int)r; i++) {
                    if (sz[i].bytes == d.fixed)
                        continue;
                    bad = 1;
                    if (shown++ < 3 && vn < sizeof verdict)
                        vn += (size_t)snprintf(verdict + vn, sizeof verdict - vn,
                                               "%s%lld call%s of %lld B (%s)", shown > 1 ? ", " : "",
                                               sz[i].calls, sz[i].calls == 1 ? "" : "s",
                                               sz[i].bytes,
                                               sz[i].bytes < d.fixed ? "shorter" : "longer");
                }
                if (shown > 3 && vn < sizeof verdict)
                    snprintf(verdict + vn, sizeof verdict - vn, ", …");
                mt_table_cell(tab, "%s%s", bad ? "DIFFERS: " : "ok", verdict);
                mismatches += bad;
            } else {
                if (d.max >= 0)
                    mt_table_cell(tab, "≤ %lld", d.max);
                else
                    mt_table_cell(tab, "?");
                if (d.max >= 0 && fr->bmax > d.max) {
                    mt_table_cell(tab, "DIFFERS: longer than the variables it names");
                    mismatches++;
                } else {
                    mt_table_cell(tab, "not fixed (%s)", d.why);
                }
            }
        }
        free(msgs);
    }
    for (size_t r = 0; r < nrows; r++) {
        if (done[r])
            continue;
        mt_table_row(tab);
        mt_table_cell(tab, "%s", mt_s(t, rows[r].task));
        mt_table_cell(tab, "%s", mt_s(t, rows[r].fn));
        mt_table_cell(tab, "%lld", rows[r].calls);
        mt_table_cell(tab, "%lld..%lld", rows[r].bmin, rows[r].bmax);
        mt_table_cell(tab, "-");
        mt_table_cell(tab, "NOT IN THE SPEC");
        unknown++;
    }

    fprintf(out, "%s against %s", t->path, spec_path);
    if (ndefs)
        fputs(" (with -D)", out);
    fputc('\n', out);
    if (t->spec_hash >= 0) {
        char mine[32];
        snprintf(mine, sizeof mine, "%016llx", mdl_spec_hash(spec));
        if (strcmp(mine, mt_s(t, t->spec_hash)) != 0)
            fprintf(out, "note: the trace was recorded from another version of the spec or "
                         "other -D values (spec_hash %s, this spec %s)\n",
                    mt_s(t, t->spec_hash), mine);
    }
    if (nrows) {
        fputc('\n', out);
        mt_table_print(tab, out);
    } else {
        fputs("no call with a byte count was recorded\n", out);
    }
    fputs("\nbytes/call: payload of one message (point to point) or of the instance's "
          "block (collectives)\n", out);
    if (never) {
        fprintf(out, "\nnever called in this trace (%zu):\n", nnever);
        mt_table_print(never, out);
        mt_table_free(never);
    }
    fprintf(out, "\n%d function%s differ%s from the spec, %d %s not in it\n", mismatches,
            mismatches == 1 ? "" : "s", mismatches == 1 ? "s" : "", unknown,
            unknown == 1 ? "is" : "are");

    mt_table_free(tab);
    free(done);
    free(rows);
    free(sz);
    mt_map_free(&rmap);
    mt_map_free(&smap);
    mdl_front_free(front);
    return mismatches || unknown ? 1 : 0;
}
