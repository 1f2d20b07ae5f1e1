#!/usr/bin/env bash
# Golden generated code: the exact output of medleyc, byte for byte.
#
# Every change of what users compile is then a reviewed diff.  Cases: the
# spec of each example (examples/<dir>/<dir>.mdl, case <dir>, generated
# with --fortran: the C files and the Fortran modules), the spec of
# e2e/fortran_types with --fortran (case fortran_types: every mapping of
# the Fortran modules), that of e2e/rtsize_fortran with --fortran (case
# rtsize_fortran: run-time-sized variables, MDL_Allocate and the views)
# and every
# tests/golden-code/<name>.mdl (case <name>; an optional first line
# `// ARGS: <arguments>` gives medleyc arguments).  Each is run as
#     cd <spec's directory> && medleyc -o <out> --dot <out>/graph.dot <ARGS> <spec>
# and <out> must equal tests/golden-code/expected/<case>/ exactly (same
# files, same bytes; the dot graph is part of the output).
#
#   UPDATE=1 MEDLEY_SUITES=golden-code make check
#       rewrites tests/golden-code/expected/ from the actual output; review
#       it with `git diff tests/golden-code` before committing.
# (That the generated code compiles and runs is the gen and e2e suites' job.)
set -u
cd "$(dirname "$0")/.."
medleyc=${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}/bin/medleyc
tmp=$(mktemp -d "${TMPDIR:-/tmp}/medley-golden-code.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
expected_root=tests/golden-code/expected

golden_code() {    # golden_code CASE SPEC [medleyc arguments…]
    local case=$1 spec=$2
    shift 2
    local name=golden-code/$case out=$tmp/$case expected=$expected_root/$case
    local args=("$@") more=() first
    IFS= read -r first <"$spec" || true
    case $first in
        "// ARGS:"*) read -r -a more <<<"${first#// ARGS:}"; args+=("${more[@]}") ;;
    esac
    mkdir -p "$out"
    if ! (cd "$(dirname "$spec")" && exec "$medleyc" -o "$out" --dot "$out/graph.dot" \
            "${args[@]}" "$(basename "$spec")") >"$tmp/$case.log" 2>&1; then
        echo "FAIL: $name: medleyc failed: $(head -c 300 "$tmp/$case.log" | tr '\n' ' ')"
        return
    fi
    if [ -n "${UPDATE:-}" ]; then
        rm -rf "$expected" && mkdir -p "$expected" && cp "$out"/* "$expected"/
    fi
    if [ ! -d "$expected" ]; then
        echo "FAIL: $name: no $expected (UPDATE=1 MEDLEY_SUITES=golden-code make check creates it)"
        return
    fi
    if ! diff -ru "$expected" "$out" >"$tmp/$case.diff" 2>&1; then
        sed -n -e "s|$out|(medleyc output)|g" -e '1,60s/^/    /p' "$tmp/$case.diff"
        local lines
        lines=$(wc -l <"$tmp/$case.diff")
        [ "$lines" -gt 60 ] && echo "    ... ($lines lines of diff in all)"
        echo "FAIL: $name: generated code differs from $expected; if the change is intended, refresh with UPDATE=1 MEDLEY_SUITES=golden-code make check and review git diff"
        return
    fi
    echo "PASS: $name"
}

for spec in examples/*/*.mdl; do
    golden_code "$(basename "$spec" .mdl)" "$spec" --fortran
done
golden_code fortran_types tests/e2e/fortran_types/spec.mdl --fortran
golden_code rtsize_fortran tests/e2e/rtsize_fortran/spec.mdl --fortran
for spec in tests/golden-code/*.mdl; do
    golden_code "$(basename "$spec" .mdl)" "$spec"
done
exit 0
