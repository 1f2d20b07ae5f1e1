#!/usr/bin/env bash
# The guard of issue 26, item 2.  A program built
# against one MPI and started by another MPI's launcher runs as N separate
# jobs of one process each (MPI_Init finds no launcher of its own).
# MDL_Init must stop each of them with one line saying so (the launcher
# said N processes, the MPI world has 1), fatal by default, returned with
# MDL_ERRORS=return; and a job of the right launcher, or a program started
# alone, must not be refused.  For every pair of MPIs of tests/lib/mpi.sh
# (make check stages every MPI installed; with one, MPI=<name>, the pairs
# are skipped):
#   mpi-guard/<built>-by-<launcher>/{fatal,return}   refused, one line per process
#   mpi-guard/<mpi>/{own,alone}                      not refused
#   mpi-guard/<mpi>/srun-singletons  two processes started alone at once with
#                                    Slurm's SLURM_STEP_NUM_TASKS=2 (srun with a
#                                    --mpi plugin the MPI does not speak):
#                                    refused, one line each (no Slurm here: the
#                                    variable srun sets, as srun sets it)
set -u
cd "$(dirname "$0")/.."
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
. tests/lib/mpi.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/medley-mpi-guard.XXXXXX")
trap 'rm -rf "$work"' EXIT
CFLAGS_G=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -Itests/rt)
# the runtime of SANITIZE=1 is instrumented: so is the program
[ "${SANITIZE:-}" = 1 ] && CFLAGS_G+=(-fsanitize=address,undefined -fno-omit-frame-pointer)

# tests/rt/rt_big: two processes, "rt_big: OK" when its job is right
built=()
for rt in "${MPI_RTS[@]}"; do
    if ! rt_use "$rt"; then echo "FAIL: mpi-guard/$rt: $RT_WHY"; continue; fi
    # shellcheck disable=SC2046
    if cc "${CFLAGS_G[@]}" tests/rt/rt_big.c -o "$work/$rt" $(pkg-config --cflags --libs medley-mpi) \
            > "$work/$rt.cc" 2>&1; then
        built+=("$rt")
    else
        echo "FAIL: mpi-guard/$rt: does not compile: $(head -c 300 "$work/$rt.cc" | tr '\n' ' ')"
    fi
done
if [ ${#MPI_RTS[@]} -lt 2 ]; then echo "SKIP: mpi-guard/pairs: one MPI tested (${MPI_RTS[*]}): a pair needs two"
elif [ ${#built[@]} -lt 2 ]; then echo "FAIL: mpi-guard/mpis: needs two MPIs, has ${built[*]:-none}"; fi

# go NAME ENV… -- LAUNCH…: the run's status in rc, output in $work/NAME.{out,err}
go() {
    local name=$1 envs=()
    shift
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    (cd "$work" && exec env "${envs[@]}" timeout -k 5 30 "$@") > "$work/$name.out" 2> "$work/$name.err" < /dev/null
    rc=$?
}
tail_of() { tail -c 300 "$1" | tr '\n' ' '; }
# refused NAME WANT_RC_NONZERO(1|0) [TEST]: one MDL_ERR_LAUNCH line of MDL_Init per process, naming
# the two sizes, and no process past MDL_Init
refused() {
    local name=$1 fatal=$2 test=${3:-$1} lines
    lines=$(grep -cE '^big(\[[01]\])?: MDL_Init: .*\b2\b.*\b1\b.*\(MDL_ERR_LAUNCH\)$' "$work/$name.err")
    if [ $rc -ge 124 ]; then echo "FAIL: mpi-guard/$test: timed out"
    elif [ "$fatal" = 1 ] && [ $rc -eq 0 ]; then echo "FAIL: mpi-guard/$test: exit status 0: $(tail_of "$work/$name.err")"
    elif [ "$lines" -ne 2 ]; then
        echo "FAIL: mpi-guard/$test: $lines MDL_Init lines naming 2 processes and 1 (want 2): $(tail_of "$work/$name.err")"
    elif grep -q 'rt_big: OK' "$work/$name.out"; then echo "FAIL: mpi-guard/$test: a process ran on"
    else echo "PASS: mpi-guard/$test"; fi
}

for a in "${built[@]}"; do
    rt_use "$a"
    own=("${RT_LAUNCH[@]}")
    # not refused: its own launcher, and alone (a singleton of one process)
    go "$a-own" -- "${own[@]}" -n 2 "./$a"
    if [ $rc -eq 0 ] && grep -q 'rt_big: OK' "$work/$a-own.out"; then echo "PASS: mpi-guard/$a/own"
    else echo "FAIL: mpi-guard/$a/own: exit $rc: $(tail_of "$work/$a-own.err")"; fi
    # alone: MDL_Init succeeds, and rt_big stops at its own check of 2 processes
    go "$a-alone" -- "./$a"
    if grep -q 'mdl_task_size(rt, 0) = 1, expected 2' "$work/$a-alone.err" && ! grep -q 'MDL_Init' "$work/$a-alone.err"; then
        echo "PASS: mpi-guard/$a/alone"
    else echo "FAIL: mpi-guard/$a/alone: exit $rc: $(tail_of "$work/$a-alone.err")"; fi
    go "$a-srun-singletons" SLURM_STEP_NUM_TASKS=2 -- bash -c \
        './"$1" & p=$!; ./"$1"; r=$?; wait $p || r=1; exit $r' sh "$a"
    refused "$a-srun-singletons" 1 "$a/srun-singletons"
    for b in "${built[@]}"; do
        [ "$a" = "$b" ] && continue
        rt_use "$b"
        go "${a#mpi-}-by-${b#mpi-}-fatal" -- "${RT_LAUNCH[@]}" -n 2 "./$a"
        refused "${a#mpi-}-by-${b#mpi-}-fatal" 1
        go "${a#mpi-}-by-${b#mpi-}-return" MDL_ERRORS=return,print -- "${RT_LAUNCH[@]}" -n 2 "./$a"
        refused "${a#mpi-}-by-${b#mpi-}-return" 0
    done
done
exit 0
