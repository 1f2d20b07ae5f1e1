#!/usr/bin/env bash
# The benchmark harness (bench/run.sh) in its smoke mode, BENCH_QUICK=1: it
# must build and run every benchmark on the three variants and print every
# ratio.  No timing is asserted: this machine is shared, times mean nothing
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
    # the ping-pong and the 2-instance halo also run traced (+trace)
    bad=$(awk -F, -v b="$b" '$1 == b { k = $2 "," $3 "," $4; if ($5 ~ /[+]trace$/) tr[k]++; else n[k]++
                                       if ($5 != "mpi" && $7 == "") miss[k] = 1 }
        END { for (k in n) if (n[k] != 3 || (k in miss) ||
                               tr[k] != ((b == "pingpong" || (b == "halo" && k ~ /,2$/)) ? 2 : 0)) print k }' "$sum")
    if [ -n "$bad" ]; then
        echo "FAIL: bench/$b: variants or ratios missing for $(echo "$bad" | tr '\n' ' ')"
    else
        echo "PASS: bench/$b ($(echo "$cases" | wc -l) cases)"
    fi
done

# traced / untraced, side by side, for every traced case
ntraced=$(awk -F, '$5 ~ /[+]trace$/ { print $1 $2 $3 $4 }' "$sum" 2>/dev/null | sort -u | wc -l)
nrows=$(sed -n '/^# tracing (MDL_TRACE)/,/^$/p' "$tmp/out/summary.txt" 2>/dev/null |
        grep -cE '^(pingpong|halo) .* [0-9]+\.[0-9]{3} / [0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} / [0-9]+\.[0-9]{3}')
if [ "$ntraced" -gt 0 ] && [ "$nrows" = "$ntraced" ]; then
    echo "PASS: bench/tracing ($nrows cases traced)"
else
    echo "FAIL: bench/tracing: $nrows rows of traced/untraced ratios for $ntraced traced cases"
fi

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
exit 0
