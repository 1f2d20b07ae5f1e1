# part_prefix FILE: where the MPI runtime keeps the processes' buffers of
# the trace FILE (an absolute path) while the job runs, the rank follows
# (runtime/tracefile/rt_trace_parts.h): in /dev/shm when it can, else next to
# FILE.  parts FILE: those that exist, one per line.
part_prefix() {
    if [ -w /dev/shm ] && [ -x /dev/shm ] && [ $((${#1} + 27)) -le 255 ]; then
        printf '/dev/shm/mdltrace.%s.%s.part.' "$(id -u)" "$(printf '%s' "$1" | tr / %)"
    else
        printf '%s.part.' "$1"
    fi
}
parts() { ls -d "$(part_prefix "$1")"* 2> /dev/null; }
