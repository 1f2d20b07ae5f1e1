/* arena.h — one allocation region per compilation.
 *
 * Every AST node and string is taken from the arena and released together
 * by mdl_arena_free, so the stages never track ownership of single nodes.
 * Allocation failure is fatal (the compiler prints and exits 2): a spec
 * that exhausts 24 GiB is not a case worth unwinding for. */
#ifndef MEDLEY_ARENA_H
#define MEDLEY_ARENA_H

#include <stddef.h>

typedef struct mdl_arena mdl_arena;

mdl_arena *mdl_arena_new(void);
void mdl_arena_free(mdl_arena *a);
void *mdl_alloc(mdl_arena *a, size_t size);          /* zeroed */
char *mdl_strdup(mdl_arena *a, const char *s);
char *mdl_strndup(mdl_arena *a, const char *s, size_t n);
/* v (cap elements of elem bytes) copied into twice the room (4 at
 * first); returns the new array and sets *cap. */
void *mdl_vec_grow(mdl_arena *a, const void *v, int *cap, size_t elem);

/* Append x to a MDL_VEC(...) field: MDL_VEC_PUSH(arena, task->vars, var); */
#define MDL_VEC_PUSH(arena, vec, x)                                         \
    do {                                                                    \
        if ((vec).n == (vec).cap)                                           \
            (vec).v = mdl_vec_grow((arena), (vec).v, &(vec).cap,            \
                                   sizeof *(vec).v);                        \
        (vec).v[(vec).n++] = (x);                                           \
    } while (0)

#endif
