#!/usr/bin/env bash
# Limits of the installed medleyc, on inputs generated here (too big to
# commit): each is an error with a message (exit 1), or simply works, and
# never a crash, a hang or a half-written output.  See docs/robustness.md.
#   * nesting thousands deep in sizes and sections (parser stack);
#   * megabyte identifiers, integer literals, comments and lines;
#   * NUL bytes, invalid UTF-8, random bytes;
#   * a 100,000-task spec checks in seconds and bounded memory;
#   * output directory read-only or full: exit 2, nothing written, the
#     previous outputs untouched (private mount namespace; needs root and
#     unshare, else an unwritable /proc directory only).
# (tests/suite-golden.sh has deep expressions in consts, a megabyte
# identifier, a binary file and the driver's missing directories.)
set -u
cd "$(dirname "$0")/.."
medleyc=${MEDLEY_STAGE:?set MEDLEY_STAGE (make check does)}/bin/medleyc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=$tmp/gen
mkdir -p "$gen/out"

# run ARGS...: medleyc in $gen with a 60 s limit; sets rc, $tmp/stderr
run() {
    (cd "$gen" && exec timeout -s KILL 60 "$medleyc" "$@") >/dev/null 2>"$tmp/stderr"
    rc=$?
}
# check NAME WANT_RC PATTERN [MAX_LINES]: like suite-golden's check
check() {
    local name=$1 want=$2 pattern=$3 maxlines=${4:-10} lines
    lines=$(wc -l <"$tmp/stderr")
    if [ "$rc" -ne "$want" ]; then
        sed -n '1,5s/^/    /p' "$tmp/stderr" | cut -c1-200
        echo "FAIL: limits/$name: exit $rc, expected $want"
    elif [ -z "$pattern" ] && [ -s "$tmp/stderr" ]; then
        sed -n '1,5s/^/    /p' "$tmp/stderr" | cut -c1-200
        echo "FAIL: limits/$name: unexpected diagnostics"
    elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$tmp/stderr"; then
        sed -n '1,5s/^/    /p' "$tmp/stderr" | cut -c1-200
        echo "FAIL: limits/$name: stderr does not match /$pattern/"
    elif [ "$lines" -gt "$maxlines" ]; then
        echo "FAIL: limits/$name: $lines lines on stderr (at most $maxlines expected)"
    elif [ "$want" -ne 0 ] && [ -n "$(ls -A "$gen/out")" ]; then
        echo "FAIL: limits/$name: files written despite exit $rc"
    else
        echo "PASS: limits/$name"
    fi
    rm -rf "$gen/out" && mkdir "$gen/out"
}
rep() { awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }

# ---------------------------------------------------------------- nesting
for n in 10001 100000; do
    echo "Task a(i) uses { vector<int>[$(rep '(' $n)4$(rep ')' $n)] V; }" >"$gen/size.mdl"
    run -o out size.mdl
    check "nesting/size_parentheses[$n]" 1 '^size\.mdl:1:[0-9]+: error: expression too deeply nested$' 3
done
{ echo "Task a(i) uses { vector<int>[10] V; int k; }"
  echo "sends { m = sequence{V[$(rep '(' 50000)k$(rep ')' 50000)]}; }"; } >"$gen/section.mdl"
run -o out section.mdl
check nesting/section_index 1 '^section\.mdl:2:[0-9]+: error: expression too deeply nested$' 3
echo "const N = $(rep '-(' 20000)1$(rep ')' 20000);" >"$gen/mixed.mdl"
run -o out mixed.mdl
check nesting/signs_and_parentheses 1 '^mixed\.mdl:1:[0-9]+: error: expression too deeply nested$' 3
echo "Task a(i) uses { int x; } sends { m = sequence{$(rep '{' 100000)x$(rep '}' 100000)}; }" >"$gen/braces.mdl"
run -o out braces.mdl
check nesting/braces 1 "^braces\.mdl:1:[0-9]+: error: unexpected '\{'" 20
echo "Task a(i) uses { int x; } sends { $(rep 'sync { ' 100000) m = sequence{x}; $(rep '} ' 100000)}" >"$gen/blocks.mdl"
run -o out blocks.mdl
check nesting/sync_blocks 1 "^blocks\.mdl:1:[0-9]+: error: unexpected keyword 'sync'" 20
# just under the parser stack limit: fine
echo "const N = $(rep '(' 9000)1$(rep ')' 9000); Task a(i) uses { vector<int>[N] V; }" >"$gen/deep_ok.mdl"
run -o out deep_ok.mdl
check nesting/deep_but_fine 0 '' 0

# ---------------------------------------------------------------- megabytes
mb=1048576
{ printf 'Task a(i) uses { vector<int>['; rep 9 $mb; echo '] V; }'; } >"$gen/literal.mdl"
run -o out literal.mdl
check megabyte/integer_literal 1 '^literal\.mdl:1:30: error: integer literal too large$' 3
{ printf 'Task a(i) uses { int x; } /*'; rep 'comment ' $((mb / 8)); printf '*/\n'; } >"$gen/comment.mdl"
run -o out comment.mdl
check megabyte/comment 0 '' 0
{ printf 'Task a(i) uses { /*'; rep 'x' $mb; } >"$gen/unterminated.mdl"
run -o out unterminated.mdl
check megabyte/unterminated_comment 1 '^unterminated\.mdl:1:18: error: unterminated comment$' 6
# one line holding 50,000 declarations
{ printf 'Task a(i) uses { int v0'; awk 'BEGIN { for (i = 1; i < 50000; i++) printf ", v%d", i }'
  printf '; } sends { m = sequence{v0, v49999}; } receives { m = sequence{v0, v49999}; }\n'; } >"$gen/longline.mdl"
run -o out longline.mdl
check megabyte/long_line_ok 0 '' 0
# megabyte identifiers as a message and a peer: the message shortens the
# names, the source line is shown as a window
big=$(rep x $mb)
printf 'Task a(i) uses { int y; } sends { %s to %s = sequence{y}; }\n' "$big" "$big" >"$gen/bigpeer.mdl"
run -o out bigpeer.mdl
check megabyte/unknown_peer 1 "^bigpeer\.mdl:1:1048615: error: message 'x{64}\.\.\.x{16}' of task 'a' names unknown task 'x{64}\.\.\.x{16}'$" 3
if [ "$(wc -c <"$tmp/stderr")" -gt 1000 ]; then
    echo "FAIL: limits/megabyte/unknown_peer_size: $(wc -c <"$tmp/stderr") bytes of diagnostics"
else
    echo "PASS: limits/megabyte/unknown_peer_size"
fi

# ---------------------------------------------------------------- bytes
printf 'Task a\0b(i) uses { int x\0y; }\n' >"$gen/nul.mdl"
run -o out nul.mdl
check bytes/nul_in_identifiers 1 '^nul\.mdl:1:7: error: null character in input$' 12
printf 'Task caf\xc3\xa9(i) uses { int \xff\xfe; double \xed\xa0\x80x; }\n' >"$gen/utf8.mdl"
run -o out utf8.mdl
check bytes/invalid_utf8 1 '^utf8\.mdl:1:9: error: stray .* in spec$' 30
# 64 KiB of random bytes (fixed seed) around a valid spec, and alone
perl -e 'srand(42); print map { chr(int(rand(256))) } 1 .. 65536' >"$gen/random.bin"
cp "$gen/random.bin" "$gen/random.mdl"
run -o out random.mdl
check bytes/random 1 'error: too many errors \(more than 20\), stopping$' 80
{ cat tests/golden/ok/collectives.mdl; head -c 300 "$gen/random.bin"; } >"$gen/tail.mdl"
run -o out tail.mdl
check bytes/random_tail 1 '^tail\.mdl:[0-9]+:[0-9]+: error: ' 80

# ---------------------------------------------------------------- scale
# 100,000 tasks in a ring, each with a send and a receive: the checks are
# linear (hash lookups, pairing within the peer task)
awk 'BEGIN { n = 100000
  for (i = 0; i < n; i++)
    printf "Task t%d connected with t%d\nuses { int x; double v[4]; }\nsends { m%d to t%d = sequence{x, v}; }\nreceives { r%d from t%d = sequence{x, v}; }\n",
           i, (i + 1) % n, i, (i + 1) % n, i, (i + n - 1) % n }' >"$gen/tasks.mdl"
start=$(date +%s%N)
if command -v /usr/bin/time >/dev/null && [ -x /usr/bin/time ]; then
    (cd "$gen" && exec /usr/bin/time -f '%M' -o "$tmp/mem" timeout -s KILL 60 "$medleyc" --check tasks.mdl) \
        >/dev/null 2>"$tmp/stderr"
    rc=$?
else
    run --check tasks.mdl
fi
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check scale/100000_tasks 0 '' 0
kb=$(cat "$tmp/mem" 2>/dev/null || echo 0)
echo "    100,000 tasks: --check in $ms ms, ${kb} KB maximum resident"
# (ASan builds take about 3 times the memory and time)
scale=1
[ "${SANITIZE:-}" = 1 ] && scale=4
if [ "$ms" -gt $((20000 * scale)) ]; then
    echo "FAIL: limits/scale/100000_tasks_time: $ms ms (more than $((20 * scale)) s: something is quadratic again)"
elif [ "$kb" -gt $((1048576 * scale)) ]; then
    echo "FAIL: limits/scale/100000_tasks_memory: $kb KB (more than $scale GiB)"
else
    echo "PASS: limits/scale/100000_tasks_time_memory"
fi
# and 2,000 of them through code generation
awk 'BEGIN { n = 2000
  for (i = 0; i < n; i++)
    printf "Task t%d connected with t%d\nuses { int x; double v[4]; }\nsends { m%d to t%d = sequence{x, v}; }\nreceives { r%d from t%d = sequence{x, v}; }\n",
           i, (i + 1) % n, i, (i + 1) % n, i, (i + n - 1) % n }' >"$gen/tasks2k.mdl"
run -o out tasks2k.mdl
if [ "$rc" -eq 0 ] && [ "$(ls "$gen/out" | grep -c 'MDL\.[ch]$')" -eq 4000 ]; then
    echo "PASS: limits/scale/2000_tasks_emitted"
else
    echo "FAIL: limits/scale/2000_tasks_emitted: exit $rc, $(ls "$gen/out" | wc -l) files"
fi
rm -rf "$gen/out" && mkdir "$gen/out"

# ---------------------------------------------------------------- outputs
printf 'Task a(i)\nuses { int x; }\n' >"$gen/ok.mdl"
# files cannot be created in /proc, even by root
run -o /proc ok.mdl
check outdir/proc 2 "^medleyc: error: cannot (create|write to) '/proc" 2

# --dot to something that is not a regular file is written through its
# path: a rename over it replaced the device or link (as root, `--dot
# /dev/null` replaced /dev/null by a regular file)
mkfifo "$gen/fifo"
(timeout 10 cat "$gen/fifo" >"$tmp/fromfifo" &)
run -o out --dot fifo ok.mdl
if [ "$rc" -eq 0 ] && [ -p "$gen/fifo" ] && sleep 0.2 && grep -q '^digraph' "$tmp/fromfifo"; then
    echo "PASS: limits/outdir/dot_to_fifo"
else
    echo "FAIL: limits/outdir/dot_to_fifo: exit $rc, $(ls -l "$gen/fifo")"
fi
rm -rf "$gen/out" && mkdir "$gen/out"
# a private link like /dev/stdout, never the real one: if this breaks,
# only the link in $gen is replaced
ln -s /proc/self/fd/1 "$gen/stdout"
(cd "$gen" && exec timeout 60 "$medleyc" -o out --dot stdout ok.mdl) >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^digraph' "$tmp/stdout" && [ -L "$gen/stdout" ]; then
    echo "PASS: limits/outdir/dot_to_stdout_link"
else
    echo "FAIL: limits/outdir/dot_to_stdout_link: exit $rc, $(ls -l "$gen/stdout")"
fi
rm -rf "$gen/out" && mkdir "$gen/out"
if [ "$(id -u)" -eq 0 ] && mknod "$gen/full" c 1 7 2>/dev/null; then
    # a private copy of /dev/full: the run fails, the device stays, and
    # the C files are not left behind either (one set with the graph)
    run -o out --dot full ok.mdl
    if [ "$rc" -eq 2 ] && [ -c "$gen/full" ] && [ -z "$(ls -A "$gen/out")" ] &&
       grep -q "^medleyc: error: cannot write 'full': No space left on device$" "$tmp/stderr"; then
        echo "PASS: limits/outdir/dot_to_full_device"
    else
        echo "FAIL: limits/outdir/dot_to_full_device: exit $rc, $(ls -l "$gen/full"), $(ls "$gen/out"), $(head -c 200 "$tmp/stderr")"
    fi
    rm -rf "$gen/out" && mkdir "$gen/out"
fi

# in_mount OPTS PREPARE: runs medleyc -o on a fresh tmpfs mounted with
# OPTS in a private mount namespace, after the shell code PREPARE ran in
# it (rw); rc, $tmp/stderr, and $tmp/after: the directory's files and the
# content of the old aMDL.h afterwards.
in_mount() {
    local opts=$1 prepare=$2 mnt=$tmp/mnt
    mkdir -p "$mnt"
    unshare -m sh -c '
        mount --make-rprivate / 2>/dev/null
        mount -t tmpfs -o size=64k tmpfs "$1" || exit 90
        cd "$1" && eval "$5" && cd / || exit 91
        mount -o "remount,$4" "$1" || exit 92
        cd "$2" && "$3" -o "$1" ok.mdl
        rc=$?
        { ls -A "$1"; cat "$1/aMDL.h"; } >"$6"
        exit $rc' sh "$mnt" "$gen" "$medleyc" "$opts" "$prepare" "$tmp/after" \
        >/dev/null 2>"$tmp/stderr"
    rc=$?
}
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    old='echo "/* old output */" >aMDL.h'
    in_mount ro "$old"
    if [ "$rc" -ne 2 ] || ! grep -q "^medleyc: error: cannot write to '.*': Read-only file system$" "$tmp/stderr"; then
        echo "FAIL: limits/outdir/read_only: exit $rc, $(head -c 200 "$tmp/stderr")"
    elif [ "$(cat "$tmp/after")" != "$(printf 'aMDL.h\n/* old output */')" ]; then
        echo "FAIL: limits/outdir/read_only: directory changed: $(tr '\n' ' ' <"$tmp/after")"
    else
        echo "PASS: limits/outdir/read_only"
    fi
    # full: 64 KiB, all but 4 KiB taken by a filler
    in_mount rw "$old; head -c 61440 /dev/zero >filler 2>/dev/null; head -c 100000 /dev/zero >>filler 2>/dev/null; true"
    if [ "$rc" -ne 2 ] || ! grep -q "No space left on device" "$tmp/stderr"; then
        echo "FAIL: limits/outdir/full: exit $rc, $(head -c 200 "$tmp/stderr")"
    elif [ "$(cat "$tmp/after")" != "$(printf 'aMDL.h\nfiller\n/* old output */')" ]; then
        echo "FAIL: limits/outdir/full: directory changed: $(tr '\n' ' ' <"$tmp/after")"
    else
        echo "PASS: limits/outdir/full"
    fi
else
    echo "not root or no unshare: read-only and full output directories not tested"
fi
