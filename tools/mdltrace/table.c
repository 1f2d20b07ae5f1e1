/* table.c — see table.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "util.h"

struct mt_table {
    int ncols;
    char **heads;
    char *align;
    char **cells;               /* nrows * ncols, NULL for blank */
    size_t nrows, caprows;
};

mt_table *mt_table_new(int ncols, const char *const *heads, const char *align)
{
    mt_table *t = mt_xcalloc(1, sizeof *t);
    t->ncols = ncols;
    t->heads = mt_xcalloc((size_t)ncols, sizeof *t->heads);
    for (int c = 0; c < ncols; c++)
        t->heads[c] = mt_xstrdup(heads[c]);
    t->align = mt_xstrdup(align);
    return t;
}

void mt_table_row(mt_table *t)
{
    MT_VEC_RESERVE(t->cells, t->caprows, (t->nrows + 1) * (size_t)t->ncols);
    memset(&t->cells[t->nrows * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof *t->cells);
    t->nrows++;
}

void mt_table_cell(mt_table *t, const char *fmt, ...)
{
    char **row = &t->cells[(t->nrows - 1) * (size_t)t->ncols];
    int c = 0;
    while (c < t->ncols && row[c])
        c++;
    if (c == t->ncols)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    row[c] = mt_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(row[c], (size_t)n + 1, fmt, ap);
    va_end(ap);
}

/* Width on screen: UTF-8 continuation bytes take no column ("µs"). */
static int width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void put_cell(FILE *out, const char *s, int w, char align, int last)
{
    int pad = w - width(s);
    if (align == 'r')
        fprintf(out, "%*s%s", pad, "", s);
    else if (last)
        fputs(s, out);
    else
        fprintf(out, "%s%*s", s, pad, "");
}

void mt_table_print(const mt_table *t, FILE *out)
{
    int *w = mt_xcalloc((size_t)t->ncols, sizeof *w);
    for (int c = 0; c < t->ncols; c++) {
        w[c] = width(t->heads[c]);
        for (size_t r = 0; r < t->nrows; r++) {
            const char *s = t->cells[r * (size_t)t->ncols + (size_t)c];
            if (s && width(s) > w[c])
                w[c] = width(s);
        }
    }
    for (size_t r = 0; r <= t->nrows; r++) {
        char **row = r ? &t->cells[(r - 1) * (size_t)t->ncols] : NULL;
        int any = !row;
        for (int c = 0; row && c < t->ncols; c++)
            any |= row[c] != NULL;
        if (!any) {
            fputc('\n', out);
            continue;
        }
        for (int c = 0; c < t->ncols; c++) {
            const char *s = row ? row[c] : t->heads[c];
            put_cell(out, s ? s : "", w[c], t->align[c], c == t->ncols - 1);
            if (c < t->ncols - 1)
                fputs("  ", out);
        }
        fputc('\n', out);
    }
    free(w);
}

void mt_table_free(mt_table *t)
{
    if (!t)
        return;
    for (int c = 0; c < t->ncols; c++)
        free(t->heads[c]);
    for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
        free(t->cells[i]);
    free(t->heads);
    free(t->align);
    free(t->cells);
    free(t);
}
