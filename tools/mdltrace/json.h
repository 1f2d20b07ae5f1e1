/* json.h — a streaming JSON reader for trace files.
 *
 * Pull interface over a buffered FILE: the caller walks the document one
 * token at a time, so memory does not grow with the file (a trace may hold
 * millions of events).  Every error names the file, line and column of the
 * offending token, and after the first error every call fails quietly, so
 * a caller can check once at the end of a construct.
 *
 * Written here rather than taken from a library: see docs/design.md §6. */
#ifndef MDLTRACE_JSON_H
#define MDLTRACE_JSON_H

#include <stdio.h>

typedef enum mt_jtok {
    MT_J_EOF, MT_J_LBRACE, MT_J_RBRACE, MT_J_LBRACKET, MT_J_RBRACKET,
    MT_J_COLON, MT_J_COMMA, MT_J_STRING, MT_J_NUMBER,
    MT_J_TRUE, MT_J_FALSE, MT_J_NULL, MT_J_ERROR
} mt_jtok;

/* Longest string kept; longer ones are read to their end and cut here. */
#define MT_JSON_STR_MAX (1 << 20)
/* Deepest nesting accepted (the trace format needs 5). */
#define MT_JSON_DEPTH_MAX 256

typedef struct mt_json {
    FILE *f;
    const char *path;
    unsigned char buf[1 << 16];
    size_t pos, len;
    int eof;
    unsigned long long line, col;       /* of the next byte */

    /* the current token */
    mt_jtok tok;
    unsigned long long tok_line, tok_col;
    char *str;                          /* MT_J_STRING: NUL-terminated */
    size_t str_len, str_cap;
    double num;                         /* MT_J_NUMBER */
    int num_is_int;                     /* integer syntax that fits a long long */
    long long inum;

    char key[256];                      /* mt_json_member: the member's key */
    int failed;
    const char *context;                /* what is being read, for errors */
} mt_json;

/* Starts reading f (not closed by mt_json_free) and reads the first token. */
void mt_json_init(mt_json *j, FILE *f, const char *path);
void mt_json_free(mt_json *j);

/* Reads the next token into j->tok; MT_J_ERROR after an error. */
mt_jtok mt_json_next(mt_json *j);

/* Reports "path:line:col: error: …" at the current token, once. */
void mt_json_error(mt_json *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A short description of the current token for messages ("'}'", "a string",
 * "the end of the file"). */
const char *mt_json_tokname(const mt_json *j);

/* Structure walking.  At an object's '{' (the current token),
 * mt_json_member reads the next member's key into j->key (cut at 255
 * bytes) and leaves the
 * current token on the first token of its value; it returns 1, or 0 at the
 * closing '}' (consumed), or -1 after an error.  *first is 1 before the
 * first call for an object.  mt_json_element does the same for arrays
 * (returns 1 with the current token on the element's first token). */
int mt_json_member(mt_json *j, int *first);
int mt_json_element(mt_json *j, int *first);

/* Skips the value starting at the current token (any depth); 0 or -1. */
int mt_json_skip(mt_json *j);

/* Sets the description used in errors ("in an event"); NULL clears it. */
void mt_json_context(mt_json *j, const char *what);

#endif
