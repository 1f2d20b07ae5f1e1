# bench/lib.sh — what every benchmark script starts with, sourced by
# bench/run.sh, bench/vlasov/run.sh, bench/hosts.sh and bench/cxx.sh once
# each has set BENCH_NAME (its prefix in messages: bench, bench/vlasov …).
# It gives them:
#   the repository root as working directory, ROOT;
#   STAGE  the installed tree (MEDLEY_STAGE, default build/stage; exported as
#          MEDLEY_STAGE), which must have medleyc, and tests/lib/mpi.sh's
#          MPIs for it (MPI_RTS, rt_use; bench_mpi: the first, the reference);
#   OUT    where results go (BENCH_OUT, default bench/results); WORK the
#          build directory (BENCH_WORK, default build/bench);
#   QUICK  non-empty for a smoke run (BENCH_QUICK=1; exported, 0 if unset,
#          to the programs: bench/bench.h);
#   CFLAGS_B  the C flags of every benchmark program, with BENCH_EXTRA: the
#          words of BENCH_CFLAGS, which every compiler takes (the sanitizers);
#   die, load_line (the load average at the start and now, for a table's
#   header), same_w (two runs of the Vlasov code agree), and BENCH_AWK, the
#   awk functions of the tables (medians over rounds, and of the ratios
#   within each round: only those mean something on a shared machine).
# shellcheck disable=SC2034  # the variables are for the scripts that source it
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
ROOT=$PWD
STAGE=${MEDLEY_STAGE:-$ROOT/build/stage}
OUT=${BENCH_OUT:-$ROOT/bench/results}
WORK=${BENCH_WORK:-$ROOT/build/bench}
QUICK=${BENCH_QUICK:-0}
[ "$QUICK" = 0 ] && QUICK=
export BENCH_QUICK=${QUICK:-0}
# shellcheck disable=SC2206
BENCH_EXTRA=(${BENCH_CFLAGS:-})  # for every compiler: C, C++, Fortran
CFLAGS_B=(-O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror "${BENCH_EXTRA[@]}")
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

die() { echo "$BENCH_NAME: $*" >&2; exit 1; }
load_line() { echo "# load average at start: $load_start, at end: $(cut -d' ' -f1-3 /proc/loadavg)"; }

[ -x "$STAGE/bin/medleyc" ] || die "no medleyc in $STAGE (run make bench, or make install PREFIX=$STAGE)"
export MEDLEY_STAGE=$STAGE
. tests/lib/mpi.sh

# bench_mpi: select the reference MPI, the first of tests/lib/mpi.sh's
# (rt_use: MPI_CC, RT_LAUNCH, RT_FC …).
bench_mpi() { rt_use "${MPI_RTS[0]}" || die "$RT_WHY"; }

# same_w REF OTHER: the W(t) files of two runs of the Vlasov code agree to
# 1e-12 of max W (a fast wrong exchange wins nothing); else says by how much.
same_w() {
    paste "$1" "$2" | awk '
        { d = $2 - $4; if (d < 0) d = -d; if (d > dev) dev = d; if ($2 > wmax) wmax = $2; n++ }
        END { if (n == 0 || wmax <= 0 || dev > 1e-12 * wmax) { printf "max |dW| / max W = %g over %d steps\n", (wmax > 0 ? dev / wmax : -1), n; exit 1 } }'
}

# Prepended to a table's awk program ("$BENCH_AWK"'…'), t[k, v, r] being
# the time of variant v in round r of case k:
#   sort(a, n)                 a[1..n] ascending (a handful of rounds)
#   median(a, n)               sorts a[1..n] and returns its median
#   rounds_median(t, k, v, nr) the median of v's times over rounds 1..nr, "" if none
#   ratio_median(t, k, v, ref, nr)  the median over rounds of t[k, v, r] /
#                              t[k, ref, r], the rounds having both; "" if none
BENCH_AWK='
function sort(a, n,    i, j, x) {
    for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
}
function median(a, n) { sort(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function rounds_median(t, k, v, nr,    r, c, a) {
    c = 0
    for (r = 1; r <= nr; r++) if ((k, v, r) in t) a[++c] = t[k, v, r]
    return c ? median(a, c) : ""
}
function ratio_median(t, k, v, ref, nr,    r, c, a) {
    c = 0
    for (r = 1; r <= nr; r++) if ((k, v, r) in t && (k, ref, r) in t && t[k, ref, r] > 0) a[++c] = t[k, v, r] / t[k, ref, r]
    return c ? median(a, c) : ""
}
'
