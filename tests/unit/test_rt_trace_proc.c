/* rt_trace_proc_start (runtime/tracefile): what mdltrace --recover and
 * the trace's stale check take for "that process still runs". */
#define _POSIX_C_SOURCE 200809L
#include <CUnit/CUnit.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "unit.h"
#include "tracefile/rt_trace_write.h"

/* a child that has exited but was not waited for (a zombie) has ended:
 * a job's process whose launcher was killed stays one until init reaps it */
static void test_zombie_has_ended(void)
{
    CU_ASSERT_NOT_EQUAL(rt_trace_proc_start(getpid()), 0);
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    CU_ASSERT_FATAL(child > 0);
    CU_ASSERT_NOT_EQUAL(rt_trace_proc_start(child), 0);    /* running */
    kill(child, SIGKILL);
    siginfo_t info;
    /* ended, status not collected: a zombie */
    CU_ASSERT_EQUAL(waitid(P_PID, (id_t)child, &info, WEXITED | WNOWAIT), 0);
    CU_ASSERT_EQUAL(rt_trace_proc_start(child), 0);
    waitpid(child, NULL, 0);
    CU_ASSERT_EQUAL(rt_trace_proc_start(child), 0);        /* gone */
}

static const mdl_unit_test tests[] = {
    {"zombie_has_ended", test_zombie_has_ended},
    {NULL, NULL},
};
MDL_UNIT_SUITE("rt_trace_proc", tests)
