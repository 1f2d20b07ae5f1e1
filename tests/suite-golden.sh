#!/usr/bin/env bash
# Golden tests of medleyc: exit status and the exact diagnostics.
#
# Every tests/golden/<dir>/<name>.mdl is one test, named golden/<dir>/<name>.
#   * An optional first line `// ARGS: <arguments>` gives extra medleyc
#     arguments (split on blanks; @OUT@ stands for the output directory),
#     e.g. `// ARGS: -D N=4 --dot @OUT@/graph.dot`.
#   * <name>.expected holds the expected result: the first line is
#     `exit: N`, the rest is the exact stderr of
#         cd tests/golden/<dir> && medleyc -o <fresh empty dir> <ARGS> <name>.mdl
#     (so paths in messages are just the file name; the output directory
#     appears as @OUT@).
#   * An optional <name>.files lists, one per line and sorted, the files
#     medleyc must have written into the output directory.
# A test passes when the exit status and stderr match exactly, and, when the
# exit status is not 0, the output directory is still empty (nothing is
# written on error).
#
#   UPDATE=1 tests/suite-golden.sh    rewrites every .expected from the
#                                     actual results: review them with git diff.
#   GOLDEN=sema tests/suite-golden.sh runs only tests/golden/sema.
#
# Inputs too big to commit (deep nesting, megabyte identifiers, a binary
# file) and driver usage errors are generated at the end of this script.
set -u
cd "$(dirname "$0")/.."
root=$PWD
medleyc=${MEDLEY_STAGE:?set MEDLEY_STAGE (make check does)}/bin/medleyc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

# run_medleyc DIR OUTDIR ARGS... : runs in DIR; sets rc and writes $tmp/stderr
run_medleyc() {
    local dir=$1 out=$2
    shift 2
    (cd "$dir" && exec "$medleyc" "$@") >"$tmp/stdout" 2>"$tmp/stderr.raw"
    rc=$?
    # the output directory is shown as @OUT@ so expected files are stable
    sed "s|$out|@OUT@|g" "$tmp/stderr.raw" >"$tmp/stderr"
}

golden_one() {
    local spec=$1
    local dir=${spec%/*} base=${spec##*/}
    local stem=${spec%.mdl}
    local name=golden/${stem#tests/golden/}
    local expected=$stem.expected
    local out=$tmp/out
    rm -rf "$out" && mkdir "$out"
    local args=()
    local first
    IFS= read -r first <"$spec" || true
    case $first in
        "// ARGS:"*) read -r -a args <<<"${first#// ARGS:}" ;;
    esac
    args=("${args[@]//@OUT@/$out}")
    run_medleyc "$dir" "$out" -o "$out" "${args[@]}" "$base"
    { echo "exit: $rc"; cat "$tmp/stderr"; } >"$tmp/actual"
    if [ -n "${UPDATE:-}" ]; then
        cp "$tmp/actual" "$expected"
    fi
    if [ ! -f "$expected" ]; then
        fail "$name" "no $expected (UPDATE=1 creates it)"
        return
    fi
    if ! cmp -s "$expected" "$tmp/actual"; then
        diff -u "$expected" "$tmp/actual" | sed -n '3,23s/^/    /p'
        fail "$name" "exit status or diagnostics differ from $expected (if intended: UPDATE=1 MEDLEY_SUITES=golden make check, then review git diff)"
        return
    fi
    if [ "$rc" -ne 0 ] && [ -n "$(ls -A "$out")" ]; then
        fail "$name" "exit $rc but files were written: $(ls -A "$out" | tr '\n' ' ')"
        return
    fi
    if [ -f "$stem.files" ] && ! (cd "$out" && ls -A | sort) | cmp -s - "$stem.files"; then
        fail "$name" "written files differ from $stem.files: $(ls -A "$out" | tr '\n' ' ')"
        return
    fi
    pass "$name"
}

while IFS= read -r spec; do
    golden_one "$spec"
done < <(find "tests/golden/${GOLDEN:-}" -name '*.mdl' 2>/dev/null | LC_ALL=C sort)

[ -n "${GOLDEN:-}" ] && exit 0

# ---------------------------------------------------------------- generated
# check NAME EXPECTED_RC GREP_PATTERN [MAX_STDERR_LINES]: the last run
# exited with EXPECTED_RC, its stderr has a line matching the pattern (an
# empty pattern: stderr is empty), is short, and nothing was written.
check() {
    local name=$1 want=$2 pattern=$3 maxlines=${4:-10}
    local lines
    lines=$(wc -l <"$tmp/stderr")
    if [ "$rc" -ne "$want" ]; then
        sed -n '1,5s/^/    /p' "$tmp/stderr" | cut -c1-200
        fail "$name" "exit $rc, expected $want"
    elif [ -z "$pattern" ] && [ -s "$tmp/stderr" ]; then
        sed -n '1,5s/^/    /p' "$tmp/stderr" | cut -c1-200
        fail "$name" "unexpected diagnostics"
    elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$tmp/stderr"; then
        sed -n '1,5s/^/    /p' "$tmp/stderr" | cut -c1-200
        fail "$name" "stderr does not match /$pattern/"
    elif [ "$lines" -gt "$maxlines" ]; then
        fail "$name" "$lines lines on stderr (at most $maxlines expected)"
    elif [ "$want" -ne 0 ] && [ -n "$(ls -A "$gen/out")" ]; then
        fail "$name" "files written despite exit $rc"
    else
        pass "$name"
    fi
}

gen=$tmp/gen
mkdir -p "$gen/out"

# 100000 nested parentheses: the parser stack limit, not a crash
awk 'BEGIN { printf "const N = "; for (i = 0; i < 100000; i++) printf "(";
             printf "1"; for (i = 0; i < 100000; i++) printf ")"; print ";" }' >"$gen/deep.mdl"
run_medleyc "$gen" "$gen/out" -o out deep.mdl
check golden/generated/deep_parentheses 1 '^deep\.mdl:1:[0-9]+: error: expression too deeply nested$' 3

# 100000 signs in a row
awk 'BEGIN { printf "const N = "; for (i = 0; i < 100000; i++) printf "-"; print "1;" }' >"$gen/signs.mdl"
run_medleyc "$gen" "$gen/out" -o out signs.mdl
check golden/generated/deep_unary 1 '^signs\.mdl:1:[0-9]+: error: expression too deeply nested$' 3

# 1+1+…+1 with 200000 terms: a tree too deep for the recursive stages
awk 'BEGIN { printf "const N = "; for (i = 0; i < 200000; i++) printf "1+"; print "1;" }' >"$gen/chain.mdl"
run_medleyc "$gen" "$gen/out" -o out chain.mdl
check golden/generated/long_chain 1 '^chain\.mdl:1:11: error: expression too deeply nested$' 3

# megabyte-long identifiers and lines are fine
big=$(head -c 1048576 /dev/zero | tr '\0' x)
printf 'Task %s(i)\nuses { int %s; }\n' "$big" "$big" >"$gen/long.mdl"
run_medleyc "$gen" "$gen/out" --check long.mdl
check golden/generated/megabyte_identifier 0 '' 0

# ...and an error on such a line shows a window of it, not a megabyte
printf 'Task %s(i) uses { int %s }\n' "$big" "$big" >"$gen/longerr.mdl"
run_medleyc "$gen" "$gen/out" -o out longerr.mdl
check golden/generated/megabyte_line_error 1 "^longerr\.mdl:1:2097173: error: expected ';' after declaration$" 3
if [ "$(wc -c <"$tmp/stderr")" -gt 2000 ]; then
    fail golden/generated/megabyte_line_window "$(wc -c <"$tmp/stderr") bytes of diagnostics"
else
    pass golden/generated/megabyte_line_window
fi

# a binary file: a bounded report
cp "$medleyc" "$gen/binary.mdl"
run_medleyc "$gen" "$gen/out" -o out binary.mdl
check golden/generated/binary_file 1 '^medleyc: error: too many errors \(more than 20\), stopping$' 70

# the item-order warning changes nothing in the generated code: the same
# pairs written with `matches` (no warning) give the same files
mkdir -p "$gen/order/warned" "$gen/order/quiet/out"
sed -e 's/sequence{hist, hits};/sequence{hist, hits} matches result;/' \
    -e 's/sequence{sumsq, n, sum};/sequence{sumsq, n, sum} matches moments;/' \
    -e 's/sequence{V\[0..4\], V\[5..9\], hi, lo};/sequence{V[0..4], V[5..9], hi, lo} matches edge;/' \
    tests/golden/sema/pair_item_order.mdl >"$gen/order/quiet/pair_item_order.mdl"
run_medleyc tests/golden/sema "$gen/order/warned" -o "$gen/order/warned" pair_item_order.mdl
warned_rc=$rc warned_lines=$(grep -c ': warning: ' "$tmp/stderr")
run_medleyc "$gen/order/quiet" "$gen/order/quiet/out" -o out pair_item_order.mdl
if [ "$warned_rc" -ne 0 ] || [ "$warned_lines" -ne 3 ] || [ "$rc" -ne 0 ] || [ -s "$tmp/stderr" ]; then
    fail golden/generated/item_order_code_unchanged "exit $warned_rc with $warned_lines warnings, then exit $rc: $(head -c 200 "$tmp/stderr")"
elif ! diff -r "$gen/order/warned" "$gen/order/quiet/out" >/dev/null; then
    fail golden/generated/item_order_code_unchanged "the generated files differ"
else
    pass golden/generated/item_order_code_unchanged
fi

# ---------------------------------------------------------------- driver
printf 'const N = 4;\nTask a(i)\nuses { int x; }\n' >"$gen/ok.mdl"

run_medleyc "$gen" "$gen/out" -o out missing.mdl
check golden/driver/missing_input 2 "^medleyc: error: cannot read 'missing\.mdl': No such file or directory$" 1

# -o DIR and the --dot file's directory are created with their parents
# (mkdir -p), but only by a run that writes: not on an error
# expect_files NAME DIR FILE...: the last run exited 0 and wrote exactly these
expect_files() {
    local name=$1 dir=$2
    shift 2
    local want got
    want=$(printf '%s\n' "$@" | LC_ALL=C sort)
    got=$(cd "$dir" 2>/dev/null && ls -A | LC_ALL=C sort)
    if [ "$rc" -ne 0 ] || [ -s "$tmp/stderr" ]; then
        fail "$name" "exit $rc: $(head -c 200 "$tmp/stderr")"
    elif [ "$want" != "$got" ]; then
        fail "$name" "files in $dir: $(echo $got)"
    else
        pass "$name"
    fi
}
run_medleyc "$gen" "$gen/out" -o new/sub/dir ok.mdl
expect_files golden/driver/new_outdir "$gen/new/sub/dir" aMDL.c aMDL.h aMDL.hh okMDL_common.h
rm -rf "$gen/new"

run_medleyc "$gen" "$gen/out" -o dots/gen --dot dots/graph/g.dot ok.mdl
expect_files golden/driver/new_dot_dir "$gen/dots" gen graph
[ -f "$gen/dots/graph/g.dot" ] || fail golden/driver/new_dot_dir_file "no dots/graph/g.dot"
rm -rf "$gen/dots"

printf 'Task a(i)\nuses { int x; }\nsends { m = sequence{y}; }\n' >"$gen/bad.mdl"
run_medleyc "$gen" "$gen/out" -o new/sub --dot new2/g.dot bad.mdl
check golden/driver/new_outdir_not_made_on_error 1 "unknown variable 'y'" 5
if [ -e "$gen/new" ] || [ -e "$gen/new2" ]; then
    fail golden/driver/new_outdir_left_behind "a run with errors created $(cd "$gen" && ls -d new new2 2>/dev/null)"
else
    pass golden/driver/new_outdir_left_behind
fi

run_medleyc "$gen" "$gen/out" -o ok.mdl ok.mdl
check golden/driver/outdir_not_a_directory 2 "^medleyc: error: cannot write to 'ok\.mdl': Not a directory$" 1

run_medleyc "$gen" "$gen/out" -o ok.mdl/sub/dir ok.mdl
check golden/driver/outdir_under_a_file 2 "^medleyc: error: cannot write to 'ok\.mdl/sub/dir': Not a directory$" 1

run_medleyc "$gen" "$gen/out" -o out --dot ok.mdl/g.dot ok.mdl
check golden/driver/dot_dir_a_file 2 "^medleyc: error: cannot write 'ok\.mdl/g\.dot': Not a directory$" 1

# /proc takes no new directory: the failure comes when creating it, and
# nothing else is written
run_medleyc "$gen" "$gen/out" -o out --dot /proc/medley-no/g.dot ok.mdl
check golden/driver/mkdir_fails 2 "^medleyc: error: cannot create directory '/proc/medley-no': " 1

for bad in N N= =4 N=x N=4x 1N=2 N=99999999999999999999; do
    run_medleyc "$gen" "$gen/out" -o out -D "$bad" ok.mdl
    check "golden/driver/bad_define[$bad]" 2 "^medleyc: error: invalid -D '$bad': expected NAME=INTEGER$" 2
done

run_medleyc "$gen" "$gen/out" -o out --frobnicate ok.mdl
check golden/driver/unknown_option 2 "^medleyc: error: unknown option '--frobnicate'$" 2

run_medleyc "$gen" "$gen/out" -o out
check golden/driver/no_input 2 "^medleyc: error: no input file$" 2

run_medleyc "$gen" "$gen/out" -o out ok.mdl ok.mdl
check golden/driver/two_inputs 2 "^medleyc: error: more than one input file" 2

run_medleyc "$gen" "$gen/out" --version
if [ "$rc" -eq 0 ] && grep -qE '^medleyc [0-9]+\.[0-9]+' "$tmp/stdout"; then
    pass golden/driver/version
else
    fail golden/driver/version "exit $rc, stdout: $(head -c 100 "$tmp/stdout")"
fi

run_medleyc "$gen" "$gen/out" --help
if [ "$rc" -eq 0 ] && grep -q '^usage: medleyc' "$tmp/stdout" && [ ! -s "$tmp/stderr" ]; then
    pass golden/driver/help
else
    fail golden/driver/help "exit $rc"
fi

run_medleyc "$gen" "$gen/out" -o out --check -D N=-3 -D M=7 ok.mdl
check golden/driver/check_writes_nothing 0 '' 0
