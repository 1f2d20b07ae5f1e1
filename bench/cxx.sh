#!/usr/bin/env bash
# bench/cxx.sh — what the C++ class binding costs (docs/generated-code.md, C++).
#
# The ping-pong of bench/pingpong (8 B … 4 MiB, sync sends) several ways,
# interleaved round by round (only ratios within a round mean something on
# a shared machine):
#   c        pp.c: the C API, the task struct allocated by MDL_Init (on shm: in
#            the job's segment, so the receiver copies straight from it)
#   cxx      pp.cc: a class object at namespace scope, whose pages the runtime
#            made part of the segment (mdl_init_at): the same single copy
#   cxx-cma  the same object left outside the segment (MDL_SHM_ALIAS=0): large
#            messages are read with process_vm_readv (one copy, by the kernel)
#   cxx-pack outside, and without process_vm_readv (MDL_SHM_CMA=0 too): the
#            sender packs into the segment (two copies)
#   (and c / cxx on the MPI runtime, where the object's pages become the
#   runtime's memfd: the same single copy between the processes of a host;
#   the MPI: the first of tests/lib/mpi.sh's, with its launcher)
# Prints, per size, the median one-way time of each variant and its ratio
# to c on the same runtime (median over rounds of the per-round ratio).
#   MEDLEY_STAGE (default build/stage), BENCH_QUICK=1 (smoke run),
#   BENCH_WORK (default build/bench/cxx), BENCH_ROUNDS (default 7, quick 2).
set -u
BENCH_NAME=bench/cxx
. "$(dirname "$0")/lib.sh"
W=${BENCH_WORK:-$WORK/cxx}
ROUNDS=${BENCH_ROUNDS:-$([ -n "$QUICK" ] && echo 2 || echo 7)}
bench_mpi
MPI_LAUNCH=("${RT_LAUNCH[@]}")
rm -rf "$W" && mkdir -p "$W/gen" || die "cannot create $W"
"$STAGE/bin/medleyc" -o "$W/gen" bench/pingpong/spec.mdl > "$W/log" 2>&1 || die "medleyc: $(cat "$W/log")"
for rt in shm mpi; do
    # shellcheck disable=SC2046
    cc "${CFLAGS_B[@]}" -I"$W/gen" bench/pingpong/pp.c "$W/gen/ppMDL.c" \
        $(pkg-config --cflags --libs medley-$rt) -o "$W/c-$rt" >> "$W/log" 2>&1 &&
    # shellcheck disable=SC2046
    g++ -O2 -std=c++17 -Wall -Wextra -Werror "${BENCH_EXTRA[@]}" -I"$W/gen" bench/pingpong/pp.cc "$W/gen/ppMDL.c" \
        $(pkg-config --cflags --libs medley-$rt) -o "$W/cxx-$rt" >> "$W/log" 2>&1 ||
        die "build failed: $(tail -c 600 "$W/log")"
done

raw=$W/raw
: > "$raw"
for ((r = 1; r <= ROUNDS; r++)); do
    for v in c-shm cxx-shm cxx-cma-shm cxx-pack-shm c-mpi cxx-mpi; do
        prog=${v/-pack/}
        prog=${prog/-cma/}
        env=()
        [[ $v == *cma* ]] && env=(MDL_SHM_ALIAS=0)
        [[ $v == *pack* ]] && env=(MDL_SHM_ALIAS=0 MDL_SHM_CMA=0)
        launcher=("$STAGE/bin/mdlrun")
        [[ $v == *mpi ]] && launcher=("${MPI_LAUNCH[@]}")
        if ! (cd "$W" && env "${env[@]}" timeout -k 5 300 "${launcher[@]}" -n 2 "./$prog") > "$W/out" 2> "$W/err" < /dev/null; then
            die "$v round $r failed: $(tail -c 300 "$W/err")"
        fi
        awk -v v="$v" -v r="$r" 'NF == 4 { print v, r, $3, $4 }' "$W/out" >> "$raw"
    done
done

# variant round size seconds -> per size: median time, median ratio to c-<rt>
awk "$BENCH_AWK"'
{ t[$3, $1, $2] = $4; if (!($3 in seen)) { seen[$3] = 1; S[++n] = $3 } if ($2 > R) R = $2 }
END {
    nv = split("c-shm cxx-shm cxx-cma-shm cxx-pack-shm c-mpi cxx-mpi", V, " ")
    printf "%-9s", "bytes"
    for (k = 1; k <= nv; k++) printf " %19s", V[k]
    printf "\n"
    for (i = 1; i <= n; i++) {
        s = S[i]
        printf "%-9s", s
        for (k = 1; k <= nv; k++) {
            v = V[k]; ref = v ~ /mpi$/ ? "c-mpi" : "c-shm"
            printf " %10.2f us %5.2fx", rounds_median(t, s, v, R) * 1e6, ratio_median(t, s, v, ref, R)
        }
        printf "\n"
    }
    printf "(one-way time, median of %d rounds; ratio: median of the per-round ratios to c on the same runtime)\n", R
}' < <(sort -s -k3,3n "$raw")
