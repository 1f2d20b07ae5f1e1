#!/usr/bin/env bash
# MeDLey programs across test hosts (tests/hosts/, README.md there), on
# every MPI of tests/lib/mpi.sh (Open MPI, MPICH), built as users build
# them (medleyc, then the MPI's staged medley-mpi.pc).  A bed of 2 hosts:
#   examples/<ex>        the four examples, ranks round-robin over the
#                        hosts, their own physics checks and final line
#   unreceived/<k>       a message sent across hosts and never received:
#                        MDL_End's report line, exactly (2 runs)
#   hang                 a deadlock across hosts: MDL_HANG_SECONDS=1 reports
#                        from every instance, then Ctrl-C (SIGINT to the
#                        launcher) ends the job
#   recover-host         mdltrace --recover on each host writes what that
#                        host's /dev/shm holds (its process's open receive)
#                        and names the processes left out
#   recover-copied       a part copied to another host is refused: only the
#                        host it ran on can read its clock
#   one-copy             64 KiB messages between instances of one host have
#                        copy_us (the one-copy path), between hosts never
#   fault-kill           every process of mdlh2 (the launcher's proxy or
#                        daemon, its 2 instances) killed with SIGKILL
#                        mid-run: the job ends within 30 s, non-zero, and
#                        nothing is left on the hosts (processes, /dev/shm)
#   fault-kill-line      Open MPI: each survivor's line names its call and
#                        whom it waits for, with the host (f[0]: f[3], lost
#                        with mdlh2), and the instances lost, found by
#                        medley's liveness probe: "; lost: f[2], f[3]
#                        (mdlh2)"; MPICH: SKIP (Hydra SIGKILLs the
#                        survivors, they have no chance to say)
#   fault-kill-apart     Open MPI: the same with two families that never
#                        talk, a (mdlh1) and b (mdlh2): a's survivors name
#                        the lost b[0], b[1], a task their descriptor does
#                        not name (MPICH: SKIP, as fault-kill-line)
#   fault-kill-unchecked the same, mdlh2's name sent to an address nobody
#                        answers (the bed's hosts file): the check of the
#                        probe at MDL_Init fails on mdlh1, as behind a
#                        firewall that drops, and the lines name no one
#                        lost (Open MPI; MPICH: SKIP, as fault-kill-line)
#   fault-link           mdlh2's link taken down mid-run: neither MPI ends
#                        the job by itself; MDL_HANG_SECONDS=2 names the call
#                        each instance of mdlh1 waits in, the launcher's
#                        timeout (Open MPI --timeout, MPICH -timeout: what
#                        a user sets, docs/runtime-mpi.md) ends it, non-zero,
#                        nothing left
#   listen/<case>        tests/hosts/listen: the TCP sockets MDL_Init leaves
#                        listening (the probe's) and MDL_End closes: none
#                        on one host (2 instances on mdlh1), one a process
#                        across hosts, none with MDL_LOST_PROBE=0
#   clock/<case>         tests/hosts/ring traced, 2 instances a host,
#                        mdlh2's clock skewed by the test-only
#                        MDL_TEST_CLOCK_SKEW (CLOCKS below): the merged
#                        trace is JSON, mdltrace reads it and prints the
#                        offset measured, every flow goes forward and each
#                        instance's calls keep their order; `unaligned`
#                        merges the clocks as read: its flows go backwards
# and a bed of 3 hosts:
#   stress/<test>/<k>    tests/e2e/stress_p2p, stress_coll, stress_grid and
#                        the run-time sizes' stress_rtsize, stress_rtgrid,
#                        stress_rtpgrid (with the test's env file), ranks
#                        round-robin over the 3 hosts, seeds below
# Test names: hosts-mdl/<mpi>/<name>.  MPICH 4.0.2's MPI_Finalize over
# UCX/TCP hangs at random across hosts (openucx/ucx#8738): a job whose
# output is complete and right and which then hung is a SKIP saying so,
# never a PASS (tests/hosts/README.md); wrong output is a FAIL.  Without
# root the suite is skipped with the reason.
set -u
cd "$(dirname "$0")/.." || exit 1
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
. tests/lib/mpi.sh
. tests/hosts/lib.sh
. tests/trace/flows.sh
CC=${CC:-cc}
CFLAGS_H=(-std=c11 -Wall -Wextra -Werror -O2 -g -ffp-contract=off)
[ "${SANITIZE:-}" = 1 ] && CFLAGS_H+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
T=$MEDLEY_STAGE/bin/mdltrace

work=$(mktemp -d "${TMPDIR:-/tmp}/medley-hosts-mdl.XXXXXX")
cleanup() { hosts_down; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# The stress runs: "test|launch" (3 hosts, round-robin; seeds: first count).
# stress_p2p's seeds in runs of 5: each job has 120 s, and beside other
# work MPICH's took 88 s (seeds 101-110) and 146 s (7001-7010) at a load
# of 26 (one host, MPIR_CVAR_NOLOCAL=1: the messages through UCX as
# between hosts), the likely end of stress/stress_p2p/1 at loads of 13-20.
STRESS=(
"stress_p2p|-n 3 s 101 5"
"stress_p2p|-n 3 s 106 5"
"stress_p2p|-n 3 s 7001 5"
"stress_p2p|-n 3 s 7006 5"
"stress_coll|-n 3 s 101 8"
"stress_coll|-n 4 s 7001 6"
"stress_grid|-n 4 g 101 8 4 0 0"
"stress_grid|-n 1 g 301 8 1 2 1 : -n 2 h 301 8 1 2 1 : -n 1 m 301 8 1 2 1"
"stress_rtsize|-n 3 s 101 3"
"stress_rtgrid|-n 3 g 101 4"
"stress_rtgrid|-n 4 g 201 4"
"stress_rtpgrid|-n 3 p 101 4"
"stress_rtpgrid|-n 4 p 201 4"
)
# The skews of mdlh2's clock: "case|MDL_TEST_CLOCK_SKEW after mdlh2:"
# (µs ahead[:µs per s of CLOCK_MONOTONIC of drift[:raw]]), then the
# offset rank 0 must measure at MDL_Init less the drift (µs, within 10 ms;
# the drift as it was when the job started and when it ended bounds it).
CLOCKS=(
"ahead|2000000|2000000"
"behind-drifting|-2000000:-20000|-2000000"
"unaligned|2000000:0:raw|"
)
tests_2=(examples/montecarlo examples/nbody examples/poisson examples/vlasov
    unreceived/1 unreceived/2 hang recover-host recover-copied one-copy fault-kill
    fault-kill-line fault-kill-apart fault-kill-unchecked fault-link)
for c in "${CLOCKS[@]}"; do tests_2+=("clock/${c%%|*}"); done
# The probe's sockets: "case|hosts_mpi_cmd options|the count MDL_Init opens"
LISTENS=(
"one-host|--hosts 1|0"
"two-hosts|--map block|1"
"off|--map block --env MDL_LOST_PROBE=0|0"
)
for c in "${LISTENS[@]}"; do tests_2+=("listen/${c%%|*}"); done

skip_all() {    # skip_all REASON
    local rt t
    for rt in "${MPI_RTS[@]}"; do
        for t in "${tests_2[@]}"; do echo "SKIP: hosts-mdl/${rt#mpi-}/$t: $1"; done
        for t in "${!STRESS[@]}"; do echo "SKIP: hosts-mdl/${rt#mpi-}/stress/${STRESS[$t]%%|*}/$t: $1"; done
    done
}
why=$(hosts_why_not)
if [ -n "$why" ]; then skip_all "$why"; exit 0; fi

# build DIR SPEC PROG.c…: the programs in DIR for the runtime rt_use chose;
# prints why not and returns 1 on failure
build() {
    local dir=$1 spec=$2 src p
    shift 2
    mkdir -p "$dir/gen"
    "$RT_STAGE/bin/medleyc" -o "$dir/gen" "$spec" > "$dir/medleyc.log" 2>&1 ||
        { echo "medleyc $spec failed: $(head -c 300 "$dir/medleyc.log" | tr '\n' ' ')"; return 1; }
    for src in "$@"; do
        p=$(basename "$src" .c)
        # shellcheck disable=SC2046
        "$CC" "${CFLAGS_H[@]}" -I"$dir/gen" "$src" "$dir/gen/${p}MDL.c" \
            $(pkg-config --cflags --libs medley-mpi) -lm -o "$dir/$p" > "$dir/cc.log" 2>&1 ||
            { echo "build of $src failed: $(head -c 300 "$dir/cc.log" | tr '\n' ' ')"; return 1; }
    done
}

# launch FLAVOR DIR [hosts_mpi_cmd options] -- LAUNCH: HOSTS_CMD for launch
# line LAUNCH (launcher syntax, program names of DIR).  Open MPI's -x
# applies to its own program of an MPMD line: each gets the --env ones.
launch() {
    local f=$1 dir=$2 w
    local -a opts=() envs=()
    shift 2
    while [ "$1" != -- ]; do
        [ "$1" = --env ] && envs+=(-x "$2")
        opts+=("$1" "$2")
        shift 2
    done
    shift
    # and the sanitizers' settings, as hosts_mpi_cmd gives the first program
    for w in "${HOSTS_SANITIZER_ENV[@]}"; do [ -n "${!w-}" ] && envs+=(-x "$w"); done
    hosts_mpi_cmd "$f" --mpmd "${opts[@]}" || return
    for w in $1; do
        if [[ $w != -* ]] && [ -x "$dir/$w" ]; then HOSTS_CMD+=("$dir/$w")
        else HOSTS_CMD+=("$w")
        fi
        [ "$f" = openmpi ] && [ "$w" = : ] && HOSTS_CMD+=("${envs[@]}")
    done
}

# job OUT DONE: the job of HOSTS_CMD watched (hosts_watch), 120 s at most;
# 10 s (MPICH; Open MPI 30 s) after DONE to end, as tests/suite-hosts.sh.
rc=0
job() {
    local grace=30
    [ "$f" = mpich ] && grace=10
    hosts_watch "$1" "$2" "$grace" hosts_cmd_run 120
    rc=$?
}

# ------------------------------------------------------------ examples
# run_example EX LAUNCH OKLINE: 2 hosts, round-robin
run_example() {
    local ex=$1 name=$f/examples/$1 out=$work/$f.$1.out err='' d=$work/$f/$1
    local why
    if ! why=$(build "$d" examples/"$ex"/*.mdl examples/"$ex"/*.c); then
        echo "FAIL: hosts-mdl/$name: $why"
        return
    fi
    launch "$f" "$d" -- "$2"
    job "$out" "$3"
    grep -Eq "$3" "$out" || err="no line matching /$3/"
    hosts_verdict "hosts-mdl/$name" "$f" "$rc" "$err" "$out"
    grep -E "$4" "$out" | sed 's/^/    | /'
}

# ------------------------------------------------- the unreceived message
# tests/e2e/unreceived_net: r[0] on mdlh1, the senders on both hosts
# (MPICH: s[0], s[2] on mdlh2; Open MPI, which maps each program of an MPMD
# line by itself: s[1], s[2]); r receives none of the 20 messages of each:
# MDL_End says so, once.
run_unreceived() {
    local k=$1 name=$f/unreceived/$1 out=$work/$f.unreceived.$1 err='' d=$work/$f/unreceived why n
    if [ ! -x "$d/r" ] && ! why=$(build "$d" tests/e2e/unreceived_net/spec.mdl tests/e2e/unreceived_net/[rs].c); then
        echo "FAIL: hosts-mdl/$name: $why"
        return
    fi
    launch "$f" "$d" --env MDL_ERRORS=return,print -- "-n 1 r : -n 3 s 20"
    job "$out" 'never received'
    n=$(grep -c 'never received' "$out")
    # r's last line comes after MPI_Finalize (MPICH: may hang, a SKIP)
    if [ "$rc" != 200 ] && ! grep -qx 'r: end -106' "$out"; then
        err="no 'r: end -106'"
    elif ! grep -Eqx 'r\[0\]: MDL_End: 60 messages sent to this instance were never received, the first m from s\[[012]\] \(MDL_RecvFrom_s_m\) \(MDL_ERR_STATE\)' "$out"; then
        err="no report of the 60 messages"
    elif [ "$n" != 1 ]; then
        err="$n reports, 1 expected"
    fi
    hosts_verdict "hosts-mdl/$name" "$f" "$rc" "$err" "$out"
}

# ---------------------------------------------- a deadlock across hosts
# tests/trace/run/hang: d[0] on mdlh1 and d[1] on mdlh2 each receive
# first.  MDL_HANG_SECONDS=1: each reports its wait (1 s, 2 s, 4 s …);
# SIGINT to the launcher after 12 s is Ctrl-C.  Then the trace: each
# process's part is in its own host's private /dev/shm.
run_hang() {
    local name=$f/hang out=$work/$f.hang err='' d=$work/$f/hang why i tr=$work/$f-hang.json
    if ! why=$(build "$d" tests/trace/run/hang/spec.mdl tests/trace/run/hang/d.c); then
        for i in hang recover-host recover-copied; do echo "FAIL: hosts-mdl/$f/$i: $why"; done
        return
    fi
    launch "$f" "$d" --env MDL_HANG_SECONDS=1 --env MDL_TRACE="$tr" -- "-n 2 d"
    (cd "$d" && hosts_run 1 timeout -s INT -k 10 12 "${HOSTS_CMD[@]}") > "$out" 2>&1 < /dev/null
    rc=$?
    hosts_reap
    for i in 0 1; do
        grep -Eq "^d\[$i\]: waiting [0-9.]+ s in MDL_RecvFrom_d_r for d\[$((1 - i))\]" "$out" ||
            err+="no hang report of d[$i]; "
    done
    [ "$rc" = 0 ] && err+="the launcher's status is 0 after Ctrl-C; "
    if [ -z "$err" ]; then echo "PASS: hosts-mdl/$name"
    else echo "FAIL: hosts-mdl/$name: ${err%; }: $(tail -c 300 "$out" | tr '\n' ' ')"
    fi
    grep -E '^d\[[01]\]: waiting' "$out" | sort | uniq -c | sed 's/^/    | /'

    # Each host holds its own process's part, and only that host can read
    # its clock: mdltrace --recover runs on every host, each writing the
    # processes of its host (the others "left out"); each file is moved
    # aside before the next host writes its own.  A part copied to another
    # host is refused, saying so (recover-copied).
    err=''
    for i in 1 2; do
        [ "$(hosts_run "$i" sh -c 'ls /dev/shm/medley-0 | grep -c "^trace\."')" = 1 ] ||
            err+="mdlh$i does not hold 1 part; "
    done
    hosts_run 2 tar -C /dev/shm/medley-0 -cf - . > "$work/parts2.tar" 2> "$work/tar.err"
    for i in 2 1; do
        local o=$((2 - i))     # the process of the other host
        hosts_run "$i" "$T" --recover "$tr" > "$work/rec$i" 2>&1
        grep -qxF "wrote $tr: 1 of 2 processes recovered" "$work/rec$i" ||
            err+="mdlh$i did not recover 1 of 2 ($(tr '\n' '|' < "$work/rec$i")); "
        grep -qxF "mdltrace: process $o is left out: no buffer of it on this host" "$work/rec$i" ||
            err+="mdlh$i did not name process $o as left out; "
        grep -qF "\"error\":\"d[$((i - 1))]: MDL_RecvFrom_d_r: had not returned when the job ended (waiting for d[$o])\"" "$tr" ||
            err+="no open receive of d[$((i - 1))] in mdlh$i's trace; "
        "$T" --check "$tr" > "$work/check" 2>&1 || err+="mdlh$i's trace: mdltrace --check: $(head -c 200 "$work/check"); "
        mv "$tr" "$tr.mdlh$i"
        [ -z "$(hosts_run "$i" ls /dev/shm/medley-0)" ] || err+="parts left on mdlh$i; "
    done
    if [ -z "$err" ]; then echo "PASS: hosts-mdl/$f/recover-host"
    else echo "FAIL: hosts-mdl/$f/recover-host: ${err%; }"
    fi
    err=''
    # (the recovery removed mdlh1's private directory with its last part)
    hosts_run 1 mkdir -p -m 700 /dev/shm/medley-0 &&
        hosts_run 1 tar -C /dev/shm/medley-0 -xpf "$work/parts2.tar" 2>> "$work/tar.err" ||
        err="cannot copy the part; "
    hosts_run 1 "$T" --recover "$tr" > "$work/rec" 2>&1
    grep -qE "^mdltrace: process 1 is left out: /dev/shm/medley-0/trace\.[0-9a-f]+\.[0-9a-f]+\.1: its process did not end and ran on host mdlh2: only that host can read its clock$" "$work/rec" ||
        err+="no refusal of mdlh2's part on mdlh1; "
    hosts_run 1 sh -c 'rm -f /dev/shm/medley-0/trace.*'
    if [ -z "$err" ]; then echo "PASS: hosts-mdl/$f/recover-copied"
    else echo "FAIL: hosts-mdl/$f/recover-copied: ${err%; }: $(tr '\n' '|' < "$work/rec")"
    fi
}

# ------------------------------------------------------ the one-copy path
# tests/hosts/ring: 4 instances, 2 a host (block): p[0], p[1] on mdlh1,
# p[2], p[3] on mdlh2; the receives from p[0] (by p[1]) and from p[2] (by
# p[3]) stay on a host and take the one-copy path (copy_us); those from
# p[1] and p[3] cross between hosts and never do.
run_one_copy() {
    local name=$f/one-copy out=$work/$f.one-copy err='' d=$work/$f/ring why tr=$work/$f-ring.json p n
    if ! why=$(build "$d" tests/hosts/ring/spec.mdl tests/hosts/ring/p.c); then
        echo "FAIL: hosts-mdl/$name: $why"
        return
    fi
    hosts_mpi_cmd "$f" -n 2 --map block --env MDL_TRACE="$tr"
    HOSTS_CMD+=("$d/p")
    job "$out" "@$tr"
    for p in 0 1 2 3; do grep -qx "p\[$p\]: ok" "$out" || err+="no 'p[$p]: ok'; "; done
    if [ -z "$err" ] && [ -f "$tr" ]; then
        for p in 0 1 2 3; do
            n=$(grep -oE '"name":"MDL_RecvFrom_p_big"[^}]*"peer":"p\['$p'\]"[^}]*' "$tr" | grep -c '"copy_us"')
            if [ $((p % 2)) = 0 ] && [ "$n" != 3 ]; then
                err+="$n of 3 receives from p[$p] (same host) have copy_us; "
            elif [ $((p % 2)) = 1 ] && [ "$n" != 0 ]; then
                err+="$n receives from p[$p] (another host) have copy_us; "
            fi
        done
        [ "$(grep -c '"name":"MDL_RecvFrom_p_big"' "$tr")" -ge 1 ] || err+="no receive in the trace; "
    fi
    hosts_verdict "hosts-mdl/$name" "$f" "$rc" "$err" "$out"
}

# ------------------------------------------------------------ clocks
# drift_now PPM: µs a clock drifting PPM µs a second of CLOCK_MONOTONIC has gathered
drift_now() { python3 -c 'import sys, time; print(time.monotonic_ns() * int(sys.argv[1]) // 10**9)' "$1"; }

# run_clock K: CLOCKS[K] on tests/hosts/ring, p[0], p[1] on mdlh1 (rank
# 0's clock), p[2], p[3] on mdlh2 (skewed)
run_clock() {
    local c=${CLOCKS[$1]} case skew want name out d=$work/$f/ring why err='' tr p got
    case=${c%%|*}; c=${c#*|}; skew=${c%%|*}; want=${c#*|}
    name=$f/clock/$case out=$work/$f.clock.$case tr=$work/$f-clock-$case.json
    if [ ! -x "$d/p" ] && ! why=$(build "$d" tests/hosts/ring/spec.mdl tests/hosts/ring/p.c); then
        echo "FAIL: hosts-mdl/$name: $why"
        return
    fi
    hosts_mpi_cmd "$f" -n 2 --map block --env MDL_TRACE="$tr" --env MDL_TEST_CLOCK_SKEW="mdlh2:$skew"
    HOSTS_CMD+=("$d/p")
    # the drift mdlh2's clock has gathered (µs), before the job and after
    local ppm=0 drift0 drift1 earlier
    [[ $skew == *:* ]] && ppm=${skew#*:} ppm=${ppm%%:*}
    drift0=$(drift_now "$ppm")
    job "$out" "@$tr"
    drift1=$(drift_now "$ppm")
    [ "$drift0" -le "$drift1" ] || { earlier=$drift0 drift0=$drift1 drift1=$earlier; }
    for p in 0 1 2 3; do grep -qx "p\[$p\]: ok" "$out" || err+="no 'p[$p]: ok'; "; done
    if [ -z "$err" ] && [ ! -f "$tr" ]; then
        err+="no trace; "
    elif [ -z "$err" ]; then
        python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tr" 2> "$out.json" ||
            err+="not JSON: $(tail -1 "$out.json"); "
        "$T" "$tr" > "$out.report" 2>&1 || err+="mdltrace: $(head -c 200 "$out.report"); "
        events_ordered "$tr" || err+="an instance's calls out of order; "
        got=$(sed -n "s/^  hosts' clocks against rank 0's: mdlh2 (from rank 2): \([-+][0-9]*\)\.[0-9] us +- [0-9.]* us at MDL_Init, .*/\1/p" "$out.report")
        if [ -z "$want" ]; then
            # merged as read: the flows between the hosts go back 2 s
            flows_forward "$tr" && err+="the flows go forward unaligned: the check cannot fail; "
            [ -z "$got" ] || err+="an offset said, none applied; "
        else
            flows_forward "$tr" || err+="a flow goes backwards: $(grep "hosts' clocks" "$out.report"); "
            if [ -z "$got" ]; then err+="no offset of mdlh2 in mdltrace's report; "
            elif [ $((got - want - drift1)) -gt 10000 ] || [ $((drift0 - got + want)) -gt 10000 ]; then
                err+="mdlh2's offset measured $got us, skewed $want us and $drift0..$drift1 us of drift; "
            fi
        fi
    fi
    hosts_verdict "hosts-mdl/$name" "$f" "$rc" "$err" "$out"
}

# ------------------------------------------------------- the probe's sockets
# run_listen K: LISTENS[K], 2 instances a host (on mdlh1 alone for
# one-host): each says how many listening sockets MDL_Init opened and
# MDL_End left; its line comes before MPI_Finalize (MPICH: may hang after)
run_listen() {
    local c=${LISTENS[$1]} name out err='' d=$work/$f/listen why i opts want
    name=$f/listen/${c%%|*}; out=$work/$f.listen.${c%%|*}
    opts=${c#*|}; opts=${opts%|*}; want=${c##*|}
    # l starts MPI itself: built by the MPI's compiler wrapper
    if [ ! -x "$d/l" ] && ! why=$(CC=$MPI_CC build "$d" tests/hosts/listen/spec.mdl tests/hosts/listen/l.c); then
        echo "FAIL: hosts-mdl/$name: $why"
        return
    fi
    # shellcheck disable=SC2086 # the options of the case
    hosts_mpi_cmd "$f" -n 2 $opts
    HOSTS_CMD+=("$d/l")
    local n=4
    [ "${c%%|*}" = one-host ] && n=2
    job "$out" '^l\[[0-9]\]: MDL_Init'
    for ((i = 0; i < n; i++)); do
        grep -qx "l\[$i\]: MDL_Init listens on $want, MDL_End leaves 0" "$out" ||
            err+="not 'l[$i]: MDL_Init listens on $want, MDL_End leaves 0'; "
    done
    # no other line of an instance: the probe says nothing in a job without
    # a fault (the launcher's own warnings may come, seen under load)
    [ "$(grep -c '^l\[' "$out")" = "$n" ] || err+="$(grep -c '^l\[' "$out") lines of instances, $n expected; "
    hosts_verdict "hosts-mdl/$name" "$f" "$rc" "${err%; }" "$out"
}

# ------------------------------------------------------------ faults
# tests/hosts/fault: a ring of 4 for ever, 2 a host (block): f[0], f[1]
# on mdlh1 (the launcher's), f[2], f[3] on mdlh2.  run_fault kill|link,
# or kill-unchecked: the bed's hosts file sends mdlh2's name to an address
# nobody answers (as a firewall that drops would), so MDL_Init's check of
# the probe fails on mdlh1 and its survivors' lines name no one lost; or
# kill-apart: tests/hosts/apart instead, a[0], a[1] on mdlh1 waiting for
# each other, b[0], b[1] on mdlh2
run_fault() {
    local how=$1 name=$f/fault-$1 out=$work/$f.fault-$1 err='' d=$work/$f/fault why
    local hosts_file=''
    if [[ $how == kill-* ]] && [ "$f" = mpich ]; then
        echo "SKIP: hosts-mdl/$name: Hydra's proxy SIGKILLs the survivors: they print no line (docs/runtime-mpi.md, Faults)"
        return
    fi
    local bound=15 ns pids t0 i
    # MPIEXEC_TIMEOUT: the job's time limit, read by both launchers
    if [ "$how" = kill-apart ]; then
        d=$work/$f/apart
        if [ ! -x "$d/a" ] && ! why=$(build "$d" tests/hosts/apart/spec.mdl tests/hosts/apart/a.c tests/hosts/apart/b.c); then
            echo "FAIL: hosts-mdl/$name: $why"
            return
        fi
        launch "$f" "$d" -n 2 --map block -- "-n 2 a : -n 2 b"
    else
        if [ ! -x "$d/f" ] && ! why=$(build "$d" tests/hosts/fault/spec.mdl tests/hosts/fault/f.c); then
            echo "FAIL: hosts-mdl/$name: $why"
            return
        fi
        hosts_mpi_cmd "$f" -n 2 --map block --env MDL_HANG_SECONDS=2
        HOSTS_CMD+=("$d/f")
    fi
    HOSTS_CMD=(env "MPIEXEC_TIMEOUT=$bound" "${HOSTS_CMD[@]}")
    if [ "$how" = kill-unchecked ]; then
        # rewritten in place: each host's /etc/hosts is a bind mount of it
        hosts_file=$(cat "$HOSTS_BED/hosts")
        sed "s/^[0-9.]*\(\tmdlh2\)\$/$HOSTS_NET.99\1/" <<<"$hosts_file" > "$HOSTS_BED/hosts"
    fi
    hosts_cmd_run 120 > "$out" 2>&1 &
    local job_pid=$!
    for _ in $(seq 150); do [ "$(grep -c ': running$' "$out")" = 4 ] && break; sleep 0.1; done
    ns=$HOSTS_PREFIX-${HOSTS_BED##*/}-h2
    pids=$(hosts_procs 2)
    t0=$SECONDS
    if [ "$how" != link ]; then
        # shellcheck disable=SC2086
        kill -KILL $pids
    else
        ip -n "$ns" link set eth0 down
    fi
    wait "$job_pid"
    rc=$?
    local took=$((SECONDS - t0))
    [ "$how" = link ] && ip -n "$ns" link set eth0 up
    [ -z "$hosts_file" ] || printf '%s\n' "$hosts_file" > "$HOSTS_BED/hosts"
    [ "$(grep -c ': running$' "$out")" = 4 ] || err+="not all 4 instances ran; "
    [ "$rc" = 0 ] && err+="exit status 0; "
    [ "$took" -le 30 ] || err+="ended $took s after the fault; "
    # Killed: Open MPI's daemon on mdlh1 SIGTERMs the survivors, whose line
    # names their call and whom they wait for, with its host (f[0] waits
    # for f[3]), then the instances the probe found gone: exactly those of
    # mdlh2.  Hydra SIGKILLs them at once: no line.
    local line_err=''
    if [ "$how" = kill ] && [ "$f" = openmpi ]; then
        for i in 0 1; do
            grep -Eq "^f\[$i\] \(mdlh1\): stopped by SIGTERM in MDL_(RecvFrom|SendTo)_f_m, waiting for f\[[0-3]\] \(mdlh[12]\); lost: f\[2\], f\[3\] \(mdlh2\)$" "$out" ||
                line_err+="no line of the call f[$i] was in and of the lost f[2], f[3]; "
        done
        grep -Eq '^f\[0\] \(mdlh1\): stopped by SIGTERM in MDL_RecvFrom_f_m, waiting for f\[3\] \(mdlh2\); lost: f\[2\], f\[3\] \(mdlh2\)$' "$out" ||
            line_err+="f[0] waiting for the lost f[3] not said; "
    elif [ "$how" = kill-apart ]; then
        for i in 0 1; do
            grep -qx "a\[$i\] (mdlh1): stopped by SIGTERM in MDL_RecvFrom_a_m, waiting for a\[$((1 - i))\] (mdlh1); lost: b\[0\], b\[1\] (mdlh2)" "$out" ||
                err+="no line of a[$i] waiting for a[$((1 - i))], b[0] and b[1] lost; "
        done
    elif [ "$how" = kill-unchecked ] && [ "$f" = openmpi ]; then
        for i in 0 1; do
            grep -Eq "^f\[$i\] \(mdlh1\): stopped by SIGTERM in MDL_(RecvFrom|SendTo)_f_m, waiting for f\[[0-3]\] \(mdlh[12]\)$" "$out" ||
                err+="no line of the call f[$i] was in, without a lost instance; "
        done
    fi
    if [ "$how" = link ]; then
        for i in 0 1; do
            grep -Eq "^f\[$i\]: waiting [0-9.]+ s in MDL_(RecvFrom|SendTo)_f_m for f\[[0-9]\]" "$out" ||
                err+="no report of the call f[$i] waits in; "
        done
    fi
    # what the launcher leaves is left: a few seconds for its daemons to go
    for _ in $(seq 50); do [ -z "$(hosts_procs)" ] && break; sleep 0.1; done
    [ -z "$(hosts_procs)" ] || err+="left running:$(ps -o comm= -p "$(hosts_procs | sed 's/^ //; s/ /,/g')" | tr '\n' ' '); "
    hosts_reap
    # mdlh1's /dev/shm as it was; on mdlh2 Open MPI's shared-memory
    # segments stay (vader_segment.*: their processes were killed), removed
    # here, as a rebooted host would.  Open MPI makes the harness's scratch
    # directory (tests/lib/ompi-scratch.sh) in each host's /dev/shm: it may
    # stay, without a segment on mdlh1.
    local scratch=${OMPI_MCA_btl_vader_backing_directory#/dev/shm/}
    scratch=${scratch%%/*}
    local left1="ls -A /dev/shm | grep -v '^medley-0\$' | grep -vxF '$scratch'; ls -A /dev/shm/medley-0 2>/dev/null"
    [ -z "$scratch" ] || left1+="; find '/dev/shm/$scratch' -name 'vader_segment.*' 2>/dev/null"
    [ -z "$(hosts_run 1 sh -c "$left1")" ] ||
        err+="files left in mdlh1's /dev/shm: $(hosts_run 1 sh -c "$left1" | tr '\n' ' '); "
    [ -z "$(hosts_run 2 sh -c "ls -A /dev/shm | grep -v '^medley-0\$\|^vader_segment\.' | grep -vxF '$scratch'; ls -A /dev/shm/medley-0 2>/dev/null")" ] ||
        err+="files left in mdlh2's /dev/shm: $(hosts_run 2 ls -A /dev/shm | tr '\n' ' '); "
    hosts_run 2 sh -c 'rm -f /dev/shm/vader_segment.*'

    if [ -z "$err" ]; then echo "PASS: hosts-mdl/$name"
    else echo "FAIL: hosts-mdl/$name: ${err%; }: $(tail -c 300 "$out" | tr '\n' ' ')"
    fi
    if [ "$how" = kill ] && [ "$f" = openmpi ]; then
        if [ -z "$line_err" ]; then echo "PASS: hosts-mdl/$name-line"
        else echo "FAIL: hosts-mdl/$name-line: ${line_err%; }: $(grep 'stopped by SIGTERM' "$out" | tr '\n' ' ')"
        fi
    fi
    if [ "$how" = kill ] && [ "$f" = mpich ]; then
        echo "SKIP: hosts-mdl/$f/fault-kill-line: Hydra's proxy SIGKILLs the survivors (no SIGTERM) within ms of losing mdlh2's proxy: they cannot say which call they were in (docs/runtime-mpi.md, Faults)"
    fi
}

# ------------------------------------------------------------ stress
# run_stress K: STRESS[K] on the 3 hosts, round-robin
run_stress() {
    local t=${STRESS[$1]%%|*} l=${STRESS[$1]#*|} name=$f/stress/${STRESS[$1]%%|*}/$1
    local out=$work/$f.stress.$1 d=$work/$f/$t why err='' prog v
    local -a envs=()
    # the line the first program prints; stress_grid's families each print one
    prog=${l#-n * }; prog=${prog%% *}
    local ok="$prog\\[0\\] ok: "
    [ "$t" = stress_grid ] && ok='\[0\] ok: '
    if [ -f "tests/e2e/$t/env" ]; then
        while read -r v; do envs+=(--env "$v"); done <"tests/e2e/$t/env"
    fi
    if [ ! -f "$d/built" ]; then
        # shellcheck disable=SC2046 # the programs of the test
        why=$(build "$d" tests/e2e/$t/spec.mdl $(ls tests/e2e/$t/*.c)) && touch "$d/built" ||
            { echo "FAIL: hosts-mdl/$name: $why"; return; }
    fi
    # its last line comes after MPI_Finalize: done once MDL_End wrote the trace
    launch "$f" "$d" "${envs[@]}" --env MDL_TRACE="$out.json" -- "$l"
    job "$out" "@$out.json"
    if [ "$rc" != 200 ] && ! grep -Eq "$ok" "$out"; then err="no line matching /$ok/"; fi
    hosts_verdict "hosts-mdl/$name" "$f" "$rc" "$err" "$out"
}

# ------------------------------------------------------------ the beds
for h in 2 3; do
    if ! hosts_up "$h"; then
        why=${HOSTS_SKIP:-$HOSTS_ERROR}
        for rt in "${MPI_RTS[@]}"; do
            if [ "$h" = 2 ]; then tests=("${tests_2[@]}")
            else tests=(); for k in "${!STRESS[@]}"; do tests+=("stress/${STRESS[$k]%%|*}/$k"); done
            fi
            for t in "${tests[@]}"; do
                if [ -n "$HOSTS_SKIP" ]; then echo "SKIP: hosts-mdl/${rt#mpi-}/$t: $why"
                else echo "FAIL: hosts-mdl/${rt#mpi-}/$t: $why"; fi
            done
        done
        continue
    fi
    for rt in "${MPI_RTS[@]}"; do
        f=${rt#mpi-}
        rt_use "$rt" || { echo "FAIL: hosts-mdl/$f: $RT_WHY"; continue; }
        # The bed's hosts share this machine's cores, which Open MPI cannot
        # see (it counts each host's processes alone): it yields when idle
        # (tests/README.md; mpirun passes the setting to every host)
        if [ ${#MPI_SHARING[@]} -gt 0 ]; then export "${MPI_SHARING[@]}"; fi
        if [ "$h" = 2 ]; then
            run_example montecarlo "-n 1 father 20000 : -n 2 son" '^pi = 3\.1[3-5]' 'absolute error'
            run_example nbody "-n 2 body" '^nbody: ok' 'rel.diff'
            run_example poisson "-n 4 noeud 24 2 2 1e-9 30" '^poisson: ok' 'error|serial'
            run_example vlasov "-n 2 vlasov 20" '^vlasov: ok' 'serial|gamma|omega'
            run_unreceived 1
            run_unreceived 2
            run_hang
            run_one_copy
            for k in "${!CLOCKS[@]}"; do run_clock "$k"; done
            for k in "${!LISTENS[@]}"; do run_listen "$k"; done
            run_fault kill
            run_fault kill-apart
            run_fault kill-unchecked
            run_fault link
        else
            for k in "${!STRESS[@]}"; do
                # Under ASan, MPICH's UCX over TCP hung before any output in
                # stress_grid (-n 1 g 301 …, 2 runs of 2); without ASan its stress runs
                # print their result, then hang in MPI_Finalize (a SKIP).
                if [ "${SANITIZE:-}" = 1 ] && [ "$f" = mpich ]; then
                    echo "SKIP: hosts-mdl/$f/stress/${STRESS[$k]%%|*}/$k: MPICH 4.0.2 + UCX over TCP hangs across hosts (openucx/ucx#8738), under ASan also before the result; run without SANITIZE and on Open MPI"
                    continue
                fi
                run_stress "$k"
            done
        fi
    done
    hosts_down
done
exit 0
