#!/usr/bin/env bash
# bench/vlasov/run.sh — the thesis's Vlasov experiment (its Table 11.1):
# the Vlasov code of examples/vlasov timed with MeDLey on both runtimes
# against the same code written directly against MPI (bench/vlasov/mpi.c),
# and against its own computation time.  Run by bench/run.sh (make bench,
# BENCH_ONLY=vlasov); docs/performance.md explains the method.
#
# For every round, mesh size N (N x N) and instance count, the four
# programs run one after the other:
#   hand-mpi  bench/vlasov/mpi.c, with the MPI's mpicc and launcher
#   mdl-mpi   examples/vlasov/vlasov.c + generated code on libmdl_mpi, that launcher
#   f90-mpi   examples/vlasov/vlasov.f90 (the same program in Fortran, the
#             MPI's mpifort, modules of medleyc --fortran) on libmdl_mpi
#   mdl-shm   vlasov.c on libmdl_shm, mdlrun
# each for STEPS steps (`--bench STEPS`); each prints its run time and its
# computation time (time outside MDL/MPI calls), both the largest over the
# instances.  The round's `compute` is the smallest computation time of
# its three C runs: the three compute exactly the same thing, so the
# smallest is the one least disturbed by the machine (the Fortran
# program's kernels are other code: it is compared with mdl-mpi, the same
# messages, and with hand-mpi).  Each run also writes W(t); the MeDLey runs
# must equal the hand-written one to 1e-12 of max W, or the run counts as
# failed (a fast wrong exchange wins nothing).
#
# Environment (set by bench/run.sh; defaults for a standalone run):
#   MEDLEY_STAGE, BENCH_OUT, BENCH_WORK, BENCH_QUICK, BENCH_CFLAGS as in bench/run.sh
#   (the MPI: the first of tests/lib/mpi.sh's, bench/run.sh's reference)
#   BENCH_VLASOV_N       mesh sizes        (default "256 512 1024 2048"; quick "256 512")
#   BENCH_VLASOV_NP      instance counts   (default "1 2 4")
#   BENCH_VLASOV_STEPS   steps of a run    (default 20; quick 10)
#   BENCH_VLASOV_ROUNDS  rounds            (default 5; quick 2)
# Output: $BENCH_OUT/vlasov.csv (N,instances,variant,round,seconds),
# vlasov-runs.csv (every run with its own computation time), vlasov.txt
# (the tables and targets, also printed), vlasov.md (the tables in
# Markdown beside the thesis's, for docs/performance.md).  Exit status 1 if a build or a
# run failed.  `bench/vlasov/run.sh --report` only remakes vlasov.txt and .md from
# $BENCH_OUT/vlasov.csv (BENCH_QUICK, BENCH_VLASOV_* as for the run).
set -u
BENCH_NAME=bench/vlasov
. "$(dirname "$0")/../lib.sh"
WORK=$WORK/vlasov
if [ -n "$QUICK" ]; then
    SIZES=${BENCH_VLASOV_N:-256 512} STEPS=${BENCH_VLASOV_STEPS:-10} ROUNDS=${BENCH_VLASOV_ROUNDS:-2}
else
    SIZES=${BENCH_VLASOV_N:-256 512 1024 2048} STEPS=${BENCH_VLASOV_STEPS:-20} ROUNDS=${BENCH_VLASOV_ROUNDS:-5}
fi
NPS=${BENCH_VLASOV_NP:-1 2 4}
FFLAGS_V=(-O2 -std=f2018 -Wall -Wextra -Werror -pedantic "${BENCH_EXTRA[@]}")
VARIANTS="hand-mpi mdl-mpi f90-mpi mdl-shm"

CSV=$OUT/vlasov.csv RUNS=$OUT/vlasov-runs.csv TXT=$OUT/vlasov.txt
report_only=
[ "${1:-}" = --report ] && { report_only=1; [ -f "$CSV" ] || die "no $CSV"; }
bench_mpi
MPI_LAUNCH=("${RT_LAUNCH[@]}") MPI_FC=$RT_FC
mkdir -p "$OUT" "$WORK"
[ -n "$report_only" ] && ROUNDS=$(awk -F, 'NR > 1 && $4 > r { r = $4 } END { print r + 0 }' "$CSV")
[ -n "$report_only" ] || echo "N,instances,variant,round,seconds" > "$CSV"
[ -n "$report_only" ] || echo "N,instances,variant,round,seconds,compute_seconds" > "$RUNS"
FAILED=0
start=$(date +%s)

# build N: $WORK/N/{hand-mpi,mdl-mpi,f90-mpi,mdl-shm}
build() {
    local n=$1 w=$WORK/$1 ok=1 rt
    rm -rf "$w" && mkdir -p "$w/gen" "$w/f90"
    "$STAGE/bin/medleyc" --fortran -o "$w/gen" examples/vlasov/vlasov.mdl > "$w/log" 2>&1 || ok=0
    [ $ok = 1 ] && { "$MPI_CC" "${CFLAGS_B[@]}" bench/vlasov/mpi.c -lm \
        -o "$w/hand-mpi" >> "$w/log" 2>&1 || ok=0; }
    for rt in mpi shm; do
        # shellcheck disable=SC2046
        [ $ok = 1 ] && { cc "${CFLAGS_B[@]}" -I"$w/gen" examples/vlasov/vlasov.c "$w/gen/vlasovMDL.c" \
            $(pkg-config --cflags --libs medley-$rt) -lm -o "$w/mdl-$rt" >> "$w/log" 2>&1 || ok=0; }
    done
    # shellcheck disable=SC2046
    [ $ok = 1 ] && { (cd "$w/f90" && "${MPI_FC:?no Fortran wrapper of the MPI}" "${FFLAGS_V[@]}" -c \
            ../gen/vlasovMDL_common.f90 ../gen/vlasovMDL.f90 "$ROOT/examples/vlasov/vlasov.f90" &&
        cc "${CFLAGS_B[@]}" -I../gen -c ../gen/vlasovMDL.c -o vlasovMDL.c.o $(pkg-config --cflags medley-mpi) &&
        "$MPI_FC" "${FFLAGS_V[@]}" ./*.o $(pkg-config --libs medley-mpi) -o ../f90-mpi) >> "$w/log" 2>&1 || ok=0; }
    if [ $ok = 0 ]; then
        echo "bench/vlasov: build at N=$n failed:" >&2
        cat "$w/log" >&2
        return 1
    fi
}

# run N NP ROUND VARIANT: one timed run; appends to $RUNS, 1 on failure
run() {
    local n=$1 np=$2 r=$3 v=$4 w=$WORK/$1 launcher=("${MPI_LAUNCH[@]}")
    [ "$v" = mdl-shm ] && launcher=("$STAGE/bin/mdlrun")
    if ! (cd "$w" && timeout -k 5 300 "${launcher[@]}" -n "$np" "./$v" --mesh "$n" "$n" --bench "$STEPS" "W.$v") \
            > "$w/out" 2> "$w/err" < /dev/null; then
        echo "bench/vlasov: N=$n $v -n $np round $r failed: $(tail -c 300 "$w/err" | tr '\n' ' ')" >&2
        return 1
    fi
    local line
    line=$(grep -m1 '^bench: ' "$w/out") || { echo "bench/vlasov: N=$n $v -n $np: no bench line" >&2; return 1; }
    echo "$line" | awk -v n="$n" -v np="$np" -v v="$v" -v r="$r" '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
        printf "%s,%s,%s,%s,%s,%s\n", n, np, v, r, f["total"], f["compute"] }' >> "$RUNS"
}

for n in $SIZES; do
    [ -z "$report_only" ] || break
    build "$n" || { FAILED=1; continue; }
    built="${built:-} $n"
done
for ((r = 1; r <= ROUNDS && !report_only; r++)); do
    for n in ${built:-}; do
        for np in $NPS; do
            (( n % np == 0 )) || continue
            ok=1
            for v in $VARIANTS; do run "$n" "$np" "$r" "$v" || { ok=0; FAILED=1; }; done
            for v in mdl-mpi f90-mpi mdl-shm; do
                [ $ok = 1 ] || break
                why=$(same_w "$WORK/$n/W.hand-mpi" "$WORK/$n/W.$v") || { echo "bench/vlasov: N=$n -n $np round $r: $v differs from hand-mpi: $why" >&2; ok=0; FAILED=1; }
            done
            # the round counts only when all four ran and agreed
            [ $ok = 1 ] || continue
            awk -F, -v n="$n" -v np="$np" -v r="$r" '
                $1 == n && $2 == np && $4 == r { print n "," np "," $3 "," r "," $5
                                                  if ($3 != "f90-mpi" && (c == "" || $6 + 0 < c + 0)) c = $6 }
                END { print n "," np ",compute," r "," c }' "$RUNS" >> "$CSV"
        done
    done
    echo "bench/vlasov: round $r of $ROUNDS done ($(( $(date +%s) - start )) s)" >&2
done

# ---------------------------------------------------------------- tables
{
    echo "# vlasov (the thesis's Table 11.1): seconds for $STEPS steps of an N x N mesh, best of $ROUNDS rounds (median)${QUICK:+; BENCH_QUICK=1, not for the record}"
    awk -F, "$BENCH_AWK"'NR > 1 { k = $1 SUBSEP $2 SUBSEP $3; t[k, ++c[k]] = $5
                      if (!($1 in sn)) { sn[$1] = 1; ns[++nn] = $1 }
                      if (!($2 in sp)) { sp[$2] = 1; ps[++np] = $2 } }
    function stats(k,    i) { split("", a); for (i = 1; i <= c[k]; i++) a[i] = t[k, i]
                              med = median(a, c[k]); best = a[1] }
    END {
        sort(ns, nn); sort(ps, np)
        printf "%-9s %-9s", "instances", "variant"; for (i = 1; i <= nn; i++) printf " %19s", "N=" ns[i]; printf "\n"
        split("mdl-mpi f90-mpi mdl-shm hand-mpi compute", vs, " ")
        for (p = 1; p <= np; p++) for (j = 1; j <= 5; j++) {
            printf "%-9s %-9s", ps[p], vs[j]
            for (i = 1; i <= nn; i++) {
                k = ns[i] SUBSEP ps[p] SUBSEP vs[j]
                if (!(k in c)) { printf " %19s", "-"; continue }
                stats(k); printf " %8.4f (%8.4f)", best, med
            }
            printf "\n"
        }
    }' "$CSV"
    echo
    echo "# ratios of the best times: overhead = time / compute - 1; mdl / hand-mpi; mdl-mpi / mdl-shm;"
    echo "# f90: the Fortran program (f90-mpi) / the C one on the same runtime (mdl-mpi), and / hand-mpi"
    echo "# (med): median over rounds of the same ratio within each round (runs seconds apart: drift cancels)"
    echo "# (instances 4: two per core; MPICH busy-waits, so its exchanges wait for the scheduler)"
    awk -F, -v nmax="$(echo "$SIZES" | tr ' ' '\n' | sort -n | tail -1)" -v quick="$QUICK" "$BENCH_AWK"'
    NR > 1 { k = $1 SUBSEP $2 SUBSEP $3; if (!(k in b) || $5 + 0 < b[k]) b[k] = $5 + 0
             t[$1, $2, $3, $4] = $5 + 0; if ($4 > nr) nr = $4
             if (!(($1, $2) in seen)) { seen[$1, $2] = 1; key[++nk] = $1 SUBSEP $2 } }
    function pct(x) { return sprintf("%+.1f%%", 100 * (x - 1)) }
    function medratio(n, p, v) { return ratio_median(t, n SUBSEP p, v, "hand-mpi", nr) }
    END {
        printf "%-6s %-9s %10s %10s %10s %11s %11s %11s %11s %14s %11s %11s\n", "N", "instances", "mpi ovh", "shm ovh", "hand ovh",
               "mpi/hand", "(med)", "shm/hand", "(med)", "mdl mpi/shm", "f90/mpi", "f90/hand"
        for (i = 1; i <= nk; i++) {
            split(key[i], f, SUBSEP); n = f[1]; p = f[2]
            C = b[n, p, "compute"]; H = b[n, p, "hand-mpi"]; M = b[n, p, "mdl-mpi"]; S = b[n, p, "mdl-shm"]; F = b[n, p, "f90-mpi"]
            if (!(C > 0 && H > 0 && M > 0 && S > 0 && F > 0)) continue
            printf "%-6s %-9s %10s %10s %10s %11.3f %11.3f %11.3f %11.3f %14.3f %11.3f %11.3f\n", n, p, pct(M / C), pct(S / C), pct(H / C),
                   M / H, medratio(n, p, "mdl-mpi"), S / H, medratio(n, p, "mdl-shm"), M / S, F / M, F / H
        }
        n = nmax; p = 2
        C = b[n, p, "compute"]; H = b[n, p, "hand-mpi"]; M = b[n, p, "mdl-mpi"]; S = b[n, p, "mdl-shm"]
        print ""
        if (!(C > 0 && H > 0 && M > 0 && S > 0)) { print "# targets: no complete run at N=" n " on 2 instances"; exit }
        lim = quick ? 1.05 : 1.02
        printf "# targets (best of rounds, 2 instances, N=%s)\n", n
        printf "mdl-mpi <= %.2f x hand-mpi      %.3f  %s\n", lim, M / H, M / H <= lim ? "ok" : "MISSED"
        printf "mdl-shm <= 1.00 x hand-mpi      %.3f  %s\n", S / H, S / H <= 1 ? "ok" : "MISSED"
        printf "mdl-shm overhead <= 4%%         %6s  %s\n", pct(S / C), S / C <= 1.04 ? "ok" : "MISSED"
        printf "mdl-mpi overhead <= 10%%        %6s  %s\n", pct(M / C), M / C <= 1.10 ? "ok" : "MISSED"
    }' "$CSV"
} > "$TXT"
cat "$TXT"

# The same as Markdown, beside the thesis's Table 11.1 (SGI Power Challenge,
# seconds: MDL(MPI), MDL(SHM), Compute at N = 256 512 1024 2048; no SHM
# figures on 16 processors), for docs/performance.md.
awk -F, -v steps="$STEPS" -v rounds="$ROUNDS" -v when="$(date -u -r "$CSV" '+%Y-%m-%d %H:%M UTC')" "$BENCH_AWK"'
BEGIN {
    split("4 MPI 3.901 15.361 67.597 367.048;4 SHM 4.048 15.952 68.401 377.062;4 C 3.751 14.668 63.398 349.664;" \
          "8 MPI 2.062 7.986 32.021 269.331;8 SHM 2.173 8.225 33.932 211.876;8 C 1.964 7.506 30.175 175.304;" \
          "16 MPI 1.296 4.489 16.138 78.733;16 C 1.095 4.385 15.084 66.805", rows, ";")
    for (i in rows) { split(rows[i], f, " "); for (j = 0; j < 4; j++) th[f[1], f[2], 256 * 2 ^ j] = f[3 + j] }
    name["mdl-mpi"] = "MDL(MPI)"; name["f90-mpi"] = "MDL(MPI), Fortran"; name["mdl-shm"] = "MDL(SHM)"; name["hand-mpi"] = "hand-written MPI"; name["compute"] = "Compute"
}
NR > 1 { k = $1 SUBSEP $2 SUBSEP $3; if (!(k in b) || $5 + 0 < b[k]) b[k] = $5 + 0
         t[$1, $2, $3, $4] = $5 + 0; if ($4 > nr) nr = $4
         if (!($1 in sn)) { sn[$1] = 1; ns[++nn] = $1 }
         if (!($2 in sp)) { sp[$2] = 1; ps[++np] = $2 } }
function pct(x) { return x == "" ? "–" : sprintf("%+.1f %%", 100 * (x - 1)) }
function rat(x) { return x == "" ? "–" : sprintf("%.3f", x) }
function q(x, y) { return x > 0 && y > 0 ? x / y : "" }
function med(n, p, v, w) { return ratio_median(t, n SUBSEP p, v, w, nr) }
function head(first,    i) { printf "| %s |", first; for (i = 1; i <= nn; i++) printf " N=%s |", ns[i]; printf "\n|---|---|"
                             for (i = 1; i <= nn; i++) printf "---:|"; printf "\n" }
function thesis(what, v, w, fmt,    p, i, x) {
    for (p = 4; p <= 16; p *= 2) {
        if (!((p, v, 256) in th) || !((p, w, 256) in th)) continue
        printf "| %s | thesis, %d processors |", what, p
        for (i = 1; i <= nn; i++) {
            x = ""
            if ((p, v, ns[i]) in th) x = th[p, v, ns[i]] / th[p, w, ns[i]]
            printf " %s |", (fmt == "pct" ? pct(x) : rat(x))
        }
        printf "\n"; what = ""
    }
    return what
}
function ours(what, v, w, fmt, withmed,    p, i, x, m) {
    for (p = 1; p <= np; p++) {
        printf "| %s | ours, %s instance%s%s |", what, ps[p], (ps[p] > 1 ? "s" : ""), (ps[p] > 2 ? " (2 per core)" : "")
        for (i = 1; i <= nn; i++) {
            x = q(b[ns[i], ps[p], v], b[ns[i], ps[p], w])
            m = withmed ? med(ns[i], ps[p], v, w) : ""
            printf " %s%s |", (fmt == "pct" ? pct(x) : rat(x)), (m == "" ? "" : " (" rat(m) ")")
        }
        printf "\n"; what = ""
    }
}
END {
    sort(ns, nn); sort(ps, np)
    printf "Seconds for %d steps of an N × N mesh, best of %d rounds (%s):\n\n", steps, rounds, when
    head("instances | version")
    split("mdl-mpi f90-mpi mdl-shm hand-mpi compute", vs, " ")
    for (p = 1; p <= np; p++) for (j = 1; j <= 5; j++) {
        printf "| %s | %s |", ps[p], name[vs[j]]
        for (i = 1; i <= nn; i++) { x = b[ns[i], ps[p], vs[j]]; printf " %s |", (x > 0 ? sprintf("%.4f", x) : "–") }
        printf "\n"
    }
    printf "\nRatios of the best times, the thesis'"'"'s Table 11.1 beside ours (in brackets: median over rounds of the ratio within each round):\n\n"
    head("ratio | run")
    ours(thesis("MDL(MPI) / Compute − 1", "MPI", "C", "pct"), "mdl-mpi", "compute", "pct", 0)
    ours(thesis("MDL(SHM) / Compute − 1", "SHM", "C", "pct"), "mdl-shm", "compute", "pct", 0)
    ours("hand-written MPI / Compute − 1", "hand-mpi", "compute", "pct", 0)
    ours(thesis("MDL(MPI) / MDL(SHM)", "MPI", "SHM", "rat"), "mdl-mpi", "mdl-shm", "rat", 1)
    ours("MDL(MPI) / hand-written MPI", "mdl-mpi", "hand-mpi", "rat", 1)
    ours("MDL(SHM) / hand-written MPI", "mdl-shm", "hand-mpi", "rat", 1)
    ours("MDL(MPI), Fortran / MDL(MPI)", "f90-mpi", "mdl-mpi", "rat", 1)
    ours("MDL(MPI), Fortran / hand-written MPI", "f90-mpi", "hand-mpi", "rat", 1)
}' "$CSV" > "$OUT/vlasov.md"
echo "bench/vlasov: $(( $(date +%s) - start )) s" >&2
exit $FAILED
