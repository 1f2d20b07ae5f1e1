/* rt_report.c — how both runtimes report faults: the instance's identity
 * on the error policy of rt_common.c, and every text that more than one
 * file or both backends print, written once. */
#include "rt_layer.h"
#include "trace/rt_trace.h"

#include <stdio.h>

static mdl_who who_of(mdl_rt *rt)
{
    return rt ? rt_c(rt)->who : (mdl_who){ "?", -1 };
}

int rt_vfail(mdl_rt *rt, const char *fn, int code, const char *fmt, va_list ap)
{
    if (rt && rt_c(rt)->tr) {
        va_list cp;
        va_copy(cp, ap);
        rt_trace_error(rt, fn, code, fmt, cp);
        va_end(cp);
        if (!mdl_errors_return()) {     /* the job ends here: so does the trace */
            rt_trace_stop(rt, code, 1);
            be_trace_fatal(rt);
        }
    }
    return mdl_vfail(who_of(rt), fn, code, be_abort, fmt, ap);
}

int rt_fail(mdl_rt *rt, const char *fn, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = rt_vfail(rt, fn, code, fmt, ap);
    va_end(ap);
    return rc;
}

int rt_fail_who(mdl_who who, const char *fn, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = mdl_vfail(who, fn, code, be_abort, fmt, ap);
    va_end(ap);
    return rc;
}

int rt_fail_instance(mdl_rt *rt, const char *fn, int task, int inst, int entry)
{
    const mdl_rt_common *c = rt_c(rt);
    const char *name = c->d->tasks[task];
    int size = c->fam_size[task];
    char at[48] = "";
    if (entry >= 0)
        snprintf(at, sizeof at, "entry %d of the list: ", entry);
    if (size == 0)
        return rt_fail(rt, fn, MDL_ERR_RANK, "%stask %s has no instances in this job", at,
                       name);
    if (inst == MDL_ANY)
        return rt_fail(rt, fn, MDL_ERR_RANK, "%sMDL_ANY is not an instance of %s (0..%d)", at,
                       name, size - 1);
    return rt_fail(rt, fn, MDL_ERR_RANK, "%sinstance %d of %s does not exist (0..%d)", at, inst,
                   name, size - 1);
}

int rt_fail_size(mdl_rt *rt, const char *fn, int task, int inst, size_t got, size_t expect)
{
    const char *name = rt_c(rt)->d->tasks[task];
    if (got == RT_SIZE_LARGER || got > expect)
        return rt_fail(rt, fn, MDL_ERR_TRUNCATE,
                       "the message from %s[%d] is larger than the receive (%zu bytes)", name,
                       inst, expect);
    return rt_fail(rt, fn, MDL_ERR_TRUNCATE,
                   "received %zu bytes from %s[%d] but the receive holds %zu: the sections "
                   "of the send and the receive differ", got, name, inst, expect);
}

int rt_fail_coll_size(mdl_rt *rt, const char *fn)
{
    return rt_fail(rt, fn, MDL_ERR_TRUNCATE,
                   "a block is larger than its place in the receive: the instances passed "
                   "different counts");
}

int rt_fail_unreceived(mdl_rt *rt, const mdl_msg_desc *m, int inst, int n)
{
    const char *from = rt_c(rt)->d->tasks[m->peer_task];
    if (n == 1)
        return rt_fail(rt, MDL_FN_NAME(END), MDL_ERR_STATE,
                       "message %s from %s[%d] was sent but never received (%s)", m->name, from,
                       inst, m->fn);
    return rt_fail(rt, MDL_FN_NAME(END), MDL_ERR_STATE,
                   "%d messages sent to this instance were never received, the first %s from "
                   "%s[%d] (%s)", n, m->name, from, inst, m->fn);
}

const mdl_msg_desc *rt_msg_on(mdl_rt *rt, int channel, int is_send)
{
    const mdl_task_desc *d = rt_c(rt)->d;
    for (int i = 0; i < d->nmsgs; i++)
        if (!d->msgs[i]->is_send == !is_send && d->msgs[i]->channel == channel)
            return d->msgs[i];
    return NULL;
}

int rt_fail_spec(mdl_rt *rt, int proc, unsigned long long hash)
{
    const mdl_task_desc *d = rt_c(rt)->d;
    return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_LAUNCH,
                   "process %d of the job runs a program built from another spec (spec hash "
                   "%016llx; this program, from %s, has %016llx): regenerate and rebuild all "
                   "programs of the job", proc, hash, d->spec, d->spec_hash);
}

int rt_fail_task_index(mdl_rt *rt, int proc, long long task)
{
    const mdl_task_desc *d = rt_c(rt)->d;
    return rt_fail(rt, MDL_FN_NAME(INIT), MDL_ERR_LAUNCH,
                   "process %d of the job declares task %lld, but %s has %d tasks", proc, task,
                   d->spec, d->ntasks);
}

int rt_fail_oom(mdl_rt *rt, const char *fn)
{
    return rt_fail(rt, fn, MDL_ERR_INTERN, "out of memory");
}
