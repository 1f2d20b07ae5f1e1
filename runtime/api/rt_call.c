/* rt_call.c — the call this process is in (rt_backend.h, rt_call: rt_now),
 * which the layer records at the entry of every call that may block and a
 * backend marks where it blocks, and its names as the hang reports print
 * them (rt_watch.c, and rt_stop.c's signal handler: so no stdio here); the
 * names of Test and Wait, which error lines and traces print too. */
#include "rt_layer.h"

#include <string.h>

rt_call rt_now;
unsigned long rt_nblocks;
/* Where rt_block_shared points while nothing is shared: a word of its own,
 * so that the marks on every blocking call's path store without a test. */
static unsigned long block_unshared;
unsigned long *rt_block_shared = &block_unshared;

void rt_block_unshare(void)
{
    rt_block_shared = &block_unshared;
}

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

void rt_call_now(rt_call *k, int shown[RT_LIST_SHOWN])
{
    *k = (rt_call){ RT_GET(fn), RT_GET(m), RT_GET(peer), RT_GET(nlist), NULL, RT_GET(wait),
                    RT_GET(blocked) };
    if (k->peer == RT_PEER_LIST) {
        const int *list = RT_GET(list);
        if (k->nlist > RT_LIST_SHOWN)
            k->nlist = RT_LIST_SHOWN;
        for (int i = 0; i < k->nlist; i++)
            shown[i] = list[i];
        k->list = shown;
    }
}

void rt_text_str(rt_text *t, const char *s)
{
    for (; *s && t->at + 1 < t->len; s++)
        t->buf[t->at++] = *s;
    t->buf[t->at] = 0;
}

void rt_text_int(rt_text *t, long v)
{
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do
        digits[sizeof digits - 1 - ++n] = (char)('0' + u % 10);
    while ((u /= 10) && n < (int)sizeof digits - 2);
    if (v < 0)
        digits[sizeof digits - 1 - ++n] = '-';
    digits[sizeof digits - 1] = 0;
    rt_text_str(t, digits + sizeof digits - 1 - n);
}

int rt_call_peer_inst(const rt_call *k, const mdl_task_desc *d, const int *fam_size, int *task)
{
    const mdl_msg_desc *m = k->fn ? k->m : k->wait;
    int peer = k->peer;
    /* A Wait right after its send or receive (the usual pattern) knows the
     * peer; one Wait covers the send and the receive of one name, which are
     * one pair (one channel) in a family connected with itself. */
    if (!k->fn && !(m && k->m && (k->m == m || k->m->channel == m->channel)))
        peer = RT_PEER_PENDING;
    *task = m ? m->peer_task : d->self;
    /* a family of one has one instance to wait for: named as such */
    if (peer == MDL_ANY && fam_size && *task >= 0 && *task < d->ntasks && fam_size[*task] == 1)
        return 0;
    return peer;
}

const char *rt_call_peer(const rt_call *k, const mdl_task_desc *d, const int *fam_size,
                         char *buf, size_t len)
{
    rt_text t = { buf, len, 0 };
    int task, peer = rt_call_peer_inst(k, d, fam_size, &task);
    const char *name = task >= 0 && task < d->ntasks && d->tasks[task] ? d->tasks[task] : "?";
    buf[0] = 0;
    if (peer == RT_PEER_NONE)
        return buf;
    rt_text_str(&t, name);
    switch (peer) {
    case RT_PEER_PENDING:
        break;
    case MDL_ANY:
        rt_text_str(&t, "[any]");
        break;
    case RT_PEER_ALL:
        rt_text_str(&t, "[all]");
        break;
    case RT_PEER_LIST:
        for (int i = 0; i < k->nlist; i++) {
            rt_text_str(&t, i ? "," : "[");
            rt_text_int(&t, k->list[i]);
        }
        rt_text_str(&t, k->nlist ? "]" : "[]");
        break;
    default:
        rt_text_str(&t, "[");
        rt_text_int(&t, peer);
        rt_text_str(&t, "]");
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

