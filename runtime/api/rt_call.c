/* rt_call.c — the call this process is in (rt_backend.h, rt_call: rt_now),
 * which the layer records at the entry of every call that may block and a
 * backend marks where it blocks, and its names as the hang reports print
 * them (rt_watch.c); the names of Test and Wait, which error lines and
 * traces print too. */
#include "rt_layer.h"

#include <stdio.h>
#include <string.h>

rt_call rt_now;
unsigned long rt_nblocks;
unsigned long *rt_block_shared;

const char *rt_completion_fn(const mdl_msg_desc *m, int wait, char *buf, size_t len)
{
    mdl_fn_format(buf, len, wait ? MDL_FN_NAME(WAIT) : MDL_FN_NAME(TEST),
                  m && m->name ? m->name : "?", NULL);
    return buf;
}

const char *rt_call_fn(const rt_call *k, char *buf, size_t len)
{
    if (k->fn)
        return k->fn;
    return rt_completion_fn(k->wait, 1, buf, len);
}

const char *rt_call_peer(const rt_call *k, const mdl_task_desc *d, const int *fam_size,
                         char *buf, size_t len)
{
    const mdl_msg_desc *m = k->fn ? k->m : k->wait;
    int peer = k->peer;
    /* A Wait right after its send or receive (the usual pattern) knows the
     * peer; one Wait covers the send and the receive of one name, which are
     * one pair (one channel) in a family connected with itself. */
    if (!k->fn && !(m && k->m && (k->m == m || k->m->channel == m->channel)))
        peer = RT_PEER_PENDING;
    int task = m ? m->peer_task : d->self;
    const char *name = task >= 0 && task < d->ntasks && d->tasks[task] ? d->tasks[task] : "?";
    buf[0] = 0;
    switch (peer) {
    case RT_PEER_NONE:
        break;
    case MDL_ANY:
        /* a family of one has one instance to wait for: named as such */
        if (fam_size && task >= 0 && task < d->ntasks && fam_size[task] == 1)
            snprintf(buf, len, "%s[0]", name);
        else
            snprintf(buf, len, "%s[any]", name);
        break;
    case RT_PEER_ALL:
        snprintf(buf, len, "%s[all]", name);
        break;
    case RT_PEER_PENDING:
        snprintf(buf, len, "%s", name);
        break;
    case RT_PEER_LIST: {
        size_t at = (size_t)snprintf(buf, len, "%s[", name);
        for (int i = 0; i < k->nlist && at < len; i++)
            at += (size_t)snprintf(buf + at, len - at, i ? ",%d" : "%d", k->list[i]);
        if (at < len)
            snprintf(buf + at, len - at, "]");
        break;
    }
    default:
        snprintf(buf, len, "%s[%d]", name, peer);
    }
    return buf;
}

/* MDL_End's receivers: static, since MDL_End frees the runtime's memory
 * while the watchdog may still be reading. */
static int end_insts[RT_LIST_SHOWN];

void rt_enter_end(const mdl_msg_desc *m, const int *insts, int n)
{
    if (n <= 0) {
        rt_enter(MDL_FN_NAME(END), NULL, RT_PEER_NONE);
    } else if (n == 1) {
        rt_enter(MDL_FN_NAME(END), m, insts[0]);
    } else {
        n = n < RT_LIST_SHOWN ? n : RT_LIST_SHOWN;
        memcpy(end_insts, insts, sizeof *insts * (size_t)n);
        rt_enter_list(MDL_FN_NAME(END), m, end_insts, n);
    }
}

