# shellcheck shell=bash disable=SC2034  # HOSTS_SKIP, HOSTS_ERROR...: read by the callers
# Test hosts on one machine: sourceable helpers (see tests/hosts/README.md).
#
#   hosts_up N            make N hosts (mdlh1..mdlhN); 1 = done, 0 = ok; on
#                         failure HOSTS_SKIP says why (no privileges, ...)
#   hosts_down            tear the bed down (idempotent; also sweeps stale beds)
#   hosts_run H cmd...    run cmd on host H (mdlh2, h2 or 2)
#   hosts_mpi_cmd FLAVOR [opts]   fill the array HOSTS_CMD with a launcher line
#   hosts_mpirun FLAVOR [opts] -- prog args...   run a job from mdlh1
#
# A host is a network namespace with an address 198.18.0.i/24 on eth0 (a veth
# whose other end is a port of a bridge in a namespace of its own), plus a
# UTS namespace (its host name), an IPC namespace and a mount namespace (a
# private /dev/shm and /etc/hosts) kept alive by a holder process.  No PID
# namespace: hosts in sibling PID namespaces could not enter one another,
# and the ssh stand-in runs inside a host (README: "Why no PID namespace").
set -u

HOSTS_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HOSTS_RUNDIR=${MDL_HOSTS_RUNDIR:-/run/medley-hosts}
HOSTS_PREFIX=mdlhosts          # every namespace of every bed starts with it
HOSTS_NET=198.18.0             # a /24 of 198.18.0.0/15 (RFC 2544), per bed
HOSTS_STANDIN=$HOSTS_LIB_DIR/ssh-standin
HOSTS_BED=${HOSTS_BED:-}       # state directory of the current bed
HOSTS_N=${HOSTS_N:-0}
HOSTS_SKIP=''                  # why hosts_up could not make a bed here
HOSTS_ERROR=''                 # what went wrong when it should have
HOSTS_CMD=()

hosts__say() { echo "hosts: $*" >&2; }

# Whether the recorded owner "pid start" is still running.
hosts__owner_alive() {
    local pid start now
    read -r pid start < "$1" 2>/dev/null || return 1
    now=$(hosts__start_of "$pid")
    [ -n "$now" ] && [ "$now" = "$start" ]
}

hosts__start_of() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
    stat=${stat##*) }
    # field 22 of stat is the 20th after "comm)": state is the first
    # shellcheck disable=SC2086
    set -- $stat
    echo "${20}"
}

# Why this machine cannot make test hosts, or nothing if it can.
hosts_why_not() {
    local c
    if [ "$(id -u)" != 0 ]; then
        echo "needs root (network namespaces, veth, mounts)"
        return
    fi
    for c in ip unshare nsenter setsid; do
        command -v "$c" > /dev/null || { echo "$c not installed"; return; }
    done
}

# The index of host H: mdlh2, h2 and 2 all give 2.
hosts__index() {
    local i=${1#mdlh}
    i=${i#h}
    case $i in ''|*[!0-9]*) return 1 ;; esac
    [ "$i" -ge 1 ] && [ "$i" -le "$HOSTS_N" ] || return 1
    echo "$i"
}

hosts__holder() {    # holder pid of host index $1
    cat "$HOSTS_BED/h$1.pid" 2>/dev/null
}

# Tear down one bed, given its state directory or just its id (leftovers of
# a run killed before the state directory was complete).
hosts__teardown() {
    local id=$1 dir=$HOSTS_RUNDIR/$1 ns pids try
    local nss
    nss=$(ip netns list 2>/dev/null | awk '{print $1}' | grep -F -- "$HOSTS_PREFIX-$id-" || true)
    # Every process in the bed's network namespaces: jobs, stand-ins,
    # holders.  TERM first so MPI daemons can remove their files, then KILL.
    for try in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21; do
        pids=''
        for ns in $nss; do
            pids+=" $(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')"
        done
        [ -z "${pids// /}" ] && break
        # shellcheck disable=SC2086
        if [ "$try" -eq 1 ]; then kill -TERM $pids 2>/dev/null
        elif [ "$try" -ge 10 ]; then kill -KILL $pids 2>/dev/null
        fi
        sleep 0.1
    done
    for ns in $nss; do
        ip netns del "$ns" 2>/dev/null || hosts__say "could not delete namespace $ns"
    done
    rm -rf "$dir"
}

# Beds whose owner is gone (a run killed with SIGKILL, a machine crash):
# their namespaces, processes and state are removed.  Beds of live owners,
# e.g. a developer's while CI runs, are left alone.
hosts_sweep() {
    local ids id owner
    ids=$( { ip netns list 2>/dev/null | awk '{print $1}' |
             sed -n "s/^$HOSTS_PREFIX-\([0-9]*-[0-9a-f]*\)-.*/\1/p"
             ls "$HOSTS_RUNDIR" 2>/dev/null; } | sort -u)
    for id in $ids; do
        owner=$HOSTS_RUNDIR/$id/owner
        if [ -f "$owner" ]; then
            hosts__owner_alive "$owner" && continue
        else
            # no state yet: being made by a live process, or left by a dead one
            [ -n "$(hosts__start_of "${id%%-*}")" ] && continue
        fi
        hosts__say "removing stale bed $id"
        hosts__teardown "$id"
    done
}

# hosts_up N: N hosts named mdlh1..mdlhN at 198.18.0.1..N.  Sets HOSTS_BED,
# HOSTS_N and exports MDL_HOSTS_BED (the stand-in reads it).  On failure the
# partial bed is removed and HOSTS_SKIP (no privileges) or HOSTS_ERROR says why.
hosts_up() {
    local n=$1 owner=${MDL_HOSTS_OWNER:-$$} id i ns br err start
    HOSTS_SKIP='' HOSTS_ERROR=''
    case $n in [1-9]|[1-9][0-9]) ;; *) HOSTS_ERROR="hosts_up: bad count '$n'"; return 1 ;; esac
    HOSTS_SKIP=$(hosts_why_not)
    [ -n "$HOSTS_SKIP" ] && return 1
    [ -n "$HOSTS_BED" ] && hosts_down
    hosts_sweep
    start=$(hosts__start_of "$owner")
    id=$owner-$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
    HOSTS_BED=$HOSTS_RUNDIR/$id HOSTS_N=$n
    export MDL_HOSTS_BED=$HOSTS_BED
    br=$HOSTS_PREFIX-$id-br
    mkdir -p "$HOSTS_BED/tmp" || { HOSTS_ERROR="cannot create $HOSTS_BED"; return 1; }
    echo "$owner $start" > "$HOSTS_BED/owner"
    echo "$n" > "$HOSTS_BED/n"
    # A namespace we may not create means no privileges, not a failure.
    if ! err=$(ip netns add "$br" 2>&1); then
        HOSTS_SKIP="cannot create a network namespace: $err"
        hosts__teardown "$id"; HOSTS_BED='' HOSTS_N=0
        return 1
    fi
    {
        printf '127.0.0.1\tlocalhost\n'
        for ((i = 1; i <= n; i++)); do
            printf '%s.%d\tmdlh%d\n' "$HOSTS_NET" "$i" "$i"
        done
    } > "$HOSTS_BED/hosts"
    if ! err=$(hosts__make "$id" "$n" 2>&1); then
        # unshare refused (no user/mount namespaces here) is a skip as well
        case $err in
            *unshare*|*"Operation not permitted"*) HOSTS_SKIP="cannot make a host: $(echo "$err" | tail -1)" ;;
            *) HOSTS_ERROR="hosts_up: $(echo "$err" | tail -3 | tr '\n' ' ')" ;;
        esac
        hosts__teardown "$id"; HOSTS_BED='' HOSTS_N=0
        return 1
    fi
}

# The namespaces, links and holders of bed $1 with $2 hosts (in hosts_up's
# state).  Everything is created inside the bed's namespaces, so no
# interface name can collide with the machine's or another bed's.
hosts__make() {
    local id=$1 n=$2 i ns br=$HOSTS_PREFIX-$1-br t
    set -e
    ip -n "$br" link set lo up
    ip -n "$br" link add br0 type bridge
    ip -n "$br" link set br0 up
    for ((i = 1; i <= n; i++)); do
        ns=$HOSTS_PREFIX-$id-h$i
        ip netns add "$ns"
        ip -n "$br" link add "h$i" type veth peer name eth0 netns "$ns"
        ip -n "$br" link set "h$i" master br0 up
        ip -n "$ns" link set lo up
        ip -n "$ns" addr add "$HOSTS_NET.$i/24" dev eth0
        ip -n "$ns" link set eth0 up
        mkdir -p "$HOSTS_BED/tmp/h$i"
        # The holder keeps the host's UTS, IPC and mount namespaces alive;
        # setsid: out of the caller's process group, so a timeout or Ctrl-C
        # aimed at a job does not take a host down with it.
        # shellcheck disable=SC2016 # expanded by that sh
        setsid ip netns exec "$ns" unshare --uts --ipc --mount --propagation private \
            sh -c 'hostname "$1" &&
                   mount -t tmpfs -o mode=1777,size=1g "$1-shm" /dev/shm &&
                   mount --bind "$2" /etc/hosts &&
                   echo $$ > "$3.new" && mv "$3.new" "$3" &&
                   exec sleep infinity' \
            holder "mdlh$i" "$HOSTS_BED/hosts" "$HOSTS_BED/h$i.pid" \
            < /dev/null > /dev/null 2> "$HOSTS_BED/h$i.err" &
    done
    for ((i = 1; i <= n; i++)); do
        for ((t = 0; t < 100; t++)); do
            [ -s "$HOSTS_BED/h$i.pid" ] && break
            sleep 0.05
        done
        [ -s "$HOSTS_BED/h$i.pid" ] || { cat "$HOSTS_BED/h$i.err" >&2; echo "host mdlh$i did not start" >&2; return 1; }
    done
}

# hosts_down: the current bed, then any stale one.  Safe to call twice, from
# a trap, or with no bed.
hosts_down() {
    local id
    if [ -n "$HOSTS_BED" ]; then
        id=${HOSTS_BED##*/}
        hosts__teardown "$id"
    fi
    HOSTS_BED='' HOSTS_N=0
    unset MDL_HOSTS_BED
    hosts_sweep
}

# The bed's namespaces and processes, for checks that nothing is left.
hosts_leftovers() {    # hosts_leftovers ID: prints what remains, if anything
    local id=$1 ns
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -F -- "$HOSTS_PREFIX-$id-"); do
        echo "namespace $ns (pids: $(ip netns pids "$ns" | tr '\n' ' '))"
    done
    [ -e "$HOSTS_RUNDIR/$id" ] && echo "state directory $HOSTS_RUNDIR/$id"
    return 0
}

# Enter host $1 (index) and run the rest: its network, UTS, IPC and mount
# namespaces, the caller's working directory, TMPDIR of its own (Open MPI's
# session directory is named after the host name, the same in two beds).
hosts__enter() {
    local i=$1 pid
    shift
    pid=$(hosts__holder "$i") || { hosts__say "no host $i in bed $HOSTS_BED"; return 255; }
    nsenter -t "$pid" --net --uts --ipc --mount --wd="$PWD" -- \
        env TMPDIR="$HOSTS_BED/tmp/h$i" "$@"
}

# hosts_run HOST cmd...: cmd on HOST with the caller's environment (like a
# shell already logged in there).  Its exit status is cmd's.
hosts_run() {
    local i
    i=$(hosts__index "$1") || { hosts__say "no host '$1' (bed has $HOSTS_N)"; return 255; }
    shift
    hosts__enter "$i" "$@"
}

# hosts_mpi_cmd FLAVOR [options]: fill the array HOSTS_CMD with the launcher
# and its options for a job over the bed, program not included (append it,
# or several `: -n K prog` parts), to be run on mdlh1 with hosts_run.
#   FLAVOR        openmpi (mpirun.openmpi) or mpich (mpiexec.mpich)
#   -n K          processes per host (default 1); the job has K x hosts
#   --map node    round-robin: rank r on host r mod H + 1 (default)
#   --map block   rank r on host r / K + 1
#   --hosts H     use the first H hosts only (default all)
#   --env VAR     pass VAR, with its value here, to every rank
#   --env VAR=VAL pass VAR=VAL to every rank
#   --mpmd        no process count: append `-n K prog : -n K2 prog2` yourself
#                 (Open MPI: an `-x VAR` of the --env ones after each `:`,
#                 its -x applies to its own program of an MPMD line)
#   --arg ARG     one more launcher argument, after the bed's settings (for
#                 mpirun, a later option overrides an earlier one)
# The sanitizers' settings a job's every program needs (make check SANITIZE=1)
HOSTS_SANITIZER_ENV=(ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS)

hosts_mpi_cmd() {
    local flavor=$1 k=1 map=node h=$HOSTS_N i list='' e total
    local -a envs=() more=()
    shift
    while [ $# -gt 0 ]; do
        case $1 in
            -n) k=$2; shift 2 ;;
            --mpmd) total=''; shift ;;
            --map) map=$2; shift 2 ;;
            --hosts) h=$2; shift 2 ;;
            --env) envs+=("$2"); shift 2 ;;
            --arg) more+=("$2"); shift 2 ;;
            *) hosts__say "hosts_mpi_cmd: unknown option '$1'"; return 2 ;;
        esac
    done
    case $map in node|block) ;; *) hosts__say "hosts_mpi_cmd: --map node or block"; return 2 ;; esac
    if [ "$h" -lt 1 ] || [ "$h" -gt "$HOSTS_N" ]; then
        hosts__say "hosts_mpi_cmd: --hosts 1..$HOSTS_N"
        return 2
    fi
    [ -z "${total+set}" ] && total=$((k * h))
    case $flavor in
    openmpi)
        for ((i = 1; i <= h; i++)); do list+=${list:+,}mdlh$i:$k; done
        hosts_bed_launcher openmpi
        HOSTS_CMD+=(--host "$list" ${total:+-n "$total"} --map-by "$( [ "$map" = node ] && echo node || echo slot)")
        for e in "${envs[@]}"; do HOSTS_CMD+=(-x "$e"); done
        # The sanitizers' settings (make check SANITIZE=1: the MPI's
        # LeakSanitizer suppressions, the slow unwinder they need): Open
        # MPI's daemons on the other hosts start its processes without
        # mpirun's environment (Hydra passes all of it on by itself).
        for e in "${HOSTS_SANITIZER_ENV[@]}"; do
            [ -n "${!e-}" ] && HOSTS_CMD+=(-x "$e")
        done
        HOSTS_CMD+=("${more[@]}")
        ;;
    mpich)
        # Hydra fills each host's slots in turn: round-robin is 1 slot a host.
        for ((i = 1; i <= h; i++)); do
            list+=${list:+,}mdlh$i:$( [ "$map" = node ] && echo 1 || echo "$k")
        done
        hosts_bed_launcher mpich
        HOSTS_CMD+=(-hosts "$list" ${total:+-n "$total"})
        for e in "${envs[@]}"; do
            if [[ $e == *=* ]]; then HOSTS_CMD+=(-genv "${e%%=*}" "${e#*=}")
            else HOSTS_CMD+=(-genv "$e" "${!e-}")
            fi
        done
        HOSTS_CMD+=("${more[@]}")
        ;;
    *) hosts__say "hosts_mpi_cmd: flavor openmpi or mpich, not '$flavor'"; return 2 ;;
    esac
}

# hosts_bed_launcher FLAVOR: HOSTS_CMD becomes FLAVOR's launcher and the
# options only the bed needs (the ssh stand-in, the bed's network, run as
# root), to which a launcher line as a user writes it is appended (the
# cluster lines of docs/runtime-mpi.md are run so: hosts/2/<f>/docs-lines).
hosts_bed_launcher() {
    HOSTS_CMD=()
    case $1 in
    openmpi)
        # root: Open MPI refuses to run as root without both variables.
        if [ "$(id -u)" = 0 ]; then HOSTS_CMD+=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1); fi
        # shellcheck disable=SC2054 # commas inside arguments
        HOSTS_CMD+=(mpirun.openmpi
            --mca plm_rsh_agent "$HOSTS_STANDIN" --mca plm_rsh_no_tree_spawn 1
            --mca btl self,vader,tcp
            --mca btl_tcp_if_include "$HOSTS_NET.0/24" --mca oob_tcp_if_include "$HOSTS_NET.0/24"
            # Every host believes it has all the machine's cores: binding
            # would put one rank of each host on core 0 (README: latency).
            --bind-to none --oversubscribe
            -x MDL_HOSTS_BED)
        ;;
    mpich)
        # UCX over the bed (README: MPICH): TCP on eth0.
        HOSTS_CMD+=(mpiexec.mpich -launcher rsh -launcher-exec "$HOSTS_STANDIN"
            -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES eth0)
        ;;
    *) hosts__say "hosts_bed_launcher: flavor openmpi or mpich, not '$1'"; return 2 ;;
    esac
}

# hosts_mpirun FLAVOR [hosts_mpi_cmd options] [--timeout S] -- PROGRAM args...
# Runs the job from mdlh1 under `timeout` (default 60 s; then KILL 5 s
# later), with the caller's standard input closed.  Returns the launcher's
# status (124: timed out).
hosts_mpirun() {
    local flavor=$1 t=60
    local -a opts=()
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        case $1 in
            --timeout) t=$2; shift 2 ;;
            *) opts+=("$1" "$2"); shift 2 ;;
        esac
    done
    [ "${1-}" = -- ] || { hosts__say "hosts_mpirun: -- PROGRAM missing"; return 2; }
    shift
    hosts_mpi_cmd "$flavor" "${opts[@]}" || return
    hosts_cmd_run "$t" "$@"
}

# hosts_cmd_run S [args...]: the launcher line HOSTS_CMD (filled by
# hosts_mpi_cmd, programs appended) and args from mdlh1 under `timeout` S
# (then KILL 5 s later), standard input closed; the launcher's status.
hosts_cmd_run() {
    local t=$1
    shift
    hosts_run 1 timeout -k 5 "$t" "${HOSTS_CMD[@]}" "$@" < /dev/null
    local rc=$?
    # timeout signals its own process group; Open MPI's orted daemonizes
    # out of it, and a rank stuck in MPI_Finalize may outlive its launcher.
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then hosts_reap; fi
    return $rc
}

# hosts_procs [I]: the processes on the hosts (on host I only) but the
# holders, " pid pid…", or nothing.
hosts_procs() {
    local i ns p keep pids=''
    keep=" $(cat "$HOSTS_BED"/h*.pid 2>/dev/null | tr '\n' ' ') "
    for ((i = ${1:-1}; i <= ${1:-$HOSTS_N}; i++)); do
        ns=$HOSTS_PREFIX-${HOSTS_BED##*/}-h$i
        for p in $(ip netns pids "$ns" 2>/dev/null); do
            [[ $keep == *" $p "* ]] || pids+=" $p"
        done
    done
    echo "$pids"
}

# hosts_reap: end every process on the hosts but the holders (what a
# killed job left), TERM then KILL; returns once none is left.
hosts_reap() {
    local pids try
    for try in $(seq 1 30); do
        pids=$(hosts_procs)
        [ -z "$pids" ] && return 0
        # shellcheck disable=SC2086
        if [ "$try" -eq 1 ]; then kill -TERM $pids 2>/dev/null
        elif [ "$try" -ge 10 ]; then kill -KILL $pids 2>/dev/null
        fi
        sleep 0.1
    done
    hosts__say "hosts_reap: still running:$pids"
    return 1
}

# hosts_attach DIR: use the bed whose state directory is DIR (made by another
# shell, e.g. `bed.sh up`).
hosts_attach() {
    [ -f "$1/n" ] || { hosts__say "$1 is not a test bed"; return 1; }
    HOSTS_BED=$1 HOSTS_N=$(cat "$1/n")
    export MDL_HOSTS_BED=$HOSTS_BED
}

# hosts_mpirun_watch OUT DONE GRACE FLAVOR [hosts_mpirun options] -- prog args
# hosts_mpirun with its output (stdout and stderr) in the file OUT, watched:
# once a line matching the extended regex DONE is there (the program's last
# words before MPI_Finalize), the job has GRACE more seconds to end, else
# everything on the hosts is ended (hosts_reap) and the status is 200: "did
# its work, then hung" (MPICH 4.0.2's MPI_Finalize over UCX, README.md), told
# apart from a job that hung before (124, its --timeout) at no extra cost.
# One job at a time per bed: the reaping ends every job on it.
hosts_mpirun_watch() {
    local out=$1 done_re=$2 grace=$3
    shift 3
    hosts_watch "$out" "$done_re" "$grace" hosts_mpirun "$@"
}

# hosts_watch OUT DONE GRACE command…: the same for any command running a
# job on the bed (hosts_mpirun, hosts_cmd_run); DONE may also be @FILE: the
# job's work is done once FILE exists (a program whose last line comes
# after MPI_Finalize: MDL_End writes MDL_TRACE's file before it).
hosts_watch() {
    local out=$1 done_re=$2 grace=$3 pid rc seen=''
    shift 3
    # Emptied here, not by the job's redirection: that one runs in the
    # background child, and until the child is scheduled the loop below
    # would find the DONE line of an earlier job written to OUT.
    : > "$out"
    "$@" > "$out" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2> /dev/null; do
        if [ -z "$seen" ]; then
            if [[ $done_re == @* ]]; then [ -e "${done_re#@}" ] && seen=$SECONDS
            elif grep -qE -- "$done_re" "$out"; then seen=$SECONDS
            fi
        fi
        if [ -n "$seen" ] && [ $((SECONDS - seen)) -ge "$grace" ]; then
            hosts_reap
            wait "$pid"
            return 200
        fi
        sleep 0.2
    done
    wait "$pid"
    rc=$?
    return $rc
}

# hosts_verdict NAME FLAVOR RC CHECK-ERROR OUTFILE: the PASS/FAIL/SKIP line
# of test NAME, a job of FLAVOR that ended with status RC (hosts_watch's)
# whose output OUTFILE was checked (CHECK-ERROR empty: output right).  An
# MPICH job that did its work and then hung (200) is a SKIP naming
# openucx/ucx#8738 (README.md), never a PASS.
hosts_verdict() {
    local name=$1 f=$2 rc=$3 err=$4 out=$5
    if [ -n "$err" ]; then
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then err="timed out; $err"; fi
        echo "FAIL: $name: $err: $(tail -c 300 "$out" | tr '\n' ' ')"
    elif [ "$rc" -eq 0 ]; then
        echo "PASS: $name"
    elif [ "$f" = mpich ] && [ "$rc" -eq 200 ]; then
        echo "SKIP: $name: output right, then MPI_Finalize hung (MPICH 4.0.2 + UCX over TCP, openucx/ucx#8738; tests/hosts/README.md)"
    elif [ "$rc" -eq 200 ]; then
        echo "FAIL: $name: output right, then the job did not end"
    else
        echo "FAIL: $name: exit status $rc: $(tail -c 300 "$out" | tr '\n' ' ')"
    fi
}
