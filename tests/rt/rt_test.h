/* rt_test.h — helpers for runtime-level tests: descriptor tables written
 * by hand exactly as medleyc emits them (include/mdl_rt.h), and checks that
 * stop the whole job with a message naming the failed condition. */
#ifndef RT_TEST_H
#define RT_TEST_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "mdl_rt.h"

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
            exit(3);                                                                   \
        }                                                                              \
    } while (0)

#define CHECK_EQ(a, b)                                                                 \
    do {                                                                               \
        long long a_ = (long long)(a), b_ = (long long)(b);                            \
        if (a_ != b_) {                                                                \
            fprintf(stderr, "%s:%d: %s = %lld, expected %lld\n", __FILE__, __LINE__, #a, \
                    a_, b_);                                                           \
            exit(3);                                                                   \
        }                                                                              \
    } while (0)

#define TYPE(id, cname, base) \
    static const mdl_type_desc id = { #cname, base, sizeof(cname), 0, NULL }

TYPE(td_char, char, MDL_T_CHAR);
TYPE(td_int, int, MDL_T_INT);
TYPE(td_float, float, MDL_T_FLOAT);
TYPE(td_double, double, MDL_T_DOUBLE);

/* Items: variable V of struct S. */
#define ITEM0(S, V, td) { #V, offsetof(S, V), 0, &td, 0, { 0 }, 0, -1 }
#define ITEM1(S, V, td, e0, pair) { #V, offsetof(S, V), 0, &td, 1, { e0 }, pair, -1 }
#define ITEM2(S, V, td, e0, e1, pair) { #V, offsetof(S, V), 0, &td, 2, { e0, e1 }, pair, -1 }
#define ITEMP(S, V, td, pair) { #V, offsetof(S, V), 1, &td, 1, { -1 }, pair, -1 }

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif
