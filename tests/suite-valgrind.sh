#!/usr/bin/env bash
# medleyc frees what it allocates and reads no uninitialised memory:
# valgrind --leak-check=full on the installed medleyc, for valid specs
# (with --dot), spec errors of each stage, a binary file, a parser stack
# overflow and an I/O failure.  Every leak kind counts (the compiler frees
# its arena, buffers and scanner even on errors).  Needs valgrind; without
# it, or under SANITIZE=1, the suite says so and runs nothing.
set -u
cd "$(dirname "$0")/.."
medleyc=${MEDLEY_STAGE:?set MEDLEY_STAGE (make check does)}/bin/medleyc
if ! command -v valgrind >/dev/null; then
    echo "SKIP: valgrind: valgrind is not installed"
    exit 0
fi
if [ "${SANITIZE:-}" = 1 ]; then
    echo "SKIP: valgrind: valgrind and ASan do not mix under SANITIZE=1 (LeakSanitizer checks the other suites)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# vg NAME WANT_RC ARGS...: medleyc under valgrind exits WANT_RC, no report
vg() {
    local name=$1 want=$2
    shift 2
    rm -rf "$tmp/out" && mkdir "$tmp/out"
    valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
        --error-exitcode=99 "$medleyc" "$@" >/dev/null 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 99 ] || grep -q '^==[0-9]*==' "$tmp/err"; then
        grep '^==' "$tmp/err" | sed -n '1,8s/^/    /p'
        echo "FAIL: valgrind/$name: valgrind reported errors"
    elif [ "$rc" -ne "$want" ]; then
        echo "FAIL: valgrind/$name: exit $rc, expected $want"
    else
        echo "PASS: valgrind/$name"
    fi
}

for spec in examples/*/*.mdl; do
    n=${spec##*/}
    vg "ok/${n%.mdl}" 0 -o "$tmp/out" --dot "$tmp/out/graph.dot" "$spec"
done
vg check_only 0 --check tests/golden/ok/collectives.mdl
for spec in tests/golden/syntax/missing_semicolon.mdl tests/golden/syntax/nul_byte.mdl \
            tests/golden/syntax/invalid_utf8.mdl tests/golden/sema/pair_ambiguous.mdl \
            tests/golden/sema/coll_args.mdl tests/golden/sema/struct_recursive.mdl \
            tests/golden/limits/sizes.mdl; do
    n=${spec#tests/golden/}
    vg "error/${n%.mdl}" 1 -o "$tmp/out" "$spec"
done
head -c 20000 "$medleyc" >"$tmp/binary.mdl"
vg error/binary 1 -o "$tmp/out" "$tmp/binary.mdl"
awk 'BEGIN { printf "const N = "; for (i = 0; i < 20000; i++) printf "(";
             printf "1"; for (i = 0; i < 20000; i++) printf ")"; print ";" }' >"$tmp/deep.mdl"
vg error/deep_nesting 1 -o "$tmp/out" "$tmp/deep.mdl"
# a missing output directory is created (mkdir -p), or fails to be
vg io/new_outdir 0 -o "$tmp/new/sub" tests/golden/ok/collectives.mdl
vg io/outdir_not_made 2 -o /proc/medley-no/sub tests/golden/ok/collectives.mdl
# files cannot be created there (even as root): the writer's failure path
vg io/unwritable_outdir 2 -o /proc tests/golden/ok/collectives.mdl
