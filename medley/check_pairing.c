/* check_pairing.c — pairs every send with one receive (reference §3.3).
 *
 * Rules, each applied to the whole spec before the next, so that a later
 * rule only sees what the earlier ones left:
 *   1. a receive with `matches m` takes the send m of its peer task;
 *   2. a send takes the receive of the same name in its peer task;
 *   3. a send takes the unique remaining receive in its peer task that
 *      accepts it (from the sending task, or from the opposite grid
 *      direction) and has the same type signature.
 * Each pair gets a channel, 0..n-1 in spec order of the sends (n is
 * spec->nchannels).
 *
 * Type signature: the flattened sequence of basic types with counts,
 * adjacent runs of one type merged (vector<double>[10] is ten doubles; a
 * struct is its fields).  When every count is known the flat sequences
 * must be equal.  When some count depends on run-time bounds, the
 * sequences of element types are compared instead (a struct that is a
 * single run of one basic type counts as that type, others by identity),
 * with counts compared only where both are known; the runtime checks the
 * rest. */
#include <stdio.h>
#include <string.h>

#include "check_internal.h"

enum { MAX_RUNS = 4096 };       /* beyond, flat comparison is skipped */

typedef struct run {
    mdl_basic b;                /* MDL_B_NONE: a struct kept whole (st) */
    const mdl_struct *st;
    long long n;                /* -1: unknown */
} run;

typedef struct sig {
    run *v;
    int n, cap;
    int bad;                    /* an item had an error: no comparison */
    int too_long;
} sig;

typedef struct minfo {
    mdl_msg *m;
    sig elem, flat;             /* flat.bad also when some count is unknown */
    int rule;                   /* rule that paired it, 0 if none */
    int failed;                 /* an error about it was reported */
} minfo;

/* sends and recvs are in task order: those of the task at index t are
 * [sfirst[t], sfirst[t + 1]) and [rfirst[t], rfirst[t + 1]), so that a
 * send looks only at its peer's receives (with 100,000 tasks, scanning
 * every receive for every send was quadratic). */
typedef struct pairing {
    mdl_checker *c;
    minfo *sends, *recvs;
    int nsends, nrecvs;
    int *sfirst, *rfirst;
} pairing;

/* The range of t's sends (or receives) in p; empty for a task that is
 * not in the spec's list. */
static void task_range(const pairing *p, const mdl_task *t, int sends, int *lo, int *hi)
{
    const int *first = sends ? p->sfirst : p->rfirst;
    *lo = *hi = 0;
    if (t && t->index >= 0 && t->index < p->c->spec->tasks.n &&
        p->c->spec->tasks.v[t->index] == t) {
        *lo = first[t->index];
        *hi = first[t->index + 1];
    }
}

static void push(mdl_checker *c, sig *s, mdl_basic b, const mdl_struct *st, long long n)
{
    if (s->n && s->v[s->n - 1].b == b && s->v[s->n - 1].st == st) {
        run *last = &s->v[s->n - 1];
        if (last->n < 0 || n < 0 || __builtin_add_overflow(last->n, n, &last->n))
            last->n = -1;
        return;
    }
    if (s->n >= MAX_RUNS) {
        s->too_long = 1;
        return;
    }
    run r = { b, st, n };
    MDL_VEC_PUSH(c->arena, *s, r);
}

static long long field_elems(const mdl_field *f)
{
    long long n = 1;
    for (int d = 0; d < f->dims.n; d++)
        if (!f->dimval || f->dimval[d] <= 0 || !mdl_mul_size(n, f->dimval[d], &n))
            return -1;
    return n;
}

/* One instance of each struct, flattened, computed once: nested structs
 * (S2 holding two S1 holding two S0 …) would otherwise be flattened an
 * exponential number of times.  state: 0 not yet, 1 in progress (a cycle,
 * reported by check_types, makes it bad), 2 done. */
typedef struct flat_cache {
    sig *one;
    int *state;
} flat_cache;

static void flat_struct(mdl_checker *c, sig *out, const mdl_struct *st,
                        long long reps);

static const sig *flat_one(mdl_checker *c, const mdl_struct *st)
{
    static const sig bad = { .bad = 1 };
    flat_cache *cache = c->flat_cache;
    int k = st->index;
    if (k < 0 || k >= c->spec->structs.n || c->spec->structs.v[k] != st ||
        cache->state[k] == 1)
        return &bad;
    sig *one = &cache->one[k];
    if (cache->state[k] == 2)
        return one;
    cache->state[k] = 1;
    for (int i = 0; i < st->fields.n && !one->bad; i++) {
        const mdl_field *f = st->fields.v[i];
        long long n = f ? field_elems(f) : -1;
        if (n < 0 || f->is_pointer)
            one->bad = 1;
        else if (f->type.basic != MDL_B_NONE)
            push(c, one, f->type.basic, NULL, n);
        else if (f->type.resolved)
            flat_struct(c, one, f->type.resolved, n);
        else
            one->bad = 1;
    }
    cache->state[k] = 2;
    return one;
}

/* Appends `reps` copies of struct st, flattened. */
static void flat_struct(mdl_checker *c, sig *out, const mdl_struct *st,
                        long long reps)
{
    const sig *onep = flat_one(c, st);
    sig one = *onep;
    out->bad |= one.bad;
    out->too_long |= one.too_long;
    if (one.n == 1) {
        long long n;
        push(c, out, one.v[0].b, NULL,
             reps < 0 || !mdl_mul_size(one.v[0].n, reps, &n) ? -1 : n);
        return;
    }
    long long runs;
    if (reps < 0 || !mdl_mul_size(reps, one.n, &runs) || runs > MAX_RUNS) {
        out->too_long = 1;
        return;
    }
    for (long long r = 0; r < reps; r++)
        for (int i = 0; i < one.n; i++)
            push(c, out, one.v[i].b, NULL, one.v[i].n);
}

/* A message whose name an earlier one of the same list already has: it is
 * reported by check_names and left out of pairing. */
static int duplicate(mdl_msg *const *v, int n, const mdl_msg *m)
{
    for (int i = 0; i < n && v[i] != m; i++)
        if (v[i] && v[i]->name && strcmp(v[i]->name, m->name) == 0)
            return 1;
    return 0;
}

static void make_sigs(mdl_checker *c, minfo *mi)
{
    mdl_msg *m = mi->m;
    mdl_task *t = m->task;
    if (!t || (m->is_send ? duplicate(t->sends.v, t->sends.n, m)
                          : duplicate(t->recvs.v, t->recvs.n, m))) {
        mi->elem.bad = mi->flat.bad = 1;
        mi->failed = 1;
        return;
    }
    for (int i = 0; i < m->items.n; i++) {
        mdl_item *it = m->items.v[i];
        if (!it || !it->var) {
            mi->elem.bad = mi->flat.bad = 1;
            return;
        }
        const mdl_typeref *ty = &it->var->type;
        long long n = it->count;
        if (ty->basic != MDL_B_NONE) {
            push(c, &mi->elem, ty->basic, NULL, n);
            if (n < 0)
                mi->flat.bad = 1;
            else
                push(c, &mi->flat, ty->basic, NULL, n);
            continue;
        }
        if (!ty->resolved) {
            mi->elem.bad = mi->flat.bad = 1;
            return;
        }
        sig one = { 0 };
        flat_struct(c, &one, ty->resolved, 1);
        if (one.bad) {
            mi->elem.bad = mi->flat.bad = 1;
            return;
        }
        if (one.n == 1) {
            long long k;
            push(c, &mi->elem, one.v[0].b, NULL,
                 n < 0 || !mdl_mul_size(one.v[0].n, n, &k) ? -1 : k);
        } else {
            push(c, &mi->elem, MDL_B_NONE, ty->resolved, n);
        }
        if (n < 0)
            mi->flat.bad = 1;
        else
            flat_struct(c, &mi->flat, ty->resolved, n);
    }
}

static int usable_flat(const sig *s)
{
    return !s->bad && !s->too_long;
}

static int same_sig(const minfo *a, const minfo *b)
{
    if (usable_flat(&a->flat) && usable_flat(&b->flat)) {
        if (a->flat.n != b->flat.n)
            return 0;
        for (int i = 0; i < a->flat.n; i++)
            if (a->flat.v[i].b != b->flat.v[i].b || a->flat.v[i].n != b->flat.v[i].n)
                return 0;
        return 1;
    }
    if (a->elem.n != b->elem.n)
        return 0;
    for (int i = 0; i < a->elem.n; i++) {
        const run *x = &a->elem.v[i], *y = &b->elem.v[i];
        if (x->b != y->b || x->st != y->st)
            return 0;
        if (x->n >= 0 && y->n >= 0 && x->n != y->n)
            return 0;
    }
    return 1;
}

/* "{int, double[10]}" — the form that same_sig compared. */
static const char *sig_text(mdl_checker *c, const minfo *a, const minfo *b)
{
    const sig *s = usable_flat(&a->flat) && usable_flat(&b->flat) ? &a->flat : &a->elem;
    char buf[512];
    size_t len = 0;
    len += (size_t)snprintf(buf + len, sizeof buf - len, "{");
    for (int i = 0; i < s->n && len < sizeof buf - 64; i++) {
        const run *r = &s->v[i];
        mdl_typeref t = { .basic = r->b, .resolved = (mdl_struct *)r->st };
        if (i == 8 && s->n > 9) {
            len += (size_t)snprintf(buf + len, sizeof buf - len, ", ...");
            break;
        }
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "",
                                mdl_type_name(&t));
        if (r->n < 0)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "[?]");
        else if (r->n != 1)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "[%lld]", r->n);
    }
    if (len < sizeof buf - 1)
        snprintf(buf + len, sizeof buf - len, "}");
    return mdl_strdup(c->arena, buf);
}

/* `North_Neighbor`, or `Neighbor[2][0]` when not a unit step. */
static const char *offset_text(mdl_checker *c, const int off[3], int ndims)
{
    char buf[96];
    size_t len = 0;
    int unit = 1;
    for (int d = 0; d < ndims; d++)
        unit &= off[d] >= -1 && off[d] <= 1;
    for (int d = 0; d < ndims; d++) {
        if (!unit)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s[%d]",
                                    d ? "" : "Neighbor", off[d]);
        else if (off[d])
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s_",
                                    mdl_direction_name(d, off[d]));
    }
    if (unit)
        snprintf(buf + len, sizeof buf - len, "Neighbor");
    return mdl_strdup(c->arena, buf);
}

/* Whether receive r can take what send s sends. */
static int accepts(const mdl_msg *r, const mdl_msg *s)
{
    if (r->peer_task != s->task || s->peer_task != r->task)
        return 0;
    if (s->peer_kind != MDL_P_NEIGHBOR)
        return r->peer_kind != MDL_P_NEIGHBOR;
    if (r->peer_kind != MDL_P_NEIGHBOR)
        return 0;
    for (int d = 0; d < 3; d++)
        if (r->offset[d] != -s->offset[d])
            return 0;
    return 1;
}

/* The minfo of send s of task t. */
static minfo *send_info(pairing *p, const mdl_task *t, const mdl_msg *s)
{
    int lo, hi;
    task_range(p, t, 1, &lo, &hi);
    for (int i = lo; i < hi; i++)
        if (p->sends[i].m == s)
            return &p->sends[i];
    return NULL;
}

static void pair(pairing *p, minfo *s, minfo *r, int rule)
{
    s->m->pair = r->m;
    r->m->pair = s->m;
    s->rule = r->rule = rule;
    if (!same_sig(s, r) && !s->elem.bad && !r->elem.bad) {
        mdl_error(p->c->diag, r->m->content_loc.line ? r->m->content_loc : r->m->loc,
                  "content of receive '%s' %s does not match send '%s' of task '%s' %s",
                  r->m->name, sig_text(p->c, r, s), s->m->name, s->m->task->name,
                  sig_text(p->c, s, r));
        mdl_note(p->c->diag, s->m->loc, "send '%s' is here", s->m->name);
        r->failed = s->failed = 1;
    }
}

/* Why a receive that names the send cannot take it: wrong task or direction. */
static void explain_direction(pairing *p, const mdl_msg *s, const mdl_msg *r)
{
    mdl_checker *c = p->c;
    if (s->peer_kind == MDL_P_NEIGHBOR) {
        int back[3] = { -s->offset[0], -s->offset[1], -s->offset[2] };
        mdl_note(c->diag, r->peer_loc.line ? r->peer_loc : r->loc,
                 "'%s' is sent to %s, so it is received from %s", s->name,
                 offset_text(c, s->offset, s->task->grid_ndims),
                 offset_text(c, back, s->task->grid_ndims));
    } else {
        mdl_note(c->diag, r->loc, "receive '%s' of task '%s' does not receive from '%s'",
                 r->name, r->task->name, s->task->name);
    }
}

static void rule1(pairing *p)
{
    mdl_checker *c = p->c;
    for (int i = 0; i < p->nrecvs; i++) {
        minfo *ri = &p->recvs[i];
        mdl_msg *r = ri->m;
        if (!r->matches || !r->peer_task)
            continue;
        mdl_task *P = r->peer_task;
        mdl_msg *s = NULL;
        for (int j = 0; j < P->sends.n && !s; j++)
            if (P->sends.v[j] && P->sends.v[j]->name &&
                strcmp(P->sends.v[j]->name, r->matches) == 0)
                s = P->sends.v[j];
        ri->failed = 1;
        if (!s) {
            const char **names = mdl_alloc(c->arena, sizeof *names * (size_t)(P->sends.n + 1));
            int n = 0;
            for (int j = 0; j < P->sends.n; j++)
                if (P->sends.v[j] && (P->sends.v[j]->peer_task == r->task ||
                                      !P->sends.v[j]->peer_task))
                    names[n++] = P->sends.v[j]->name;
            mdl_error(c->diag, r->matches_loc.line ? r->matches_loc : r->loc,
                      "receive '%s' matches '%s', but task '%s' has no send '%s'%s",
                      r->name, r->matches, P->name, r->matches,
                      mdl_did_you_mean(c, r->matches, names, n));
            continue;
        }
        minfo *si = send_info(p, P, s);
        if (!s->peer_task || !si)
            continue;           /* its peer error is reported */
        if (!accepts(r, s)) {
            mdl_error(c->diag, r->matches_loc.line ? r->matches_loc : r->loc,
                      "receive '%s' matches send '%s' of task '%s', which is not sent to it",
                      r->name, s->name, P->name);
            explain_direction(p, s, r);
            continue;
        }
        if (s->pair) {
            mdl_error(c->diag, r->matches_loc.line ? r->matches_loc : r->loc,
                      "send '%s' of task '%s' is matched by two receives, '%s' and '%s'",
                      s->name, P->name, s->pair->name, r->name);
            mdl_note(c->diag, s->pair->loc, "'%s' matches it here", s->pair->name);
            si->failed = 1;
            continue;
        }
        ri->failed = 0;
        pair(p, si, ri, 1);
    }
}

static void rule2(pairing *p)
{
    for (int i = 0; i < p->nsends; i++) {
        minfo *si = &p->sends[i];
        mdl_msg *s = si->m;
        if (s->pair || !s->peer_task || si->failed)
            continue;
        int lo, hi;
        task_range(p, s->peer_task, 0, &lo, &hi);
        for (int j = lo; j < hi; j++) {
            minfo *ri = &p->recvs[j];
            mdl_msg *r = ri->m;
            if (!r->pair && !r->matches && !ri->failed && strcmp(r->name, s->name) == 0 &&
                accepts(r, s)) {
                pair(p, si, ri, 2);
                break;
            }
        }
    }
}

static void no_receive(pairing *p, minfo *si)
{
    mdl_checker *c = p->c;
    mdl_msg *s = si->m;
    mdl_task *P = s->peer_task;
    /* A receive of P with an error (bad peer, bad content, misspelled
     * `matches`) may be the one meant: its report is enough. */
    int lo, hi;
    task_range(p, P, 0, &lo, &hi);
    for (int j = lo; j < hi; j++) {
        minfo *ri = &p->recvs[j];
        if (ri->m->task == P && !ri->m->pair &&
            (!ri->m->peer_task || ri->elem.bad || (ri->failed && ri->rule == 0))) {
            si->failed = 1;
            return;
        }
    }
    const char **names = mdl_alloc(c->arena, sizeof *names * (size_t)(P->recvs.n + 1));
    int n = 0;
    for (int j = 0; j < P->recvs.n; j++)
        if (P->recvs.v[j] && !P->recvs.v[j]->pair)
            names[n++] = P->recvs.v[j]->name;
    mdl_error(c->diag, s->loc, "message '%s' has no matching receive in task '%s'%s",
              s->name, P->name, mdl_did_you_mean(c, s->name, names, n));
    si->failed = 1;
    int notes = 0;
    for (int j = lo; j < hi && notes < 3; j++) {
        minfo *ri = &p->recvs[j];
        mdl_msg *r = ri->m;
        if (r->task != P || r->pair || ri->failed)
            continue;
        if (strcmp(r->name, s->name) == 0 && !accepts(r, s)) {
            explain_direction(p, s, r);
            notes++;
        } else if (accepts(r, s) && !r->matches && !ri->elem.bad) {
            mdl_note(c->diag, r->loc, "receive '%s' has content %s, not %s", r->name,
                     sig_text(c, ri, si), sig_text(c, si, ri));
            notes++;
        }
    }
}

static void rule3(pairing *p)
{
    mdl_checker *c = p->c;
    for (int i = 0; i < p->nsends; i++) {
        minfo *si = &p->sends[i];
        mdl_msg *s = si->m;
        if (s->pair || !s->peer_task || si->failed || si->elem.bad)
            continue;
        minfo *cand[2] = { NULL, NULL };
        int ncand = 0, lo, hi;
        task_range(p, s->peer_task, 0, &lo, &hi);
        for (int j = lo; j < hi; j++) {
            minfo *ri = &p->recvs[j];
            mdl_msg *r = ri->m;
            if (ri->rule == 1 || ri->rule == 2 || r->matches || ri->failed ||
                ri->elem.bad || !accepts(r, s) || !same_sig(si, ri))
                continue;
            if (ncand < 2)
                cand[ncand] = ri;
            ncand++;
        }
        if (ncand == 0) {
            no_receive(p, si);
        } else if (ncand > 1) {
            mdl_error(c->diag, s->loc,
                      "message '%s' could be received by '%s' or '%s' in task '%s'; pair it with 'matches %s'",
                      s->name, cand[0]->m->name, cand[1]->m->name, s->peer_task->name, s->name);
            mdl_note(c->diag, cand[0]->m->loc, "candidate '%s'", cand[0]->m->name);
            mdl_note(c->diag, cand[1]->m->loc, "candidate '%s'", cand[1]->m->name);
            si->failed = 1;
        } else if (cand[0]->m->pair) {
            mdl_msg *r = cand[0]->m;
            mdl_error(c->diag, s->loc,
                      "receive '%s' of task '%s' would be fed by two sends, '%s' and '%s'",
                      r->name, r->task->name, r->pair->name, s->name);
            mdl_note(c->diag, r->loc, "receive '%s' is here", r->name);
            mdl_note(c->diag, r->pair->loc, "send '%s' is here", r->pair->name);
            si->failed = 1;
        } else {
            pair(p, si, cand[0], 3);
        }
    }
}

/* A receive no send feeds: a warning, unless a send that might have fed it
 * had an error (its report is enough). */
static void unfed(pairing *p)
{
    for (int j = 0; j < p->nrecvs; j++) {
        minfo *ri = &p->recvs[j];
        mdl_msg *r = ri->m;
        if (r->pair || ri->failed || !r->peer_task || ri->elem.bad)
            continue;
        int excuse = 0, lo, hi;
        task_range(p, r->peer_task, 1, &lo, &hi);
        for (int i = lo; i < hi && !excuse; i++)
            excuse = p->sends[i].m->task == r->peer_task && !p->sends[i].m->pair &&
                     (p->sends[i].failed || p->sends[i].elem.bad ||
                      !p->sends[i].m->peer_task);
        if (!excuse)
            mdl_warning(p->c->diag, r->loc,
                        "receive '%s' of task '%s' is never fed: no send of task '%s' pairs with it",
                        r->name, r->task->name, r->peer_task->name);
    }
}

void mdl_check_pairing(mdl_checker *c)
{
    pairing p = { .c = c };
    flat_cache *cache = mdl_alloc(c->arena, sizeof *cache);
    cache->one = mdl_alloc(c->arena, sizeof *cache->one * (size_t)(c->spec->structs.n + 1));
    cache->state = mdl_alloc(c->arena, sizeof *cache->state * (size_t)(c->spec->structs.n + 1));
    c->flat_cache = cache;
    int ns = 0, nr = 0;
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        if (t && t->name) {
            ns += t->sends.n;
            nr += t->recvs.n;
        }
    }
    p.sends = mdl_alloc(c->arena, sizeof *p.sends * (size_t)(ns + 1));
    p.recvs = mdl_alloc(c->arena, sizeof *p.recvs * (size_t)(nr + 1));
    p.sfirst = mdl_alloc(c->arena, sizeof *p.sfirst * (size_t)(c->spec->tasks.n + 1));
    p.rfirst = mdl_alloc(c->arena, sizeof *p.rfirst * (size_t)(c->spec->tasks.n + 1));
    for (int i = 0; i < c->spec->tasks.n; i++) {
        mdl_task *t = c->spec->tasks.v[i];
        p.sfirst[i] = p.nsends;
        p.rfirst[i] = p.nrecvs;
        if (!t || !t->name)
            continue;
        for (int j = 0; j < t->sends.n; j++) {
            mdl_msg *m = t->sends.v[j];
            if (!m || !m->name)
                continue;
            m->is_send = 1;
            m->pair = NULL;
            m->channel = -1;
            p.sends[p.nsends].m = m;
            make_sigs(c, &p.sends[p.nsends++]);
        }
        for (int j = 0; j < t->recvs.n; j++) {
            mdl_msg *m = t->recvs.v[j];
            if (!m || !m->name)
                continue;
            m->is_send = 0;
            m->pair = NULL;
            m->channel = -1;
            p.recvs[p.nrecvs].m = m;
            make_sigs(c, &p.recvs[p.nrecvs++]);
        }
    }
    p.sfirst[c->spec->tasks.n] = p.nsends;
    p.rfirst[c->spec->tasks.n] = p.nrecvs;
    rule1(&p);
    rule2(&p);
    rule3(&p);
    unfed(&p);
    int channel = 0;
    for (int i = 0; i < p.nsends; i++)
        if (p.sends[i].m->pair) {
            p.sends[i].m->channel = channel;
            p.sends[i].m->pair->channel = channel++;
        }
    c->spec->nchannels = channel;
}
