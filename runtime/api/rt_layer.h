/* rt_layer.h — internals of the validation layer (runtime/api), shared by
 * its files only: backends see rt_backend.h. */
#ifndef MDL_RT_LAYER_H
#define MDL_RT_LAYER_H

#include "rt_backend.h"

/* The generated code's entry points; everything else is hidden. */
#define MDL_API __attribute__((visibility("default")))

/* The runtime of this process while it is active, else a marker no handle
 * equals: one comparison tells a live handle on every call (rt_state.c). */
MDL_HIDDEN extern mdl_rt *rt_live;
/* Which runtime of this process rt_live is, or that none is: one more at
 * each MDL_Init and each MDL_End (a call site's note, mdl_site, holds for
 * one, so that a current note also says its runtime is live). */
MDL_HIDDEN extern unsigned long rt_generation;
/* Whether a runtime is live; rt_live_set: MDL_Init has started rt (NULL:
 * MDL_End has ended it); rt_ended_set: MDL_End runs on rt, whose identity
 * the calls after it are reported under (rt_ended_who: NULL before). */
MDL_HIDDEN int rt_active(void);
MDL_HIDDEN void rt_live_set(mdl_rt *rt);
MDL_HIDDEN void rt_ended_set(mdl_rt *rt);
MDL_HIDDEN const mdl_who *rt_ended_who(void);

/* MDL_ERR_STATE for a handle that is not the live runtime: before
 * MDL_Init, after MDL_End, or not this process's handle. */
MDL_HIDDEN int rt_dead(const char *fn) __attribute__((cold));

/* MDL_ERR_RANK: instance `inst` of task `task` does not exist; entry >= 0:
 * it is that entry of a list. */
MDL_HIDDEN int rt_fail_instance(mdl_rt *rt, const char *fn, int task, int inst, int entry)
    __attribute__((cold));

/* A list of instances of `task`: n >= 0, in range, no duplicates, O(n).
 * Returns 0 or the reported error. */
MDL_HIDDEN int rt_check_list(mdl_rt *rt, const char *fn, int task, const int *insts, int n);

/* The grid must exist (MDL_ERR_GRID otherwise). */
MDL_HIDDEN int rt_need_grid(mdl_rt *rt, const char *fn);

/* Entries of an instance list a hang report shows (rt_call.c, rt_watch.c). */
#define RT_LIST_SHOWN 8

/* Text built without stdio, for a signal handler (rt_stop.c) and what it
 * shares with the hang reports (rt_call.c): appended to buf[0..len-1],
 * always NUL-terminated, cut at the end. */
typedef struct rt_text {
    char *buf;
    size_t len, at;
} rt_text;
MDL_HIDDEN void rt_text_str(rt_text *t, const char *s);
MDL_HIDDEN void rt_text_int(rt_text *t, long v);

/* A copy of rt_now in k, its list's first RT_LIST_SHOWN entries copied
 * to shown (signal-safe: loads only), for a report from another thread
 * (rt_watch.c) or a signal handler (rt_stop.c). */
MDL_HIDDEN void rt_call_now(rt_call *k, int shown[RT_LIST_SHOWN]);

/* The instance the call k waits for (rt_call_peer names it), or an
 * RT_PEER_* or MDL_ANY; *task: its task. */
MDL_HIDDEN int rt_call_peer_inst(const rt_call *k, const mdl_task_desc *d, const int *fam_size,
                                 int *task);

/* The processes of the other hosts that are gone (rt_probe.c), from the
 * SIGTERM handler (signal-safe): lost[r] for world rank r, or NULL when
 * not known (one host, no probe, not all probed in time).  rt_probe_end:
 * the socket closed (rt_stop_end). */
MDL_HIDDEN const unsigned char *rt_probe_lost(void);
MDL_HIDDEN void rt_probe_end(void);

/* The hang watchdog (rt_watch.c): started by MDL_Init when MDL_HANG_SECONDS
 * is set, stopped by MDL_End once the backend has finished. */
MDL_HIDDEN void rt_watch_start(const mdl_task_desc *d, mdl_who who, const int *fam_size);
MDL_HIDDEN void rt_watch_stop(void);

#endif
