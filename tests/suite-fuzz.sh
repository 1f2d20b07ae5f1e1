#!/usr/bin/env bash
# Mutation check of the installed medleyc, as an independent judge would
# run it: every spec of the repository, randomly mutated (tests/fuzz/
# mutate.pl: tokens deleted, duplicated, swapped, case-flipped, junk bytes
# inserted, ...), is compiled with a time limit.  Each run must exit 0 or 1
# (never a signal, never 2: the output directory is fine), within 5 s; an
# exit 1 must say "error:" and write nothing, an exit 0 must write the
# outputs.  One test line per source spec.
#
#   FUZZ_MUTATIONS=N  number of mutants (default 300, a few seconds)
#   FUZZ_SEED=S       seed (default 1); the same seed gives the same mutants
# A failing mutant is kept in $MEDLEY_BUILD/fuzz/mutants/ to reproduce.
set -u
cd "$(dirname "$0")/.."
medleyc=${MEDLEY_STAGE:?set MEDLEY_STAGE (make check does)}/bin/medleyc
keep=${MEDLEY_BUILD:-build}/fuzz/mutants
count=${FUZZ_MUTATIONS:-300}
seed=${FUZZ_SEED:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mapfile -t specs < <({ ls tests/golden/*/*.mdl examples/*/*.mdl tests/e2e/*/*.mdl \
                          tests/gen/*.mdl 2>/dev/null; find bench -name '*.mdl'; } | LC_ALL=C sort -u)
mkdir -p "$tmp/m"
if ! perl tests/fuzz/mutate.pl "$seed" "$count" "$tmp/m" "${specs[@]}"; then
    echo "FAIL: fuzz/mutate: mutate.pl failed"
    exit 0
fi

declare -A runs bad
while read -r num src what; do
    out=$tmp/out
    rm -rf "$out" && mkdir "$out"
    timeout -s KILL 5 "$medleyc" -o "$out" --dot "$out/graph.dot" "$tmp/m/$num.mdl" \
        >/dev/null 2>"$tmp/stderr"
    rc=$?
    why=
    if [ "$rc" -eq 137 ]; then
        why="killed after 5 s (hang?)"
    elif [ "$rc" -ge 128 ]; then
        why="killed by signal $((rc - 128))"
    elif [ "$rc" -eq 1 ]; then
        grep -q 'error:' "$tmp/stderr" || why="exit 1 without an error message"
        [ -z "$(ls -A "$out")" ] || why="exit 1 but files were written"
    elif [ "$rc" -eq 0 ]; then
        [ -s "$out/graph.dot" ] || why="exit 0 but no outputs"
    else
        why="exit $rc: $(head -c 200 "$tmp/stderr")"
    fi
    runs[$src]=$(( ${runs[$src]:-0} + 1 ))
    if [ -n "$why" ]; then
        mkdir -p "$keep"
        cp "$tmp/m/$num.mdl" "$keep/seed$seed-$num.mdl"
        bad[$src]="${bad[$src]:-}${bad[$src]:+; }mutant $num ($what): $why, kept as $keep/seed$seed-$num.mdl"
    fi
done <"$tmp/m/manifest"

for src in "${specs[@]}"; do
    [ -n "${runs[$src]:-}" ] || continue
    if [ -n "${bad[$src]:-}" ]; then
        echo "FAIL: fuzz/mutate/$src: ${bad[$src]}"
    else
        echo "PASS: fuzz/mutate/$src (${runs[$src]} mutants)"
    fi
done
