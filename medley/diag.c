/* diag.c — GCC-style diagnostics: "path:line:col: error: msg", the source
 * line and a caret line underlining the range. */
#include "diag.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mdl_diag {
    const char *path;
    const char *text;
    size_t len;
    FILE *out;
    size_t *lines;              /* offsets of line starts, built on demand */
    int nlines;
    int errors, warnings;
    int stopped;                /* MDL_MAX_ERRORS reached: print no more */
    int last_shown;             /* the previous error/warning was printed:
                                   its notes are printed too */
};

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fputs("medleyc: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

mdl_diag *mdl_diag_new(const char *path, const char *text, size_t len)
{
    mdl_diag *d = xcalloc(1, sizeof *d);
    d->path = path ? path : "<input>";
    d->text = text;
    d->len = text ? len : 0;
    d->out = stderr;
    d->last_shown = 1;
    return d;
}

void mdl_diag_free(mdl_diag *d)
{
    if (!d)
        return;
    free(d->lines);
    free(d);
}

void mdl_diag_set_output(mdl_diag *d, FILE *out)
{
    d->out = out;
}

int mdl_error_count(const mdl_diag *d)
{
    return d->errors;
}

int mdl_warning_count(const mdl_diag *d)
{
    return d->warnings;
}

static void index_lines(mdl_diag *d)
{
    if (d->lines || !d->text)
        return;
    size_t n = 1;
    for (const char *p = d->text, *e = d->text + d->len;
         (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
        n++;
    d->lines = xcalloc(n, sizeof *d->lines);
    d->lines[0] = 0;
    n = 1;
    for (size_t i = 0; i < d->len; i++)
        if (d->text[i] == '\n')
            d->lines[n++] = i + 1;
    d->nlines = (int)n;
}

/* Length of the valid UTF-8 character at s (at most n bytes), or 0 if the
 * byte does not start one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        k = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        k = 3;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        k = 4;
    else
        return 0;
    if (k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) ||
        (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return k;
}

enum { WINDOW = 200, LEAD = 60 };

/* Quotes the first line of loc and underlines the range on it.  Long
 * lines are shown as a window around the column.  Control characters and
 * invalid UTF-8 are shown as ' ' and '?' so the terminal output stays
 * readable and the caret stays aligned (tabs are kept on both lines). */
static void show_source(mdl_diag *d, mdl_loc loc)
{
    if (!d->text || loc.line < 1)
        return;
    index_lines(d);
    if (loc.line > d->nlines)
        return;
    size_t start = d->lines[loc.line - 1];
    size_t end = loc.line < d->nlines ? d->lines[loc.line] - 1 : d->len;
    if (end > start && d->text[end - 1] == '\r')
        end--;
    if (start == end && loc.line == d->nlines && start == d->len && loc.col <= 1)
        return;                 /* the empty "line" after a final newline */
    size_t linelen = end - start;
    size_t c0 = loc.col > 1 ? (size_t)loc.col - 1 : 0;
    if (c0 > linelen)
        c0 = linelen;
    size_t c1 = c0;             /* last underlined byte, inclusive */
    if (loc.end_line == loc.line && loc.end_col - 1 > (int)c0)
        c1 = (size_t)loc.end_col - 1;
    else if (loc.end_line > loc.line && linelen > 0)
        c1 = linelen - 1 > c0 ? linelen - 1 : c0;

    size_t w0 = 0, w1 = linelen;
    if (linelen > WINDOW) {
        w0 = c0 > LEAD ? c0 - LEAD : 0;
        w1 = w0 + WINDOW < linelen ? w0 + WINDOW : linelen;
        /* start on a character boundary */
        while (w0 > 0 && ((unsigned char)d->text[start + w0] & 0xC0) == 0x80)
            w0--;
    }
    if (c1 >= w1)
        c1 = w1 > c0 ? w1 - 1 : c0;

    char num[32];
    int width = snprintf(num, sizeof num, "%d", loc.line);
    if (width < 4)
        width = 4;
    const unsigned char *s = (const unsigned char *)d->text + start;

    fprintf(d->out, " %*d | %s", width, loc.line, w0 > 0 ? "..." : "");
    for (size_t i = w0; i < w1;) {
        size_t k = utf8_len(s + i, w1 - i);
        if (k == 0) {
            fputc('?', d->out);
            k = 1;
        } else if (k == 1 && s[i] != '\t' && (s[i] < 0x20 || s[i] == 0x7f)) {
            fputc(' ', d->out);
        } else {
            fwrite(s + i, 1, k, d->out);
        }
        i += k;
    }
    fprintf(d->out, "%s\n", w1 < linelen ? "..." : "");

    fprintf(d->out, " %*s | %s", width, "", w0 > 0 ? "   " : "");
    size_t i = w0;
    while (i < c0) {
        size_t k = utf8_len(s + i, linelen - i);
        fputc(s[i] == '\t' ? '\t' : ' ', d->out);
        i += k ? k : 1;
    }
    fputc('^', d->out);
    if (i < linelen) {
        size_t k = utf8_len(s + i, linelen - i);
        i += k ? k : 1;
    }
    while (i <= c1 && i < linelen) {
        size_t k = utf8_len(s + i, linelen - i);
        fputc('~', d->out);
        i += k ? k : 1;
    }
    fputc('\n', d->out);
}

/* Names longer than this are shown shortened in messages (their first
 * and last bytes around "..."): a megabyte identifier quoted twice made a
 * 2 MB message, while the source line is already shown as a window. */
enum { LONG_NAME = 200, NAME_HEAD = 64, NAME_TAIL = 16 };

static int name_char(char ch)
{
    return ch == '_' || (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
           (ch >= '0' && ch <= '9');
}

/* The formatted message, with long names shortened, and a newline. */
static void put_message(FILE *out, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap2) < 0) {
        va_end(ap2);
        vfprintf(out, fmt, ap);         /* no memory: print it as it is */
        fputc('\n', out);
        return;
    }
    va_end(ap2);
    for (const char *p = msg; *p;) {
        size_t n = 0;
        while (name_char(p[n]))
            n++;
        if (n > LONG_NAME) {
            fprintf(out, "%.*s...%.*s", (int)NAME_HEAD, p, (int)NAME_TAIL,
                    p + n - NAME_TAIL);
            p += n;
        } else if (n > 0) {
            fwrite(p, 1, n, out);
            p += n;
        } else {
            fputc(*p++, out);
        }
    }
    fputc('\n', out);
    free(msg);
}

static void report(mdl_diag *d, mdl_loc loc, const char *kind,
                   const char *fmt, va_list ap)
{
    if (loc.line >= 1)
        fprintf(d->out, "%s:%d:%d: %s: ", d->path, loc.line, loc.col, kind);
    else
        fprintf(d->out, "%s: %s: ", d->path, kind);
    put_message(d->out, fmt, ap);
    show_source(d, loc);
}

/* Counts the error; says whether it is still printed. */
static int admit_error(mdl_diag *d)
{
    d->errors++;
    if (d->stopped)
        return 0;
    if (d->errors > MDL_MAX_ERRORS) {
        d->stopped = 1;
        fprintf(d->out, "medleyc: error: too many errors (more than %d), stopping\n",
                MDL_MAX_ERRORS);
        return 0;
    }
    return 1;
}

void mdl_error(mdl_diag *d, mdl_loc loc, const char *fmt, ...)
{
    d->last_shown = admit_error(d);
    if (!d->last_shown)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "error", fmt, ap);
    va_end(ap);
}

void mdl_warning(mdl_diag *d, mdl_loc loc, const char *fmt, ...)
{
    d->warnings++;
    d->last_shown = !d->stopped;
    if (!d->last_shown)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "warning", fmt, ap);
    va_end(ap);
}

void mdl_note(mdl_diag *d, mdl_loc loc, const char *fmt, ...)
{
    if (!d->last_shown)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(d, loc, "note", fmt, ap);
    va_end(ap);
}

void mdl_error_noloc(mdl_diag *d, const char *fmt, ...)
{
    d->last_shown = admit_error(d);
    if (!d->last_shown)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("medleyc: error: ", d->out);
    put_message(d->out, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Suggestions.                                                         */

/* Optimal-string-alignment distance in half units: an edit costs 2, a
 * substitution that only changes case costs 1 (`gatherv` is very close to
 * `GatherV`).  Returns a value above `limit` as soon as it is exceeded. */
static int distance2(const char *a, const char *b, int limit)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (abs(la - lb) * 2 > limit)
        return limit + 1;
    int *prev2 = xcalloc((size_t)lb + 1, sizeof *prev2);
    int *prev = xcalloc((size_t)lb + 1, sizeof *prev);
    int *cur = xcalloc((size_t)lb + 1, sizeof *cur);
    for (int j = 0; j <= lb; j++)
        prev[j] = 2 * j;
    for (int i = 1; i <= la; i++) {
        cur[0] = 2 * i;
        int rowmin = cur[0];
        for (int j = 1; j <= lb; j++) {
            char x = a[i - 1], y = b[j - 1];
            int sub = x == y ? 0
                      : (x ^ y) == 0x20 && ((x | 0x20) >= 'a' && (x | 0x20) <= 'z') ? 1
                      : 2;
            int v = prev[j - 1] + sub;
            if (prev[j] + 2 < v)
                v = prev[j] + 2;
            if (cur[j - 1] + 2 < v)
                v = cur[j - 1] + 2;
            if (i > 1 && j > 1 && x == b[j - 2] && a[i - 2] == y &&
                prev2[j - 2] + 2 < v)
                v = prev2[j - 2] + 2;
            cur[j] = v;
            if (v < rowmin)
                rowmin = v;
        }
        int *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
        if (rowmin > limit) {
            free(prev2);
            free(prev);
            free(cur);
            return limit + 1;
        }
    }
    int r = prev[lb];
    free(prev2);
    free(prev);
    free(cur);
    return r;
}

const char *mdl_suggest(const char *name, const char *const *candidates,
                        int ncandidates)
{
    size_t len = strlen(name);
    if (len > 1000)             /* not a typo; spare the quadratic work */
        return NULL;
    int maxd = (int)len / 3 > 1 ? (int)len / 3 : 1;
    int limit = 2 * maxd;
    const char *best = NULL;
    int bestd = limit + 1;
    for (int i = 0; i < ncandidates; i++) {
        if (!candidates[i] || strcmp(candidates[i], name) == 0)
            continue;
        int dist = distance2(name, candidates[i], limit);
        if (dist < bestd) {
            bestd = dist;
            best = candidates[i];
        }
    }
    return best;
}

static char *lowered(const char *s)
{
    size_t n = strlen(s);
    char *d = xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++)
        d[i] = (char)tolower((unsigned char)s[i]);
    return d;
}

const char *mdl_suggest_nocase(const char *name, const char *const *candidates,
                               int ncandidates)
{
    if (ncandidates <= 0)
        return NULL;
    char *low = lowered(name);
    char **cands = xcalloc((size_t)ncandidates, sizeof *cands);
    for (int i = 0; i < ncandidates; i++)
        cands[i] = candidates[i] ? lowered(candidates[i]) : NULL;
    const char *best = mdl_suggest(low, (const char *const *)cands, ncandidates);
    const char *found = NULL;
    for (int i = 0; i < ncandidates; i++) {
        if (best && best == cands[i])
            found = candidates[i];
        free(cands[i]);
    }
    free(cands);
    free(low);
    return found;
}
