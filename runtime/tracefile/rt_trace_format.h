/* rt_trace_format.h — the spelling of the job's trace file
 * (docs/tracing.md §2): its format name and version, every key, the
 * values the format fixes (event phases, categories of calls, how a job
 * or an instance ended), once for the writer (rt_trace_write.c) and every
 * reader (tools/mdltrace).  Keys and values are string literals, so that
 * the writer pastes them into its fixed text and the readers compare with
 * them and quote them in their warnings: renaming one changes both sides
 * at compile time. */
#ifndef MDL_RT_TRACE_FORMAT_H
#define MDL_RT_TRACE_FORMAT_H

/* otherData.format and otherData.version */
#define RT_TF_FORMAT  "medley-trace"
#define RT_TF_VERSION 1

/* A number as the file's text: RT_TF_TEXT(RT_TF_VERSION) is "1". */
#define RT_TF_TEXT(n)  RT_TF_TEXT_(n)
#define RT_TF_TEXT_(n) #n

/* ---------------------------------------------------------------- keys */

/* The top level. */
#define RT_TF_KEY_TRACE_EVENTS  "traceEvents"
#define RT_TF_KEY_OTHER_DATA    "otherData"

/* Every event (the Trace Event Format's keys). */
#define RT_TF_KEY_PH            "ph"
#define RT_TF_KEY_TS            "ts"
#define RT_TF_KEY_DUR           "dur"
#define RT_TF_KEY_PID           "pid"
#define RT_TF_KEY_TID           "tid"
#define RT_TF_KEY_NAME          "name"
#define RT_TF_KEY_CAT           "cat"
#define RT_TF_KEY_ID            "id"          /* flows */
#define RT_TF_KEY_BP            "bp"          /* flows: the binding point */
#define RT_TF_KEY_ARGS          "args"

/* The args of a call (also, with "name", of a metadata event). */
#define RT_TF_KEY_MSG           "msg"
#define RT_TF_KEY_BYTES         "bytes"
#define RT_TF_KEY_ROOT          "root"
#define RT_TF_KEY_PEER          "peer"
#define RT_TF_KEY_MSGS          "msgs"
#define RT_TF_KEY_WAIT_US       "wait_us"
#define RT_TF_KEY_COPY_US       "copy_us"
#define RT_TF_KEY_ERROR         "error"

/* otherData: the job ("format", "version", then these), its instances
 * ("name", "pid", "tid", "end", then these) and their totals ("name",
 * "msg", "cat", "msgs", "bytes", "wait_us", "copy_us", then these). */
#define RT_TF_KEY_FORMAT        "format"
#define RT_TF_KEY_VERSION       "version"
#define RT_TF_KEY_SPEC          "spec"
#define RT_TF_KEY_SPEC_HASH     "spec_hash"
#define RT_TF_KEY_RUNTIME       "runtime"
#define RT_TF_KEY_COMMAND       "command"
#define RT_TF_KEY_CLOCK         "clock"
#define RT_TF_KEY_HOST_CLOCKS   "host_clocks"   /* MPI across hosts: each host's offset */
#define RT_TF_KEY_BUFFER_EVENTS "buffer_events"
#define RT_TF_KEY_END           "end"
#define RT_TF_KEY_INSTANCES     "instances"
#define RT_TF_KEY_EVENTS        "events"
#define RT_TF_KEY_DROPPED       "dropped"
#define RT_TF_KEY_TOTALS        "totals"
#define RT_TF_KEY_CALLS         "calls"
#define RT_TF_KEY_DUR_US        "dur_us"

/* ---------------------------------------------------------------- values */

/* "ph": a call, a metadata event, the two ends of a flow. */
#define RT_TF_PH_CALL           "X"
#define RT_TF_PH_META           "M"
#define RT_TF_PH_FLOW_START     "s"
#define RT_TF_PH_FLOW_END       "f"

/* Metadata events: their "name". */
#define RT_TF_META_PROCESS      "process_name"
#define RT_TF_META_THREAD       "thread_name"

/* Flows: their "name" and "cat", and the "bp" of their end (bound to the
 * enclosing call, the receive, not to the next one). */
#define RT_TF_FLOW_NAME         "message"
#define RT_TF_FLOW_CAT          "mdl"
#define RT_TF_BP_ENCLOSING      "e"

/* The "cat" of a call (the image's enum rt_trace_cat):
 *   X(id, name) */
#define RT_TF_CATS(X)                                                       \
    X(SEND, "send")                                                         \
    X(RECV, "recv")                                                         \
    X(WAIT, "wait")                                                         \
    X(COLL, "coll")                                                         \
    X(SYNC, "sync")

/* How a job ended (otherData "end": NORMAL or ERROR), and each of its
 * instances (enum rt_inst_end of rt_trace_write.h):
 *   X(id, name) */
#define RT_TF_END_NORMAL        "normal"
#define RT_TF_END_ERROR         "error"
#define RT_TF_END_LOST          "lost"      /* nothing of it could be read */
#define RT_TF_ENDS(X)                                                       \
    X(NORMAL, RT_TF_END_NORMAL)                                             \
    X(ERROR,  RT_TF_END_ERROR)                                              \
    X(LOST,   RT_TF_END_LOST)

#endif
