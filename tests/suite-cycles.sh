#!/usr/bin/env bash
# No include or call cycle between files (tests/cycles.sh): one line per
# component folder, "PASS: cycles/<dir>" or "FAIL: cycles/<dir>: the cycle".
# Then the checker itself, on a small tree with known cycles.
set -u
cd "$(dirname "$0")/.."
build=${MEDLEY_BUILD:?run through make check (MEDLEY_BUILD unset)}

# Every component folder, but runtime/api, runtime/trace, runtime/mpi and
# runtime/shm until their cycles are broken (issue 25; `tests/cycles.sh -v
# runtime/*/` shows them).  Then this line reads: runtime=(runtime/*/)
runtime=(runtime/*/)
tests/cycles.sh -b "$build" grammar medley codegen common include "${runtime[@]}" tools/*/

# ---------------------------------------------------------------- self-test
tmp=$(mktemp -d "${TMPDIR:-/tmp}/medley-cycles-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{inc,calls,across1,across2,layer,impl1,impl2,clean}
# an include cycle: inc/x.h → inc/y.h → inc/x.h
echo '#include "y.h"' >"$tmp/inc/x.h"
echo '#include "x.h"' >"$tmp/inc/y.h"
# a call cycle: calls/p.c → calls/q.c → calls/p.c
echo 'int q(int); int p(int n) { return n ? q(n - 1) : 0; }' >"$tmp/calls/p.c"
echo 'int p(int); int q(int n) { return n ? p(n - 1) : 1; }' >"$tmp/calls/q.c"
# a call cycle through two folders
echo 'int two(void); int one(void) { return two(); }' >"$tmp/across1/one.c"
echo 'int one(void); int two(void) { return one(); }' >"$tmp/across2/two.c"
# a contract: layer calls be(), which impl1 and impl2 define, each in its own
# build, and which call back into the layer: no cycle
echo 'int be(void); int helper(void) { return 1; } int entry(void) { return be(); }' \
    >"$tmp/layer/api.c"
echo 'int helper(void); int be(void) { return helper(); }' >"$tmp/impl1/be.c"
echo 'int helper(void); int be(void) { return helper() + 1; }' >"$tmp/impl2/be.c"
# no cycle: a header included twice, a function called from two files
echo 'int leaf(void);' >"$tmp/clean/leaf.h"
echo '#include "leaf.h"' >"$tmp/clean/mid.h"
printf '#include "leaf.h"\n#include "mid.h"\nint top(void) { return leaf(); }\n' >"$tmp/clean/top.c"
echo 'int leaf(void) { return 0; }' >"$tmp/clean/leaf.c"
compile() {
    mkdir -p "$(dirname "$tmp/build/$2")" && cc -c -o "$tmp/build/$2" "$tmp/$1"
}
compiled=1
for f in calls/p calls/q across1/one across2/two clean/top clean/leaf; do
    compile "$f.c" "$f.o" || compiled=0
done
compile layer/api.c mpi/layer/api.o && compile layer/api.c shm/layer/api.o &&
    compile impl1/be.c mpi/impl1/be.o && compile impl2/be.c shm/impl2/be.o || compiled=0
[ $compiled = 1 ] || echo "FAIL: cycles/self-test: the test tree does not compile"

cat >"$tmp/expected" <<'EOF'
FAIL: cycles/inc: include cycle inc/x.h → inc/y.h → inc/x.h
FAIL: cycles/calls: call cycle calls/p.c → calls/q.c → calls/p.c
FAIL: cycles/across1: call cycle across1/one.c → across2/two.c → across1/one.c
FAIL: cycles/across2: call cycle across1/one.c → across2/two.c → across1/one.c
PASS: cycles/layer
PASS: cycles/impl1
PASS: cycles/impl2
PASS: cycles/clean
EOF
tests/cycles.sh -r "$tmp" -b "$tmp/build" inc calls across1 across2 layer impl1 impl2 clean \
    >"$tmp/actual" 2>&1
rc=$?
if [ $rc = 1 ] && diff -u "$tmp/expected" "$tmp/actual" >"$tmp/diff"; then
    echo "PASS: cycles/self-test"
else
    sed 's/^/    /' "$tmp/diff"
    echo "FAIL: cycles/self-test: the checker's verdicts on a tree with known cycles differ (exit $rc)"
fi
# a source without an object is a failure, not a pass
echo 'int lonely(void) { return 0; }' >"$tmp/clean/lonely.c"
if tests/cycles.sh -r "$tmp" -b "$tmp/build" clean | grep -q '^FAIL: cycles/clean: no object for clean/lonely.c'; then
    echo "PASS: cycles/self-test-unbuilt"
else
    echo "FAIL: cycles/self-test-unbuilt: a source without an object was not reported"
fi
exit 0
