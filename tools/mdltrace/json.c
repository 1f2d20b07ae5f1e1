/* json.c — the streaming JSON reader (json.h).
 *
 * Strict RFC 8259 syntax: a trace that Perfetto or chrome://tracing would
 * refuse should not be accepted silently here either. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

void mt_json_init(mt_json *j, FILE *f, const char *path)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    j->path = path;
    j->line = j->col = 1;
    j->str_cap = 256;
    j->str = mt_xmalloc(j->str_cap);
    j->str[0] = '\0';
    mt_json_next(j);
}

void mt_json_free(mt_json *j)
{
    free(j->str);
    j->str = NULL;
}

void mt_json_context(mt_json *j, const char *what)
{
    j->context = what;
}

static void verror(mt_json *j, unsigned long long line, unsigned long long col,
                   const char *fmt, va_list ap)
{
    if (j->failed)
        return;
    j->failed = 1;
    fprintf(stderr, "%s:%llu:%llu: error: ", j->path, line, col);
    vfprintf(stderr, fmt, ap);
    if (j->tok == MT_J_EOF)
        fputs(" (the file ends here: was it cut short?)", stderr);
    fputc('\n', stderr);
}

void mt_json_error(mt_json *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(j, j->tok_line, j->tok_col, fmt, ap);
    va_end(ap);
}

/* An error inside a token being scanned, at a given byte of it. */
static void error_at(mt_json *j, unsigned long long line, unsigned long long col,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void error_at(mt_json *j, unsigned long long line, unsigned long long col,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(j, line, col, fmt, ap);
    va_end(ap);
    j->tok = MT_J_ERROR;
}

#define scan_error(j, ...) error_at((j), (j)->line, (j)->col, __VA_ARGS__)

static int fill(mt_json *j)
{
    if (j->eof)
        return 0;
    j->pos = 0;
    j->len = fread(j->buf, 1, sizeof j->buf, j->f);
    if (j->len == 0) {
        j->eof = 1;
        if (ferror(j->f) && !j->failed) {
            j->failed = 1;
            fprintf(stderr, "%s: error: cannot read: %s\n", j->path, strerror(errno));
        }
        return 0;
    }
    return 1;
}

static int peekc(mt_json *j)
{
    if (j->pos == j->len && !fill(j))
        return EOF;
    return j->buf[j->pos];
}

static int getc_json(mt_json *j)
{
    int c = peekc(j);
    if (c == EOF)
        return EOF;
    j->pos++;
    if (c == '\n') {
        j->line++;
        j->col = 1;
    } else {
        j->col++;
    }
    return c;
}

static void str_put(mt_json *j, const char *s, size_t n)
{
    if (j->str_len + n >= MT_JSON_STR_MAX)
        return;                         /* cut: the rest is still read */
    MT_VEC_RESERVE(j->str, j->str_cap, j->str_len + n + 1);
    memcpy(j->str + j->str_len, s, n);
    j->str_len += n;
    j->str[j->str_len] = '\0';
}

static void put_utf8(mt_json *j, unsigned long cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    str_put(j, b, n);
}

/* Four hex digits after "\u"; -1 after an error. */
static long hex4(mt_json *j)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int c = getc_json(j);
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) {
            scan_error(j, c == EOF ? "the file ends inside a \\u escape"
                                   : "expected four hex digits after \\u");
            return -1;
        }
        v = v * 16 + d;
    }
    return v;
}

static void scan_string(mt_json *j)
{
    j->str_len = 0;
    j->str[0] = '\0';
    for (;;) {
        /* the common case: a run of plain bytes within the buffer */
        size_t run = 0;
        while (j->pos + run < j->len) {
            unsigned char b = j->buf[j->pos + run];
            if (b == '"' || b == '\\' || b < 0x20)
                break;
            run++;
        }
        if (run) {
            str_put(j, (const char *)j->buf + j->pos, run);
            j->pos += run;
            j->col += run;
        }
        unsigned long long line = j->line, col = j->col;
        int c = getc_json(j);
        if (c == EOF) {
            scan_error(j, "the file ends inside a string");
            return;
        }
        if (c == '"')
            break;
        if (c < 0x20) {
            error_at(j, line, col, "control character (byte 0x%02x) inside a string", c);
            return;
        }
        if (c != '\\') {              /* the run stopped at the buffer's end */
            char ch = (char)c;
            str_put(j, &ch, 1);
            continue;
        }
        c = getc_json(j);
        const char *simple = NULL;
        switch (c) {
        case '"': simple = "\""; break;
        case '\\': simple = "\\"; break;
        case '/': simple = "/"; break;
        case 'b': simple = "\b"; break;
        case 'f': simple = "\f"; break;
        case 'n': simple = "\n"; break;
        case 'r': simple = "\r"; break;
        case 't': simple = "\t"; break;
        case 'u': {
            long cp = hex4(j);
            if (cp < 0)
                return;
            if (cp >= 0xD800 && cp <= 0xDBFF && peekc(j) == '\\') {
                getc_json(j);
                if (getc_json(j) != 'u') {
                    scan_error(j, "expected \\u after a high surrogate");
                    return;
                }
                long lo = hex4(j);
                if (lo < 0)
                    return;
                cp = lo >= 0xDC00 && lo <= 0xDFFF
                         ? 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
                         : 0xFFFD;
            } else if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0) {
                cp = 0xFFFD;            /* lone surrogate; NUL would cut names */
            }
            put_utf8(j, (unsigned long)cp);
            continue;
        }
        case EOF:
            scan_error(j, "the file ends inside a string");
            return;
        default:
            error_at(j, line, col, "invalid escape '\\%c' in a string",
                     c >= 0x20 && c < 0x7F ? c : '?');
            return;
        }
        str_put(j, simple, 1);
    }
    j->tok = MT_J_STRING;
}

static int isdigit_c(int c)
{
    return c >= '0' && c <= '9';
}

static void scan_number(mt_json *j)
{
    char nb[64];
    size_t n = 0;
    int is_int = 1;
#define TAKE()                                                          \
    do {                                                                \
        if (n + 1 >= sizeof nb) {                                       \
            scan_error(j, "number longer than %zu characters", sizeof nb - 1); \
            return;                                                     \
        }                                                               \
        nb[n++] = (char)getc_json(j);                                   \
    } while (0)
    if (peekc(j) == '-')
        TAKE();
    if (peekc(j) == '0') {
        TAKE();
    } else if (isdigit_c(peekc(j))) {
        while (isdigit_c(peekc(j)))
            TAKE();
    } else {
        scan_error(j, "expected a digit in a number");
        return;
    }
    if (peekc(j) == '.') {
        is_int = 0;
        TAKE();
        if (!isdigit_c(peekc(j))) {
            scan_error(j, "expected a digit after '.' in a number");
            return;
        }
        while (isdigit_c(peekc(j)))
            TAKE();
    }
    if (peekc(j) == 'e' || peekc(j) == 'E') {
        is_int = 0;
        TAKE();
        if (peekc(j) == '+' || peekc(j) == '-')
            TAKE();
        if (!isdigit_c(peekc(j))) {
            scan_error(j, "expected a digit in a number's exponent");
            return;
        }
        while (isdigit_c(peekc(j)))
            TAKE();
    }
#undef TAKE
    nb[n] = '\0';
    j->num_is_int = 0;
    if (is_int && n < 19) {
        /* at most 18 digits: fits a long long, no need for strtod */
        long long v = 0;
        for (size_t i = nb[0] == '-'; i < n; i++)
            v = v * 10 + (nb[i] - '0');
        j->inum = nb[0] == '-' ? -v : v;
        j->num = (double)j->inum;
        j->num_is_int = 1;
        j->tok = MT_J_NUMBER;
        return;
    }
    j->num = strtod(nb, NULL);
    if (!isfinite(j->num)) {
        j->tok = MT_J_ERROR;
        mt_json_error(j, "number '%s' is out of range", nb);
        return;
    }
    if (is_int) {
        errno = 0;
        long long v = strtoll(nb, NULL, 10);
        if (errno == 0) {
            j->inum = v;
            j->num_is_int = 1;
        }
    }
    j->tok = MT_J_NUMBER;
}

static void scan_word(mt_json *j)
{
    char w[8];
    size_t n = 0;
    while (n + 1 < sizeof w) {
        int c = peekc(j);
        if (!(c >= 'a' && c <= 'z'))
            break;
        w[n++] = (char)getc_json(j);
    }
    w[n] = '\0';
    if (strcmp(w, "true") == 0)
        j->tok = MT_J_TRUE;
    else if (strcmp(w, "false") == 0)
        j->tok = MT_J_FALSE;
    else if (strcmp(w, "null") == 0)
        j->tok = MT_J_NULL;
    else {
        j->tok = MT_J_ERROR;
        mt_json_error(j, "unexpected word '%s' (not true, false or null)", w);
    }
}

mt_jtok mt_json_next(mt_json *j)
{
    if (j->failed)
        return j->tok = MT_J_ERROR;
    int c;
    while ((c = peekc(j)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        getc_json(j);
    j->tok_line = j->line;
    j->tok_col = j->col;
    if (j->failed)                      /* a read error while skipping */
        return j->tok = MT_J_ERROR;
    switch (c) {
    case EOF: return j->tok = MT_J_EOF;
    case '{': getc_json(j); return j->tok = MT_J_LBRACE;
    case '}': getc_json(j); return j->tok = MT_J_RBRACE;
    case '[': getc_json(j); return j->tok = MT_J_LBRACKET;
    case ']': getc_json(j); return j->tok = MT_J_RBRACKET;
    case ':': getc_json(j); return j->tok = MT_J_COLON;
    case ',': getc_json(j); return j->tok = MT_J_COMMA;
    case '"': getc_json(j); scan_string(j); return j->tok;
    case 't': case 'f': case 'n': scan_word(j); return j->tok;
    default:
        if (c == '-' || isdigit_c(c)) {
            scan_number(j);
            return j->tok;
        }
        j->tok = MT_J_ERROR;
        if (c >= 0x21 && c < 0x7F)
            mt_json_error(j, "unexpected character '%c'", c);
        else
            mt_json_error(j, "unexpected byte 0x%02x", c);
        return j->tok;
    }
}

const char *mt_json_tokname(const mt_json *j)
{
    switch (j->tok) {
    case MT_J_EOF: return "the end of the file";
    case MT_J_LBRACE: return "'{'";
    case MT_J_RBRACE: return "'}'";
    case MT_J_LBRACKET: return "'['";
    case MT_J_RBRACKET: return "']'";
    case MT_J_COLON: return "':'";
    case MT_J_COMMA: return "','";
    case MT_J_STRING: return "a string";
    case MT_J_NUMBER: return "a number";
    case MT_J_TRUE: return "true";
    case MT_J_FALSE: return "false";
    case MT_J_NULL: return "null";
    case MT_J_ERROR: break;
    }
    return "an error";
}

static const char *ctx(const mt_json *j)
{
    return j->context ? j->context : "";
}

int mt_json_member(mt_json *j, int *first)
{
    if (j->failed)
        return -1;
    if (*first) {
        if (j->tok != MT_J_LBRACE) {
            mt_json_error(j, "expected an object%s, found %s", ctx(j), mt_json_tokname(j));
            return -1;
        }
        *first = 0;
        if (mt_json_next(j) == MT_J_RBRACE) {
            mt_json_next(j);
            return 0;
        }
    } else if (j->tok == MT_J_RBRACE) {
        mt_json_next(j);
        return 0;
    } else if (j->tok == MT_J_COMMA) {
        mt_json_next(j);
    } else {
        mt_json_error(j, "expected ',' or '}' after a member%s, found %s", ctx(j),
                      mt_json_tokname(j));
        return -1;
    }
    if (j->tok != MT_J_STRING) {
        mt_json_error(j, "expected a member name in quotes%s, found %s", ctx(j),
                      mt_json_tokname(j));
        return -1;
    }
    size_t kn = j->str_len < sizeof j->key - 1 ? j->str_len : sizeof j->key - 1;
    memcpy(j->key, j->str, kn);
    j->key[kn] = '\0';
    if (mt_json_next(j) != MT_J_COLON) {
        mt_json_error(j, "expected ':' after member name \"%s\"%s, found %s", j->key,
                      ctx(j), mt_json_tokname(j));
        return -1;
    }
    mt_json_next(j);
    if (j->tok == MT_J_RBRACE || j->tok == MT_J_RBRACKET || j->tok == MT_J_COMMA ||
        j->tok == MT_J_COLON || j->tok == MT_J_EOF) {
        mt_json_error(j, "expected the value of \"%s\"%s, found %s", j->key, ctx(j),
                      mt_json_tokname(j));
        return -1;
    }
    return j->failed ? -1 : 1;
}

int mt_json_element(mt_json *j, int *first)
{
    if (j->failed)
        return -1;
    if (*first) {
        if (j->tok != MT_J_LBRACKET) {
            mt_json_error(j, "expected an array%s, found %s", ctx(j), mt_json_tokname(j));
            return -1;
        }
        *first = 0;
        if (mt_json_next(j) == MT_J_RBRACKET) {
            mt_json_next(j);
            return 0;
        }
    } else if (j->tok == MT_J_RBRACKET) {
        mt_json_next(j);
        return 0;
    } else if (j->tok == MT_J_COMMA) {
        mt_json_next(j);
    } else {
        mt_json_error(j, "expected ',' or ']' after an element%s, found %s", ctx(j),
                      mt_json_tokname(j));
        return -1;
    }
    if (j->tok == MT_J_RBRACKET || j->tok == MT_J_RBRACE || j->tok == MT_J_COMMA ||
        j->tok == MT_J_COLON || j->tok == MT_J_EOF) {
        mt_json_error(j, "expected a value%s, found %s", ctx(j), mt_json_tokname(j));
        return -1;
    }
    return j->failed ? -1 : 1;
}

/* Iterative, so a deeply nested value cannot exhaust the stack. */
int mt_json_skip(mt_json *j)
{
    char open[MT_JSON_DEPTH_MAX];       /* '{' or '[' per level */
    int depth = 0;
    /* expecting: 0 a value, 1 a key or closer (object just opened or after
     * ','), 2 ',' or a closer */
    for (;;) {
        if (j->failed)
            return -1;
        switch (j->tok) {
        case MT_J_LBRACE:
        case MT_J_LBRACKET:
            if (depth == MT_JSON_DEPTH_MAX) {
                mt_json_error(j, "values nested deeper than %d levels", MT_JSON_DEPTH_MAX);
                return -1;
            }
            open[depth++] = j->tok == MT_J_LBRACE ? '{' : '[';
            mt_json_next(j);
            if ((open[depth - 1] == '{' && j->tok == MT_J_RBRACE) ||
                (open[depth - 1] == '[' && j->tok == MT_J_RBRACKET)) {
                depth--;
                mt_json_next(j);
                break;
            }
            if (open[depth - 1] == '{')
                goto key;
            continue;                   /* an element value follows */
        case MT_J_STRING: case MT_J_NUMBER: case MT_J_TRUE: case MT_J_FALSE:
        case MT_J_NULL:
            mt_json_next(j);
            break;
        default:
            mt_json_error(j, "expected a value%s, found %s", ctx(j), mt_json_tokname(j));
            return -1;
        }
        /* a value has ended: close containers or move to the next value */
        for (;;) {
            if (depth == 0)
                return j->failed ? -1 : 0;
            char o = open[depth - 1];
            if ((o == '{' && j->tok == MT_J_RBRACE) || (o == '[' && j->tok == MT_J_RBRACKET)) {
                depth--;
                mt_json_next(j);
                continue;
            }
            if (j->tok != MT_J_COMMA) {
                mt_json_error(j, o == '{' ? "expected ',' or '}' after a member%s, found %s"
                                          : "expected ',' or ']' after an element%s, found %s",
                              ctx(j), mt_json_tokname(j));
                return -1;
            }
            mt_json_next(j);
            if (o == '{')
                goto key;
            break;
        }
        continue;
    key:
        if (j->tok != MT_J_STRING) {
            mt_json_error(j, "expected a member name in quotes%s, found %s", ctx(j),
                          mt_json_tokname(j));
            return -1;
        }
        if (mt_json_next(j) != MT_J_COLON) {
            mt_json_error(j, "expected ':' after a member name%s, found %s", ctx(j),
                          mt_json_tokname(j));
            return -1;
        }
        mt_json_next(j);
    }
}
