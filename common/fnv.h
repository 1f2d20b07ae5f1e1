/* fnv.h — 64-bit FNV-1a, the one hash of medley: the compiler's symbol
 * tables, the generator's name table, and the spec hash that the runtimes
 * compare between the programs of a job (so its constants must never
 * change without a reason: every generated TMDL.c carries one); mdltrace's
 * string tables and flow ids given as strings; the names of the MPI
 * runtime's trace parts (runtime/tracefile). */
#ifndef MEDLEY_FNV_H
#define MEDLEY_FNV_H

#include <stddef.h>
#include <stdint.h>

#define MDL_FNV_OFFSET 0xcbf29ce484222325ULL
#define MDL_FNV_PRIME  0x100000001b3ULL

/* h continued over n bytes at p (start with MDL_FNV_OFFSET). */
static inline uint64_t mdl_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * MDL_FNV_PRIME;
    return h;
}

/* The hash of a NUL-terminated string. */
static inline uint64_t mdl_fnv1a_str(const char *s)
{
    uint64_t h = MDL_FNV_OFFSET;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * MDL_FNV_PRIME;
    return h;
}

#endif
