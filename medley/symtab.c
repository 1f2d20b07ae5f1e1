/* symtab.c — open addressing, linear probing, at most half full. */
#include <string.h>

#include "fnv.h"
#include "symtab.h"

typedef struct slot {
    const char *name;
    void *val;
} slot;

struct mdl_symtab {
    slot *slots;
    size_t mask;
    size_t used, max;
};

static size_t hash(const char *s)
{
    return (size_t)mdl_fnv1a_str(s);
}

mdl_symtab *mdl_symtab_new(mdl_arena *a, int n)
{
    mdl_symtab *t = mdl_alloc(a, sizeof *t);
    size_t cap = 16;
    while (cap < 2 * (size_t)(n > 0 ? n : 0))
        cap *= 2;
    t->slots = mdl_alloc(a, cap * sizeof *t->slots);
    t->mask = cap - 1;
    t->max = cap / 2;
    return t;
}

void mdl_symtab_add(mdl_symtab *t, const char *name, void *val)
{
    if (!name || t->used >= t->max)
        return;
    size_t i = hash(name) & t->mask;
    while (t->slots[i].name) {
        if (strcmp(t->slots[i].name, name) == 0)
            return;
        i = (i + 1) & t->mask;
    }
    t->slots[i].name = name;
    t->slots[i].val = val;
    t->used++;
}

void *mdl_symtab_get(const mdl_symtab *t, const char *name)
{
    if (!name)
        return NULL;
    size_t i = hash(name) & t->mask;
    while (t->slots[i].name) {
        if (strcmp(t->slots[i].name, name) == 0)
            return t->slots[i].val;
        i = (i + 1) & t->mask;
    }
    return NULL;
}
