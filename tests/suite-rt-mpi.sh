#!/usr/bin/env bash
# Runtime-level tests of libmdl_mpi: C programs in tests/rt/ that fill the
# descriptor tables by hand exactly as medleyc does and call the runtime
# interface (include/mdl_rt.h) directly.  Built against the staged install
# (pkg-config medley-mpi), run with 1-4 processes, on every MPI of
# tests/lib/mpi.sh with its own launcher.
#   PASS: rt-mpi/<mpi>/<name>   or   FAIL: rt-mpi/<mpi>/<name>: reason
# The grid test also runs under valgrind; MEDLEY_RT_VALGRIND=1 adds p2p, coll
# and errors (the MPI's own leaks are suppressed by tests/rt/<mpi>.supp).
set -u
cd "$(dirname "$0")/.."
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
. tests/lib/mpi.sh
CC=${CC:-cc}
CFLAGS_RT=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -Itests/rt)
# Under SANITIZE=1 leak detection stays on: the MPI's own allocations are
# suppressed (tests/lib/mpi.sh).
[ "${SANITIZE:-}" = 1 ] && CFLAGS_RT+=(-fsanitize=address,undefined -fno-omit-frame-pointer)

work=$(mktemp -d "${TMPDIR:-/tmp}/medley-rt-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT

# rt_dims: mdl_dims_fill is internal to the libraries, compiled from source
# (no MPI in it: once)
if "$CC" "${CFLAGS_RT[@]}" -Iinclude -Icommon -Iruntime tests/rt/rt_dims.c runtime/core/rt_common.c \
    -o "$work/rt_dims" > "$work/rt_dims.cc" 2>&1; then
    if out=$("$work/rt_dims" 2>&1) && [ "$out" = "rt_dims: OK" ]; then
        echo "PASS: rt-mpi/dims"
    else
        echo "FAIL: rt-mpi/dims: $out"
    fi
else
    echo "FAIL: rt-mpi/dims: does not compile: $(head -c 300 "$work/rt_dims.cc" | tr '\n' ' ')"
fi

# The tests of one MPI: named rt-mpi/$MPI_NAME/<name>, files in $W.
build() {    # build NAME [cc]: tests/rt/NAME.c -> $W/NAME (with cc, default $CC)
    local name=$1 cc=${2:-$CC}
    # shellcheck disable=SC2046
    if "$cc" "${CFLAGS_RT[@]}" "tests/rt/$name.c" -o "$W/$name" \
        $(pkg-config --cflags --libs medley-mpi) > "$W/$name.cc" 2>&1; then
        built+=("$name")
    else
        echo "FAIL: $P/$name: does not compile: $(head -c 300 "$W/$name.cc" | tr '\n' ' ')"
    fi
}
is_built() { [[ " ${built[*]} " == *" $1 "* ]]; }

# run NAME TIMEOUT launcher-args… : output in $W/NAME.out/.err, status in $rc
run() {
    local name=$1 t=$2
    shift 2
    timeout "$t" "${RT_LAUNCH[@]}" "$@" > "$W/$name.out" 2> "$W/$name.err" < /dev/null
    rc=$?
}
tail_of() { tail -c 300 "$1" | tr '\n' ' '; }

# A run that must succeed and print `want` (a line count of it: n).
expect_ok() {
    local name=$1 want=$2 n=$3
    local got
    got=$(grep -c -- "$want" "$W/$name.out")
    if [ "$rc" -eq 124 ]; then
        echo "FAIL: $P/$name: timed out"
    elif [ "$rc" -ne 0 ]; then
        echo "FAIL: $P/$name: exit $rc: $(tail_of "$W/$name.err")"
    elif [ "$got" -ne "$n" ]; then
        echo "FAIL: $P/$name: '$want' printed $got times, expected $n: $(tail_of "$W/$name.out")"
    else
        echo "PASS: $P/$name"
    fi
}

# A run that must fail: non-zero exit, and exactly one stderr line of the
# runtime (the job is aborted by the first), matching the regex.
expect_fatal() {
    local name=$1 re=$2
    local lines
    lines=$(grep -c '(MDL_ERR_[A-Z]*)$' "$W/$name.err")
    if [ "$rc" -eq 124 ]; then
        echo "FAIL: $P/$name: timed out (hang instead of an error)"
    elif [ "$rc" -eq 0 ]; then
        echo "FAIL: $P/$name: exit status 0"
    elif ! grep -qE -- "$re" "$W/$name.err"; then
        echo "FAIL: $P/$name: stderr does not match /$re/: $(tail_of "$W/$name.err")"
    elif [ "$lines" -lt 1 ]; then
        echo "FAIL: $P/$name: no one-line runtime report"
    else
        echo "PASS: $P/$name"
    fi
}

for rt in "${MPI_RTS[@]}"; do
P=rt-mpi/${rt#mpi-} W=$work/$rt built=()
mkdir -p "$W"
if ! rt_use "$rt"; then
    echo "FAIL: $P/setup: $RT_WHY"
    continue
fi
build rt_p2p
build rt_coll
build rt_grid "$MPI_CC"       # it calls MPI itself
build rt_errself "$MPI_CC"    # it wraps MPI_Wait
build rt_site "$MPI_CC"       # it calls MPI itself
build rt_errors
build rt_big

if is_built rt_p2p; then
    run p2p 60 -n 1 "$W/rt_p2p" father : -n 3 "$W/rt_p2p" son
    expect_ok p2p "rt_p2p: OK" 1
fi
if is_built rt_coll; then
    run coll-3 60 -n 3 "$W/rt_coll"
    expect_ok coll-3 "rt_coll: OK" 1
    run coll-4 60 -n 4 "$W/rt_coll"
    expect_ok coll-4 "rt_coll: OK" 1
fi
if is_built rt_grid; then
    run grid 60 -n 4 "$W/rt_grid"
    expect_ok grid "rt_grid .*: OK" 9
fi
if is_built rt_site; then
    run site 60 -n 2 "$W/rt_site"
    expect_ok site "rt_site: OK" 1
fi
if is_built rt_big; then
    run big 60 -n 2 "$W/rt_big"
    expect_ok big "rt_big: OK" 1
fi
if is_built rt_errself; then
    MDL_ERRORS=return run errself 60 -n 2 "$W/rt_errself"
    expect_ok errself "rt_errself: OK" 1
fi
if is_built rt_errors; then
    MDL_ERRORS=return run errors-return 60 -n 2 "$W/rt_errors" return
    expect_ok errors-return "rt_errors return: OK" 1
    run errors-fatal-rank 60 -n 2 "$W/rt_errors" rank
    expect_fatal errors-fatal-rank '^w\[0\]: MDL_SendTo_w_big: instance 5 .*\(MDL_ERR_RANK\)$'
    run errors-fatal-truncate 60 -n 2 "$W/rt_errors" truncate
    expect_fatal errors-fatal-truncate \
        '^w\[1\]: MDL_RecvFrom_w_big: the message from w\[0\] is larger than the receive .*\(MDL_ERR_TRUNCATE\)$'
    run errors-spec 60 -n 2 "$W/rt_errors" spec
    expect_fatal errors-spec 'MDL_Init: process [01] of the job runs a program built from another spec.*\(MDL_ERR_LAUNCH\)$'
    MDL_ERRORS=return run errors-spec-return 60 -n 2 "$W/rt_errors" spec
    expect_ok errors-spec-return "rt_errors spec: returned -107" 2
    # every message's channel in 0..nchannels-1, checked once at MDL_Init
    run errors-channel 60 -n 2 "$W/rt_errors" channel
    expect_fatal errors-channel '^w: MDL_Init: invalid task descriptor: message MDL_SendTo_w_dyn has channel 8, not in 0\.\.7 \(MDL_ERR_ARG\)$'
    MDL_ERRORS=return run errors-channel-return 60 -n 2 "$W/rt_errors" channel
    expect_ok errors-channel-return "rt_errors channel: returned -101" 2
    run errors-launcher 60 -n 1 "$W/rt_errors" launcher
    expect_fatal errors-launcher 'MDL_Init: .*started by mdlrun.*\(MDL_ERR_LAUNCH\)$'
    # under the MPI launcher too, this refusal must not start MPI to abort the job
    if grep -q 'MPI_Abort' "$W/errors-launcher.err"; then
        echo "FAIL: $P/errors-launcher-no-mpi: MPI started to abort: $(tail_of "$W/errors-launcher.err")"
    else
        echo "PASS: $P/errors-launcher-no-mpi"
    fi
    # the real thing: an MPI program started by the shm launcher
    if [ -x "$MEDLEY_STAGE/bin/mdlrun" ]; then
        timeout 60 "$MEDLEY_STAGE/bin/mdlrun" -n 2 "$W/rt_errors" return \
            > "$W/errors-mdlrun.out" 2> "$W/errors-mdlrun.err" < /dev/null
        rc=$?
        expect_fatal errors-mdlrun '^w: MDL_Init: .*started by mdlrun.*\(MDL_ERR_LAUNCH\)$'
    else
        echo "FAIL: $P/errors-mdlrun: mdlrun not installed"
    fi
fi

# Valgrind (not under ASan): the grid test always (nine MDL_Init/MDL_End
# cycles in one process: leaks across init/end show), the others on request.
if [ "${SANITIZE:-}" != 1 ]; then
    # (stacks deep enough to reach MPI_Init from Open MPI's components)
    VG=(valgrind -q --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite
        --error-exitcode=9 --num-callers=40 "${MPI_VG[@]}")
    if ! command -v valgrind >/dev/null; then
        echo "FAIL: $P/vg-grid: valgrind not installed"
    elif is_built rt_grid; then
        run vg-grid 300 -n 4 "${VG[@]}" "$W/rt_grid"
        expect_ok vg-grid "rt_grid .*: OK" 9
    fi
    if [ "${MEDLEY_RT_VALGRIND:-}" = 1 ] && command -v valgrind >/dev/null; then
        is_built rt_p2p && { run vg-p2p 300 -n 1 "${VG[@]}" "$W/rt_p2p" father : -n 3 "${VG[@]}" "$W/rt_p2p" son
                             expect_ok vg-p2p "rt_p2p: OK" 1; }
        is_built rt_coll && { run vg-coll 300 -n 3 "${VG[@]}" "$W/rt_coll"
                              expect_ok vg-coll "rt_coll: OK" 1; }
        is_built rt_errors && { MDL_ERRORS=return run vg-errors 300 -n 2 "${VG[@]}" "$W/rt_errors" return
                                expect_ok vg-errors "rt_errors return: OK" 1; }
    fi
fi
done
exit 0
