/* shm_rtt.h — helpers for runtime-level tests: descriptor tables written by
 * hand the way medleyc emits them, and a CHECK that fails the instance. */
#ifndef SHM_RTT_H
#define SHM_RTT_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdl_rt.h"

static const mdl_type_desc t_char = {"char", MDL_T_CHAR, 1, 0, NULL};
static const mdl_type_desc t_int = {"int", MDL_T_INT, sizeof(int), 0, NULL};
static const mdl_type_desc t_long = {"long", MDL_T_LONG, sizeof(long), 0, NULL};
static const mdl_type_desc t_float = {"float", MDL_T_FLOAT, sizeof(float), 0, NULL};
static const mdl_type_desc t_double = {"double", MDL_T_DOUBLE, sizeof(double), 0, NULL};

/* item: variable `v` of struct S, `nd` dims with extents, first (lo,hi) pair */
#define ITEM(S, v, ty, nd, first, ...) \
    {#v, offsetof(S, v), 0, &(ty), nd, {__VA_ARGS__}, first, -1}
#define PITEM(S, v, ty, first) {#v, offsetof(S, v), 1, &(ty), 1, {-1}, first, -1}

/* message: index, is_send, async, channel, peer task, peer kind, items */
#define MSG(nm, idx, snd, asy, ch, ptask, kind, its, np, fixed) \
    {nm, "MDL_" nm, idx, snd, asy, ch, ptask, kind, {0, 0, 0}, \
     (int)(sizeof(its) / sizeof((its)[0])), its, np, fixed}

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "CHECK failed %s:%d: %s\n", __FILE__, __LINE__, \
                    #cond);                                                  \
            exit(3);                                                         \
        }                                                                    \
    } while (0)

#endif
