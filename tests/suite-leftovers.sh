#!/usr/bin/env bash
# What the Open MPI jobs that a test kills leave behind (tests/lib/ompi-scratch.sh):
# a two-process job is killed once both processes are in MPI, then
#   leftovers/<mpi>/private   its shared-memory segments are in the scratch
#                             directory of scratch_begin, none in /dev/shm
#   leftovers/<mpi>/removed   scratch_end leaves nothing of the job
# MPICH unlinks its segments once mapped: nothing to test, skipped.
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
exit 0
