/* trace.h — a medley trace file, read and aggregated (docs/tracing.md).
 *
 * mt_trace_read streams the file once and keeps only aggregates: per
 * (track, function, message) call statistics, per (track, peer) bytes
 * sent, per (aggregate, bytes) call counts, the flow events (ids only)
 * and the job description of "otherData".  mt_trace_finish then resolves
 * tracks to instances ("son[2]") and tasks. */
#ifndef MDLTRACE_TRACE_H
#define MDLTRACE_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "tracefile/rt_trace_write.h"     /* the format: rt_trace_format.h */
#include "util.h"

/* "cat" of a complete event: what kind of MDL call it is. */
typedef enum mt_cat {
#define MT_X(id, name) MT_CAT_##id,
    RT_TF_CATS(MT_X)
#undef MT_X
    MT_CAT_OTHER                /* none the runtimes write */
} mt_cat;

/* "ph" of the events mdltrace reads (one letter). */
#define MT_PH_CALL       (RT_TF_PH_CALL[0])
#define MT_PH_META       (RT_TF_PH_META[0])
#define MT_PH_FLOW_START (RT_TF_PH_FLOW_START[0])
#define MT_PH_FLOW_END   (RT_TF_PH_FLOW_END[0])

const char *mt_cat_name(mt_cat c);

/* A complete event's time span, kept for --check only. */
/* --check compares times as the format defines them: whole nanoseconds
 * (docs/tracing.md §3), never as sums of doubles, in which 0.1 + 0.2
 * exceeds 0.3. */
typedef struct mt_span {
    int64_t ts, dur;            /* ns */
    int cat;
} mt_span;

/* A time of the file (µs, at most three decimals) in whole ns. */
int64_t mt_ns(double us);

/* One (pid, tid) pair of the file. */
typedef struct mt_track {
    int64_t pid, tid;
    int name;                   /* thread_name, or -1 */
    int named;                  /* name from a thread_name event */
    int inst;                   /* after finish: index into instances */
    long long nx;               /* complete events recorded on it */
    mt_span *spans;             /* --check */
    size_t nspans, capspans;
} mt_track;

/* Call statistics. */
typedef struct mt_stats {
    long long calls, msgs, bytes; /* bytes: payload moved by the calls */
    double dur, wait, copy;     /* µs */
    long long nwait, ncopy;     /* calls that reported wait_us / copy_us */
    long long errors;           /* calls that reported an error */
} mt_stats;

/* dst += src, saturating; messages and bytes only when volume is set. */
void mt_stats_add(mt_stats *dst, const mt_stats *src, int volume);

/* The calls of one function of one instance: from its complete events
 * (track >= 0) or from otherData's exact totals (inst_name >= 0). */
typedef struct mt_agg {
    int track, inst_name;
    int fn, msg, cat;           /* interned; msg -1 for barriers */
    mt_stats st;
} mt_agg;

/* Bytes per call of one aggregate: how many calls carried `bytes`. */
typedef struct mt_size {
    uint32_t agg;
    long long bytes, calls;
} mt_size;

/* Bytes sent by a track to a named peer (point-to-point sends). */
typedef struct mt_edge {
    int track, peer;
    long long bytes, msgs;
} mt_edge;

typedef struct mt_flow {
    uint64_t id;
    int32_t track;
    char ph;                    /* MT_PH_FLOW_START or _END */
    char bp_e;                  /* an end bound to its enclosing call */
    int32_t name, cat;          /* -1 when absent */
    int64_t ts;                 /* ns */
} mt_flow;

/* One entry of otherData.instances. */
typedef struct mt_info {
    int name;
    int64_t pid, tid;
    int has_pid, has_tid;
    long long events, dropped;
    int has_events, has_dropped;
    int end;                    /* interned RT_TF_ENDS name, or -1 */
    int has_totals;
} mt_info;

/* An instance of the job, after mt_trace_finish. */
typedef struct mt_inst {
    int name;                   /* "son[2]" */
    int task;                   /* interned task name ("son") */
    long index;                 /* 2; -1 when the name is not task[i] */
    int64_t pid;                /* for ordering; INT64_MAX if unknown */
    int track;                  /* -1 if no event or metadata names it */
    int info;                   /* index into infos, -1 if none */
} mt_inst;

typedef struct mt_trace {
    const char *path;
    int check;                  /* keep spans, print format warnings */
    mt_strtab str;

    mt_track *tracks;
    size_t ntracks, captracks;
    mt_map track_map;           /* (pid, tid) */

    struct mt_proc { int64_t pid; int name; } *procs;   /* process_name metadata */
    size_t nprocs, capprocs;

    mt_agg *aggs;
    size_t naggs, capaggs;
    mt_map agg_map;             /* (track, fn, msg) and (-1-inst_name, fn, msg) */

    mt_size *sizes;
    size_t nsizes, capsizes;
    mt_map size_map;            /* (agg, bytes) */

    mt_edge *edges;
    size_t nedges, capedges;
    mt_map edge_map;            /* (track, peer) */

    uint64_t *sids, *fids;      /* ids of the flows' starts and ends */
    size_t nsids, capsids, nfids, capfids;
    mt_flow *flows;             /* --check: the whole flow events */
    size_t nflows, capflows;

    mt_info *infos;
    size_t ninfos, capinfos;

    /* the distinct texts of the calls that failed (args.error), in the
     * order they were read: string ids */
    int *call_errors;
    size_t ncall_errors, capcall_errors;

    /* otherData */
    int has_other;
    int format, spec, spec_hash, runtime, end, error, command, host_clocks; /* interned, -1 */
    long long version;
    long long buffer_events;

    /* what was read */
    long long nx, nignored, nunusable; /* complete, of other types, unusable */
    long long nwarnings;

    /* after finish */
    mt_inst *insts;             /* in display order: task, then index */
    size_t ninsts;
    int *inst_of_name;          /* by string id: instance index or -1 */
    size_t ninst_of_name;
    long long flows_matched, flows_unsent, flows_unreceived, flows_duplicate;
    long long dropped_total;
    int any_lost, all_infos;
} mt_trace;

/* Reads path ("-" for standard input).  0, or -1 after a message (the
 * file cannot be opened or is not well-formed JSON of the expected
 * shape).  Problems with single events are warnings, counted in
 * t->nwarnings (printed when t->check is set before the call). */
int mt_trace_read(mt_trace *t, const char *path, int check);
/* Resolves instances, tasks and flows. */
void mt_trace_finish(mt_trace *t);
void mt_trace_free(mt_trace *t);

/* A problem with the trace's content (not its syntax), at a position. */
void mt_trace_warn(mt_trace *t, unsigned long long line, unsigned long long col,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static inline const char *mt_s(const mt_trace *t, int id)
{
    return id >= 0 ? t->str.s[id] : NULL;
}

/* The instance a track belongs to, or -1. */
int mt_track_inst(const mt_trace *t, int track);
/* The instance called name, or -1. */
int mt_inst_by_name(const mt_trace *t, const char *name);

#endif
