/* table.h — text tables with columns sized to their contents. */
#ifndef MDLTRACE_TABLE_H
#define MDLTRACE_TABLE_H

#include <stdio.h>

typedef struct mt_table mt_table;

/* heads: ncols column titles; align: one letter per column, 'l' or 'r'. */
mt_table *mt_table_new(int ncols, const char *const *heads, const char *align);
/* Starts a row; cells are then added left to right (missing ones are
 * blank).  A row with no cell prints as an empty line. */
void mt_table_row(mt_table *t);
void mt_table_cell(mt_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mt_table_print(const mt_table *t, FILE *out);
void mt_table_free(mt_table *t);

#endif
