/* mdl_api.h — the public functions of a generated task (docs/language.md
 * §10), in one table: their names or the patterns that make them, how a
 * task has them, the task argument, the parameters and the result.
 *
 * The compiler builds each task's list of functions from it
 * (codegen/emit_api.c), and every binding is printed from that list: the
 * C prototypes, definitions and _Generic names, the C++ overloads and
 * methods, and whatever binding comes next.  The runtimes take from it
 * the names they print in error lines and hang reports, publish while
 * waiting and record in traces: MDL_FN_NAME(BARRIER) for a fixed name,
 * mdl_fn_format for a pattern.  Not installed. */
#ifndef MDL_API_H
#define MDL_API_H

#include <stddef.h>

/* The kinds of parameter after the task argument: the C type, and what
 * the argument is to a binding that must say more than C does (its
 * direction, one value or an array).
 *   X(id, c_type) */
#define MDL_PARAM_KINDS(X)                                                  \
    X(INT,        "int")            /* a number passed in */                \
    X(INT_OUT,    "int *")          /* one number the function writes */    \
    X(INTS_IN,    "const int *")    /* an array the function reads */       \
    X(INTS_OUT,   "int *")          /* an array the function writes */      \
    X(INTS_INOUT, "int *")          /* an array it reads and completes */   \
    X(SIZE,       "unsigned long")  /* a size in bytes */                   \
    X(ARGC,       "int *")          /* the program's arguments, where the */ \
    X(ARGV,       "char ***")       /* runtime may find its own */

enum mdl_param_kind {
#define MDL_X(id, c_type) MDL_PARAM_##id,
    MDL_PARAM_KINDS(MDL_X)
#undef MDL_X
};

/* How a task has a function.  Functions of one presence listed one after
 * the other come together: per async name, its Test then its Wait. */
enum mdl_api_presence {
    MDL_API_ONCE,               /* every task */
    MDL_API_GRID,               /* a grid task */
    MDL_API_RTSIZED,            /* a task with run-time-sized variables */
    MDL_API_PER_TASK,           /* one per connected task; part: its name */
    MDL_API_PER_SEND,           /* one per send; parts: peer task, message */
    MDL_API_PER_RECV,           /* one per receive; parts: peer task, message */
    MDL_API_PER_ASYNC,          /* one per name of async messages; part: it */
    MDL_API_PER_COLL            /* one per collective message; parts: the
                                   operation's canonical name, message */
};

/* How the task is passed. */
enum mdl_api_self {
    MDL_SELF_OBJECT,            /* struct T *t */
    MDL_SELF_HANDLE             /* struct T **t: MDL_Init sets it */
};

/* What the int a function returns means, besides a negative error. */
enum mdl_api_returns {
    MDL_RET_STATUS,             /* MDL_SUCCESS */
    MDL_RET_NUMBER,             /* a count or an instance number (>= 0) */
    MDL_RET_FLAG,               /* 1 complete, 0 not yet (Test) */
    MDL_RET_SENDER              /* the sender's instance: a synchronous
                                   receive from one instance (the other
                                   receives return MDL_SUCCESS) */
};

/* Test and Wait are named after their message, MDL_<m>Test and MDL_<m>Wait:
 * the pieces apart, which the shared-memory runtime appends one by one to
 * name a Wait on its way to sleep (the code of its waits stays that of a
 * copy of three strings). */
#define MDL_FN_COMPLETION_PREFIX "MDL_"
#define MDL_FN_TEST_SUFFIX       "Test"
#define MDL_FN_WAIT_SUFFIX       "Wait"

/* The public functions, in the order a task's header declares them:
 *   X(id, presence, self, returns, pattern, params)
 * id        MDL_FN_<id>; API_<id> in the emitters
 * presence  enum mdl_api_presence, without MDL_API_
 * self      enum mdl_api_self, without MDL_SELF_
 * returns   enum mdl_api_returns, without MDL_RET_
 * pattern   the name, "%s" standing for each part (mdl_fn_format)
 * params    after the task: MDL_P(kind, name) each, kind from
 *           MDL_PARAM_KINDS.  Sends, receives and collectives also take
 *           what their message needs (codegen/emit_api.c): an instance,
 *           or a list of them; then lo<k>, hi<k> per run-time bound. */
#define MDL_API_FUNCTIONS(X)                                                                      \
    X(INIT,          ONCE,      HANDLE, STATUS, "MDL_Init",                                       \
      MDL_P(ARGC, argc) MDL_P(ARGV, argv))                                                        \
    /* the C++ class's MDL_Init, on an object of `size` bytes: no short                           \
     * name (not in the reference) */                                                             \
    X(INIT_AT,       ONCE,      OBJECT, STATUS, "MDL_Init_at",                                    \
      MDL_P(SIZE, size) MDL_P(ARGC, argc) MDL_P(ARGV, argv))                                      \
    /* storage for the run-time-sized variables, from their extent                               \
     * variables' values (docs/language.md §5) */                                                 \
    X(ALLOCATE,      RTSIZED,   OBJECT, STATUS, "MDL_Allocate", )                                 \
    X(END,           ONCE,      OBJECT, STATUS, "MDL_End", )                                      \
    X(MYRANK,        ONCE,      OBJECT, NUMBER, "MDL_MyRank", )                                   \
    X(FAMILYSIZE,    ONCE,      OBJECT, NUMBER, "MDL_FamilySize", )                               \
    X(SIZE,          PER_TASK,  OBJECT, NUMBER, "MDL_%sSize", )                                   \
    X(BARRIER,       ONCE,      OBJECT, STATUS, "MDL_Barrier", )                                  \
    X(SYNC,          ONCE,      OBJECT, STATUS, "MDL_syncWithFamily", )                           \
    X(SBARRIER,      ONCE,      OBJECT, STATUS, "MDL_Sbarrier",                                   \
      MDL_P(INTS_IN, ranks) MDL_P(INT, n))                                                        \
    X(SEND,          PER_SEND,  OBJECT, STATUS, "MDL_SendTo_%s_%s", )                             \
    X(RECV,          PER_RECV,  OBJECT, SENDER, "MDL_RecvFrom_%s_%s", )                           \
    X(TEST,          PER_ASYNC, OBJECT, FLAG,                                                     \
      MDL_FN_COMPLETION_PREFIX "%s" MDL_FN_TEST_SUFFIX, )                                         \
    X(WAIT,          PER_ASYNC, OBJECT, STATUS,                                                   \
      MDL_FN_COMPLETION_PREFIX "%s" MDL_FN_WAIT_SUFFIX, )                                         \
    X(COLL,          PER_COLL,  OBJECT, STATUS, "MDL_%s_%s", )                                    \
    X(GRID_CREATE,   GRID,      OBJECT, STATUS, "MDL_Grid_Create",                                \
      MDL_P(INTS_INOUT, dims))                                                                    \
    X(GRID_SCREATE,  GRID,      OBJECT, STATUS, "MDL_Grid_Screate",                               \
      MDL_P(INTS_INOUT, dims))                                                                    \
    X(GRID_RANK,     GRID,      OBJECT, STATUS, "MDL_Grid_Rank",                                  \
      MDL_P(INTS_IN, coords) MDL_P(INT_OUT, rank))                                                \
    X(GRID_COORDS,   GRID,      OBJECT, STATUS, "MDL_Grid_Coords",                                \
      MDL_P(INT, rank) MDL_P(INTS_OUT, coords))                                                   \
    X(GRID_MYCOORDS, GRID,      OBJECT, STATUS, "MDL_Grid_Mycoords",                              \
      MDL_P(INTS_OUT, coords))                                                                    \
    X(GET_NEIGHBORS, GRID,      OBJECT, STATUS, "MDL_Get_Neighbors",                              \
      MDL_P(INT, direction) MDL_P(INT, disp) MDL_P(INT_OUT, source) MDL_P(INT_OUT, dest))

enum mdl_fn {
#define MDL_X(id, presence, self, returns, pattern, params) MDL_FN_##id,
    MDL_API_FUNCTIONS(MDL_X)
#undef MDL_X
    MDL_FN_COUNT
};

static const char *const mdl_fn_patterns[MDL_FN_COUNT] = {
#define MDL_X(id, presence, self, returns, pattern, params) [MDL_FN_##id] = pattern,
    MDL_API_FUNCTIONS(MDL_X)
#undef MDL_X
};

/* The name of a function a task has ONCE or as a GRID task:
 * MDL_FN_NAME(BARRIER) is "MDL_Barrier". */
#define MDL_FN_NAME(id) (mdl_fn_patterns[MDL_FN_##id])

/* The name a pattern makes with its parts: each "%s" replaced by the next
 * of a, b.  Writes at most len bytes to buf (NUL-terminated if len > 0)
 * and returns the name's whole length, as snprintf does. */
static inline size_t mdl_fn_format(char *buf, size_t len, const char *pattern, const char *a,
                                   const char *b)
{
    const char *parts[2] = { a, b };
    size_t n = 0, room = len ? len - 1 : 0;
    int k = 0;
    for (const char *p = pattern; *p; p++) {
        if (p[0] == '%' && p[1] == 's') {
            for (const char *s = k < 2 && parts[k] ? parts[k] : ""; *s; s++, n++)
                if (n < room)
                    buf[n] = *s;
            k++;
            p++;
        } else {
            if (n < room)
                buf[n] = *p;
            n++;
        }
    }
    if (len)
        buf[n < room ? n : room] = '\0';
    return n;
}

#endif
