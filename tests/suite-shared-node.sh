#!/usr/bin/env bash
# Safe on a node shared with other users (docs/robustness.md, "Shared
# nodes"; issue 30): what medley writes and reads through the file system,
# with a second local user playing the attacker.  As root the suite
# creates two unprivileged users for the run — a victim who runs the jobs
# and an attacker — and removes them at the end (also on a failure or
# Ctrl-C); otherwise their tests are skipped.  The others run as whoever
# runs the suite, on their own private directory.
#   private_dir        MPI trace parts are in a directory of mode 0700, files
#                      of mode 0600, and gone when the job ends
#   parts_planted      symlinks and world-writable files the attacker put
#                      where the parts used to be named: nothing of the
#                      victim's is overwritten, nothing reaches the attacker
#   parts_tampered     the attacker writes every file it can reach in
#                      /dev/shm while the victim's job runs: the job ends
#                      normally, its trace whole
#   parts_rewritten_*  the job's own user rewrites the head of a part while
#                      it runs (as another job of theirs could): the offset
#                      of its error texts, its count of records; the process
#                      does not follow (it keeps them in its own memory),
#                      and the damage is reported
#   dir_squatted       the attacker made the victim's private directory, or
#                      the victim left it open: MDL_Init refuses, saying why
#   names              two traces whose paths differ only in '/' and '%'
#                      have different parts
#   recover_*          mdltrace --recover on damaged parts: an error text out
#                      of range, a planted name of rank 2^24 - 1, a part that
#                      is a symbolic link, a task name with a quote, a record
#                      followed by 2^32 - 2 pairs, error texts over the
#                      function table, a clock calibration out of range
#                      (UBSan)
#   trace_tmp_planted  the attacker's symlinks at the names the trace's
#                      temporary file used to have: not followed
#   trace_link_planted the attacker's symlink at the trace's name: refused
#   medleyc_planted    medleyc -o into a directory the attacker can write:
#                      its symlink at an output's name is refused
#   buffer_cap         MDL_TRACE_BUFFER above 2^25 refused on both runtimes
#   shm_full           (root) a /dev/shm too small for the parts: MDL_Init
#                      fails with a message, no SIGBUS
# One line per check: PASS/FAIL/SKIP: shared-node/<name>.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
S=$MEDLEY_STAGE
T=$S/bin/mdltrace
# The MPI jobs run on the first MPI of make check (the build's), with its
# own mpicc, launcher and LeakSanitizer suppressions (tests/lib/mpi.sh),
# never the system's mpicc/mpiexec: installing Open MPI beside MPICH makes
# plain mpiexec Open MPI's.  rt_use puts its stage first in PKG_CONFIG_PATH.
. tests/lib/mpi.sh
rt_use "${MPI_RTS[0]}" || { echo "FAIL: shared-node/mpi: $RT_WHY"; exit 0; }
CFLAGS_T=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g)
[ "${SANITIZE:-}" = 1 ] && CFLAGS_T+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
unset MDL_TRACE MDL_TRACE_BUFFER MDL_ERRORS
. tests/trace/parts.sh

pass() { echo "PASS: shared-node/$1"; }
fail() { echo "FAIL: shared-node/$1: $2"; }
skip() { echo "SKIP: shared-node/$1: $2"; }

W=$(mktemp -d /tmp/medley-shared-node.XXXXXX)
chmod 755 "$W"                  # the second users go through it
VICTIM= ATTACKER= BG=

cleanup() {
    [ -n "$BG" ] && kill -INT "$BG" 2> /dev/null && wait "$BG" 2> /dev/null
    parts_under "$W" | xargs -r rm -f
    local u
    for u in $VICTIM $ATTACKER; do
        id -u "$u" > /dev/null 2>&1 || continue
        find /dev/shm -maxdepth 1 -user "$u" -exec rm -rf {} + 2> /dev/null
        userdel "$u" 2> /dev/null
    done
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The victim and the attacker: root only (useradd), names unique to this run.
users_why=
if [ "$(id -u)" != 0 ]; then
    users_why="not root: cannot create the second users this test needs"
elif ! command -v useradd > /dev/null || ! command -v runuser > /dev/null; then
    users_why="no useradd or runuser"
else
    tag=$$$(printf '%04x' $RANDOM)
    for role in v a; do
        u=mdl$role$tag
        if ! useradd -M -U -d /nonexistent -s /usr/sbin/nologin "$u" 2> "$W/useradd.err"; then
            users_why="useradd failed: $(head -1 "$W/useradd.err")"
            break
        fi
        if [ $role = v ]; then VICTIM=$u; else ATTACKER=$u; fi
    done
fi
# as USER CMD...: CMD run as USER, with a home of its own in $W.
as() {
    local u=$1
    shift
    # Open MPI's session files in a directory of that user's (make
    # check's scratch for them, tests/lib/ompi-scratch.sh, is root's)
    runuser -u "$u" -- env HOME="$W/home-$u" OMPI_MCA_orte_tmpdir_base="$W/home-$u/ompi" \
        OMPI_MCA_btl_vader_backing_directory="$W/home-$u" "$@"
}
# The second users run the staged tools from the work tree: a private
# directory above it (mktemp -d makes them 0700) keeps them out.
if [ -z "$users_why" ] && ! as "$VICTIM" test -x "$ROOT" -a -x "$S/bin/mdlrun"; then
    users_why="another user cannot reach the work tree $ROOT (a directory above it is private): clone it under a searchable directory to run these"
fi
if [ -z "$users_why" ]; then
    VUID=$(id -u "$VICTIM") AUID=$(id -u "$ATTACKER")
    for u in "$VICTIM" "$ATTACKER"; do
        mkdir -p "$W/home-$u" && chown "$u:" "$W/home-$u"
    done
    V=$W/victim                 # the victim's directory
    mkdir -p "$V" && chown "$VICTIM:" "$V"
fi
# precious NAME: a file of the victim's, $V/NAME, that says "precious".
precious() { as "$VICTIM" sh -c "echo precious > '$V/$1'"; }
# intact NAME: it still does; else says what it holds now.
intact() {
    [ "$(cat "$V/$1")" = precious ] && return 0
    echo "$1 now holds $(head -c 24 "$V/$1" | tr -c '[:print:]' .)"
    return 1
}
with_users() {
    [ -z "$users_why" ] && return 0
    skip "$1" "$users_why"
    return 1
}

# ---------------------------------------------------------------- programs
B=$W/bin
mkdir -p "$B/gen"
if ! "$S/bin/medleyc" -o "$B/gen" tests/shared-node/spec.mdl > "$W/build.log" 2>&1 ||
   ! "$MPI_CC" "${CFLAGS_T[@]}" -I"$B/gen" tests/shared-node/slow.c "$B/gen/pMDL.c" \
       $(pkg-config --cflags --libs medley-mpi) -o "$B/slow_mpi" >> "$W/build.log" 2>&1 ||
   ! cc "${CFLAGS_T[@]}" -I"$B/gen" tests/shared-node/slow.c "$B/gen/pMDL.c" \
       $(pkg-config --cflags --libs medley-shm) -o "$B/slow_shm" >> "$W/build.log" 2>&1 ||
   ! cc "${CFLAGS_T[@]}" -I"$ROOT/runtime" -I"$ROOT/common" -I"$ROOT/include" \
       tests/shared-node/part_edit.c -o "$B/part_edit" >> "$W/build.log" 2>&1; then
    fail build "$(tail -c 400 "$W/build.log" | tr '\n' ' ')"
    exit 0
fi
chmod -R a+rX "$B"

# mpi_job FILE ARGS...: slow_mpi on 2 processes traced into FILE, as
# $JOB_USER if set, errors returned and printed, at most 60 s; status in
# $rc (and returned), output in $W/out and $W/err.
mpi_job() {
    local f=$1 run=()
    shift
    [ -n "${JOB_USER:-}" ] && run=(as "$JOB_USER")
    "${run[@]}" env MDL_ERRORS=return,print MDL_TRACE="$f" timeout -s INT -k 5 60 \
        "${RT_LAUNCH[@]}" -n 2 "$B/slow_mpi" "$@" > "$W/out" 2> "$W/err" < /dev/null
    rc=$?
    return $rc
}
# await_parts FILE N: waits until FILE has N parts, 55 s at most: within
# the job's own 60 s (under a load of 10 an MPI job took over 15 s to start).
await_parts() {
    for _ in $(seq 1100); do [ "$(parts "$1" | wc -l)" = "$2" ] && return 0; sleep 0.05; done
    return 1
}
# valid FILE: mdltrace --check accepts it.
valid() { [ -s "$1" ] && "$T" --check "$1" > "$W/check" 2>&1; }
# clean: no sanitizer report, no signal in $W/err (and $rc < 128).
clean() { [ "$rc" -lt 128 ] && ! grep -qE 'Sanitizer|runtime error:|signal' "$W/err"; }
# recover FILE: mdltrace --recover, output in $W/out and $W/err, status in
# $rc (mpiexec may return before its processes are gone: --recover says so
# until they are).
recover() {
    for _ in $(seq 100); do
        "$T" --recover "$1" > "$W/out" 2> "$W/err"
        rc=$?
        grep -q "is still running" "$W/err" || return
        sleep 0.1
    done
}
one_line() { tr '\n' '|' < "$1" | head -c 600; }

# ---------------------------------------------------------------- private_dir
f=$W/private.json
rm -f "$W/go"
mpi_job "$f" "$W/go" &
BG=$!
if await_parts "$f" 2; then
    modes=$(stat -c '%a %u' "$(parts_dir)")
    for p in $(parts "$f"); do modes="$modes, $(stat -c '%a %u %h' "$p")"; done
else
    modes="no parts of $f in $(parts_dir)"
fi
touch "$W/go"
wait $BG
rc=$?
BG=
want="700 $(id -u), 600 $(id -u) 1, 600 $(id -u) 1"
if [ "$modes" = "$want" ] && [ $rc = 0 ] && valid "$f" && [ -z "$(parts_left "$f")" ]; then
    pass private_dir
else
    fail private_dir "status $rc, modes '$modes' (want '$want'), parts left: $(parts_left "$f" | wc -l): $(one_line "$W/err")"
fi

# ---------------------------------------------------------------- planted
# Where the parts of the victim's FILE were named before: predictable.
old_part() { printf '/dev/shm/mdltrace.%s.%s.part.%s' "$VUID" "$(printf %s "$1" | tr / %)" "$2"; }
if with_users parts_planted; then
    f=$V/planted.json
    precious planted
    as "$ATTACKER" ln -s "$V/planted" "$(old_part "$f" 0)"
    as "$ATTACKER" sh -c "umask 0; : > '$(old_part "$f" 1)'"
    JOB_USER=$VICTIM mpi_job "$f"
    if [ $rc = 0 ] && valid "$f" && intact planted > "$W/why" && [ ! -s "$(old_part "$f" 1)" ]; then
        pass parts_planted
    else
        fail parts_planted "status $rc, $(cat "$W/why"), attacker's file: $(stat -c %s "$(old_part "$f" 1)") bytes: $(one_line "$W/err")"
    fi
    rm -f "$(old_part "$f" 0)" "$(old_part "$f" 1)"
fi

if with_users parts_tampered; then
    f=$V/tampered.json
    for r in 0 1; do as "$ATTACKER" sh -c "umask 0; : > '$(old_part "$f" $r)'"; done
    JOB_USER=$VICTIM mpi_job "$f" "$V/go" &
    BG=$!
    # the job is past MDL_Init: its parts exist (seen as root)
    for _ in $(seq 300); do
        [ "$(ls "/dev/shm/medley-$VUID" 2> /dev/null | wc -l)" = 2 ] ||
            [ -s "$(old_part "$f" 1)" ] && break
        sleep 0.05
    done
    # everything of the victim's or its own the attacker can write in
    # /dev/shm: 4 KiB of 0x7f (offsets of 2 GiB, counts of 2^63)
    as "$ATTACKER" bash -c 'for p in /dev/shm/* /dev/shm/*/*; do
        [ -f "$p" ] && [ -w "$p" ] || continue
        case $(stat -c %u "$p") in '"$VUID|$AUID"') ;; *) continue ;; esac
        head -c 4096 /dev/zero | tr "\0" "\177" | dd of="$p" conv=notrunc status=none
    done' 2> /dev/null
    as "$VICTIM" touch "$V/go"
    wait $BG
    rc=$?
    BG=
    if [ $rc = 0 ] && clean && valid "$f"; then
        pass parts_tampered
    else
        fail parts_tampered "status $rc: $(one_line "$W/err")"
    fi
    rm -f "$(old_part "$f" 0)" "$(old_part "$f" 1)" "$V/go"
fi

# ---------------------------------------------------------------- rewritten
# rewritten NAME FIELD=VALUE...: the job's own user rewrites the head of
# process 0's part while it runs, before process 0 records a failed call;
# status in $rc, the trace in $f; $edited says whether the part was found
# and rewritten (a check that passes without it proves nothing).
rewritten() {
    f=$W/$1.json
    shift
    rm -f "$W/go"
    mpi_job "$f" "$W/go" &
    BG=$!
    edited=0
    await_parts "$f" 2 && "$B/part_edit" "$(parts "$f" | grep '\.0$')" "$@" && edited=1
    touch "$W/go"
    wait $BG
    rc=$?
    BG=
}
# the offset of its error texts, 2 GiB past its image: process 0 wrote its
# failed call's text there (SIGSEGV); it writes where its own memory says
rewritten rewritten_texts texts=2147483640
if [ $edited = 1 ] && [ $rc = 0 ] && clean &&
   grep -qxF "p[0]: MDL_End: the trace was not written: the trace of process 0 is damaged: its areas lie outside it or over one another" "$W/err" &&
   [ -z "$(parts_left "$f")" ]; then
    pass parts_rewritten_texts
else
    fail parts_rewritten_texts "edited $edited, status $rc: $(one_line "$W/err")"
fi
# its count of records, near the end of its buffer: the trace had as many
# empty calls; it has process 0's four (Barrier, send, the failed send, Barrier)
rewritten rewritten_count used=262100
if [ $edited = 1 ] && [ $rc = 0 ] && clean && valid "$f" &&
   grep -qE '\{"name":"p\[0\]","pid":1,"tid":1,"events":4,' "$f"; then
    pass parts_rewritten_count
else
    fail parts_rewritten_count "edited $edited, status $rc, $(grep -oE '\{"name":"p\[0\]"[^}]*' "$f" | head -c 200): $(one_line "$W/err")"
fi

# ---------------------------------------------------------------- squatted
if with_users dir_squatted; then
    d=/dev/shm/medley-$VUID
    rm -rf "$d"
    as "$ATTACKER" mkdir -m 777 "$d"
    JOB_USER=$VICTIM mpi_job "$V/squat.json"
    want="p[0]: MDL_Init: $d belongs to user $AUID, not to you (user $VUID): medley keeps the files your jobs share only in a directory of your own with mode 0700; remove it (its owner or root can) (MDL_ERR_LAUNCH)"
    if [ $rc != 0 ] && clean && grep -qxF "$want" "$W/err" && [ -z "$(ls -A "$d")" ]; then
        pass dir_squatted
    else
        fail dir_squatted "status $rc, in $d: $(ls -A "$d" | head -3 | tr '\n' ' '): $(one_line "$W/err")"
    fi
    rm -rf "$d"
    as "$VICTIM" mkdir -m 755 "$d"
    JOB_USER=$VICTIM mpi_job "$V/open.json"
    want="p[0]: MDL_Init: $d has mode 0755: medley keeps the files your jobs share only in a directory of your own with mode 0700 (chmod 700 it once you have checked what is in it) (MDL_ERR_LAUNCH)"
    if [ $rc != 0 ] && clean && grep -qxF "$want" "$W/err"; then
        pass dir_open
    else
        fail dir_open "status $rc: $(one_line "$W/err")"
    fi
    rm -rf "$d"
fi

# ---------------------------------------------------------------- names
# A job killed (Ctrl-C) while it waits: its parts stay, as templates for
# the damaged parts below.  Its trace a/b.json and the trace a%b.json
# were given one name before (each / as %).
mkdir -p "$W/a"
f=$W/a/b.json
MDL_TRACE=$f timeout -s INT -k 5 3 "${RT_LAUNCH[@]}" -n 2 "$B/slow_mpi" "$W/never" > "$W/out" 2>&1 < /dev/null
mkdir -p "$W/tpl"
for p in $(parts "$f"); do cp -p "$p" "$W/tpl/"; done
recover "$W/a%b.json"
if [ "$(ls "$W/tpl" | wc -l)" = 2 ] && [ $rc = 2 ] &&
   grep -qF "mdltrace: error: no part of '$W/a%b.json'" "$W/err" && [ ! -e "$W/a%b.json" ] &&
   [ "$(parts "$f" | wc -l)" = 2 ]; then
    pass names
else
    fail names "status $rc, $(ls "$W/tpl" | wc -l) parts: $(one_line "$W/err")"
fi

# restore: the templates back in place (a recovery removes them, and the
# private directory once empty)
restore() {
    rm -f "$f"
    parts_left "$f" | xargs -r rm -f
    mkdir -p -m 700 "$(parts_dir)"
    cp -p "$W/tpl"/* "$(parts_dir)/"
}
part_of() { printf '%s/%s' "$(parts_dir)" "$(ls "$W/tpl" | grep "\.$1\$")"; }

# recover_case NAME CHECK WANT_LINE...: mdltrace --recover $f succeeds,
# clean, with each line in its output, and writes the file; with CHECK
# `check`, the file passes --check (not when a process is left out: its
# peers name it, it has no track; nor with times out of range).
recover_case() {
    local name=$1 check=$2 line
    shift 2
    recover "$f"
    if [ $rc != 0 ] || ! clean; then
        fail "$name" "status $rc: $(one_line "$W/err")"
        return
    fi
    for line in "$@"; do
        if ! grep -qxF -- "$line" "$W/out" "$W/err"; then
            fail "$name" "no line '$line': $(one_line "$W/out") $(one_line "$W/err")"
            return
        fi
    done
    if [ ! -s "$f" ]; then
        fail "$name" "no trace written"
    elif [ "$check" = check ] && ! valid "$f"; then
        fail "$name" "mdltrace --check: $(one_line "$W/check")"
    else
        pass "$name"
    fi
}

restore
"$B/part_edit" "$(part_of 1)" error_text=100000 end=2 error_reported=1
recover_case recover_error_text nocheck "wrote $f: 1 of 2 processes recovered" \
    "mdltrace: process 1 is left out: $(part_of 1): its areas lie outside it or over one another"

restore
job=$(ls "$W/tpl" | sed -n 's/.*\.\([0-9a-f]\{16\}\)\.0$/\1/p')
: > "$(part_prefix "$f")$job.16777215"
: > "$(part_prefix "$f")0123456789abcdef.16777215"
start=$(date +%s%N)
recover_case recover_planted_rank check "wrote $f: 2 of 2 processes recovered" \
    "mdltrace: process 16777215 is left out: the job had 2 processes"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ $ms -lt 2000 ] || fail recover_planted_rank_time "$ms ms"
rm -f "$(part_prefix "$f")0123456789abcdef.16777215"

restore
mv "$(part_of 1)" "$W/moved"
ln -s "$W/moved" "$(part_of 1)"
recover_case recover_symlink_part nocheck "wrote $f: 1 of 2 processes recovered" \
    "mdltrace: process 1 is left out: $(part_of 1): a symbolic link, not followed"
rm -f "$(part_of 1)" "$W/moved"

restore
for r in 0 1; do "$B/part_edit" "$(part_of $r)" quote_task=0; done
recover_case recover_task_name check "wrote $f: 2 of 2 processes recovered"

# a record that says 2^32 - 2 pairs follow it (found by make fuzz
# FUZZ_TARGET=image: their slots were counted in 32 bits, wrapping to none)
restore
"$B/part_edit" "$(part_of 0)" pairs=4294967294
recover_case recover_pairs check "wrote $f: 2 of 2 processes recovered"

# process 1 (in a call when it was killed: the reader adds an error text
# for it) with its error texts over its function table (found by make fuzz
# FUZZ_TARGET=parts: the text overwrote the names the check had accepted)
restore
"$B/part_edit" "$(part_of 1)" texts=@funcs
recover_case recover_overlap nocheck "wrote $f: 1 of 2 processes recovered" \
    "mdltrace: process 1 is left out: $(part_of 1): its areas lie outside it or over one another"

# process 1 ended, its clock calibrated over one tick for 9e18 ns: every
# time of it is far out of range
restore
"$B/part_edit" "$(part_of 1)" tick0=1 tick1=2 ns0=0 ns1=9000000000000000000 end=1
recover_case recover_clock nocheck "wrote $f: 2 of 2 processes recovered"

# ---------------------------------------------------------------- trace file
# A directory every user can write to (not sticky: the kernel's
# protected_symlinks would not help).
WW=$W/ww
mkdir -p "$WW" && chmod 777 "$WW"
if with_users trace_tmp_planted; then
    # mdlrun's pid is known before it starts: the shell that execs it
    rm -f "$WW/pid" "$WW/planted"
    as "$VICTIM" bash -c 'echo $$ > "$1/pid"; while [ ! -e "$1/planted" ]; do sleep 0.02; done
        exec env MDL_ERRORS=return MDL_TRACE="$1/job.json" "$2" -n 2 "$3"' _ "$WW" "$S/bin/mdlrun" \
        "$B/slow_shm" > "$W/out" 2> "$W/err" &
    BG=$!
    for _ in $(seq 200); do [ -s "$WW/pid" ] && break; sleep 0.05; done
    pid=$(cat "$WW/pid")
    precious tmp
    for name in "job.json.$pid.tmp" ".job.json.tmp"; do
        as "$ATTACKER" ln -s "$V/tmp" "$WW/$name"
    done
    touch "$WW/planted"
    wait $BG
    rc=$?
    BG=
    if [ $rc = 0 ] && intact tmp > "$W/why" && [ -f "$WW/job.json" ] && [ ! -L "$WW/job.json" ] &&
       valid "$WW/job.json"; then
        pass trace_tmp_planted
    else
        fail trace_tmp_planted "status $rc, $(cat "$W/why"), job.json: $(stat -c %F "$WW/job.json" 2>&1): $(one_line "$W/err")"
    fi
fi

if with_users trace_link_planted; then
    precious link
    as "$ATTACKER" ln -s "$V/link" "$WW/link.json"
    as "$VICTIM" env MDL_ERRORS=return MDL_TRACE="$WW/link.json" timeout -k 5 60 "$S/bin/mdlrun" -n 2 "$B/slow_shm" \
        > "$W/out" 2> "$W/err"
    rc=$?
    want="mdlrun: the trace was not written: cannot write '$WW/link.json': a symbolic link of another user (uid $AUID): not written through"
    if [ $rc = 0 ] && intact link > "$W/why" && grep -qxF "$want" "$W/err" && [ -L "$WW/link.json" ]; then
        pass trace_link_planted
    else
        fail trace_link_planted "status $rc, $(cat "$W/why"): $(one_line "$W/err")"
    fi
fi

# ---------------------------------------------------------------- medleyc
if with_users medleyc_planted; then
    D=$W/attacker-gen
    mkdir -p "$D" && chown "$ATTACKER:" "$D" && chmod 777 "$D"
    precious gen
    as "$ATTACKER" ln -s "$V/gen" "$D/pMDL.c"
    as "$VICTIM" "$S/bin/medleyc" -o "$D" tests/shared-node/spec.mdl > "$W/out" 2> "$W/err"
    rc=$?
    want="medleyc: error: cannot write '$D/pMDL.c': a symbolic link of another user (uid $AUID): not written through"
    if [ $rc = 2 ] && intact gen > "$W/why" && grep -qxF "$want" "$W/err" &&
       [ -z "$(find "$D" -user "$VICTIM")" ]; then
        pass medleyc_planted
    else
        fail medleyc_planted "status $rc, $(cat "$W/why"): $(one_line "$W/err")"
    fi
fi

# ---------------------------------------------------------------- limits
MDL_TRACE=$W/cap.json MDL_TRACE_BUFFER=33554433 timeout -k 5 60 "$S/bin/mdlrun" -n 2 "$B/slow_shm" \
    > "$W/out" 2> "$W/err"
rc=$?
cap="MDL_TRACE_BUFFER=33554433 is more than 2^25 events: at most 1 GiB of trace per instance, kept in the node's memory while the job runs"
if [ $rc = 2 ] && grep -qxF "mdlrun: $cap" "$W/err"; then
    pass buffer_cap_shm
else
    fail buffer_cap_shm "status $rc: $(one_line "$W/err")"
fi
MDL_TRACE=$W/cap.json MDL_TRACE_BUFFER=33554433 timeout -s INT -k 5 60 "${RT_LAUNCH[@]}" -n 2 "$B/slow_mpi" \
    > "$W/out" 2> "$W/err" < /dev/null
rc=$?
if [ $rc != 0 ] && clean && grep -qxF "p[0]: MDL_Init: $cap (MDL_ERR_LAUNCH)" "$W/err"; then
    pass buffer_cap_mpi
else
    fail buffer_cap_mpi "status $rc: $(one_line "$W/err")"
fi

# /dev/shm of 48 MiB in a mount namespace of its own; two buffers of
# 2^20 events (32 MiB) do not fit
if [ "$(id -u)" != 0 ] || ! command -v unshare > /dev/null; then
    skip shm_full "needs root and unshare (a private mount of /dev/shm)"
else
    unshare -m bash -c 'mount -t tmpfs -o size=48m tmpfs /dev/shm || exit 99
        MDL_TRACE=$1 MDL_TRACE_BUFFER=1048576 timeout -s INT -k 5 60 "${@:3}" -n 2 "$2"' _ \
        "$W/full.json" "$B/slow_mpi" "${RT_LAUNCH[@]}" > "$W/out" 2> "$W/err" < /dev/null
    rc=$?
    if [ $rc = 99 ]; then
        skip shm_full "cannot mount a tmpfs on /dev/shm in a private namespace"
    elif [ $rc != 0 ] && clean &&
         grep -qE "^p\[[01]\]: MDL_Init: MDL_TRACE: no room for the trace buffer /dev/shm/medley-$(id -u)/trace\.[0-9a-f]{16}\.[0-9a-f]{16}\.[01] \([0-9]+ bytes\): No space left on device: set MDL_TRACE_BUFFER lower \(MDL_ERR_INTERN\)$" "$W/err"; then
        pass shm_full
    else
        fail shm_full "status $rc: $(one_line "$W/err")"
    fi
fi
