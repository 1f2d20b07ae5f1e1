#!/usr/bin/env bash
# What the Open MPI jobs that a test kills leave behind (tests/lib/ompi-scratch.sh):
# a two-process job is killed once both processes are in MPI, then
#   leftovers/<mpi>/private   its shared-memory segments are in the scratch
#                             directory of scratch_begin, none in /dev/shm
#   leftovers/<mpi>/removed   scratch_end leaves nothing of the job
# MPICH unlinks its segments once mapped: nothing to test, skipped.
# And what a traced job leaves, on each MPI and on shm (as root, in a mount
# namespace whose /dev/shm is a tmpfs of its own: the suite's own files
# only, never the jobs other runs of the same user have going):
#   leftovers/<rt>/private_dir  a 2-process job traced (MDL_TRACE) writes its
#                               trace and leaves no /dev/shm/medley-*: the
#                               private directory of the MPI runtime's trace
#                               parts is removed once empty
set -u
cd "$(dirname "$0")/.."
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
. tests/lib/mpi.sh
. tests/lib/ompi-scratch.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/medley-leftovers.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat > "$work/stuck.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
/* both processes in MPI with their segments made, then stuck until killed */
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("in\n");
    fflush(stdout);
    for (;;) pause();
}
C
for rt in "${MPI_RTS[@]}"; do
    if ! rt_use "$rt"; then echo "FAIL: leftovers/$rt: $RT_WHY"; continue; fi
    if [ "$MPI_NAME" != openmpi ]; then echo "SKIP: leftovers/$rt: the scratch directory is for Open MPI's files ($MPI_NAME unlinks its own once mapped)"; continue; fi
    "$MPI_CC" "$work/stuck.c" -o "$work/stuck" || { echo "FAIL: leftovers/$rt: stuck.c does not compile"; continue; }
    scratch_begin "$work" job
    (
        # the job in a process group of its own, killed whole once both are in
        set -m
        "${RT_LAUNCH[@]}" -n 2 "$work/stuck" > "$work/out" 2>&1 &
        for _ in $(seq 300); do [ "$(grep -c '^in$' "$work/out")" = 2 ] && break; sleep 0.1; done
        kill -KILL -- -$!
        wait
    ) 2> /dev/null
    segments=$(cd "$work/job" && find . -name 'vader_segment.*' -printf '%f\n')
    in_shm=
    for f in $segments; do [ -e "/dev/shm/$f" ] && in_shm+=" $f"; done
    if [ "$(grep -c '^in$' "$work/out")" != 2 ]; then echo "FAIL: leftovers/$rt/private: the job did not start: $(tail -c 300 "$work/out" | tr '\n' ' ')"
    elif [ -z "$segments" ]; then echo "FAIL: leftovers/$rt/private: no segment in the scratch directory (the test's premise)"
    elif [ -n "$in_shm" ]; then echo "FAIL: leftovers/$rt/private: in /dev/shm:$in_shm"
    else echo "PASS: leftovers/$rt/private"; fi
    scratch_end "$work" job > "$work/end"
    if [ -e "$work/job" ]; then echo "FAIL: leftovers/$rt/removed: $work/job is still there"
    elif ! grep -q "removed $(echo "$segments" | wc -l) Open MPI segment" "$work/end"; then echo "FAIL: leftovers/$rt/removed: said '$(cat "$work/end")'"
    else echo "PASS: leftovers/$rt/removed"; fi
done

CFLAGS_L=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror)
[ "${SANITIZE:-}" = 1 ] && CFLAGS_L+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
for rt in "${MPI_RTS[@]}" shm; do
    if [ "$(id -u)" != 0 ] || ! command -v unshare > /dev/null; then
        echo "SKIP: leftovers/$rt/private_dir: needs root and unshare (a /dev/shm of its own)"; continue
    fi
    if ! rt_use "$rt"; then echo "FAIL: leftovers/$rt/private_dir: $RT_WHY"; continue; fi
    cc=${MPI_CC:-cc} lib=medley-${RT_LIB} prog=$work/slow-$rt
    # shellcheck disable=SC2046
    if ! "$MEDLEY_STAGE/bin/medleyc" -o "$work/gen-$rt" tests/shared-node/spec.mdl > "$work/build" 2>&1 ||
       ! "$cc" "${CFLAGS_L[@]}" -I"$work/gen-$rt" tests/shared-node/slow.c \
           "$work/gen-$rt/pMDL.c" $(pkg-config --cflags --libs "$lib") -o "$prog" >> "$work/build" 2>&1; then
        echo "FAIL: leftovers/$rt/private_dir: build: $(tail -c 300 "$work/build" | tr '\n' ' ')"; continue
    fi
    mkdir -p "$work/ompi-$rt"
    # shellcheck disable=SC2016
    unshare -m bash -c 'mount -t tmpfs -o mode=1777 tmpfs /dev/shm || exit 99
        export OMPI_MCA_btl_vader_backing_directory=$1 OMPI_MCA_orte_tmpdir_base=$1
        MDL_ERRORS=return MDL_TRACE=$2 timeout -s INT -k 5 60 "${@:5}" -n 2 "$3" || exit
        ls -A /dev/shm > "$4"' _ "$work/ompi-$rt" "$work/$rt.json" "$prog" "$work/shm-$rt" \
        "${RT_LAUNCH[@]}" > "$work/out" 2>&1 < /dev/null
    rc=$?
    left=$(grep '^medley-' "$work/shm-$rt" 2> /dev/null | tr '\n' ' ')
    if [ $rc = 99 ]; then echo "SKIP: leftovers/$rt/private_dir: cannot mount a tmpfs on /dev/shm in a mount namespace"
    elif [ $rc != 0 ] || ! "$MEDLEY_STAGE/bin/mdltrace" --check "$work/$rt.json" > /dev/null 2>&1; then
        echo "FAIL: leftovers/$rt/private_dir: status $rc, trace $(wc -c < "$work/$rt.json" 2> /dev/null || echo none): $(tail -c 300 "$work/out" | tr '\n' ' ')"
    elif [ -n "$left" ]; then echo "FAIL: leftovers/$rt/private_dir: left in /dev/shm: $left"
    else echo "PASS: leftovers/$rt/private_dir"; fi
done
exit 0
