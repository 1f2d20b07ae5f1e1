/* mdl_grow.h — arrays that grow by doubling their capacity, with sizes
 * checked for overflow.  Header-only and in common/ because the runtimes,
 * the trace file component (also linked alone into mdlrun and mdltrace)
 * and mdltrace all grow arrays so, and common/ is what every one of them
 * includes; the new array is returned, never stored through a void **. */
#ifndef MDL_GROW_H
#define MDL_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* The capacity that holds need elements: cap doubled (first when cap is 0)
 * until it does, at most max elements (the type that counts them: INT_MAX
 * for an int); 0 when need is more than max. */
static inline size_t mdl_grow_cap(size_t cap, size_t need, size_t first, size_t max)
{
    if (need > max)
        return 0;
    size_t c = cap ? cap : first ? first : 1;
    while (c < need)
        c = c > max / 2 ? max : 2 * c;
    return c;
}

/* p (from malloc, or NULL) reallocated to n elements of elem bytes; NULL,
 * p then unchanged and still the caller's, when out of memory, when n is 0
 * (what mdl_grow_cap refuses with) or when n * elem overflows size_t. */
static inline void *mdl_resize(void *p, size_t n, size_t elem)
{
    size_t bytes;
    if (n == 0 || __builtin_mul_overflow(n, elem, &bytes))
        return NULL;
    return realloc(p, bytes);
}

/* p, of *cap elements of elem bytes, grown to hold need (mdl_grow_cap's
 * doubling from first); p itself when it holds them already.  NULL when
 * out of memory or when the size overflows: p and *cap then unchanged. */
static inline void *mdl_grow(void *p, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (p && need <= *cap)
        return p;
    size_t c = mdl_grow_cap(*cap, need, first, SIZE_MAX / (elem ? elem : 1));
    void *q = mdl_resize(p, c, elem);
    if (q)
        *cap = c;
    return q;
}

#endif
