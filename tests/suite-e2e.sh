#!/usr/bin/env bash
# End-to-end tests: spec -> medleyc -> user programs -> run on each runtime.
#
# Format — one directory per test, tests/e2e/<name>/:
#   spec.mdl       the spec
#   <task>.c       one C program per task of the spec (includes "<task>MDL.h");
#                  every *.c of the directory is one program, named after the file
#   <name>.cc      a C++ program (the class binding "<task>MDL.hh", or the C API
#                  from C++), built as users do: the generated TMDL.c on the
#                  same C++ command line (compiled as C++)
#   <name>.f90     a Fortran program (the modules of medleyc --fortran, given
#                  to medleyc when the directory has one), built as users do:
#                  the runtime's Fortran compiler (the MPI's mpifort, gfortran
#                  for shm) compiles <spec>MDL_common.f90, every TMDL.f90 and
#                  the program, the C compiler every TMDL.c, the Fortran
#                  compiler links
#   <task>.mdl     optional: build program <task> from this spec instead of spec.mdl
#                  (to test programs generated from different specs in one job)
#   launch         one run per line, launcher syntax with task names in place of
#                  executables:   -n 1 father : -n 2 son
#                  (a word equal to a program name is replaced by its executable;
#                  blank lines and lines starting with # are ignored)
#   runtimes       optional: the runtimes to test, default "mpi shm" (mpi: every
#                  MPI of tests/lib/mpi.sh, as mpi-mpich, mpi-openmpi …)
#   medleyc-args   optional: extra medleyc arguments, e.g. "-D N=8"
#   env            optional: VAR=value lines exported for the runs
#                  (e.g. MDL_ERRORS=return)
#   alone          optional: no other test runs beside this one (memory:
#                  huge moves 2 GiB, and each process holds it)
#   net            optional: the MPI runs move messages as between hosts
#                  (MPI_NET of tests/lib/mpi.sh: MPICH's every process a
#                  node, Open MPI's TCP only)
#   expect         optional: what a run must do; lines
#                    exit: 0 | nonzero   (default 0)
#                    stderr: <extended regex>   stderr must match (grep -E)
#                    stdout: <extended regex>   stdout must match
#                  and, for launch line N only (instead of the above):
#                    exit@N: …   stderr@N: …   stdout@N: …
#                  (one test directory can then check several failing runs,
#                  e.g. one run-time fault per launch line)
#
# For each runtime rt (mpi-<name>, shm): medleyc -o $tmp/gen spec.mdl; each program is
# built with  cc -std=c11 -Wall -Wextra -Werror -I$tmp/gen prog.c $tmp/gen/*MDL.c
# (so a program may include several task headers)
# $(pkg-config --cflags --libs medley-<mpi|shm>)  (from the runtime's staged install,
# tests/lib/mpi.sh; under SANITIZE=1 with -fsanitize=address,undefined); a .cc
# program the same way with that MPI's mpicxx (mpi) or g++ (shm)
# -std=c++17 -Wall -Wextra -Werror -pedantic, a .f90 program with that MPI's
# mpifort (mpi) or gfortran (shm) -std=f2018 -Wall -Wextra -Werror -pedantic
# (the program also -Wno-compare-reals: tests compare values exactly),
# and every launch line runs as
#   timeout 60 <the runtime's launcher: that MPI's mpiexec, or mdlrun> <launch>
# (Open MPI yielding when idle: MPI_SHARING of tests/lib/mpi.sh, below)
# One result line per (test, runtime, launch line n, counted from 1):
#   PASS: e2e/<name>/<rt>/<n>    or    FAIL: e2e/<name>/<rt>/<n>: reason
# A launcher or runtime library that is not installed is a FAIL, never a skip.
# MEDLEY_E2E="ping ring" limits the run to those tests. At most 2 (test, runtime)
# jobs run at a time: the machine has 2 cores and MPI busy-waits; one of a
# test marked `alone` runs by itself.
set -u
cd "$(dirname "$0")/.."
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
. tests/lib/mpi.sh
CC=${CC:-cc}
CFLAGS_E2E=(-std=c11 -Wall -Wextra -Werror -g)
CXXFLAGS_E2E=(-std=c++17 -Wall -Wextra -Werror -pedantic -g)
FFLAGS_E2E=(-std=f2018 -Wall -Wextra -Werror -pedantic -g)
if [ "${SANITIZE:-}" = 1 ]; then
    CFLAGS_E2E+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
    CXXFLAGS_E2E+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
    FFLAGS_E2E+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
fi

# Builds Fortran program $1 from the sources generated in $2 into $3 for
# the runtime rt_use selected, in work directory $4; the compilers'
# output in $4/cc.out.
build_fortran() {
    local prog=$1 gen=$2 out=$3 dir=$4 f c
    mkdir -p "$dir/mod"
    [ -n "$RT_FC" ] || { echo "$MPI_NAME has no Fortran wrapper (mpifort of medley-mpi.pc)" > "$dir/cc.out"; return 1; }
    command -v "$RT_FC" > /dev/null || { echo "$RT_FC not installed" > "$dir/cc.out"; return 1; }
    # the spec-wide module first: every task module uses it
    for f in "$gen"/*MDL_common.f90 "$gen"/*MDL.f90; do
        "$RT_FC" "${FFLAGS_E2E[@]}" -J"$dir/mod" -c "$f" -o "$dir/mod/$(basename "$f").o" \
            > "$dir/cc.out" 2>&1 || return 1
    done
    "$RT_FC" "${FFLAGS_E2E[@]}" -Wno-compare-reals -J"$dir/mod" -c "$prog" -o "$dir/prog.o" \
        > "$dir/cc.out" 2>&1 || return 1
    for c in "$gen"/*MDL.c; do
        # shellcheck disable=SC2046
        "$CC" "${CFLAGS_E2E[@]}" -I"$gen" $(pkg-config --cflags "medley-$RT_LIB") -c "$c" \
            -o "$dir/$(basename "$c").o" > "$dir/cc.out" 2>&1 || return 1
    done
    # shellcheck disable=SC2046
    "$RT_FC" "${FFLAGS_E2E[@]}" "$dir/prog.o" "$dir"/mod/*.o "$dir"/*MDL.c.o \
        $(pkg-config --libs "medley-$RT_LIB") -o "$out" > "$dir/cc.out" 2>&1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/medley-e2e.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Runs one test on one runtime; prints its result lines.
run_one() {
    local dir=$1 rt=$2 name
    name=$(basename "$dir")
    local tmp=$work/$name-$rt
    mkdir -p "$tmp/gen" "$tmp/bin"
    local nlines
    nlines=$(grep -cvE '^[[:space:]]*(#|$)' "$dir/launch" 2>/dev/null || true)
    [ -n "$nlines" ] && [ "$nlines" -gt 0 ] || nlines=1
    fail_all() {
        local i
        for ((i = 1; i <= nlines; i++)); do echo "FAIL: e2e/$name/$rt/$i: $1"; done
    }
    if [ ! -f "$dir/launch" ]; then fail_all "no launch file"; return; fi

    rt_use "$rt" || { fail_all "$RT_WHY"; return; }
    if ! pkg-config --exists "medley-$RT_LIB"; then fail_all "pkg-config medley-$RT_LIB not found"; return; fi
    local lib=$RT_STAGE/lib/libmdl_$RT_LIB.so
    [ -f "$lib" ] || { fail_all "runtime library not installed ($lib)"; return; }

    local margs=()
    [ -f "$dir/medleyc-args" ] && read -r -a margs < "$dir/medleyc-args"
    compgen -G "$dir/*.f90" > /dev/null && margs+=(--fortran)
    if ! "$RT_STAGE/bin/medleyc" "${margs[@]}" -o "$tmp/gen" "$dir/spec.mdl" > "$tmp/medleyc.out" 2>&1; then
        fail_all "medleyc failed: $(head -c 300 "$tmp/medleyc.out" | tr '\n' ' ')"
        return
    fi
    local progs=() prog
    for prog in "$dir"/*.c "$dir"/*.cc "$dir"/*.f90; do
        [ -e "$prog" ] || continue
        local p gen=$tmp/gen cc=("$CC" "${CFLAGS_E2E[@]}")
        p=$(basename "$prog"); p=${p%.c}; p=${p%.cc}; p=${p%.f90}
        if [[ $prog == *.cc ]]; then
            # as a C++ user builds: mpicxx or g++ compile the .c as C++ too
            cc=("$RT_CXX")
            command -v "${cc[0]}" > /dev/null || { fail_all "${cc[0]} not installed"; return; }
            cc+=("${CXXFLAGS_E2E[@]}")
        fi
        progs+=("$p")
        if [ -f "$dir/$p.mdl" ]; then
            gen=$tmp/gen-$p
            mkdir -p "$gen"
            if ! "$RT_STAGE/bin/medleyc" "${margs[@]}" -o "$gen" "$dir/$p.mdl" > "$tmp/medleyc.out" 2>&1; then
                fail_all "medleyc $p.mdl failed: $(head -c 300 "$tmp/medleyc.out" | tr '\n' ' ')"
                return
            fi
        fi
        if [[ $prog == *.f90 ]]; then
            if ! build_fortran "$prog" "$gen" "$tmp/bin/$p" "$tmp/f-$p"; then
                fail_all "build of $(basename "$prog") failed: $(head -c 400 "$tmp/f-$p/cc.out" | tr '\n' ' ')"
                return
            fi
            continue
        fi
        # shellcheck disable=SC2046
        if ! "${cc[@]}" -I"$gen" "$prog" "$gen"/*MDL.c \
                $(pkg-config --cflags --libs "medley-$RT_LIB") -o "$tmp/bin/$p" > "$tmp/cc.out" 2>&1; then
            fail_all "build of $(basename "$prog") failed: $(head -c 400 "$tmp/cc.out" | tr '\n' ' ')"
            return
        fi
    done

    local want_exit=0 want_err="" want_out="" line
    local -A line_exit=() line_err=() line_out=()
    if [ -f "$dir/expect" ]; then
        while IFS= read -r line; do
            case $line in
                exit:*) want_exit=$(echo "${line#exit:}" | tr -d '[:space:]') ;;
                stderr:*) want_err=${line#stderr:}; want_err=${want_err# } ;;
                stdout:*) want_out=${line#stdout:}; want_out=${want_out# } ;;
                exit@[0-9]*:*) local k=${line#exit@}; k=${k%%:*}
                    line_exit[$k]=$(echo "${line#exit@"$k":}" | tr -d '[:space:]') ;;
                stderr@[0-9]*:*) local k=${line#stderr@}; k=${k%%:*}
                    line_err[$k]=${line#stderr@"$k":}; line_err[$k]=${line_err[$k]# } ;;
                stdout@[0-9]*:*) local k=${line#stdout@}; k=${k%%:*}
                    line_out[$k]=${line#stdout@"$k":}; line_out[$k]=${line_out[$k]# } ;;
            esac
        done < "$dir/expect"
    fi

    local n=0
    while IFS= read -r line; do
        case $line in ''|'#'*) continue ;; esac
        [[ $line =~ ^[[:space:]]*$ ]] && continue
        n=$((n + 1))
        local words=() w args=()
        read -r -a words <<< "$line"
        for w in "${words[@]}"; do
            local hit=$w
            for p in "${progs[@]}"; do [ "$w" = "$p" ] && hit=$tmp/bin/$p; done
            args+=("$hit")
        done
        local t0=$SECONDS rc want_exit_n=${line_exit[$n]:-$want_exit}
        local want_err_n=${line_err[$n]:-$want_err} want_out_n=${line_out[$n]:-$want_out}
        (
            if [ -f "$dir/env" ]; then
                while IFS= read -r kv; do
                    case $kv in ''|'#'*) continue ;; esac
                    export "${kv?}"
                done < "$dir/env"
            fi
            if [ -f "$dir/net" ] && [ ${#MPI_NET[@]} -gt 0 ]; then export "${MPI_NET[@]}"; fi
            # Two jobs run at a time on two cores: a 2-process Open MPI job
            # busy-waits as if it had its cores to itself, and beside other
            # work its waiting process spins out its time slice while the
            # other waits for a CPU (stress_p2p's `-n 2 s 1 12`: 3.3 s alone,
            # 72-76 s beside 14 busy processes, over the 60 s below; 38-56 s
            # yielding; MPI_SHARING of tests/lib/mpi.sh).
            if [ ${#MPI_SHARING[@]} -gt 0 ]; then export "${MPI_SHARING[@]}"; fi
            # (under SANITIZE=1 leak detection stays on: rt_use set the MPI's
            # suppressions)
            cd "$tmp" && exec timeout -k 5 60 "${RT_LAUNCH[@]}" "${args[@]}"
        ) > "$tmp/run$n.out" 2> "$tmp/run$n.err" < /dev/null
        rc=$?
        local why=""
        # 137 is also a job whose instance was SIGKILLed (mdlrun's status)
        if { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && [ $((SECONDS - t0)) -ge 59 ]; then
            why="timed out after 60 s"
        elif [ "$want_exit_n" = 0 ] && [ $rc -ne 0 ]; then
            why="exit status $rc"
        elif [ "$want_exit_n" = nonzero ] && [ $rc -eq 0 ]; then
            why="exit status 0, expected nonzero"
        elif [ -n "$want_err_n" ] && ! grep -Eq -- "$want_err_n" "$tmp/run$n.err"; then
            why="stderr does not match /$want_err_n/"
        elif [ -n "$want_out_n" ] && ! grep -Eq -- "$want_out_n" "$tmp/run$n.out"; then
            why="stdout does not match /$want_out_n/"
        fi
        if [ -z "$why" ]; then
            echo "PASS: e2e/$name/$rt/$n"
        else
            echo "FAIL: e2e/$name/$rt/$n: $why; stderr: $(tail -c 300 "$tmp/run$n.err" | tr '\n' ' ')"
        fi
    done < "$dir/launch"
}

jobs_out=()
running=0
for dir in tests/e2e/*/; do
    dir=${dir%/}
    [ -f "$dir/spec.mdl" ] || continue
    name=$(basename "$dir")
    if [ -n "${MEDLEY_E2E:-}" ] && [[ " $MEDLEY_E2E " != *" $name "* ]]; then continue; fi
    rts="mpi shm"
    [ -f "$dir/runtimes" ] && rts=$(grep -v '^#' "$dir/runtimes" | tr '\n' ' ')
    rts=" $rts "
    rts=${rts/ mpi / ${MPI_RTS[*]} }
    limit=2
    [ -f "$dir/alone" ] && limit=1
    for rt in $rts; do
        while [ $running -ge $limit ]; do wait -n; running=$((running - 1)); done
        out=$work/result-$name-$rt
        jobs_out+=("$out")
        run_one "$dir" "$rt" > "$out" 2>&1 &
        running=$((running + 1))
        [ $limit = 1 ] && { wait; running=0; }
    done
done
wait
for out in "${jobs_out[@]}"; do cat "$out"; done
exit 0
