#!/usr/bin/env bash
# Tests of the launcher mdlrun (tools/mdlrun/mdlrun*.c): command line,
# segment and environment given to instances, exit statuses, tear-down on
# a failure or a signal, death of instances with the launcher.
#
# The instances are tests/mdlrun/inst.c, which plays the library's part
# of the segment contract itself (runtime/shm/shm_job.h), so these tests
# do not depend on libmdl_shm.  Every mdlrun run here is bounded in time
# and every instance writes its pid, so that nothing is left behind.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
MPI_RTS=(mpi)
if [ -n "${MEDLEY_STAGE:-}" ]; then
    MDLRUN=$MEDLEY_STAGE/bin/mdlrun
    . tests/lib/mpi.sh
else
    MDLRUN=$ROOT/build/bin/mdlrun
fi
T=$(mktemp -d /tmp/mdlrun-tests.XXXXXX)

# Kills whatever a failed test may have left, by the pids it recorded.
cleanup() {
    local f p
    for f in "$T"/*/*.pid; do
        [ -f "$f" ] || continue
        read -r p < "$f" && kill -9 "$p" 2>/dev/null
    done
    [ -n "${BG:-}" ] && kill -9 "$BG" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT

pass() { echo "PASS: mdlrun/$1"; }
fail() { echo "FAIL: mdlrun/$1: $2"; }

if [ ! -x "$MDLRUN" ]; then
    fail build "no mdlrun at $MDLRUN"
    exit 0
fi
if ! cc -O1 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$ROOT/runtime" \
        -o "$T/inst" tests/mdlrun/inst.c 2>"$T/cc.err"; then
    fail build "cannot compile tests/mdlrun/inst.c: $(head -3 "$T/cc.err")"
    exit 0
fi
# A second name, to check that messages name the right program.
cp "$T/inst" "$T/son"
INST=$T/inst SON=$T/son

now() { echo "${EPOCHREALTIME/[.,]/}"; }           # microseconds
elapsed_ms() { echo $(( ($(now) - $1) / 1000 )); }

# new_test NAME: a fresh directory $D for the test's files.
new_test() {
    D=$T/$1
    mkdir -p "$D"
}

# run ARGS...: mdlrun in the foreground, killed after 20 s; sets RC,
# output in $D/out and $D/err.
run() {
    timeout -s KILL 20 "$MDLRUN" "$@" >"$D/out" 2>"$D/err"
    RC=$?
}

# start ARGS...: mdlrun in the background with SIGINT at its default (a
# script's background jobs otherwise ignore it) and SIGHUP too (the suite
# itself may run under nohup, and mdlrun keeps an ignored SIGHUP); sets BG.
start() {
    env --default-signal=INT,HUP "$MDLRUN" "$@" >"$D/out" 2>"$D/err" &
    BG=$!
}

# finish MAX_MS: waits for the background mdlrun; sets RC (or kills it and
# sets RC=999 after MAX_MS).
finish() {
    local t0; t0=$(now)
    while kill -0 "$BG" 2>/dev/null && [ "$(elapsed_ms "$t0")" -lt "$1" ]; do
        if [ -n "$(ps -o stat= -p "$BG" 2>/dev/null | grep Z)" ]; then break; fi
        sleep 0.02
    done
    if kill -0 "$BG" 2>/dev/null && [ -z "$(ps -o stat= -p "$BG" | grep Z)" ]; then
        kill -9 "$BG" 2>/dev/null
        { wait "$BG"; } 2>/dev/null
        RC=999
    else
        { wait "$BG"; } 2>/dev/null
        RC=$?
    fi
    BG=
}

# wait_pids N: until N pid files are in $D (3 s at most).
wait_pids() {
    local i
    for ((i = 0; i < 150; i++)); do
        [ "$(ls "$D" | grep -c '\.pid$')" -ge "$1" ] && return 0
        sleep 0.02
    done
    return 1
}

pid_of() { cat "$D/$1.pid"; }

# alive: the recorded pids still running (zombies awaiting their reaper
# do not count), after waiting up to 2 s for them to go.
alive() {
    local i f p left
    for ((i = 0; i < 100; i++)); do
        left=
        for f in "$D"/*.pid; do
            [ -f "$f" ] || continue
            # Empty when the instance was killed while writing it.
            read -r p < "$f" || continue
            if [ -e "/proc/$p" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$p/stat" 2>/dev/null; then
                left="$left $p"
            fi
        done
        [ -z "$left" ] && return 0
        sleep 0.02
    done
    echo "$left"
}

# No process of the test still running, by the test directory in argv.
orphans() {
    local left; left=$(alive)
    if [ -n "$left" ]; then echo "left running:$left"; return; fi
    left=$(pgrep -f -- "(=| )$D( |,|\$)" | tr '\n' ' ')
    [ -n "$left" ] && echo "left running: $left"
}

shm_clean() { ! ls /dev/shm 2>/dev/null | grep -qi mdl; }

lines() { wc -l < "$1" | tr -d ' '; }

# ---------------------------------------------------------------- command line
new_test help
run --help
if [ $RC -ne 0 ]; then fail help "exit $RC"
elif ! grep -q '^Usage: mdlrun' "$D/out"; then fail help "no usage on stdout"
elif [ -s "$D/err" ]; then fail help "stderr not empty"
else pass help; fi

new_test version
run --version
if [ $RC -ne 0 ]; then fail version "exit $RC"
elif ! grep -q '^mdlrun (medley) [0-9]' "$D/out"; then fail version "got: $(cat "$D/out")"
else pass version; fi

# usage NAME PATTERN ARGS...: exit 2, one line on stderr matching PATTERN.
usage() {
    local name=$1 pat=$2; shift 2
    new_test "$name"
    run "$@"
    if [ $RC -ne 2 ]; then fail "$name" "exit $RC, expected 2"
    elif [ "$(lines "$D/err")" -ne 1 ]; then fail "$name" "expected one line, got: $(cat "$D/err")"
    elif ! grep -q "^mdlrun: .*$pat" "$D/err"; then fail "$name" "message: $(cat "$D/err")"
    elif [ -s "$D/out" ]; then fail "$name" "stdout not empty"
    else pass "$name"; fi
}
usage usage-noargs      'no program'
usage usage-n-zero      "got '0'"               -n 0 "$INST" end
usage usage-n-negative  "got '-3'"              -n -3 "$INST" end
usage usage-n-nan       "got 'four'"            -np four "$INST" end
usage usage-n-missing   'needs a number'        -n
usage usage-n-twice     'given twice'           -n 2 -n 3 "$INST" end
usage usage-n-huge      'got .99999999999'      -n 99999999999 "$INST" end
usage usage-unknown     "unknown option '--bogus'" --bogus "$INST" end
usage usage-noprog      'missing program'       -n 2
usage usage-empty-group "missing program after ':'" -n 1 "$INST" end : -n 2 : "$INST" end
usage usage-trailing    "missing program after ':'" "$INST" end :
usage usage-timeout     'timeout expects'       --timeout -1 "$INST" end
# more instances than the job's segment holds: refused before any starts
# (each used to start, then fail with "the segment is too small")
too_many="instances in all: at most 1018 fit in the job's segment (64 GiB, one message ring of 64 KiB per ordered pair of instances)"
usage usage-n-too-many  "1100 $too_many" -n 1100 "$INST" pid="$T/usage-n-too-many" end
ls "$D"/*.pid > /dev/null 2>&1 && fail usage-n-too-many-started "$(ls "$D"/*.pid | wc -l) started"
usage usage-too-many    "1019 $too_many" -n 1000 "$INST" end : -n 19 "$INST" end

# ---------------------------------------------------------------- programs that cannot run
new_test notfound
run -n 2 "$INST" pid="$D" sleep : -n 1 ./no-such-program
if [ $RC -ne 127 ]; then fail notfound "exit $RC, expected 127"
elif ! grep -q "^mdlrun: cannot run './no-such-program': No such file" "$D/err"; then fail notfound "message: $(cat "$D/err")"
elif ls "$D" | grep -q pid; then fail notfound "instances were started"
else pass notfound; fi

new_test notfound-path
timeout -s KILL 20 env PATH=/nonexistent "$MDLRUN" no-such-program-xyz >"$D/out" 2>"$D/err"
RC=$?
if [ $RC -ne 127 ] || ! grep -q "no-such-program-xyz" "$D/err"; then fail notfound-path "exit $RC: $(cat "$D/err")"
else pass notfound-path; fi

new_test notexec
printf 'x\n' > "$D/plain"; chmod 644 "$D/plain"
run -n 2 "$INST" pid="$D" sleep : "$D/plain"
if [ $RC -ne 126 ]; then fail notexec "exit $RC, expected 126"
elif ! grep -q "^mdlrun: cannot run '.*/plain': Permission denied" "$D/err"; then fail notexec "message: $(cat "$D/err")"
elif ls "$D" | grep -q pid; then fail notexec "instances were started"
else pass notexec; fi

new_test directory
run "$D"
if [ $RC -ne 126 ] || ! grep -q "Is a directory" "$D/err"; then fail directory "exit $RC: $(cat "$D/err")"
else pass directory; fi

# Found and executable, but exec fails: the instances already started go.
new_test execfail
printf '\177ELF garbage' > "$D/garbage"; chmod 755 "$D/garbage"
t0=$(now)
run -n 3 "$INST" pid="$D" sleep : -n 2 "$D/garbage"
ms=$(elapsed_ms "$t0")
o=$(orphans)
if [ $RC -ne 126 ]; then fail execfail "exit $RC, expected 126: $(cat "$D/err")"
elif ! grep -q "^mdlrun: cannot run '.*/garbage': Exec format error" "$D/err"; then fail execfail "message: $(cat "$D/err")"
elif [ "$(lines "$D/err")" -ne 1 ]; then fail execfail "more than one line: $(cat "$D/err")"
elif [ -n "$o" ]; then fail execfail "$o"
elif [ "$ms" -gt 3000 ]; then fail execfail "took $ms ms"
else pass execfail; fi

# ---------------------------------------------------------------- normal jobs
new_test normal
run -n 1 "$INST" check=5,2 fds print end : -n 4 "$SON" check=5,2 fds print end
expect=$'slot 0 group 0\nslot 1 group 1\nslot 2 group 1\nslot 3 group 1\nslot 4 group 1'
if [ $RC -ne 0 ]; then fail normal "exit $RC: $(cat "$D/err")"
elif [ "$(sort "$D/out")" != "$expect" ]; then fail normal "instances printed: $(cat "$D/out")"
elif [ -s "$D/err" ]; then fail normal "stderr: $(cat "$D/err")"
else pass normal; fi

new_test once
run "$INST" check=3,3 print end : "$SON" check=3,3 print end : -np 1 "$INST" check=3,3 print end
expect=$'slot 0 group 0\nslot 1 group 1\nslot 2 group 2'
if [ $RC -ne 0 ]; then fail once "exit $RC: $(cat "$D/err")"
elif [ "$(sort "$D/out")" != "$expect" ]; then fail once "instances printed: $(cat "$D/out")"
else pass once; fi

# Programs are found through PATH as a shell would, and `--` ends options.
new_test path-search
PATH=$T:$PATH run -n 2 -- inst check=2,1 end
if [ $RC -ne 0 ]; then fail path-search "exit $RC: $(cat "$D/err")"
else pass path-search; fi

# mdlrun creates no file: run it in an empty directory.
new_test nofile
mkdir "$D/cwd"
(cd "$D/cwd" && run -n 3 "$INST" end)
if [ $RC -ne 0 ]; then fail nofile "exit $RC: $(cat "$D/err")"
elif [ -n "$(ls -A "$D/cwd")" ]; then fail nofile "created: $(ls -A "$D/cwd")"
elif ! shm_clean; then fail nofile "/dev/shm: $(ls /dev/shm | grep -i mdl)"
else pass nofile; fi

# stdin goes to slot 0 only, as mpiexec gives it to rank 0.
new_test stdin
printf 'hello\n' | timeout -s KILL 20 "$MDLRUN" -n 3 "$INST" stdin end >"$D/out" 2>"$D/err"
RC=$?
expect=$'slot 0 read 6 bytes\nslot 1 read 0 bytes\nslot 2 read 0 bytes'
if [ $RC -ne 0 ]; then fail stdin "exit $RC: $(cat "$D/err")"
elif [ "$(sort "$D/out")" != "$expect" ]; then fail stdin "got: $(cat "$D/out")"
else pass stdin; fi

# ---------------------------------------------------------------- failures of instances
new_test exit-status
run -n 1 "$INST" pid="$D" end sleep : -n 3 "$SON" pid="$D" end @2:exit=3 sleep
o=$(orphans)
if [ $RC -ne 3 ]; then fail exit-status "exit $RC, expected 3: $(cat "$D/err")"
elif [ "$(cat "$D/err")" != "mdlrun: son[1] (pid $(pid_of 2)) exited with status 3" ]; then
    fail exit-status "message: $(cat "$D/err")"
elif [ -n "$o" ]; then fail exit-status "$o"
else pass exit-status; fi

new_test exit-after-end
run -n 2 "$INST" end @1:exit=5
if [ $RC -ne 5 ] || ! grep -q 'inst\[1\] (pid [0-9]*) exited with status 5' "$D/err"; then
    fail exit-after-end "exit $RC: $(cat "$D/err")"
else pass exit-after-end; fi

new_test no-end
run -n 3 "$INST" pid="$D" @1:exit=0 end sleep
o=$(orphans)
if [ $RC -ne 1 ]; then fail no-end "exit $RC, expected 1: $(cat "$D/err")"
elif [ "$(cat "$D/err")" != "mdlrun: inst[1] exited without calling MDL_End" ]; then
    fail no-end "message: $(cat "$D/err")"
elif [ -n "$o" ]; then fail no-end "$o"
else pass no-end; fi

# A program that is not a MeDLey one fails the same way.
new_test not-medley
run /bin/true
if [ $RC -ne 1 ] || ! grep -q '^mdlrun: true\[0\] exited without calling MDL_End$' "$D/err"; then
    fail not-medley "exit $RC: $(cat "$D/err")"
else pass not-medley; fi

# An instance SIGKILLed from outside: the job ends at once, nothing left.
new_test sigkill-instance
start -n 1 "$INST" pid="$D" sleep : -n 4 "$SON" pid="$D" sleep
if ! wait_pids 5; then finish 100; fail sigkill-instance "instances did not start"
else
    victim=$(pid_of 3)
    t0=$(now)
    kill -9 "$victim"
    finish 5000
    ms=$(elapsed_ms "$t0")
    o=$(orphans)
    if [ $RC -ne 137 ]; then fail sigkill-instance "exit $RC, expected 137: $(cat "$D/err")"
    elif [ "$(cat "$D/err")" != "mdlrun: son[2] (pid $victim) killed by signal 9 (Killed)" ]; then
        fail sigkill-instance "message: $(cat "$D/err")"
    elif [ "$ms" -gt 1500 ]; then fail sigkill-instance "job took $ms ms to end"
    elif [ -n "$o" ]; then fail sigkill-instance "$o"
    elif ! shm_clean; then fail sigkill-instance "/dev/shm: $(ls /dev/shm | grep -i mdl)"
    else pass sigkill-instance; fi
fi

# Instances blocked on their doorbell are woken and see `aborting`.
new_test doorbell
run -n 3 "$INST" ignterm pid="$D" bell="$D" : "$SON" await="$D",3 exit=4
woke=$(ls "$D" | grep -c '\.woke$')
if [ $RC -ne 4 ]; then fail doorbell "exit $RC, expected 4: $(cat "$D/err")"
elif [ "$woke" -ne 3 ]; then fail doorbell "$woke of 3 waiting instances saw the abort"
elif [ "$(lines "$D/err")" -ne 1 ]; then fail doorbell "stderr: $(cat "$D/err")"
else pass doorbell; fi

# A fatal error in one instance stops its peers (`aborting`), which may be
# reaped first: mdlrun still names the instance that failed, alone, and
# exits with its status (here the peers exit at once, the culprit 200 ms
# later).
new_test culprit
run -n 1 "$INST" pid="$D" await="$D",3 abort=200 : -n 2 "$SON" ignterm pid="$D" bell="$D"
woke=$(ls "$D" | grep -c '\.woke$')
o=$(orphans)
if [ $RC -ne 1 ]; then fail culprit "exit $RC, expected 1: $(cat "$D/err")"
elif [ "$(cat "$D/err")" != "mdlrun: inst[0] (pid $(pid_of 0)) exited with status 1" ]; then
    fail culprit "message: $(cat "$D/err")"
elif [ "$woke" -ne 2 ]; then fail culprit "$woke of 2 peers saw the abort"
elif [ -n "$o" ]; then fail culprit "$o"
else pass culprit; fi

# Instances that ignore SIGTERM are SIGKILLed after the grace period.
new_test sigterm-ignored
t0=$(now)
run -n 4 "$INST" ignterm pid="$D" @0:await="$D",4 @0:exit=7 sleep
ms=$(elapsed_ms "$t0")
o=$(orphans)
if [ $RC -ne 7 ]; then fail sigterm-ignored "exit $RC, expected 7: $(cat "$D/err")"
elif [ "$ms" -gt 2500 ]; then fail sigterm-ignored "job took $ms ms to end"
elif [ "$ms" -lt 400 ]; then fail sigterm-ignored "job ended in $ms ms, before the grace period"
elif [ -n "$o" ]; then fail sigterm-ignored "$o"
else pass sigterm-ignored; fi

new_test timeout
t0=$(now)
run --timeout 0.3 -n 2 "$INST" pid="$D" sleep
ms=$(elapsed_ms "$t0")
o=$(orphans)
if [ $RC -ne 124 ]; then fail timeout "exit $RC, expected 124: $(cat "$D/err")"
elif ! grep -q '^mdlrun: timeout after 0.3 s' "$D/err"; then fail timeout "message: $(cat "$D/err")"
elif [ "$ms" -gt 2500 ]; then fail timeout "took $ms ms"
elif [ -n "$o" ]; then fail timeout "$o"
else pass timeout; fi

# ---------------------------------------------------------------- signals to mdlrun
# sig_test NAME SIGNAL STATUS
sig_test() {
    new_test "$1"
    start -n 2 "$INST" pid="$D" sleep : -n 2 "$SON" pid="$D" sleep
    if ! wait_pids 4; then finish 100; fail "$1" "instances did not start"; return; fi
    local t0; t0=$(now)
    kill -"$2" "$BG"
    finish 5000
    local ms; ms=$(elapsed_ms "$t0")
    local o; o=$(orphans)
    if [ $RC -ne "$3" ]; then fail "$1" "exit $RC, expected $3: $(cat "$D/err")"
    elif [ "$ms" -gt 1500 ]; then fail "$1" "took $ms ms"
    elif [ -n "$o" ]; then fail "$1" "$o"
    elif [ "$(lines "$D/err")" -ne 1 ] || ! grep -q 'terminating the job' "$D/err"; then fail "$1" "stderr: $(cat "$D/err")"
    else pass "$1"; fi
}
sig_test sigint INT 130
sig_test sigterm TERM 143
sig_test sighup HUP 129

# Every instance a session of its own (an autogroup: a fair share of the
# CPU on a busy machine, as Hydra gives MPI ranks); Ctrl-Z stops every
# instance and mdlrun, continuing mdlrun continues them, and --timeout
# does not count the time stopped.
state_of() { sed 's/^[0-9]* (.*) \(.\) .*/\1/' "/proc/$1/stat" 2>/dev/null; }
# until_states STATE PID...: every PID in STATE within 2 s
until_states() {
    local want=$1 i p ok; shift
    for ((i = 0; i < 100; i++)); do
        ok=1
        for p in "$@"; do [ "$(state_of "$p")" = "$want" ] || ok=; done
        [ -n "$ok" ] && return 0
        sleep 0.02
    done
    return 1
}
new_test ctrl-z
start --timeout 4 -n 2 "$INST" pid="$D" sleep
if ! wait_pids 2; then finish 100; fail ctrl-z "instances did not start"
else
    p0=$(pid_of 0) p1=$(pid_of 1)
    sids="$(ps -o sid= -p "$p0" | tr -d ' ') $(ps -o sid= -p "$p1" | tr -d ' ')"
    if [ "$sids" != "$p0 $p1" ]; then finish 100; fail ctrl-z "sessions $sids, expected $p0 $p1 (one per instance)"
    elif ! kill -TSTP "$BG" || ! until_states T "$BG" "$p0" "$p1"; then
        kill -CONT "$BG"; finish 100
        fail ctrl-z "after SIGTSTP: mdlrun $(state_of "$BG"), instances $(state_of "$p0") $(state_of "$p1"), expected all T"
    else
        sleep 4.2   # past --timeout, which must not count this
        if ! kill -CONT "$BG" || ! until_states S "$BG" "$p0" "$p1"; then
            finish 100
            fail ctrl-z "after SIGCONT: mdlrun $(state_of "$BG"), instances $(state_of "$p0") $(state_of "$p1"), expected all S"
        else
            kill -INT "$BG"
            finish 3000
            o=$(orphans)
            if [ $RC -ne 130 ]; then fail ctrl-z "exit $RC after SIGCONT and SIGINT, expected 130: $(cat "$D/err")"
            elif [ -n "$o" ]; then fail ctrl-z "$o"
            else pass ctrl-z; fi
        fi
    fi
fi

# Started with SIGHUP ignored (nohup), mdlrun and the job keep running.
new_test nohup
(trap '' HUP; exec "$MDLRUN" -n 2 "$INST" pid="$D" @0:sleep end >"$D/out" 2>"$D/err") &
BG=$!
if ! wait_pids 2; then finish 100; fail nohup "instances did not start"
else
    kill -HUP "$BG"; sleep 0.2
    if ! kill -0 "$BG" 2>/dev/null; then finish 100; fail nohup "mdlrun died of SIGHUP"
    else
        kill -9 "$(pid_of 0)"
        finish 3000
        [ $RC -eq 137 ] && [ -z "$(orphans)" ] && pass nohup || fail nohup "exit $RC: $(cat "$D/err")"
    fi
fi

# The launcher SIGKILLed: the instances die with it (PR_SET_PDEATHSIG).
# (stderr: bash's own "Killed" notice about its background job.)
new_test launcher-sigkill
{
start -n 3 "$INST" pid="$D" sleep : -n 3 "$SON" pid="$D" ignterm sleep
if ! wait_pids 6; then finish 100; fail launcher-sigkill "instances did not start"
else
    kill -9 "$BG"
    finish 2000
    o=$(orphans)
    if [ -n "$o" ]; then fail launcher-sigkill "$o"
    elif ! shm_clean; then fail launcher-sigkill "/dev/shm: $(ls /dev/shm | grep -i mdl)"
    else pass launcher-sigkill; fi
fi
} 2>/dev/null

# fork fails part-way (RLIMIT_NPROC): the instances started go, exit 1.
# Root ignores the limit, so then the job runs as nobody, from a copy of
# mdlrun in $T: the checkout may lie where nobody cannot enter (a 0700
# directory of mktemp -d).
new_test fork-fail
chmod 755 "$T"
if [ "$(id -u)" = 0 ]; then
    cp "$MDLRUN" "$T/mdlrun"
    timeout -s KILL 20 setpriv --reuid=65534 --regid=65534 --clear-groups \
        bash -c 'ulimit -u 20 && exec "$@"' - "$T/mdlrun" -n 60 "$INST" sleep >"$D/out" 2>"$D/err"
else
    n=$(ps -u "$(id -u)" --no-headers | wc -l)
    timeout -s KILL 20 bash -c 'ulimit -u $1 && shift && exec "$@"' - $((n + 20)) \
        "$MDLRUN" -n 60 "$INST" sleep >"$D/out" 2>"$D/err"
fi
RC=$?
if [ $RC -ne 1 ]; then fail fork-fail "exit $RC, expected 1: $(cat "$D/err")"
elif ! grep -q '^mdlrun: cannot start inst\[[0-9]*\]: Resource temporarily unavailable$' "$D/err"; then
    fail fork-fail "stderr: $(cat "$D/err")"
elif pgrep -f -- "^$INST sleep\$" >/dev/null; then fail fork-fail "instances left running"
else pass fork-fail; fi

# ---------------------------------------------------------------- many instances
new_test many
t0=$(now)
run -n 1 "$INST" check=64,2 fds end : -n 63 "$SON" check=64,2 fds end
ms=$(elapsed_ms "$t0")
if [ $RC -ne 0 ]; then fail many "exit $RC: $(head -3 "$D/err")"
elif [ -s "$D/err" ]; then fail many "stderr: $(head -3 "$D/err")"
elif [ "$ms" -gt 10000 ]; then fail many "took $ms ms"
else pass many; fi

new_test many-kill
start -n 32 "$INST" pid="$D" sleep : -n 32 "$SON" pid="$D" sleep
if ! wait_pids 64; then finish 100; fail many-kill "instances did not start"
else
    victim=$(pid_of 50)
    t0=$(now)
    kill -9 "$victim"
    finish 5000
    ms=$(elapsed_ms "$t0")
    o=$(orphans)
    if [ $RC -ne 137 ]; then fail many-kill "exit $RC, expected 137: $(head -3 "$D/err")"
    elif [ "$(cat "$D/err")" != "mdlrun: son[18] (pid $victim) killed by signal 9 (Killed)" ]; then
        fail many-kill "message: $(head -3 "$D/err")"
    elif [ "$ms" -gt 2000 ]; then fail many-kill "job took $ms ms to end"
    elif [ -n "$o" ]; then fail many-kill "$o"
    else pass many-kill; fi
fi

# ---------------------------------------------------------------- with the real runtime
# tests/mdlrun/lib: a father and sons generated by medleyc, linked with
# libmdl_shm (and libmdl_mpi, for a program started by the wrong launcher).
# build_lib RT: builds $T/lib-RT/{father,son}; prints why it could not.
# RT: shm or an MPI runtime of tests/lib/mpi.sh (mpi-<name>), from the
# staged installs; without MEDLEY_STAGE, shm or mpi from the build tree.
build_lib() {
    local rt=$1 out=$T/lib-$1 lib=${1%%-*} flags p
    mkdir -p "$out/gen"
    if [ -n "${MEDLEY_STAGE:-}" ]; then
        rt_use "$rt" || { echo "$RT_WHY"; return; }
        flags=$(pkg-config --cflags --libs "medley-$lib") || { echo "pkg-config medley-$lib failed"; return; }
        MEDLEYC=$RT_STAGE/bin/medleyc
    else
        flags="-I$ROOT/include -L$ROOT/build/lib -Wl,-rpath,$ROOT/build/lib -lmdl_$lib"
        [ "$lib" = mpi ] && flags="$flags $(sed -n 's/^MPI_LIBS := //p' "$ROOT/build/mpi/mpi.mk")"
        MEDLEYC=$ROOT/build/bin/medleyc
    fi
    [ "${SANITIZE:-}" = 1 ] && flags="-fsanitize=address,undefined $flags"
    "$MEDLEYC" -o "$out/gen" tests/mdlrun/lib/spec.mdl >"$out/medleyc.err" 2>&1 ||
        { echo "medleyc failed: $(head -c 200 "$out/medleyc.err")"; return; }
    for p in father son; do
        # shellcheck disable=SC2086
        cc -std=c11 -Wall -Wextra -Werror -I"$out/gen" "tests/mdlrun/lib/$p.c" "$out/gen"/*MDL.c \
            $flags -o "$out/$p" >"$out/cc.err" 2>&1 ||
            { echo "cannot build $p with libmdl_$rt: $(head -c 200 "$out/cc.err")"; return; }
    done
}

why=$(build_lib shm)
L=$T/lib-shm
if [ -n "$why" ]; then
    fail lib-normal "$why"; fail lib-crash "$why"
else
    new_test lib-normal
    run -n 1 "$L/father" : -n 3 "$L/son"
    expect=$'son 0 got 100\nson 1 got 101\nson 2 got 102'
    if [ $RC -ne 0 ]; then fail lib-normal "exit $RC: $(head -3 "$D/err")"
    elif [ "$(sort "$D/out")" != "$expect" ]; then fail lib-normal "output: $(cat "$D/out")"
    elif [ -s "$D/err" ]; then fail lib-normal "stderr: $(head -3 "$D/err")"
    else pass lib-normal; fi

    # The father dies while the sons wait for it inside the library.
    new_test lib-crash
    t0=$(now)
    run -n 1 "$L/father" crash : -n 3 "$L/son" "$D"
    ms=$(elapsed_ms "$t0")
    o=$(orphans)
    if [ $RC -ne 137 ]; then fail lib-crash "exit $RC, expected 137: $(head -3 "$D/err")"
    elif ! head -1 "$D/err" | grep -q '^mdlrun: father\[0\] (pid [0-9]*) killed by signal 9 (Killed)$'; then
        fail lib-crash "stderr: $(head -3 "$D/err")"
    elif [ "$ms" -gt 1500 ]; then fail lib-crash "job took $ms ms to end"
    elif [ -n "$o" ]; then fail lib-crash "$o"
    else pass lib-crash; fi
fi

if [ -z "$why" ]; then
    # The father returns from main without MDL_End while the sons wait for
    # it inside the library: the job ends at once, status 1.
    new_test lib-noend
    t0=$(now)
    run -n 1 "$L/father" noend "$D" : -n 3 "$L/son" "$D"
    ms=$(elapsed_ms "$t0")
    o=$(orphans)
    if [ $RC -ne 1 ]; then fail lib-noend "exit $RC, expected 1: $(head -3 "$D/err")"
    elif ! head -1 "$D/err" | grep -q '^mdlrun: father\[0\] exited without calling MDL_End$'; then
        fail lib-noend "stderr: $(head -3 "$D/err")"
    elif [ "$ms" -gt 1500 ]; then fail lib-noend "job took $ms ms to end"
    elif [ -n "$o" ]; then fail lib-noend "$o"
    elif ! shm_clean; then fail lib-noend "/dev/shm: $(ls /dev/shm | grep -i mdl)"
    else pass lib-noend; fi

    # Ctrl-C of the launcher (SIGINT) and SIGKILL of the launcher while the
    # sons are blocked inside the library: all instances go, nothing left.
    for sig in INT KILL; do
        name=lib-launcher-sig$(echo $sig | tr 'A-Z' 'a-z')
        new_test "$name"
        { start -n 1 "$L/father" sleep "$D" : -n 3 "$L/son" "$D"
        if ! wait_pids 4; then finish 100; fail "$name" "instances did not start"; continue; fi
        t0=$(now)
        kill -$sig "$BG"
        finish 3000; } 2>/dev/null
        ms=$(elapsed_ms "$t0")
        o=$(orphans)
        if [ $sig = INT ] && [ $RC -ne 130 ]; then fail "$name" "exit $RC, expected 130: $(head -3 "$D/err")"
        elif [ "$ms" -gt 1500 ]; then fail "$name" "took $ms ms"
        elif [ -n "$o" ]; then fail "$name" "$o"
        elif ! shm_clean; then fail "$name" "/dev/shm: $(ls /dev/shm | grep -i mdl)"
        else pass "$name"; fi
    done
fi

# A program built for the MPI runtime (each MPI), started by mdlrun: it
# refuses, and the job ends cleanly.
for rt in "${MPI_RTS[@]}"; do
    name=lib-mpi-program/$rt
    why=$(build_lib "$rt")
    L=$T/lib-$rt
    if [ -n "$why" ]; then
        fail "$name" "$why"
        continue
    fi
    new_test "lib-$rt"
    t0=$(now)
    run -n 1 "$L/father" : -n 2 "$L/son" "$D"
    ms=$(elapsed_ms "$t0")
    o=$(orphans)
    if [ $RC -eq 0 ] || [ $RC -ge 124 ]; then fail "$name" "exit $RC: $(head -3 "$D/err")"
    elif ! grep -q 'mdlrun' "$D/err" || ! grep -q '^mdlrun: .*\[[0-9]\] (pid [0-9]*) exited with status' "$D/err"; then
        fail "$name" "stderr: $(head -3 "$D/err")"
    elif [ "$ms" -gt 10000 ]; then fail "$name" "took $ms ms"
    elif [ -n "$o" ]; then fail "$name" "$o"
    else pass "$name"; fi
done

exit 0
