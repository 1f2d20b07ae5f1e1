#!/usr/bin/env bash
# The programs of examples/, built as a user builds them (medleyc, then cc
# with pkg-config from the installed tree) and run on both runtimes at two
# instance counts or more.  Each program checks its own result and exits
# non-zero when a check fails; this suite also requires its final
# "<example>: ok" line (montecarlo: a plausible pi).  The tutorial's program
# (docs/tutorial.md) is built from the page and run too, as examples/tutorial
# (section 9: its C master with Fortran workers; section 10: blocks sized at
# run time, block and block-f90, alone and in one job).
# A C++ program <name>.cc of an example (montecarlo: the thesis's Annex A) is
# built as <name>-cxx in one command, as a C++ user would:
#   g++ (shm) or mpicxx (mpi) -std=c++17 … <name>.cc gen/<name>MDL.c $(pkg-config …)
# A Fortran program <name>.f90 (poisson: noeud.c in Fortran, vlasov:
# vlasov.c) is built as
# <name>-f90 from the modules of medleyc --fortran (the MPI's mpifort, or
# gfortran for shm: -std=f2018 -Wall -Wextra -Werror -pedantic),
# <name>MDL.c compiled by the C compiler;
# every program is built with -ffp-contract=off, and a run whose program is
# Fortran, or C and Fortran instances in one job, must print the "bits:"
# line of the C run with the same instance count and arguments: the same
# numbers, bit for bit (poisson: the last update, the error and the
# deviation; vlasov: every step's W).
# The Fortran programs run with 1 instance and with the most the examples
# allow on every runtime and MPI (poisson: 5 on shm, blocks of uneven
# width, and 6 on MPI; vlasov: instance counts divide its power-of-two
# mesh, 64 x 128 by default, so 8 rather than 5 or 6; and 2 instances on
# the mesh it is given at run time, --mesh 128 256).
#
# One result line per run:  PASS: examples/<name>/<rt>/<n>  (<n>: instances;
# poisson adds the process grid, e.g. examples/poisson/shm/4 (1x4)), then
# the run's figures, indented.  Runs are sequential: MPICH busy-waits, and
# with more processes than the 2 cores each blocking exchange costs a time
# slice, so the MPI runs with 4 processes or more are kept short (poisson:
# 30 iterations, compared with the serial iterate only; vlasov: t = 0..20,
# with 8 processes t = 0..5).
# The MPI runs are made on every MPI of tests/lib/mpi.sh (runtime
# mpi-<name>: mpi-mpich, mpi-openmpi), with its own mpicxx and launcher.
# Runtime `mpi-<name>-net` is that MPI build again, moving messages as
# between hosts.  MPICH: MPIR_CVAR_NOLOCAL=1, every rank on a node of its
# own, with no node-local path, its hierarchical collectives included.
# (Debian's MPICH, ch4:ucx, sends point to point through its network
# module UCX either way, and UCX still picks shared-memory transports
# between processes of one host; forcing TCP with UCX_TLS=tcp,self would be
# the real wire, but then MPI_Finalize of MPICH 4.0.2 + UCX 1.13 hangs one
# run in three, plain MPI programs included: openucx/ucx#8738.)  Open MPI:
# its TCP transport only (OMPI_MCA_btl=self,tcp).
# examples/vlasov/<mpi>/hand-mpi: the benchmark's hand-written MPI Vlasov
# (bench/vlasov/mpi.c) computes the same W(t) as the MeDLey program on
# both runtimes and as the Fortran one on MPI (its --bench mode, the
# benchmark's Fortran column), to 1e-12 of max W (2 instances, 60 steps).
#
# Needs MEDLEY_STAGE (make check / make examples-check set it);
# MEDLEY_EXAMPLES="nbody vlasov" limits the run to those examples.
set -u
cd "$(dirname "$0")/.."
: "${MEDLEY_STAGE:?run through make check or make examples-check (MEDLEY_STAGE unset)}"
. tests/lib/mpi.sh
CC=${CC:-cc}
CFLAGS_EX=(-std=c11 -Wall -Wextra -Werror -O2 -g -ffp-contract=off)
FFLAGS_EX=(-std=f2018 -Wall -Wextra -Werror -pedantic -O2 -g -ffp-contract=off)
SAN_EX=()
[ "${SANITIZE:-}" = 1 ] && SAN_EX=(-fsanitize=address,undefined -fno-omit-frame-pointer)
CFLAGS_EX+=("${SAN_EX[@]}")
FFLAGS_EX+=("${SAN_EX[@]}")

work=$(mktemp -d "${TMPDIR:-/tmp}/medley-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The runs: "example runtime label|launcher arguments|figures regex"
# (program names in the arguments are replaced by their executables).
RUNS=(
"montecarlo shm 3 |-n 1 father 20000 : -n 2 son|^pi =|absolute error"
"montecarlo shm 5 |-n 1 father 20000 : -n 4 son|^pi =|absolute error"
"montecarlo mpi 2 |-n 1 father 20000 : -n 1 son|^pi =|absolute error"
"montecarlo mpi 3 |-n 1 father 20000 : -n 2 son|^pi =|absolute error"
"montecarlo mpi-net 3 |-n 1 father 20000 : -n 2 son|^pi =|absolute error"
"montecarlo shm 4 (C++)|-n 1 father-cxx 20000 : -n 3 son-cxx|^pi =|absolute error"
"montecarlo mpi 4 (C++)|-n 1 father-cxx 20000 : -n 3 son-cxx|^pi =|absolute error"
"nbody shm 2 |-n 2 body|rel.diff|drift"
"nbody shm 4 |-n 4 body|rel.diff|drift"
"nbody mpi 2 |-n 2 body|rel.diff|drift"
"nbody mpi 4 |-n 4 body 5|rel.diff|drift"
"nbody mpi-net 2 |-n 2 body 5|rel.diff|drift"
"poisson shm 1 (1x1)|-n 1 noeud 24 1 1|iterations|error|serial"
"poisson shm 2 (2x1)|-n 2 noeud 24 2 1|iterations|error|serial"
"poisson shm 4 (1x4)|-n 4 noeud 24 1 4|iterations|error|serial"
"poisson shm 4 (2x2)|-n 4 noeud 24 2 2|iterations|error|serial"
"poisson shm 5 (5x1)|-n 5 noeud 24 5 1|iterations|error|serial"
"poisson shm 6 (3x2)|-n 6 noeud 24 3 2|iterations|error|serial"
"poisson mpi 1 (1x1)|-n 1 noeud 24 1 1|iterations|error|serial"
"poisson mpi 2 (1x2)|-n 2 noeud 24 1 2|iterations|error|serial"
"poisson mpi 4 (2x2)|-n 4 noeud 24 2 2 1e-9 30|iterations|error|serial"
"poisson mpi 6 (2x3)|-n 6 noeud 24 2 3 1e-9 30|iterations|error|serial"
"poisson mpi-net 2 (1x2)|-n 2 noeud 24 1 2 1e-9 30|iterations|error|serial"
"poisson shm 1 (1x1, Fortran)|-n 1 noeud-f90 24 1 1|iterations|bits"
"poisson shm 2 (2x1, Fortran)|-n 2 noeud-f90 24 2 1|iterations|bits"
"poisson shm 4 (2x2, C and Fortran)|-n 2 noeud 24 2 2 : -n 2 noeud-f90 24 2 2|iterations|bits"
"poisson shm 5 (5x1, Fortran)|-n 5 noeud-f90 24 5 1|iterations|bits"
"poisson mpi 1 (1x1, Fortran)|-n 1 noeud-f90 24 1 1|iterations|bits"
"poisson mpi 2 (1x2, Fortran)|-n 2 noeud-f90 24 1 2|iterations|bits"
"poisson mpi 4 (2x2, C and Fortran)|-n 1 noeud-f90 24 2 2 1e-9 30 : -n 3 noeud 24 2 2 1e-9 30|iterations|bits"
"poisson mpi 6 (2x3, Fortran)|-n 6 noeud-f90 24 2 3 1e-9 30|iterations|bits"
"vlasov shm 1 |-n 1 vlasov|^time|serial|gamma|omega"
"vlasov shm 2 |-n 2 vlasov|^time|serial|gamma|omega"
"vlasov shm 4 |-n 4 vlasov|^time|serial|gamma|omega"
"vlasov shm 8 |-n 8 vlasov 20|^time|serial|gamma|omega"
"vlasov mpi 1 |-n 1 vlasov|^time|serial|gamma|omega"
"vlasov mpi 2 |-n 2 vlasov|^time|serial|gamma|omega"
"vlasov mpi 4 |-n 4 vlasov 20|^time|serial|gamma|omega"
"vlasov mpi 8 |-n 8 vlasov 5|^time|serial|gamma|omega"
"vlasov mpi-net 2 |-n 2 vlasov 20|^time|serial|gamma|omega"
"vlasov shm 2 (128 x 256)|-n 2 vlasov --mesh 128 256 20|^time|serial|gamma|omega"
"vlasov mpi 2 (128 x 256)|-n 2 vlasov --mesh 128 256 20|^time|serial|gamma|omega"
"vlasov shm 1 (Fortran)|-n 1 vlasov-f90|^time|bits"
"vlasov shm 2 (Fortran)|-n 2 vlasov-f90|^time|bits"
"vlasov shm 4 (C and Fortran)|-n 2 vlasov-f90 : -n 2 vlasov|^time|bits"
"vlasov shm 8 (Fortran)|-n 8 vlasov-f90 20|^time|bits"
"vlasov mpi 1 (Fortran)|-n 1 vlasov-f90|^time|bits"
"vlasov mpi 2 (Fortran)|-n 2 vlasov-f90|^time|bits"
"vlasov mpi 4 (C and Fortran)|-n 1 vlasov 20 : -n 3 vlasov-f90 20|^time|bits"
"vlasov mpi 8 (C and Fortran)|-n 4 vlasov-f90 5 : -n 4 vlasov 5|^time|bits"
"vlasov shm 2 (128 x 256, Fortran)|-n 2 vlasov-f90 --mesh 128 256 20|^time|bits"
"vlasov mpi 2 (128 x 256, C and Fortran)|-n 1 vlasov --mesh 128 256 20 : -n 1 vlasov-f90 --mesh 128 256 20|^time|bits"
"tutorial shm 3 |-n 1 master : -n 2 worker|workers:"
"tutorial shm 5 |-n 1 master : -n 4 worker|workers:"
"tutorial mpi 2 |-n 1 master : -n 1 worker|workers:"
"tutorial mpi 4 |-n 1 master : -n 3 worker|workers:"
"tutorial mpi-net 2 |-n 1 master : -n 1 worker|workers:"
"tutorial shm 4 (C master, Fortran workers)|-n 1 master : -n 3 worker-f90|workers:"
"tutorial mpi 3 (C master, Fortran workers)|-n 1 master : -n 2 worker-f90|workers:"
"tutorial shm 3 (sizes at run time)|-n 3 block 5|column sums"
"tutorial shm 4 (sizes at run time, C and Fortran)|-n 2 block 5 : -n 2 block-f90 5|column sums"
"tutorial mpi 3 (sizes at run time, C and Fortran)|-n 1 block-f90 5 : -n 2 block 5|column sums"
)

# extract_tutorial: the tutorial's files
. tests/tutorial.sh

# build <example> <rt>: generated code and programs in $work/<example>-<rt>;
# prints the failure reason and returns 1 on failure
build() {
    local ex=$1 rt=$2 dir=examples/$1 out=$work/$1-$2
    mkdir -p "$out/gen"
    rt_use "$rt" || { echo "$RT_WHY"; return 1; }
    if ! pkg-config --exists "medley-$RT_LIB"; then echo "pkg-config medley-$RT_LIB not found"; return 1; fi
    # the Fortran compiler a user of the runtime builds with
    local fc=${RT_FC:-"no Fortran wrapper of $MPI_NAME"}
    if [ "$ex" = tutorial ]; then
        # as the tutorial says: its Makefile, medleyc on the PATH
        extract_tutorial "$out"
        local f
        for f in sumsq.mdl master.c worker.c Makefile; do
            [ -s "$out/$f" ] || { echo "docs/tutorial.md: no $f block"; return 1; }
        done
        if ! PATH=$RT_STAGE/bin:$PATH MAKEFLAGS= make -C "$out" RT="$RT_LIB" \
                CFLAGS="${CFLAGS_EX[*]}" > "$out/make.log" 2>&1; then
            echo "make failed: $(tail -c 400 "$out/make.log" | tr '\n' ' ')"
            return 1
        fi
        # section 9: the workers in Fortran, built as the page shows
        [ -s "$out/worker.f90" ] || { echo "docs/tutorial.md: no worker.f90 block"; return 1; }
        # shellcheck disable=SC2046
        if ! (cd "$out" && "$RT_STAGE/bin/medleyc" --fortran -o gen-f sumsq.mdl &&
              "$CC" "${CFLAGS_EX[@]}" -Igen-f -c gen-f/workerMDL.c -o workerMDL.c.o \
                  $(pkg-config --cflags "medley-$RT_LIB") &&
              "$fc" "${FFLAGS_EX[@]}" gen-f/sumsqMDL_common.f90 gen-f/workerMDL.f90 worker.f90 \
                  workerMDL.c.o $(pkg-config --libs "medley-$RT_LIB") -o worker-f90) > "$out/f90.log" 2>&1; then
            echo "build of worker.f90 failed: $(tail -c 400 "$out/f90.log" | tr '\n' ' ')"
            return 1
        fi
        # section 10: sizes known at run time, block and block-f90 as the page shows
        for f in blocks.mdl blocks.c blocks.f90; do
            [ -s "$out/$f" ] || { echo "docs/tutorial.md: no $f block"; return 1; }
        done
        # shellcheck disable=SC2046
        if ! (cd "$out" && "$RT_STAGE/bin/medleyc" --fortran -o gen-b blocks.mdl &&
              "$CC" "${CFLAGS_EX[@]}" -Igen-b blocks.c gen-b/blockMDL.c \
                  $(pkg-config --cflags --libs "medley-$RT_LIB") -o block &&
              "$CC" "${CFLAGS_EX[@]}" -Igen-b -c gen-b/blockMDL.c -o blockMDL.c.o \
                  $(pkg-config --cflags "medley-$RT_LIB") &&
              "$fc" "${FFLAGS_EX[@]}" gen-b/blocksMDL_common.f90 gen-b/blockMDL.f90 blocks.f90 \
                  blockMDL.c.o $(pkg-config --libs "medley-$RT_LIB") -o block-f90) > "$out/blocks.log" 2>&1; then
            echo "build of section 10 (blocks) failed: $(tail -c 400 "$out/blocks.log" | tr '\n' ' ')"
            return 1
        fi
        return 0
    fi
    local fortran=()
    compgen -G "$dir/*.f90" > /dev/null && fortran=(--fortran)
    if ! "$RT_STAGE/bin/medleyc" "${fortran[@]}" -o "$out/gen" "$dir"/*.mdl > "$out/medleyc.log" 2>&1; then
        echo "medleyc failed: $(head -c 300 "$out/medleyc.log" | tr '\n' ' ')"
        return 1
    fi
    local src p
    for src in "$dir"/*.cc; do
        [ -e "$src" ] || continue
        p=$(basename "$src" .cc)
        # shellcheck disable=SC2046
        if ! "$RT_CXX" -std=c++17 -Wall -Wextra -Werror -pedantic -O2 -g "${SAN_EX[@]}" -I"$out/gen" \
                "$src" "$out/gen/${p}MDL.c" $(pkg-config --cflags --libs "medley-$RT_LIB") \
                -o "$out/$p-cxx" > "$out/cxx.log" 2>&1; then
            echo "build of $p.cc with $RT_CXX failed: $(head -c 400 "$out/cxx.log" | tr '\n' ' ')"
            return 1
        fi
    done
    for src in "$dir"/*.f90; do
        [ -e "$src" ] || continue
        p=$(basename "$src" .f90)
        mkdir -p "$out/f-$p"
        # shellcheck disable=SC2046
        if ! (cd "$out/f-$p" && "$fc" "${FFLAGS_EX[@]}" -c "$out"/gen/*MDL_common.f90 \
                  "$out/gen/${p}MDL.f90" "$OLDPWD/$src" &&
              "$CC" "${CFLAGS_EX[@]}" -I"$out/gen" -c "$out/gen/${p}MDL.c" -o "${p}MDL.c.o" \
                  $(pkg-config --cflags "medley-$RT_LIB") &&
              "$fc" "${FFLAGS_EX[@]}" ./*.o $(pkg-config --libs "medley-$RT_LIB") -o "$out/$p-f90") \
                > "$out/f90.log" 2>&1; then
            echo "build of $p.f90 failed: $(head -c 400 "$out/f90.log" | tr '\n' ' ')"
            return 1
        fi
    done
    for src in "$dir"/*.c; do
        p=$(basename "$src" .c)
        # shellcheck disable=SC2046
        if ! "$CC" "${CFLAGS_EX[@]}" -I"$out/gen" "$src" "$out/gen/${p}MDL.c" \
                $(pkg-config --cflags --libs "medley-$RT_LIB") -lm -o "$out/$p" > "$out/cc.log" 2>&1; then
            echo "build of $p.c failed: $(head -c 400 "$out/cc.log" | tr '\n' ' ')"
            return 1
        fi
    done
}

# the runs of RUNS on every MPI: mpi -> mpi-<name>, mpi-net -> mpi-<name>-net
EXPANDED=()
for run in "${RUNS[@]}"; do
    read -r ex rt rest <<< "$run"
    if [ "${rt%-net}" = mpi ]; then
        for m in "${MPI_RTS[@]}"; do EXPANDED+=("$ex ${rt/mpi/$m} $rest"); done
    else
        EXPANDED+=("$run")
    fi
done

declare -A built bits
for run in "${EXPANDED[@]}"; do
    IFS='|' read -r head launch figures <<< "$run"
    read -r ex rt label <<< "$head"
    if [ -n "${MEDLEY_EXAMPLES:-}" ] && [[ " $MEDLEY_EXAMPLES " != *" $ex "* ]]; then continue; fi
    name="examples/$ex/$rt/$label"
    brt=${rt%-net}          # the runtime it is built for
    key=$ex-$brt
    if [ -z "${built[$key]:-}" ]; then
        if why=$(build "$ex" "$brt"); then built[$key]=ok; else built[$key]=$why; fi
    fi
    if [ "${built[$key]}" != ok ]; then echo "FAIL: $name: ${built[$key]}"; continue; fi
    # (under SANITIZE=1 leak detection stays on: rt_use sets the MPI's
    # suppressions)
    rt_use "$brt" || { echo "FAIL: $name: $RT_WHY"; continue; }
    netenv=()
    [ "$rt" != "$brt" ] && netenv=("${MPI_NET[@]}")
    args=()
    for w in $launch; do
        if [ -x "$work/$key/$w" ] && [[ $w != -* ]]; then args+=("$work/$key/$w"); else args+=("$w"); fi
    done
    log=$work/$key-run
    start=$(date +%s%N)
    (cd "$work" && exec env "${netenv[@]}" timeout -k 5 120 "${RT_LAUNCH[@]}" "${args[@]}") \
        > "$log.out" 2> "$log.err" < /dev/null
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ "$ex" = montecarlo ]; then
        okline='^pi = 3\.1[3-5]'
    elif [ "$ex" = tutorial ]; then
        # the sum of squares (sections 1-9), the column sums (section 10)
        okline='sum of squares = [0-9]+ \(right\)|column sums \(right\)'
    else
        okline="^$ex: ok"
    fi
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        why="timed out after 120 s"
    elif [ $rc -ne 0 ]; then
        why="exit status $rc"
    elif ! grep -Eq "$okline" "$log.out"; then
        why="no line matching /$okline/"
    else
        why=""
    fi
    # the C run of the same instance count and arguments printed the same
    # bits (it comes first)
    args_key=$rt/$(echo "$launch" | grep -oE -- '-n [0-9]+' | awk '{ n += $2 } END { print n }')
    args_key+=$(echo "$launch" | sed -E 's/^ *-n [0-9]+ [a-z]+(-f90)?//; s/ :.*//')
    if [ -z "$why" ] && grep -q '^bits:' "$log.out"; then
        if [[ $launch != *-f90* ]]; then
            bits[$args_key]=$(grep '^bits:' "$log.out")
        elif [ -z "${bits[$args_key]:-}" ]; then
            why="no C run with the arguments of this one came before"
        elif [ "${bits[$args_key]}" != "$(grep '^bits:' "$log.out")" ]; then
            why="the numbers differ from the C program's (${bits[$args_key]})"
        fi
    fi
    if [ -z "$why" ]; then
        printf 'PASS: %s\n' "$name"
        grep -E "$figures" "$log.out" | sed 's/^/    | /'
        printf '    | wall time %d.%03d s\n' $((ms / 1000)) $((ms % 1000))
    else
        printf 'FAIL: %s: %s; stdout: %s; stderr: %s\n' "$name" "$why" \
            "$(tail -c 300 "$log.out" | tr '\n' ' ')" "$(tail -c 300 "$log.err" | tr '\n' ' ')"
    fi
done

# The hand-written MPI Vlasov against the MeDLey one, W(t) step by step,
# on MPI runtime $1 (its mpicc and launcher).
hand_mpi_vlasov() {
    local m=$1 w=$work/vlasov-hand-$1 v
    mkdir -p "$w"
    [ "${built[vlasov-$m]:-}" = ok ] && [ "${built[vlasov-shm]:-}" = ok ] ||
        { echo "the MeDLey program was not built"; return 1; }
    rt_use "$m" || { echo "$RT_WHY"; return 1; }
    "$MPI_CC" "${CFLAGS_EX[@]}" bench/vlasov/mpi.c -lm -o "$w/hand-mpi" > "$w/cc.log" 2>&1 ||
        { echo "build of bench/vlasov/mpi.c failed: $(head -c 400 "$w/cc.log" | tr '\n' ' ')"; return 1; }
    for v in hand-mpi mdl-mpi f90-mpi mdl-shm; do
        local prog=$w/hand-mpi
        [ "$v" = mdl-mpi ] && prog=$work/vlasov-$m/vlasov
        [ "$v" = f90-mpi ] && prog=$work/vlasov-$m/vlasov-f90
        [ "$v" = mdl-shm ] && { prog=$work/vlasov-shm/vlasov; rt_use shm; }
        (cd "$w" && exec timeout -k 5 120 "${RT_LAUNCH[@]}" -n 2 "$prog" --bench 60 "$w/W.$v") \
            > "$w/$v.out" 2> "$w/$v.err" < /dev/null ||
            { echo "$v failed: $(tail -c 300 "$w/$v.err" | tr '\n' ' ')"; return 1; }
        sed 's/^/    | /' "$w/$v.out"
    done
    for v in mdl-mpi f90-mpi mdl-shm; do
        paste "$w/W.hand-mpi" "$w/W.$v" | awk -v v="$v" '
            { d = $2 - $4; if (d < 0) d = -d; if (d > dev) dev = d; if ($2 > wmax) wmax = $2; n++ }
            END { printf "    | %s: max |W - W_hand| / max W = %.1e over %d steps\n", v, (wmax > 0 ? dev / wmax : -1), n
                  exit !(n == 60 && wmax > 0 && dev <= 1e-12 * wmax) }' ||
            { echo "$v: W differs from the hand-written MPI version's"; return 1; }
    done
}
if [ -z "${MEDLEY_EXAMPLES:-}" ] || [[ " $MEDLEY_EXAMPLES " == *" vlasov "* ]]; then
    for m in "${MPI_RTS[@]}"; do
        if why=$(hand_mpi_vlasov "$m" 2>&1); then
            echo "PASS: examples/vlasov/$m/hand-mpi"
            echo "$why"
        else
            echo "FAIL: examples/vlasov/$m/hand-mpi: $(echo "$why" | grep -v '^    |' | tr '\n' ' ')"
        fi
    done
fi
exit 0
