#!/usr/bin/env bash
# The benchmark harness (bench/run.sh) in its smoke mode, BENCH_QUICK=1: it
# must build and run every benchmark on the three variants and print every
# ratio; and bench/cxx.sh (the C++ binding's cost) must print every row.  No timing is asserted: this machine is shared, times mean nothing
# here.  PASS: bench/<benchmark>; the ratio table is printed as it comes.
set -u
cd "$(dirname "$0")/.." || exit 1
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/medley-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ "${SANITIZE:-}" = 1 ]; then
    export BENCH_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
fi
BENCH_QUICK=1 BENCH_OUT=$tmp/out BENCH_WORK=$tmp/work bench/run.sh > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
sed 's/^/    /' "$tmp/stdout"
if [ $rc = 0 ]; then
    echo "PASS: bench/harness"
else
    echo "FAIL: bench/harness: exit status $rc: $(grep -v '^bench: .* done' "$tmp/stderr" | tail -c 400 | tr '\n' ' ')"
fi

sum=$tmp/out/summary.csv
# every measured case has the three variants, and both generated ones a ratio
for b in pingpong halo coll oversub; do
    cases=$(awk -F, -v b="$b" '$1 == b { print $2 "," $3 "," $4 }' "$sum" 2>/dev/null | sort -u)
    if [ -z "$cases" ]; then
        echo "FAIL: bench/$b: no results"
        continue
    fi
    bad=$(awk -F, -v b="$b" '$1 == b { k = $2 "," $3 "," $4; n[k]++; if ($5 != "mpi" && $7 == "") miss[k] = 1 }
        END { for (k in n) if (n[k] != 3 || (k in miss)) print k }' "$sum")
    if [ -n "$bad" ]; then
        echo "FAIL: bench/$b: variants or ratios missing for $(echo "$bad" | tr '\n' ' ')"
    else
        echo "PASS: bench/$b ($(echo "$cases" | wc -l) cases)"
    fi
done

comp=$tmp/out/compiler.csv
if [ "$(awk -F, '$4 == "check" && $5 ~ /^[0-9.]+$/' "$comp" 2>/dev/null | wc -l)" = 7 ] &&
   awk -F, '$4 == "generate" && $5 ~ /^[0-9.]+$/' "$comp" | grep -q .; then
    echo "PASS: bench/compiler"
else
    echo "FAIL: bench/compiler: missing sizes in compiler.csv"
fi

if command -v gnuplot >/dev/null; then
    n=$(ls "$tmp"/out/*.png 2>/dev/null | wc -l)
    if [ "$n" = 4 ]; then echo "PASS: bench/plots"; else echo "FAIL: bench/plots: $n of 4 plots"; fi
else
    echo "(gnuplot not installed: bench/plots not tested)"
fi

# bench/cxx.sh, the cost of the C++ binding: one round, every size and variant
BENCH_QUICK=1 BENCH_ROUNDS=1 BENCH_WORK=$tmp/cxx MEDLEY_STAGE=$MEDLEY_STAGE bench/cxx.sh \
    > "$tmp/cxx.out" 2> "$tmp/cxx.err"
rc=$?
sed 's/^/    /' "$tmp/cxx.out"
rows=$(grep -cE '^[0-9]+( +[0-9.]+ us +[0-9.]+x){6}$' "$tmp/cxx.out")
if [ $rc = 0 ] && [ "$rows" = 11 ]; then
    echo "PASS: bench/cxx"
else
    echo "FAIL: bench/cxx: exit status $rc, $rows of 11 sizes: $(tail -c 300 "$tmp/cxx.err" | tr '\n' ' ')"
fi
exit 0
