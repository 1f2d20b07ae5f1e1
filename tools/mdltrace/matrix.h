/* matrix.h — the instance-by-instance matrix of bytes sent. */
#ifndef MDLTRACE_MATRIX_H
#define MDLTRACE_MATRIX_H

#include <stdio.h>

#include "trace.h"

typedef struct mt_matrix {
    size_t n;                   /* instances, in t->insts order */
    long long *bytes, *msgs;    /* [sender * n + receiver] */
    long long min, max;         /* smallest non-zero and largest bytes */
    size_t nonempty;            /* pairs with at least one message */
} mt_matrix;

/* 0, or -1 after a message (too many instances). */
int mt_matrix_build(const mt_trace *t, mt_matrix *m);
void mt_matrix_free(mt_matrix *m);
/* One header line of receivers, one line per sender: bytes. */
void mt_matrix_csv(const mt_trace *t, const mt_matrix *m, FILE *out);
/* A heat map with names on both axes and a colour scale; 0 or -1. */
int mt_matrix_svg(const mt_trace *t, const mt_matrix *m, const char *path);

/* "720 B", "1.5 KiB", "12 MiB". */
void mt_human_bytes(char *buf, size_t cap, long long v);

#endif
