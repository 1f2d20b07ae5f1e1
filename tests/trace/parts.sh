# Where the MPI runtime keeps the processes' buffers of a trace while the
# job runs (runtime/tracefile/rt_trace_parts.h, common/safe_files.h):
#   parts_dir        the user's private directory
#   part_prefix FILE the start of the paths of FILE's parts (FILE absolute):
#                    trace.<FNV-1a of FILE>. , the job's id and the rank follow
#   parts FILE       those that exist and are whole, one per line (a part is
#                    made as PART.new and renamed once whole: what the
#                    runtime and mdltrace list)
#   parts_left FILE  every file of them, whole or not (nothing may be left)
#   part_trace PART  the trace a part belongs to, from its head
#   parts_under DIR  the parts of every trace under DIR
parts_dir() {
    if [ -w /dev/shm ] && [ -x /dev/shm ]; then
        printf '/dev/shm/medley-%s' "$(id -u)"
    elif [ -n "${XDG_RUNTIME_DIR:-}" ]; then
        printf '%s/medley' "$XDG_RUNTIME_DIR"
    else
        printf '/tmp/medley-%s' "$(id -u)"
    fi
}
part_prefix() {
    printf '%s/trace.%s.' "$(parts_dir)" "$(perl -e 'use integer; my $h = -3750763034362895579;
        for (unpack "C*", $ARGV[0]) { $h ^= $_; $h *= 1099511628211 } printf "%016x", $h' "$1")"
}
parts_left() { ls -d "$(part_prefix "$1")"* 2> /dev/null; }
parts() { parts_left "$1" | grep -v '\.new$'; }
# the path after the 48-byte head (rt_trace_part_head), up to its NUL
part_trace() { tail -c +49 "$1" 2> /dev/null | head -c 8192 | tr '\0' '\n' | head -n 1; }
parts_under() {
    local p
    for p in "$(parts_dir)"/trace.*; do
        [ -f "$p" ] || continue
        case $(part_trace "$p") in "$1"/*) printf '%s\n' "$p" ;; esac
    done
}
