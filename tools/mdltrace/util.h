/* util.h — memory, string interning and a growable hash map for mdltrace.
 *
 * The trace is aggregated while it streams by, keyed by small tuples of
 * integers (track, function, message, peer), so the tool's memory grows
 * with the number of distinct keys, not with the number of events. */
#ifndef MDLTRACE_UTIL_H
#define MDLTRACE_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Allocation failure is fatal: "mdltrace: out of memory", exit 2. */
void *mt_xmalloc(size_t n);
void *mt_xcalloc(size_t n, size_t size);
void *mt_xrealloc(void *p, size_t n);
char *mt_xstrdup(const char *s);

/* The vector v (of *cap elements) grown to hold at least need elements
 * (common/mdl_grow.h: doubled, sizes checked). */
void *mt_grow(void *v, size_t *cap, size_t need, size_t elem);
#define MT_VEC_RESERVE(v, cap, need) ((v) = mt_grow((v), &(cap), (need), sizeof *(v)))

/* ---------------------------------------------------------------- strings */

/* Interned strings: equal strings get the same id, 0, 1, 2 … */
typedef struct mt_strtab {
    char **s;                   /* by id */
    size_t n, cap;
    int32_t *slot;              /* open addressing: id or -1 */
    size_t nslot;
} mt_strtab;

int mt_intern(mt_strtab *t, const char *s);
/* The id of s, or -1 if it was never interned. */
int mt_strtab_find(const mt_strtab *t, const char *s);
void mt_strtab_free(mt_strtab *t);

/* ---------------------------------------------------------------- map */

/* Keys are four 64-bit integers (unused ones 0); values are record indexes
 * into a vector the caller owns. */
typedef struct mt_key {
    int64_t k[4];
} mt_key;

typedef struct mt_map {
    mt_key *keys;
    uint32_t *vals;             /* UINT32_MAX: empty slot */
    size_t nslot, n;
} mt_map;

/* The value for key, or UINT32_MAX. */
uint32_t mt_map_get(const mt_map *m, const mt_key *key);
/* The value for key; if absent, stores next (the index of the record the
 * caller is about to append) and sets *added. */
uint32_t mt_map_put(mt_map *m, const mt_key *key, uint32_t next, int *added);
void mt_map_free(mt_map *m);

mt_key mt_key4(int64_t a, int64_t b, int64_t c, int64_t d);

/* Sums and products of counts that stop at the limits of long long
 * instead of overflowing: a trace may hold any number. */
long long mt_add(long long a, long long b);
long long mt_mul(long long a, long long b);

/* Sorts in linear time (radix). */
void mt_sort_u64(uint64_t *v, size_t n);

#endif
