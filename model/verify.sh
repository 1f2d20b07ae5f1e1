#!/usr/bin/env bash
# model/verify.sh [DIR] — the SPIN verifications of the shared-memory
# protocol (model/*.pml, docs/runtime-shm.md "Model checking"): each
# scenario exhaustively, and each deliberately broken variant, which SPIN
# must reject with the expected kind of error.  Prints SPIN's summary of
# every run and one "PASS: model/<name>" or "FAIL: model/<name>: why" line
# each; exits 1 if any failed.  Work files (pan, trails) go to DIR
# (default build/model).
#
# Search: exhaustive (full state storage, -DCOLLAPSE compression), safety
# only (-DSAFETY: assertions and invalid end states), partial-order
# reduction on; -DMEMLIM caps memory so a model grown by an edit stops
# instead of swapping.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../build/model}
mkdir -p "$out" && out=$(cd "$out" && pwd)

# name  scenario  expected (ok | assert | end)  -D switch
checks=(
    "pair           pair      ok"
    "exchange       exchange  ok"
    "three          three     ok"
    "barrier        barrier   ok"
    "weak-tail      pair      assert  WEAK_TAIL"
    "weak-head      pair      assert  WEAK_HEAD"
    "late-ovs       pair      assert  LATE_OVS"
    "ring-while-ov  pair      assert  RING_WHILE_OV"
    "eager-reclaim  pair      assert  EAGER_RECLAIM"
    "sleep-pending  pair      end     SLEEP_PENDING"
    "weak-sleep     pair      end     WEAK_SLEEP"
    "late-bell      exchange  end     LATE_BELL"
    "weak-rdv       three     assert  WEAK_RDV"
    "no-recheck     three     end     NO_RECHECK"
    "weak-bar       barrier   end     WEAK_BAR"
)

if ! command -v spin >/dev/null; then
    echo "FAIL: model/spin: spin is not installed (tools/setup.sh installs it)"
    exit 1
fi
CC=${CC:-cc}
failed=0
for line in "${checks[@]}"; do
    read -r name scen want sw <<<"$line"
    dir=$out/$name
    rm -rf "$dir" && mkdir -p "$dir"
    if [ -n "${sw:-}" ]; then
        what="$scen.pml -D$sw, must be rejected ($([ "$want" = end ] && echo "invalid end state" || echo "assertion"))"
        opt=-O0                 # found in a few thousand states: compile fast
    else
        what="$scen.pml, no error expected"
        opt=-O1
    fi
    echo "== model/$name: $what"
    t0=$(date +%s%N)
    if ! (cd "$dir" && spin -a ${sw:+-D$sw} "$here/$scen.pml" >spin.log 2>&1 &&
          $CC $opt -w -DSAFETY -DCOLLAPSE -DMEMLIM=1024 -o pan pan.c >cc.log 2>&1); then
        echo "FAIL: model/$name: could not build the verifier: $(tail -3 "$dir"/*.log | tr '\n' ' ')"
        failed=$((failed + 1))
        continue
    fi
    (cd "$dir" && ./pan -m200000 -w22 -n >pan.log 2>&1)
    ms=$((($(date +%s%N) - t0) / 1000000))
    secs=$((ms / 1000)).$((ms % 1000 / 100))
    log=$dir/pan.log
    grep -E '^pan:1:|State-vector|^ *[0-9]+ states, stored$|total actual memory|elapsed time' "$log" |
        sed 's/^[[:space:]]*/   /'
    errors=$(grep -oE 'errors: [0-9]+' "$log" | grep -oE '[0-9]+')
    first=$(grep -m1 -E '^pan:1:' "$log")
    states=$(grep -E '^ *[0-9]+ states, stored$' "$log" | grep -oE '[0-9]+')
    why=
    if [ -z "$errors" ]; then
        why="no result from pan: $(tail -2 "$log" | tr '\n' ' ')"
    elif grep -qE 'max search depth too small|reached -DMEMLIM' "$log"; then
        why="search incomplete (depth or memory bound reached)"
    elif [ "$want" = ok ] && [ "$errors" != 0 ]; then
        why="$first (replay: cd $dir && spin -t -p -k $scen.pml.trail $here/$scen.pml)"
    elif [ "$want" = assert ] && ! [[ $first == *"assertion violated"* ]]; then
        why="expected an assertion violation, got: ${first:-errors: $errors}"
    elif [ "$want" = end ] && ! [[ $first == *"invalid end state"* ]]; then
        why="expected an invalid end state, got: ${first:-errors: $errors}"
    fi
    if [ -n "$why" ]; then
        echo "FAIL: model/$name: $why"
        failed=$((failed + 1))
    elif [ "$want" = ok ]; then
        echo "PASS: model/$name: errors: 0, $states states, $secs s"
    else
        echo "PASS: model/$name: rejected: ${first#pan:1: }, $secs s"
    fi
done
[ "$failed" -eq 0 ] || { echo "model: $failed verification(s) failed"; exit 1; }
