/* util.c — see util.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"
#include "mdl_grow.h"
#include "util.h"

static void out_of_memory(void)
{
    fputs("mdltrace: out of memory\n", stderr);
    exit(2);
}

void *mt_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *mt_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *mt_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory();
    return q;
}

char *mt_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(mt_xmalloc(n), s, n);
}

void *mt_grow(void *v, size_t *cap, size_t need, size_t elem)
{
    void *w = mdl_grow(v, cap, need, elem, 16);
    if (!w)
        out_of_memory();
    return w;
}

long long mt_add(long long a, long long b)
{
    long long r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? LLONG_MAX : LLONG_MIN;
    return r;
}

long long mt_mul(long long a, long long b)
{
    long long r;
    if (__builtin_mul_overflow(a, b, &r))
        return (a > 0) == (b > 0) ? LLONG_MAX : LLONG_MIN;
    return r;
}

/* ---------------------------------------------------------------- strings */

static void strtab_rehash(mt_strtab *t, size_t nslot)
{
    free(t->slot);
    t->slot = mt_xmalloc(nslot * sizeof *t->slot);
    memset(t->slot, 0xFF, nslot * sizeof *t->slot);
    t->nslot = nslot;
    for (size_t id = 0; id < t->n; id++) {
        size_t i = mdl_fnv1a_str(t->s[id]) & (nslot - 1);
        while (t->slot[i] >= 0)
            i = (i + 1) & (nslot - 1);
        t->slot[i] = (int32_t)id;
    }
}

int mt_strtab_find(const mt_strtab *t, const char *s)
{
    if (!t->nslot)
        return -1;
    size_t i = mdl_fnv1a_str(s) & (t->nslot - 1);
    while (t->slot[i] >= 0) {
        if (strcmp(t->s[t->slot[i]], s) == 0)
            return t->slot[i];
        i = (i + 1) & (t->nslot - 1);
    }
    return -1;
}

int mt_intern(mt_strtab *t, const char *s)
{
    int id = mt_strtab_find(t, s);
    if (id >= 0)
        return id;
    if (t->n >= INT32_MAX - 1) {
        fputs("mdltrace: more than 2^31 distinct names\n", stderr);
        exit(2);
    }
    MT_VEC_RESERVE(t->s, t->cap, t->n + 1);
    t->s[t->n++] = mt_xstrdup(s);
    if (2 * t->n > t->nslot)
        strtab_rehash(t, t->nslot ? 2 * t->nslot : 64);
    else {
        size_t i = mdl_fnv1a_str(s) & (t->nslot - 1);
        while (t->slot[i] >= 0)
            i = (i + 1) & (t->nslot - 1);
        t->slot[i] = (int32_t)(t->n - 1);
    }
    return (int)(t->n - 1);
}

void mt_strtab_free(mt_strtab *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* ---------------------------------------------------------------- map */

mt_key mt_key4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    mt_key k = { { a, b, c, d } };
    return k;
}

static uint64_t key_hash(const mt_key *k)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 4; i++) {
        h ^= (uint64_t)k->k[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

static int key_eq(const mt_key *a, const mt_key *b)
{
    return a->k[0] == b->k[0] && a->k[1] == b->k[1] && a->k[2] == b->k[2] &&
           a->k[3] == b->k[3];
}

static void map_grow(mt_map *m)
{
    size_t nslot = m->nslot ? 2 * m->nslot : 64;
    mt_key *keys = mt_xmalloc(nslot * sizeof *keys);
    uint32_t *vals = mt_xmalloc(nslot * sizeof *vals);
    memset(vals, 0xFF, nslot * sizeof *vals);
    for (size_t s = 0; s < m->nslot; s++) {
        if (m->vals[s] == UINT32_MAX)
            continue;
        size_t i = key_hash(&m->keys[s]) & (nslot - 1);
        while (vals[i] != UINT32_MAX)
            i = (i + 1) & (nslot - 1);
        keys[i] = m->keys[s];
        vals[i] = m->vals[s];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->nslot = nslot;
}

uint32_t mt_map_get(const mt_map *m, const mt_key *key)
{
    if (!m->nslot)
        return UINT32_MAX;
    size_t i = key_hash(key) & (m->nslot - 1);
    while (m->vals[i] != UINT32_MAX) {
        if (key_eq(&m->keys[i], key))
            return m->vals[i];
        i = (i + 1) & (m->nslot - 1);
    }
    return UINT32_MAX;
}

uint32_t mt_map_put(mt_map *m, const mt_key *key, uint32_t next, int *added)
{
    *added = 0;
    if (2 * (m->n + 1) > m->nslot)
        map_grow(m);
    size_t i = key_hash(key) & (m->nslot - 1);
    while (m->vals[i] != UINT32_MAX) {
        if (key_eq(&m->keys[i], key))
            return m->vals[i];
        i = (i + 1) & (m->nslot - 1);
    }
    m->keys[i] = *key;
    m->vals[i] = next;
    m->n++;
    *added = 1;
    return next;
}

void mt_map_free(mt_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* Least significant digit first, 16 bits at a time; digits that all
 * values share are skipped (small ids need one or two passes). */
void mt_sort_u64(uint64_t *v, size_t n)
{
    if (n < 2)
        return;
    uint64_t *tmp = mt_xmalloc(n * sizeof *tmp);
    size_t *count = mt_xmalloc(65537 * sizeof *count);
    for (int shift = 0; shift < 64; shift += 16) {
        memset(count, 0, 65537 * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[((v[i] >> shift) & 0xFFFF) + 1]++;
        if (count[((v[0] >> shift) & 0xFFFF) + 1] == n)
            continue;
        for (size_t d = 0; d < 65536; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            tmp[count[(v[i] >> shift) & 0xFFFF]++] = v[i];
        memcpy(v, tmp, n * sizeof *v);
    }
    free(count);
    free(tmp);
}
