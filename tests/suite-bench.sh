#!/usr/bin/env bash
# The benchmark harness (bench/run.sh) in its smoke mode, BENCH_QUICK=1: it
# must build and run every benchmark on the three variants (and the two of
# each other MPI of tests/lib/mpi.sh: mpi@<name>, mdl-mpi@<name>) and print every
# ratio (the kernels quiet and loaded, in their table; vlasov: its CSV
# complete, with the computation time; across 2 test hosts, bench/hosts.sh:
# its ratio lines, or SKIP without root; the ping-pong side by side: its
# table); and
# bench/cxx.sh (the C++ binding's cost) must print every row.  No timing is
# asserted: this machine is shared, times mean nothing here.  PASS: bench/<benchmark>; the ratio table is printed as it comes.
set -u
cd "$(dirname "$0")/.." || exit 1
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
. tests/lib/mpi.sh
nvariants=$((1 + 2 * ${#MPI_RTS[@]}))
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
# every measured case has every variant, and each but mpi a ratio
for b in pingpong halo coll oversub stencil transpose; do
    cases=$(awk -F, -v b="$b" '$1 == b { print $2 "," $3 "," $4 }' "$sum" 2>/dev/null | sort -u)
    if [ -z "$cases" ]; then
        echo "FAIL: bench/$b: no results"
        continue
    fi
    # the ping-pong and the 2-instance halo also run traced (+trace)
    bad=$(awk -F, -v b="$b" -v nv="$nvariants" '$1 == b { k = $2 "," $3 "," $4; if ($5 ~ /[+]trace$/) tr[k]++; else n[k]++
                                       if ($5 != "mpi" && $7 == "") miss[k] = 1 }
        END { for (k in n) if (n[k] != nv || (k in miss) ||
                               tr[k] != ((b == "pingpong" || (b == "halo" && k ~ /,2$/)) ? 2 : 0)) print k }' "$sum")
    if [ -n "$bad" ]; then
        echo "FAIL: bench/$b: variants or ratios missing for $(echo "$bad" | tr '\n' ' ')"
    else
        echo "PASS: bench/$b ($(echo "$cases" | wc -l) cases)"
    fi
done

# the ping-pong side by side (bench/pingpong/side.c): one job per MPI, a
# row per size (8 B ... 4 MiB: 11) with a ratio for each MPI
r='[0-9]+\.[0-9]{3}'
rows=$(sed -n '/^# ping-pong side by side/,/^$/p' "$tmp/out/summary.txt" 2>/dev/null |
       grep -cE "^[0-9]+ (B|KiB|MiB)( +$r \[$r-$r\] best $r( (ok|MISSED)<=[0-9.]+)?){${#MPI_RTS[@]}} *\$")
if [ "$rows" = 11 ]; then
    echo "PASS: bench/pingpong-side"
else
    echo "FAIL: bench/pingpong-side: $rows of 11 rows with a ratio for each of the ${#MPI_RTS[@]} MPI(s)"
fi

# the kernels: quiet and loaded at 2 and 4 instances, each a row of the
# kernel table with best / median of mdl-mpi and mdl-shm
for b in stencil transpose; do
    groups=$(awk -F, -v b="$b" '$1 == b { print $2 "," $4 }' "$sum" 2>/dev/null | LC_ALL=C sort -u | tr '\n' ' ')
    rows=$(grep -cE "^$b +n=[0-9]+ +[24] (quiet|loaded) .*([0-9]+\.[0-9]{3} / [0-9]+\.[0-9]{3}.*){2}" "$tmp/out/summary.txt" 2>/dev/null)
    if [ "$groups" != "iteration+load,2 iteration+load,4 iteration,2 iteration,4 " ] || [ "$rows" != 4 ]; then
        echo "FAIL: bench/$b-table: cases $groups, $rows of 4 rows in the kernel table"
    else
        echo "PASS: bench/$b-table"
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

# vlasov: the CSV's exact columns, and every (N, instances) of every round
# with its five variants (hand-mpi, mdl-mpi, f90-mpi, mdl-shm, compute), positive
vl=$tmp/out/vlasov.csv
if [ "$(head -1 "$vl" 2>/dev/null)" != "N,instances,variant,round,seconds" ]; then
    echo "FAIL: bench/vlasov: no vlasov.csv with columns N,instances,variant,round,seconds"
else
    bad=$(awk -F, 'NR > 1 { k = $1 "," $2 "," $4; n[k]++; v[k] = v[k] " " $3; if (!($5 > 0)) z[k] = 1
                            if (!(($1 "," $2) in s)) { s[$1 "," $2] = 1; cases++ } }
        END { for (k in n) if (n[k] != 5 || (k in z) || v[k] !~ /hand-mpi/ || v[k] !~ /mdl-mpi/ || v[k] !~ /f90-mpi/ || v[k] !~ /mdl-shm/ || v[k] !~ /compute/) print k
              if (cases != 6) print "expected 6 cases (N 256 512 x instances 1 2 4), got " cases + 0 }' "$vl")
    if [ -n "$bad" ]; then
        echo "FAIL: bench/vlasov: incomplete rounds: $(echo "$bad" | tr '\n' ' ')"
    elif ! grep -q '^mdl-mpi <= 1.05 x hand-mpi' "$tmp/out/vlasov.txt"; then
        echo "FAIL: bench/vlasov: no target lines in vlasov.txt"
    elif ! grep -q '^| 2 | Compute |' "$tmp/out/vlasov.md" || ! grep -q 'thesis, 4 processors' "$tmp/out/vlasov.md" ||
         ! grep -q '^| MDL(MPI), Fortran / MDL(MPI) | ours, 1 instance | [0-9]' "$tmp/out/vlasov.md"; then
        echo "FAIL: bench/vlasov: vlasov.md lacks the tables"
    else
        echo "PASS: bench/vlasov ($(($(wc -l < "$vl") - 1)) rows)"
    fi
fi

# across hosts (bench/hosts.sh): the halo and the Vlasov code, one then two
# instances per host, a row each with, for every MPI, the hand-written
# iteration time, the median [p25-p75] ratio of the iteration times, its
# verdict and the best / median ratio of the former figure; without root the
# test hosts cannot be made: SKIP
ht=$tmp/out/hosts.txt
if grep -q '^# across 2 test hosts: skipped: ' "$ht" 2>/dev/null; then
    echo "SKIP: bench/hosts: $(sed -n 's/^# across 2 test hosts: skipped: //p' "$ht")"
else
    r='[0-9]+\.[0-9]{3}'
    rows=$(grep -cE "^(halo|vlasov) +2x[12] +N=256 +[24]( +[0-9.]+e[-+][0-9]+ +$r \[$r-$r\] +(ok|MISSED|unresolved) +$r/$r){${#MPI_RTS[@]}} *\$" "$ht" 2>/dev/null)
    if [ "$rows" = 4 ]; then
        echo "PASS: bench/hosts (2 hosts, ${#MPI_RTS[@]} MPI(s), 4 cases)"
    else
        echo "FAIL: bench/hosts: $rows of 4 rows (halo, vlasov x 2x1, 2x2) with a ratio for each of the ${#MPI_RTS[@]} MPI(s) in hosts.txt"
    fi
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
    if [ "$n" = 5 ]; then echo "PASS: bench/plots"; else echo "FAIL: bench/plots: $n of 5 plots"; fi
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
