/* rt_task_w.h — the one-task fixture of the rt tests that run a single
 * task, "w", connected with itself (rt_site.c, rt_errself.c): its struct,
 * an int V[8] (and the rt pointer generated structs end with), its task
 * table and the item of V, as medleyc would emit them. */
#ifndef RT_TASK_W_H
#define RT_TASK_W_H

#include "rt_test.h"

typedef struct T {
    int V[8];
    void *rt;
} T;

static const char *const tasks[] = { "w" };
static const mdl_item_desc v_item[] = { ITEM1(T, V, td_int, 8, 0) };
static const long all8[] = { 0, 7 };    /* the bounds of all of V */

#endif
