#!/usr/bin/env bash
# mdltrace (tools/mdltrace/, docs/tracing.md) on the hand-written traces of
# tests/trace/: the report, the matrix (SVG and CSV), --spec, --check,
# malformed and cut files, and a large synthetic trace.
#
# Expected outputs are tests/trace/expected/<name>.out (stdout, then the
# exit status); UPDATE=1 rewrites them (review with git diff).
set -u
cd "$(dirname "$0")/.."
T=${MEDLEY_STAGE:?run through make check}/bin/mdltrace
D=tests/trace
E=$D/expected
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

pass() { echo "PASS: trace/$1"; }
fail() { echo "FAIL: trace/$1: $2"; }

# run CMD...: stdout in $W/out, stderr in $W/err, status in $rc.
run() {
    "$@" >"$W/out" 2>"$W/err"
    rc=$?
}

# A sanitizer report or a signal is a failure whatever the test expects.
crashed() {
    [ "$rc" -ge 128 ] || grep -qE 'Sanitizer|runtime error:' "$W/err"
}

# golden NAME CMD...: stdout and exit status against $E/NAME.out.
golden() {
    local name=$1
    shift
    run "$@"
    { cat "$W/out"; echo "exit: $rc"; } >"$W/got"
    if [ -n "${UPDATE:-}" ]; then
        cp "$W/got" "$E/$name.out"
    fi
    if crashed; then
        fail "$name" "crashed: $(head -3 "$W/err")"
    elif diff -u "$E/$name.out" "$W/got" >"$W/diff" 2>&1; then
        pass "$name"
    else
        fail "$name" "output differs from $E/$name.out: $(head -12 "$W/diff" | tr '\n' '|')"
    fi
}

# has NAME FILE STRING...: every string occurs in FILE.
has() {
    local name=$1 file=$2
    shift 2
    for s in "$@"; do
        if ! grep -qF -- "$s" "$file"; then
            fail "$name" "'$s' not in $(basename "$file"): $(head -5 "$file" | tr '\n' '|')"
            return 1
        fi
    done
    return 0
}

# ---------------------------------------------------------------- reports

# The Monte Carlo shape of issue 11: father[0] + son[0..2], 60 results.
golden montecarlo $T $D/montecarlo.json
if has montecarlo_facts "$W/out" "4 instances (father[0], son[0..2]), ended normally" \
       "messages traced: 64, all received" &&
   grep -qE '^inMessage +father +MDL_RecvFrom_son_inMessage +60 +60 +720 ' "$W/out"; then
    pass montecarlo_facts
else
    fail montecarlo_facts "no line 'inMessage … 60 calls, 60 messages, 720 bytes'"
fi
golden poisson $T $D/poisson.json
# a line per instance: son[0..2] each with its own calls and times
golden montecarlo_instances $T --instances $D/montecarlo.json
golden dropped_instances $T --instances $D/dropped.json
golden dropped $T $D/dropped.json
run $T $D/dropped.json
has dropped_exact "$W/out" "7 dropped (buffer of 8 events full on father[0], son[1])" \
    "the table below is exact (the runtime's totals)" && pass dropped_exact
golden error $T $D/error.json
run $T $D/error.json
has error_facts "$W/out" "ended by an error:" "son[2] died (killed by signal 9) (MDL_ERR_PEER)" \
    "no data from: son[2]" "1 sent but not received" && pass error_facts

# The same job from standard input, and in the JSON Array Format (events
# only, no otherData): same calls.
run $T - <$D/montecarlo.json
if [ $rc -eq 0 ] && diff <(sed 1d "$W/out") <(sed 1d "$E/montecarlo.out" | sed '$d') >/dev/null; then
    pass stdin
else
    fail stdin "status $rc or other figures than from the file"
fi
sed -n '/^{"traceEvents":\[/,/^\],/p' $D/montecarlo.json | sed '1s/^{"traceEvents"://; $s/^\],$/]/' \
    >"$W/array.json"
run $T "$W/array.json"
if [ $rc -eq 0 ] && grep -q 'no otherData' "$W/out" &&
   grep -qE '^inMessage +father +MDL_RecvFrom_son_inMessage +60 +60 +720 ' "$W/out"; then
    pass array_format
else
    fail array_format "status $rc: $(head -3 "$W/out" "$W/err" | tr '\n' '|')"
fi

# Event types mdltrace does not use are ignored: same table.
sed '2i{"ph":"B","ts":1,"pid":1,"tid":1,"name":"x"},{"ph":"E","ts":2,"pid":1,"tid":1},{"ph":"i","ts":3,"pid":1,"tid":1,"name":"mark","s":"g"},{"ph":"C","ts":4,"pid":1,"name":"ctr","args":{"v":[1,{"a":null}]}},{"ph":"M","ts":0,"pid":2,"tid":2,"name":"thread_sort_index","args":{"sort_index":0}},{"ph":"t","ts":5,"pid":1,"tid":1,"name":"message","cat":"mdl","id":"ffff"},' \
    $D/montecarlo.json >"$W/unknown.json"
run $T "$W/unknown.json"
if [ $rc -eq 0 ] && [ ! -s "$W/err" ] && grep -qxF "  5 events of other types ignored" "$W/out" &&
   diff <(sed '1d;/of other types ignored$/d' "$W/out") <(sed 1d "$E/montecarlo.out" | sed '$d') >/dev/null; then
    pass unknown_events_ignored
else
    fail unknown_events_ignored "status $rc, stderr: $(head -2 "$W/err" | tr '\n' '|')"
fi

# An unusable event is a warning with its position, not an error.
sed '7s/"pid":2/"pid":"two"/' $D/montecarlo.json >"$W/badpid.json"
run $T "$W/badpid.json"
if [ $rc -eq 0 ] && grep -qF "badpid.json:7:1: warning: \"pid\" is not an integer: event ignored" "$W/err" &&
   grep -qF "1 event could not be used" "$W/out"; then
    pass unusable_event_warning
else
    fail unusable_event_warning "status $rc, stderr: $(head -2 "$W/err" | tr '\n' '|')"
fi

# ---------------------------------------------------------------- --check

for f in montecarlo poisson dropped error vec; do
    run $T --check $D/$f.json
    if [ $rc -eq 0 ] && grep -q "follows the medley trace format" "$W/out"; then
        pass check_$f
    else
        fail check_$f "status $rc: $(head -3 "$W/err" | tr '\n' '|')"
    fi
done

# Calls that follow one another exactly: times are whole nanoseconds, so
# 10.0 + 1.12 ends where 11.12 begins although the doubles' sum is larger.
sed -e 's/"ts":10.0,"dur":2.0,\("pid":1,"tid":1,.*\)"copy_us":0.6/"ts":10.0,"dur":1.12,\1"copy_us":0.2/' \
    -e 's/"ts":12.5,"dur":0.5,"pid":1,"tid":1/"ts":11.12,"dur":0.5,"pid":1,"tid":1/' \
    $D/montecarlo.json >"$W/adjacent.json"
run $T --check "$W/adjacent.json"
if [ $rc -eq 0 ] && grep -q '"ts":11.12,"dur":0.5' "$W/adjacent.json"; then
    pass check_adjacent_calls
else
    fail check_adjacent_calls "status $rc: $(head -3 "$W/err" | tr '\n' '|')"
fi

# The example of docs/tracing.md is a valid trace.
sed -n '/^<!-- example trace -->$/,/^```$/p' docs/tracing.md | sed '1,2d;$d' >"$W/doc.json"
run $T --check "$W/doc.json"
if [ $rc -eq 0 ] && [ -s "$W/doc.json" ]; then
    pass check_doc_example
else
    fail check_doc_example "status $rc: $(head -3 "$W/err" | tr '\n' '|')"
fi

# A trace that breaks the format in many ways: each problem is named.
sed -e '/"name":"thread_name","args":{"name":"son\[1\]"}/d' \
    -e 's/"id":"1","bp":"e"/"id":"1"/' \
    -e 's/"ts":5.0,"dur":1.5,"pid":2,"tid":2,"name":"MDL_SendTo_father_startMessage"/"ts":7.0,"dur":1.5,"pid":2,"tid":2,"name":"MDL_SendTo_father_startMessage"/' \
    -e 's/"events": 64,/"events": 65,/' \
    -e 's/"wait_us":5.1,"copy_us":0.3/"wait_us":5.9,"copy_us":0.3/' \
    $D/montecarlo.json >"$W/broken.json"
run $T --check "$W/broken.json"
if [ $rc -eq 1 ] && has check_problems "$W/err" \
       "events on pid 2 tid 3 but no thread_name for it" \
       "flow 'f' id 1 lacks \"bp\":\"e\"" \
       "calls overlap on 'son[0]'" \
       "otherData says 'father[0]' recorded 65 events; the file has 64" \
       "'MDL_RecvFrom_son_startMessage': wait_us + copy_us exceed dur" \
       "flow 's' id 1 on 'son[0]' at ts 5.750 is inside no complete event of its track"; then
    pass check_problems
elif [ $rc -ne 1 ]; then
    fail check_problems "status $rc, expected 1"
fi

# ---------------------------------------------------------------- matrix

golden montecarlo_csv $T --csv $D/montecarlo.json
golden poisson_csv $T --csv $D/poisson.json

. tests/trace/svg_ok.sh
run $T --matrix "$W/mc.svg" $D/montecarlo.json
if [ $rc -eq 0 ] && grep -qF "wrote $W/mc.svg: 4 instances, 6 sender-receiver pairs" "$W/out"; then
    svg_ok svg_montecarlo "$W/mc.svg" 'father[0]' 'son[0]' 'son[1]' 'son[2]'
    has svg_content "$W/mc.svg" "<title>son[0] → father[0]: 256 bytes in 21 messages</title>" \
        "<title>father[0] → son[2]: 8 bytes in 1 message</title>" ">256 B</text>" \
        'id="scale"' ">no message</text>" && pass svg_content
else
    fail svg_montecarlo "status $rc: $(head -3 "$W/err" | tr '\n' '|')"
fi
run $T --matrix "$W/poisson.svg" $D/poisson.json
svg_ok svg_poisson "$W/poisson.svg" 'noeud[0]' 'noeud[1]' 'noeud[2]' 'noeud[3]'

# Names that need escaping in XML and quoting in CSV.
sed -e 's/son\[1\]/s<o>\&n,\\"1\\"[1]/g' $D/montecarlo.json >"$W/odd.json"
run $T --csv --matrix "$W/odd.svg" "$W/odd.json"
if [ $rc -eq 0 ] && grep -qxF '"s<o>&n,""1""[1]",240,0,0,0' "$W/out" && xmllint --noout "$W/odd.svg" 2>/dev/null &&
   grep -qF 's&lt;o&gt;&amp;n,&quot;1&quot;[1]' "$W/odd.svg"; then
    pass odd_names
else
    fail odd_names "status $rc: $(grep -F '1""' "$W/out" | head -1)"
fi

# An output that cannot be written: error, and nothing left behind.
run $T --matrix "$W/no/such/dir/m.svg" $D/montecarlo.json
if [ $rc -eq 2 ] && grep -qF "mdltrace: error: cannot write '$W/no/such/dir/m.svg'" "$W/err"; then
    pass svg_unwritable
else
    fail svg_unwritable "status $rc: $(head -2 "$W/err" | tr '\n' '|')"
fi

# ---------------------------------------------------------------- --spec

golden spec_montecarlo $T --spec examples/montecarlo/montecarlo.mdl $D/montecarlo.json
# poisson.json was recorded with the constant-size spec examples/poisson
# had then (poisson.mdl here)
golden spec_poisson $T --spec $D/poisson.mdl $D/poisson.json
# recorded from a program built with -D N=50: sections shorter than the spec
golden spec_vec_differs $T --spec $D/vec.mdl $D/vec.json
golden spec_vec_defines $T --spec $D/vec.mdl -D N=50 $D/vec.json
# a struct without members takes no byte (the checker's layout, as C's)
golden spec_empty_struct $T --spec $D/empty.mdl $D/empty.json
sed 's/MDL_SendTo_b_parts/MDL_SendTo_b_bogus/' $D/vec.json >"$W/bogus.json"
run $T --spec $D/vec.mdl -D N=50 "$W/bogus.json"
if [ $rc -eq 1 ] && grep -qE '^a +MDL_SendTo_b_bogus +1 +52\.\.52 +- +NOT IN THE SPEC' "$W/out" &&
   grep -qE '^a +MDL_SendTo_b_parts$' "$W/out"; then
    pass spec_not_in_spec
else
    fail spec_not_in_spec "status $rc"
fi
printf 'Task a uses { int x; }\nsends { m to b = sequence{x} }\n' >"$W/bad.mdl"
run $T --spec "$W/bad.mdl" $D/vec.json
if [ $rc -eq 2 ] && grep -qE "bad.mdl:[0-9]+:[0-9]+: error: " "$W/err" &&
   grep -qF "has errors: fix the spec first" "$W/err"; then
    pass spec_with_errors
else
    fail spec_with_errors "status $rc: $(head -2 "$W/err" | tr '\n' '|')"
fi
run $T --spec "$W/none.mdl" $D/vec.json
if [ $rc -eq 2 ] && grep -qF "mdltrace: error: cannot read '$W/none.mdl': No such file or directory" "$W/err"; then
    pass spec_missing
else
    fail spec_missing "status $rc: $(head -2 "$W/err" | tr '\n' '|')"
fi

# ---------------------------------------------------------------- usage

usage() {  # usage NAME EXPECTED_STATUS STDERR_TEXT ARGS...
    local name=$1 want=$2 text=$3
    shift 3
    run $T "$@"
    if [ $rc -eq "$want" ] && grep -qF -- "$text" "$W/err" "$W/out"; then
        pass "usage_$name"
    else
        fail "usage_$name" "status $rc (want $want): $(head -2 "$W/err" | tr '\n' '|')"
    fi
}
usage none 2 "mdltrace: error: no trace file"
usage two 2 "more than one trace file ('b.json')" a.json b.json
usage option 2 "unknown option '--nope'" --nope x.json
usage noarg 2 "option '--matrix' needs an argument" --matrix
usage define 2 "-D is for --spec" -D N=1 x.json
usage instances 2 "--instances is for the table" --instances --csv x.json
usage recover 2 "--recover takes no other option" --recover --csv x.json
usage baddefine 2 "invalid -D 'N'" --spec x.mdl -D N x.json
usage help 0 "usage: mdltrace [options] TRACE" --help
# where --recover looks: the runtime's names of the parts
usage help-parts 0 "/dev/shm/medley-<uid>/trace.<hash>.<job>.<rank>, <hash>" --help
usage version 0 "mdltrace 0." --version
usage missing 2 "mdltrace: error: cannot open 'nope.json': No such file or directory" nope.json
usage directory 2 "tests: error: cannot read: Is a directory" tests

# --recover on parts that are not trace buffers: each named, nothing written
# the report lists the texts of failed calls, ten at most
{
    echo '{"traceEvents":['
    echo '{"ph":"M","ts":0,"pid":1,"tid":1,"name":"thread_name","args":{"name":"a[0]"}},'
    for i in $(seq 12); do
        echo '{"ph":"X","ts":'"$i"',"dur":0.5,"pid":1,"tid":1,"name":"MDL_Barrier","cat":"sync","args":{"error":"a[0]: MDL_Barrier: failure '"$i"'"}},'
    done
    echo '{"ph":"X","ts":20,"dur":0.5,"pid":1,"tid":1,"name":"MDL_Barrier","cat":"sync","args":{"error":"a[0]: MDL_Barrier: failure 3"}}]}'
} > "$W/failed.json"
run $T "$W/failed.json"
if [ $rc = 0 ] && [ "$(grep -cE '^    a\[0\]: MDL_Barrier: failure ([1-9]|10)$' "$W/out")" = 10 ] &&
   grep -qxF "    and 2 more" "$W/out" && grep -qxF "  calls that failed:" "$W/out"; then
    pass failed_calls
else
    fail failed_calls "status $rc: $(head -16 "$W/out" | tr '\n' '|')"
fi

# (parts in the private directory, named after the trace's absolute path,
# however long)
. tests/trace/parts.sh
long=$W/$(printf 'd%.0s' $(seq 230))
mkdir -p "$long" && mkdir -p -m 700 "$(parts_dir)"
for dir in "$W" "$long"; do
    junk=$(part_prefix "$dir/junk.json")0123456789abcdef
    printf 'not a trace' > "$junk.0"
    printf '' > "$junk.1"
    (cd "$dir" && "$T" --recover junk.json > "$W/out" 2> "$W/err")
    rc=$?
    if [ $rc = 2 ] && [ ! -e "$dir/junk.json" ] &&
       grep -qxF "mdltrace: process 0 is left out: $junk.0: not a trace part" "$W/err" &&
       grep -qxF "mdltrace: process 1 is left out: $junk.1: not a trace part" "$W/err" &&
       grep -qxF "mdltrace: error: no part of 'junk.json' could be read" "$W/err"; then
        pass "recover_junk$( [ "$dir" = "$long" ] && echo _long_path)"
    else
        fail "recover_junk$( [ "$dir" = "$long" ] && echo _long_path)" "status $rc: $(tr '\n' '|' < "$W/err")"
    fi
    rm -f "$junk.0" "$junk.1"
done

# ---------------------------------------------------------------- malformed

# malformed NAME CONTENT EXPECTED_STDERR: exit 2, exactly that message.
malformed() {
    local name=$1
    printf '%s' "$2" >"$W/$name.json"
    (cd "$W" && "$T" "$name.json" >out 2>err)
    rc=$?
    if crashed; then
        fail "malformed_$name" "crashed: $(head -3 "$W/err" | tr '\n' '|')"
    elif [ $rc -eq 2 ] && [ "$(cat "$W/err")" = "$3" ]; then
        pass "malformed_$name"
    else
        fail "malformed_$name" "status $rc: $(head -2 "$W/err" | tr '\n' '|')"
    fi
}
cut=" (the file ends here: was it cut short?)"
malformed empty '' "empty.json:1:1: error: expected a trace (a JSON object with \"traceEvents\"), found the end of the file$cut"
malformed cut_event '{"traceEvents":[{"ph":"X"' "cut_event.json:1:26: error: expected ',' or '}' after a member in an event, found the end of the file$cut"
malformed cut_array $'{"traceEvents":[\n{"ph":"M"},\n' "cut_array.json:3:1: error: expected a value in the traceEvents array, found the end of the file$cut"
malformed cut_string '{"traceEvents":[{"name":"MDL_Ba' "cut_string.json:1:32: error: the file ends inside a string"
malformed cut_other '{"traceEvents":[],"otherData":{"instances":[{"name":' "cut_other.json:1:53: error: expected the value of \"name\" in otherData, found the end of the file$cut"
malformed not_json 'hello' "not_json.json:1:1: error: unexpected character 'h'"
malformed word '{"traceEvents":[nul]}' "word.json:1:17: error: unexpected word 'nul' (not true, false or null)"
malformed leading_zero '{"traceEvents":[{"ts":01}]}' "leading_zero.json:1:24: error: expected ',' or '}' after a member in an event, found a number"
malformed huge_number '{"traceEvents":[{"ts":1e999}]}' "huge_number.json:1:23: error: number '1e999' is out of range"
malformed bad_escape '{"traceEvents":[{"name":"a\x"}]}' "bad_escape.json:1:27: error: invalid escape '\\x' in a string"
malformed control $'{"traceEvents":[{"name":"a\tb"}]}' "control.json:1:27: error: control character (byte 0x09) inside a string"
malformed trailing '{"traceEvents":[]} x' "trailing.json:1:20: error: unexpected character 'x'"
malformed trailing_comma '{"traceEvents":[{"ph":"M"},]}' "trailing_comma.json:1:28: error: expected a value in the traceEvents array, found ']'"
malformed no_events '{"otherData":{}}' "no_events.json: error: no \"traceEvents\" array: not a trace file"
malformed events_object '{"traceEvents":{}}' "events_object.json:1:16: error: \"traceEvents\" is not an array (found '{')"
malformed missing_colon '{"traceEvents" []}' "missing_colon.json:1:16: error: expected ':' after member name \"traceEvents\" in the top-level object, found '['"
malformed binary $'\x7fELF\x02\x01' "binary.json:1:1: error: unexpected byte 0x7f"
deep='{"traceEvents":[{"args":{"x":'$(printf '[%.0s' $(seq 300))
malformed deep "$deep" "deep.json:1:286: error: values nested deeper than 256 levels"

# Cut at many places and with bytes changed at random: always a clean
# error (or a valid reading), never a crash.
size=$(stat -c %s $D/montecarlo.json)
bad=0 n=0
for ((off = 0; off < size - 2; off += 37)); do
    head -c $off $D/montecarlo.json >"$W/cut.json"
    run $T "$W/cut.json"
    n=$((n + 1))
    if crashed || [ $rc -ne 2 ] || ! grep -qE "^$W/cut.json:[0-9]+:[0-9]+: error: " "$W/err"; then
        bad=$((bad + 1))
        [ $bad -eq 1 ] && first="offset $off: status $rc: $(head -2 "$W/err" | tr '\n' '|')"
    fi
done
[ $bad -eq 0 ] && pass "truncated_files ($n cuts)" || fail truncated_files "$bad of $n: $first"
RANDOM=${TRACE_SEED:-11}
bad=0
for ((k = 0; k < 200; k++)); do
    cp $D/montecarlo.json "$W/flip.json"
    for ((f = 0; f < 3; f++)); do
        printf "\\x$(printf %02x $((RANDOM % 256)))" |
            dd of="$W/flip.json" bs=1 seek=$(((RANDOM * 32768 + RANDOM) % size)) conv=notrunc status=none
    done
    run $T --check "$W/flip.json"
    if crashed || [ $rc -gt 2 ]; then
        bad=$((bad + 1))
        cp "$W/flip.json" "$W/flip-bad.json"
    fi
done
[ $bad -eq 0 ] && pass "corrupted_files (200, seed ${TRACE_SEED:-11})" ||
    fail corrupted_files "$bad crashed or exited > 2"

# ---------------------------------------------------------------- large

# A synthetic Monte Carlo trace of N messages (4 events each): mdltrace
# must read it whole, at a cost that grows linearly (figures printed, not
# asserted: the machine may be busy).
cc -O2 -std=c11 -Wall -Wextra -Werror -o "$W/gen_trace" $D/gen_trace.c || fail gen_trace "does not compile"
if [ "${SANITIZE:-}" = 1 ]; then sizes="25000 50000"; else sizes="100000 200000"; fi
for msgs in $sizes; do
    "$W/gen_trace" 7 $msgs "$W/big.json"
    start=$(date +%s%N)
    run $T "$W/big.json"
    secs=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
    bytes=$(stat -c %s "$W/big.json")
    echo "  large: $msgs messages, $((bytes / 1000000)) MB: $secs s"
    if [ $rc -eq 0 ] && grep -qF "messages traced: $msgs, all received" "$W/out" &&
       grep -qE "^inMessage +father +MDL_RecvFrom_son_inMessage +$msgs +$msgs " "$W/out"; then
        pass "large_$msgs"
    else
        fail "large_$msgs" "status $rc: $(head -3 "$W/err" "$W/out" | tr '\n' '|')"
    fi
done
run $T --check "$W/big.json"
[ $rc -eq 0 ] && pass large_check || fail large_check "status $rc: $(head -3 "$W/err" | tr '\n' '|')"
run $T --matrix "$W/wide.svg" <("$W/gen_trace" 199 2000 /dev/stdout)
svg_ok svg_200_instances "$W/wide.svg" 'father[0]'

# ---------------------------------------------------------------- valgrind

# mdltrace frees what it allocates and reads no uninitialised memory, on
# every path: report, all outputs at once, a spec with errors, a cut file.
if command -v valgrind >/dev/null && [ "${SANITIZE:-}" != 1 ]; then
    vg() {  # vg NAME WANT_STATUS ARGS...
        local name=$1 want=$2
        shift 2
        valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
            --error-exitcode=99 "$T" "$@" >/dev/null 2>"$W/vg"
        rc=$?
        if [ $rc -eq 99 ] || grep -q '^==[0-9]*==' "$W/vg"; then
            fail "valgrind_$name" "$(grep '^==' "$W/vg" | head -4 | tr '\n' '|')"
        elif [ $rc -ne "$want" ]; then
            fail "valgrind_$name" "status $rc, expected $want"
        else
            pass "valgrind_$name"
        fi
    }
    vg report 0 $D/error.json
    vg all_outputs 1 --check --csv --matrix "$W/vg.svg" --spec $D/vec.mdl $D/vec.json
    vg totals 0 $D/dropped.json
    vg spec_errors 2 --spec "$W/bad.mdl" $D/vec.json
    head -c 3000 $D/montecarlo.json >"$W/vgcut.json"
    vg cut_file 2 "$W/vgcut.json"
fi
