/* symtab.h — a name → pointer table in the arena, for lookups that would
 * otherwise scan a list: with 100,000 tasks, one linear lookup per task
 * made the checks quadratic (minutes instead of a second). */
#ifndef MEDLEY_SYMTAB_H
#define MEDLEY_SYMTAB_H

#include "arena.h"

typedef struct mdl_symtab mdl_symtab;

/* A table for up to n names (it does not grow). */
mdl_symtab *mdl_symtab_new(mdl_arena *a, int n);
/* Adds name → val unless name is already there (the first one stays, as
 * a scan of the list in order would find).  name is not copied. */
void mdl_symtab_add(mdl_symtab *t, const char *name, void *val);
void *mdl_symtab_get(const mdl_symtab *t, const char *name);

#endif
