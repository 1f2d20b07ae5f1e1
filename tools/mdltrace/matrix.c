/* matrix.c — bytes sent from instance to instance: `--csv` and `--matrix`.
 *
 * Point-to-point messages only (broadcast and multicast sends included,
 * once per receiver): they are actual messages between two named
 * instances.  Collectives are left out because their routes are the
 * runtime's algorithm (a tree on MPI, direct copies on shm), not the
 * program's; the table of `mdltrace FILE` has them. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "matrix.h"
#include "report.h"
#include "safe_files.h"

/* Dense matrices above this many instances would take gigabytes. */
enum { MATRIX_MAX = 4096 };

int mt_matrix_build(const mt_trace *t, mt_matrix *m)
{
    memset(m, 0, sizeof *m);
    m->n = t->ninsts;
    if (m->n > MATRIX_MAX) {
        fprintf(stderr, "mdltrace: error: %zu instances: the matrix is limited to %d\n",
                m->n, MATRIX_MAX);
        return -1;
    }
    m->bytes = mt_xcalloc(m->n * m->n, sizeof *m->bytes);
    m->msgs = mt_xcalloc(m->n * m->n, sizeof *m->msgs);
    for (size_t e = 0; e < t->nedges; e++) {
        const mt_edge *ed = &t->edges[e];
        int from = mt_track_inst(t, ed->track);
        int to = mt_inst_by_name(t, mt_s(t, ed->peer));
        if (from < 0 || to < 0)
            continue;
        size_t i = (size_t)from * m->n + (size_t)to;
        m->bytes[i] = mt_add(m->bytes[i], ed->bytes);
        m->msgs[i] = mt_add(m->msgs[i], ed->msgs);
    }
    for (size_t i = 0; i < m->n * m->n; i++) {
        if (m->msgs[i] == 0)
            continue;
        m->nonempty++;
        if (m->bytes[i] > m->max)
            m->max = m->bytes[i];
        if (m->bytes[i] > 0 && (m->min == 0 || m->bytes[i] < m->min))
            m->min = m->bytes[i];
    }
    return 0;
}

void mt_matrix_free(mt_matrix *m)
{
    free(m->bytes);
    free(m->msgs);
    memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- CSV */

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void mt_matrix_csv(const mt_trace *t, const mt_matrix *m, FILE *out)
{
    fputs("sender\\receiver", out);
    for (size_t c = 0; c < m->n; c++) {
        fputc(',', out);
        csv_field(out, mt_s(t, t->insts[c].name));
    }
    fputc('\n', out);
    for (size_t r = 0; r < m->n; r++) {
        csv_field(out, mt_s(t, t->insts[r].name));
        for (size_t c = 0; c < m->n; c++)
            fprintf(out, ",%lld", m->bytes[r * m->n + c]);
        fputc('\n', out);
    }
}

/* ---------------------------------------------------------------- SVG */

void mt_human_bytes(char *buf, size_t cap, long long v)
{
    static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
    if (v < 1024) {
        snprintf(buf, cap, "%lld B", v);
        return;
    }
    double d = (double)v;
    int u = -1;
    while (d >= 1024 && u < 4) {
        d /= 1024;
        u++;
    }
    snprintf(buf, cap, d < 10 ? "%.1f %s" : "%.0f %s", d, units[u]);
}

/* Viridis (matplotlib, CC0), reversed: pale yellow for little traffic,
 * deep purple for the most, so heavy pairs stand out on white. */
static const unsigned char palette[9][3] = {
    { 0xfd, 0xe7, 0x25 }, { 0xad, 0xdc, 0x30 }, { 0x5e, 0xc9, 0x62 },
    { 0x28, 0xae, 0x80 }, { 0x21, 0x91, 0x8c }, { 0x2c, 0x72, 0x8e },
    { 0x3b, 0x52, 0x8b }, { 0x47, 0x2d, 0x7b }, { 0x44, 0x01, 0x54 },
};

static void colour(double x, char out[8])
{
    if (x < 0)
        x = 0;
    if (x > 1)
        x = 1;
    double p = x * 8;
    int i = (int)p;
    if (i >= 8)
        i = 7;
    double f = p - i;
    int rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = (int)lround(palette[i][k] + f * (palette[i + 1][k] - palette[i][k]));
    snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* Position of v on the colour scale, 0..1. */
static double scale(const mt_matrix *m, long long v, int logscale)
{
    if (m->max <= 0)
        return 0;
    if (logscale)
        return m->max == m->min ? 1
             : (log((double)v) - log((double)m->min)) / (log((double)m->max) - log((double)m->min));
    return (double)v / (double)m->max;
}

static void xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default:
            /* control bytes are not allowed in XML 1.0 */
            fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
        }
    }
}

/* Approximate width of a label in a sans-serif font. */
static double text_width(const char *s, double font)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return 0.62 * font * (double)n;
}

static int write_svg(const mt_trace *t, const mt_matrix *m, FILE *out)
{
    size_t n = m->n;
    double cell = n <= 8 ? 56 : n >= 160 ? 4 : 640.0 / (double)n;
    double font = cell * 0.5 > 13 ? 13 : cell * 0.5 < 9 ? 9 : cell * 0.5;
    /* when cells are narrower than a line of text, label every k-th */
    size_t every = cell >= font * 1.2 ? 1 : (size_t)ceil(font * 1.2 / cell);
    double label = 0;
    for (size_t i = 0; i < n; i++) {
        double w = text_width(mt_s(t, t->insts[i].name), font);
        if (w > label)
            label = w;
    }
    int logscale = m->min > 0 && m->max / m->min >= 100;

    /* the subtitle names the trace, spec and runtime */
    char sub[1024];
    snprintf(sub, sizeof sub, "%s%s%s%s%s; point-to-point messages%s", t->path,
             t->spec >= 0 ? " — " : "", t->spec >= 0 ? mt_s(t, t->spec) : "",
             t->runtime >= 0 ? ", runtime " : "", t->runtime >= 0 ? mt_s(t, t->runtime) : "",
             t->dropped_total ? " (recorded events only: some were dropped)" : "");

    double left = 40 + label + 8, top = 84 + label + 8;
    double grid = cell * (double)n;
    double legend_x = left + grid + 30, bar_h = 180;
    double width = legend_x + 150, height = top + (grid > bar_h + 40 ? grid : bar_h + 40) + 40;
    if (width < 32 + text_width(sub, 12))
        width = 32 + text_width(sub, 12);

    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
            width, height, width, height);
    fputs("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", out);
    fputs("<text x=\"16\" y=\"26\" font-size=\"16\" font-weight=\"bold\">Bytes sent, "
          "instance to instance</text>\n", out);
    fputs("<text x=\"16\" y=\"46\" font-size=\"12\" fill=\"#444\">", out);
    xml_text(out, sub);
    fputs("</text>\n", out);

    /* axis titles */
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#444\" "
                 "text-anchor=\"middle\">receiver</text>\n", left + grid / 2, top - label - 18);
    fprintf(out, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" font-size=\"12\" "
                 "fill=\"#444\" text-anchor=\"middle\">sender</text>\n", 24.0, top + grid / 2);

    /* labels */
    fprintf(out, "<g font-size=\"%.1f\">\n", font);
    for (size_t i = 0; i < n; i += every) {
        const char *name = mt_s(t, t->insts[i].name);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
                     "dominant-baseline=\"central\">", left - 6, top + cell * ((double)i + 0.5));
        xml_text(out, name);
        fputs("</text>\n", out);
        fprintf(out, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" "
                     "dominant-baseline=\"central\">", left + cell * ((double)i + 0.5), top - 6);
        xml_text(out, name);
        fputs("</text>\n", out);
    }
    fputs("</g>\n", out);

    /* cells */
    int values = cell >= 40;
    fprintf(out, "<g stroke=\"#d0d0d0\" stroke-width=\"%s\">\n", cell >= 8 ? "1" : "0");
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < n; c++) {
            size_t i = r * n + c;
            double x = left + cell * (double)c, y = top + cell * (double)r;
            if (m->msgs[i] == 0) {
                fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                             "fill=\"white\"/>\n", x, y, cell, cell);
                continue;
            }
            char fill[8], human[32];
            double s = scale(m, m->bytes[i], logscale);
            colour(m->bytes[i] ? s : 0, fill);
            fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                         "fill=\"%s\"><title>", x, y, cell, cell, fill);
            xml_text(out, mt_s(t, t->insts[r].name));
            fputs(" → ", out);
            xml_text(out, mt_s(t, t->insts[c].name));
            fprintf(out, ": %lld bytes in %lld message%s</title></rect>\n", m->bytes[i],
                    m->msgs[i], m->msgs[i] == 1 ? "" : "s");
            if (values) {
                mt_human_bytes(human, sizeof human, m->bytes[i]);
                fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" stroke=\"none\" "
                             "text-anchor=\"middle\" dominant-baseline=\"central\" "
                             "fill=\"%s\">%s</text>\n",
                        x + cell / 2, y + cell / 2, cell * 0.22 > 12 ? 12 : cell * 0.22,
                        s > 0.45 ? "white" : "black", human);
            }
        }
    fputs("</g>\n", out);
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                 "stroke=\"#888\"/>\n", left, top, grid, grid);
    if (m->nonempty == 0)
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" "
                     "fill=\"#444\">no point-to-point message recorded</text>\n",
                left + grid / 2, top + grid + 24);

    /* legend: the colour bar with bytes at five ticks */
    double bar_y = top;
    fputs("<defs><linearGradient id=\"scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">\n", out);
    for (int k = 0; k <= 8; k++) {
        char c[8];
        colour(k / 8.0, c);
        fprintf(out, "<stop offset=\"%.3f\" stop-color=\"%s\"/>\n", k / 8.0, c);
    }
    fputs("</linearGradient></defs>\n", out);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#444\">bytes%s</text>\n",
            legend_x, bar_y - 10, logscale ? " (log scale)" : "");
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"%.1f\" fill=\"url(#scale)\" "
                 "stroke=\"#888\"/>\n", legend_x, bar_y, bar_h);
    if (m->max > 0) {
        for (int k = 0; k <= 4; k++) {
            double f = k / 4.0;
            double v = logscale ? (double)m->min * pow((double)m->max / (double)m->min, f)
                                : f * (double)m->max;
            if (!logscale && k == 0)
                continue;               /* 0 is the white "no message" swatch */
            char human[32];
            mt_human_bytes(human, sizeof human, llround(v));
            double y = bar_y + bar_h * (1 - f);
            fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
                    legend_x + 18, y, legend_x + 23, y);
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                         "dominant-baseline=\"central\">%s</text>\n", legend_x + 27, y, human);
        }
    }
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"14\" fill=\"white\" "
                 "stroke=\"#888\"/>\n", legend_x, bar_y + bar_h + 16);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" dominant-baseline=\"central\">"
                 "no message</text>\n", legend_x + 27, bar_y + bar_h + 23);
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}

/* Written next to path under a temporary name, then renamed: a failed run
 * never leaves half a picture behind (a device, a FIFO or a link of the
 * user's own is written through: common/safe_files.h). */
int mt_matrix_svg(const mt_trace *t, const mt_matrix *m, const char *path)
{
    char why[512], *tmp;
    int fd = mdl_open_final(path, 0666, &tmp, why, sizeof why);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        if (fd >= 0)
            snprintf(why, sizeof why, "cannot write '%s': %s", path, strerror(errno));
        fprintf(stderr, "mdltrace: error: %s\n", why);
        if (fd >= 0)
            close(fd);
        if (tmp)
            unlink(tmp);
        free(tmp);
        return -1;
    }
    int rc = write_svg(t, m, out);
    int saved = errno;
    if (fclose(out) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc == 0 && tmp && rename(tmp, path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        fprintf(stderr, "mdltrace: error: cannot write '%s': %s\n", path, strerror(saved));
        if (tmp)
            unlink(tmp);
    }
    free(tmp);
    return rc;
}
