#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chunks are chained; large requests get a chunk of their own so that
 * the waste per chunk stays bounded. */
struct chunk {
    struct chunk *next;
    size_t used, size;
    max_align_t data[];
};

struct mdl_arena {
    struct chunk *head;
};

enum { CHUNK_SIZE = 64 * 1024 };

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fputs("medleyc: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

mdl_arena *mdl_arena_new(void)
{
    mdl_arena *a = xmalloc(sizeof *a);
    a->head = NULL;
    return a;
}

void mdl_arena_free(mdl_arena *a)
{
    if (!a)
        return;
    for (struct chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

void *mdl_alloc(mdl_arena *a, size_t size)
{
    const size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    if (size == 0)
        size = align;
    struct chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t cap = size > CHUNK_SIZE / 4 ? size : CHUNK_SIZE;
        if (cap > ((size_t)-1) - sizeof *c) {
            fputs("medleyc: out of memory\n", stderr);
            exit(2);
        }
        c = xmalloc(sizeof *c + cap);
        c->size = cap;
        c->used = 0;
        /* A private big chunk goes behind the current one so that the
         * current chunk keeps serving small requests. */
        if (a->head && cap != CHUNK_SIZE) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *mdl_strndup(mdl_arena *a, const char *s, size_t n)
{
    char *d = mdl_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *mdl_strdup(mdl_arena *a, const char *s)
{
    return mdl_strndup(a, s, strlen(s));
}

void *mdl_vec_grow(mdl_arena *a, const void *v, int *cap, size_t elem)
{
    int ncap = *cap ? *cap * 2 : 4;
    if (ncap <= *cap) {
        fputs("medleyc: out of memory\n", stderr);
        exit(2);
    }
    void *nv = mdl_alloc(a, (size_t)ncap * elem);
    if (*cap)
        memcpy(nv, v, (size_t)*cap * elem);
    *cap = ncap;
    return nv;
}
