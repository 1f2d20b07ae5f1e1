#!/usr/bin/env bash
# Test hosts on one machine (tests/hosts/, README.md there): a bed of 2 hosts
# and one of 3, and on each, for Open MPI and MPICH, plain MPI programs:
#   where-node, where-block  every rank on the host the mapping says, host
#                            names, network namespaces and
#                            MPI_COMM_TYPE_SHARED agree, a variable passed
#                            with --env reaches every rank, a ring message
#   pingpong                 8 B, 64 KiB and 1 MiB between mdlh1 and the last
#                            host arrive intact (no timing asserted)
#   docs-lines (2 hosts)     the host file and launcher line of each MPI in
#                            docs/runtime-mpi.md ("Running on a cluster"), run
#                            as written plus the bed's own options: ranks
#                            round-robin, 2 a host, as the page says, and
#                            MDL_HANG_SECONDS=60 reaches every rank
# and the bed itself: hosts are isolated (/dev/shm), teardown leaves
# nothing (namespaces, processes, state, /dev/shm), also after Ctrl-C and
# after the owner was SIGKILLed; without privileges the bed says so.
#   PASS: hosts/<name>   FAIL: hosts/<name>: reason   SKIP: hosts/<name>: reason
# MPICH 4.0.2's MPI_Finalize over UCX/TCP hangs at random across hosts
# (openucx/ucx#8738; counts in tests/hosts/README.md): an MPICH job whose
# output is complete and right but which then hung is a SKIP saying so,
# never a PASS; wrong output is a FAIL.  No timing is asserted: jobs get
# 120 s (this machine is shared; a busy-polling MPI on 2 loaded cores can
# take milliseconds a message), and 10 s (MPICH; Open MPI 30 s) after their
# last line to end.
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/hosts/lib.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/medley-hosts.XXXXXX")
cleanup() { hosts_down; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

flavors=(openmpi mpich)
# bed_tests H: the tests of each MPI on a bed of H hosts
bed_tests() { echo where-node where-block pingpong; if [ "$1" = 2 ]; then echo docs-lines; fi; }

skip_all() {    # skip_all REASON: every test this suite would run
    local h f t
    for h in 2 3; do
        for f in "${flavors[@]}"; do
            for t in $(bed_tests "$h"); do echo "SKIP: hosts/$h/$f/$t: $1"; done
        done
        echo "SKIP: hosts/$h/isolation: $1"
        echo "SKIP: hosts/$h/teardown: $1"
    done
    echo "SKIP: hosts/interrupt: $1"
    echo "SKIP: hosts/stale-sweep: $1"
}

# Without privileges the bed must refuse with a reason, not half-build.
check_no_privileges() {
    local out
    if ! command -v setpriv > /dev/null; then
        echo "SKIP: hosts/no-privileges: setpriv not installed"
        return
    fi
    # A copy nobody can read: the work tree may be in a private directory.
    local d
    d=$(mktemp -d /tmp/medley-hosts-nobody.XXXXXX) && chmod 755 "$d" && cp tests/hosts/lib.sh "$d/"
    # shellcheck disable=SC2016 # for the inner shell
    out=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups bash -c \
        '. "$1/lib.sh"; if hosts_up 2; then echo UP; else echo "skip=$HOSTS_SKIP"; fi' sh "$d" 2>&1)
    rm -rf "$d"
    if [ "$out" = "skip=needs root (network namespaces, veth, mounts)" ]; then
        echo "PASS: hosts/no-privileges"
    else
        echo "FAIL: hosts/no-privileges: hosts_up as nobody said: $(echo "$out" | tr '\n' ' ' | head -c 300)"
    fi
}

why=$(hosts_why_not)
if [ -n "$why" ]; then
    echo "SKIP: hosts/no-privileges: not root, so this is the case itself: $why"
    skip_all "$why"
    exit 0
fi
check_no_privileges

# The programs, once per MPI; a missing MPI skips its tests.
declare -A have
for f in "${flavors[@]}"; do
    have[$f]=''
    if ! command -v "mpicc.$f" > /dev/null; then
        have[$f]="mpicc.$f not installed"
        continue
    fi
    for p in where pingpong; do
        if ! "mpicc.$f" -O2 -Wall -Wextra -o "$work/$p.$f" "tests/hosts/$p.c" > "$work/cc.$f.$p" 2>&1; then
            have[$f]="$p.c does not compile with mpicc.$f: $(head -c 200 "$work/cc.$f.$p" | tr '\n' ' ')"
        fi
    done
done

# Files of our hosts that would have leaked into the machine's /dev/shm (other
# users' files may come and go meanwhile: only names with a bed host name).
shm_snapshot() { find /dev/shm -maxdepth 1 -name '*mdlh*' 2>/dev/null | sort; }

# job OUT DONE FLAVOR [hosts_mpirun options] -- prog args: status in rc.
# Grace after the last line: MPICH's that end take well under a second
# here, so 10 s tells a hang; Open MPI's never hung, 30 s leaves it room.
rc=0
job() {
    local out=$1 done_re=$2 grace=30
    shift 2
    [ "$1" = mpich ] && grace=10
    hosts_mpirun_watch "$out" "$done_re" "$grace" "$1" --timeout 120 "${@:2}"
    rc=$?
}

# where H FLAVOR MAP: 2 ranks a host; rank r expected on mdlh(r mod H + 1)
# (node) or mdlh(r / 2 + 1) (block).
run_where() {
    local h=$1 f=$2 map=$3 name="$1/$2/where-$3" out="$work/$1.$2.where-$3" err='' r want line n=$((2 * $1))
    job "$out" '^where: ' "$f" -n 2 --map "$map" --env MDL_HOSTS_PROBE="p$h$map" \
        -- "$work/where.$f"
    for ((r = 0; r < n; r++)); do
        if [ "$map" = node ]; then want=mdlh$((r % h + 1)); else want=mdlh$((r / 2 + 1)); fi
        line=$(grep "^rank $r of $n on " "$out")
        if [ -z "$line" ]; then err="rank $r did not report"; break; fi
        case $line in
            *" on $want net "*" probe p$h$map") ;;
            *) err="rank $r: '$line', expected on $want with probe p$h$map"; break ;;
        esac
    done
    [ -z "$err" ] && ! grep -qx "where: ok $h hosts" "$out" && err="no 'where: ok $h hosts'"
    hosts_verdict "hosts/$name" "$f" "$rc" "$err" "$out"
}

run_pingpong() {
    local h=$1 f=$2 name="$1/$2/pingpong" out="$work/$1.$2.pingpong" err='' s
    job "$out" '^pingpong 1048576 B' "$f" -n 1 -- "$work/pingpong.$f" 30 8 65536 1048576
    for s in 8 65536 1048576; do
        grep -q "^pingpong $s B: 30 iters, .*, ok$" "$out" || { err="size $s not ok"; break; }
    done
    hosts_verdict "hosts/$name" "$f" "$rc" "$err" "$out"
}

# The cluster page's lines for FLAVOR: docs_part FLAVOR hosts (the host
# file) or line (the launcher line), as the page writes them.
docs_part() {
    awk '/^## Running on a cluster/ { c = 1 } c && /^```sh/ { b = 1; next } b && /^```/ { exit } b' \
        docs/runtime-mpi.md |
    awk -v want="$1" -v part="$2" '
        /^# Open MPI/ { f = "openmpi"; h = 0; next }
        /^# MPICH/ { f = "mpich"; h = 0; next }
        f != want { next }
        /^#   hosts: / { h = 1; sub(/^#   hosts: +/, ""); if (part == "hosts") print; next }
        h && /^#  +[^ ]/ { sub(/^# +/, ""); if (part == "hosts") print; next }
        /^#/ { h = 0; next }
        { if (part == "line") print; f = "" }'
}

# The page's line run as written (the bed's launcher options before its
# words, node1/node2 made mdlh1/mdlh2) with a program printing where each
# rank is and the MDL_HANG_SECONDS it got: Open MPI's line passes the
# variable from mpirun's environment (-x), MPICH's sets it (-genv).
run_docs_lines() {
    local f=$1 name="2/$1/docs-lines" out="$work/2.$1.docs-lines" err='' line r want w grace=30
    local -a words
    docs_part "$f" hosts | sed 's/^node\([0-9]\)/mdlh\1/' > "$work/hosts.$f"
    printf '#!/bin/sh\nMDL_HOSTS_PROBE="hang=${MDL_HANG_SECONDS:--}" exec %s\n' "$work/where.$f" > "$work/prog.$f"
    chmod +x "$work/prog.$f"
    line=$(docs_part "$f" line)
    read -r -a words <<< "$line"
    case $f:${words[0]:-} in
        openmpi:mpirun) hosts_bed_launcher "$f"
            HOSTS_CMD=(env MDL_HANG_SECONDS=60 MDL_TRACE="$work/unused.json" "${HOSTS_CMD[@]}") ;;
        mpich:mpiexec) hosts_bed_launcher "$f"
            HOSTS_CMD=(env -u MDL_HANG_SECONDS "${HOSTS_CMD[@]}"); grace=10 ;;
        *) echo "FAIL: hosts/$name: no $f launcher line on the page: '$line'"; return ;;
    esac
    [ "$(wc -l < "$work/hosts.$f")" = 2 ] || { echo "FAIL: hosts/$name: the page's host file for $f: $(tr '\n' ' ' < "$work/hosts.$f")"; return; }
    for w in "${words[@]:1}"; do
        case $w in
            hosts) HOSTS_CMD+=("$work/hosts.$f") ;;
            ./prog) HOSTS_CMD+=("$work/prog.$f") ;;
            *) HOSTS_CMD+=("$w") ;;
        esac
    done
    hosts_watch "$out" '^where: ' "$grace" hosts_cmd_run 120
    rc=$?
    for ((r = 0; r < 4; r++)); do
        want=mdlh$((r % 2 + 1))
        line=$(grep "^rank $r of 4 on " "$out")
        case $line in
            "") err="rank $r did not report"; break ;;
            *" on $want net "*" probe hang=60") ;;
            *) err="rank $r: '$line', expected on $want with hang=60"; break ;;
        esac
    done
    [ -z "$err" ] && ! grep -qx "where: ok 2 hosts" "$out" && err="no 'where: ok 2 hosts'"
    hosts_verdict "hosts/$name" "$f" "$rc" "$err" "$out"
}

# A file in one host's /dev/shm is in no other host's and not the machine's.
run_isolation() {
    local h=$1 i err=''
    hosts_run 1 sh -c 'echo x > /dev/shm/mdlh-isolation' || err="cannot write mdlh1's /dev/shm"
    for ((i = 2; i <= h; i++)); do
        hosts_run "$i" test -e /dev/shm/mdlh-isolation && err="mdlh$i sees mdlh1's /dev/shm"
        [ "$(hosts_run "$i" hostname)" = "mdlh$i" ] || err="mdlh$i has host name $(hosts_run "$i" hostname)"
    done
    [ -e /dev/shm/mdlh-isolation ] && err="the machine sees mdlh1's /dev/shm"
    if [ -z "$err" ]; then echo "PASS: hosts/$h/isolation"; else echo "FAIL: hosts/$h/isolation: $err"; fi
}

shm_before=$(shm_snapshot)
for h in 2 3; do
    if ! hosts_up "$h"; then
        for f in "${flavors[@]}"; do
            for t in $(bed_tests "$h"); do
                if [ -n "$HOSTS_SKIP" ]; then echo "SKIP: hosts/$h/$f/$t: $HOSTS_SKIP"
                else echo "FAIL: hosts/$h/$f/$t: $HOSTS_ERROR"; fi
            done
        done
        continue
    fi
    id=${HOSTS_BED##*/}
    run_isolation "$h"
    for f in "${flavors[@]}"; do
        if [ -n "${have[$f]}" ]; then
            for t in $(bed_tests "$h"); do echo "SKIP: hosts/$h/$f/$t: ${have[$f]}"; done
            continue
        fi
        run_where "$h" "$f" node
        run_where "$h" "$f" block
        run_pingpong "$h" "$f"
        [ "$h" = 2 ] && run_docs_lines "$f"
    done
    hosts_down
    left=$(hosts_leftovers "$id")
    new_shm=$(comm -13 <(echo "$shm_before") <(shm_snapshot))
    if [ -n "$left" ] || [ -n "$new_shm" ]; then
        echo "FAIL: hosts/$h/teardown: left: $(echo "$left" "$new_shm" | tr '\n' ' ')"
    else
        echo "PASS: hosts/$h/teardown"
    fi
done

# Ctrl-C while a bed is up: the caller's trap tears it down.
# shellcheck disable=SC2016 # for the inner shell
out=$(timeout -s INT 10 bash -c '
    . tests/hosts/lib.sh
    trap hosts_down EXIT
    trap "exit 130" INT
    hosts_up 2 || exit 1
    echo "bed ${HOSTS_BED##*/}"
    sleep 60' 2>&1)
id=$(echo "$out" | sed -n 's/^bed //p')
if [ -z "$id" ]; then
    echo "FAIL: hosts/interrupt: the bed did not come up: $(echo "$out" | tr '\n' ' ')"
elif left=$(hosts_leftovers "$id") && [ -n "$left" ]; then
    echo "FAIL: hosts/interrupt: left: $(echo "$left" | tr '\n' ' ')"
else
    echo "PASS: hosts/interrupt"
fi

# The owner SIGKILLed: no trap runs; the next sweep removes the bed.
# shellcheck disable=SC2016 # for the inner shell
out=$(bash -c '
    . tests/hosts/lib.sh
    hosts_up 2 || exit 1
    echo "bed ${HOSTS_BED##*/}"
    kill -KILL $$' 2>&1)
id=$(echo "$out" | sed -n 's/^bed //p')
if [ -z "$id" ]; then
    echo "FAIL: hosts/stale-sweep: the bed did not come up: $(echo "$out" | tr '\n' ' ')"
elif [ -z "$(hosts_leftovers "$id")" ]; then
    echo "FAIL: hosts/stale-sweep: the killed owner's bed vanished by itself?"
else
    hosts_sweep 2> /dev/null
    left=$(hosts_leftovers "$id")
    if [ -n "$left" ]; then echo "FAIL: hosts/stale-sweep: left: $(echo "$left" | tr '\n' ' ')"
    else echo "PASS: hosts/stale-sweep"
    fi
fi
