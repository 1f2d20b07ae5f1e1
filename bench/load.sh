#!/usr/bin/env bash
# bench/load.sh — run a command beside busy processes: the artificial load
# of the benchmarks' loaded rounds (bench/run.sh, docs/performance.md).
#
#   bench/load.sh [-n N] command [args…]
#
# Starts N processes (default 2) that only spin, runs the command, stops
# them (by their pids) and exits with the command's status.  They are not
# bound to any CPU: the scheduler spreads them over the cores, as the
# other work of a shared machine would be.  Each is a session of its own
# (setsid), as the work of another terminal or user is: with the kernel's
# autogroup scheduling (kernel.sched_autogroup_enabled, on in most
# kernels) the CPU is shared fairly between sessions first, so spinners
# left in the caller's session would compete with the jobs mdlrun starts
# there and not with MPI ranks, which MPICH's Hydra puts each in a
# session of its own (docs/performance.md).
set -u
n=2
if [ "${1:-}" = -n ]; then
    n=$2
    shift 2
fi
[ $# -gt 0 ] || { echo "usage: bench/load.sh [-n N] command [args…]" >&2; exit 2; }
spinners=()
stop() {
    [ ${#spinners[@]} -gt 0 ] && kill "${spinners[@]}" 2>/dev/null
    wait 2>/dev/null
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for ((i = 0; i < n; i++)); do
    # a script has no job control: the child is no group leader, so setsid
    # does not fork and $! is the spinner itself
    setsid bash -c 'while :; do :; done' &
    spinners+=($!)
done
"$@"
