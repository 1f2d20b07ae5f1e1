#!/usr/bin/env bash
# The measurements behind tests/hosts/README.md, repeatable:
#   measure.sh latency [REPEAT]   ping-pong 8 B and 64 KiB between two hosts
#                                 under each setting (REPEAT runs each, default 3)
#   measure.sh finalize [RUNS]    the trivial job RUNS times (default 10) under
#                                 each MPICH/UCX setting, and Open MPI: ok/hung
# Needs root; makes its own bed and always tears it down.  Prints results
# only: the machine is shared, so read numbers next to the load printed.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/hosts/lib.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/medley-hosts-measure.XXXXXX")
cleanup() { hosts_down; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

for f in mpich openmpi; do
    for p in pingpong trivial; do
        "mpicc.$f" -O2 -o "$work/$p.$f" "tests/hosts/$p.c" || exit 1
    done
done
hosts_up 2 || { echo "no bed: $HOSTS_SKIP$HOSTS_ERROR"; exit 1; }
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"

# case LABEL ITERS FLAVOR hosts_mpirun-options...
pp() {
    local label=$1 iters=$2 f=$3 r out
    shift 3
    for ((r = 1; r <= ${REPEAT:-3}; r++)); do
        out=$(hosts_mpirun "$f" "$@" --timeout 300 -- "$work/pingpong.$f" "$iters" 8 65536 2>&1)
        printf '%-44s %s\n' "$label" "$(echo "$out" | sed -n 's/^pingpong \([0-9]*\) B: [0-9]* iters, one-way min \(.*\) us median \(.*\) us, \(.*\)/\1 B: min \2 med \3 \4/p' | tr '\n' ' ')"
        echo "$out" | grep -v '^pingpong' | head -5
    done
}


latency() {
    REPEAT=${1:-3}
    local b=(--arg --bind-to --arg core)
    echo "== one rank per host (2 ranks, 2 hosts, 2 cores)"
    pp "openmpi bed (--bind-to none)" 5000 openmpi
    pp "openmpi --bind-to core (its default)" 300 openmpi "${b[@]}"
    pp "openmpi bind core + mpi_yield_when_idle 1" 2000 openmpi "${b[@]}" --arg --mca --arg mpi_yield_when_idle --arg 1
    pp "openmpi bind core + btl_tcp_progress_thread 1" 300 openmpi "${b[@]}" --arg --mca --arg btl_tcp_progress_thread --arg 1
    pp "openmpi bed + btl_tcp_use_nagle 1" 300 openmpi --arg --mca --arg btl_tcp_use_nagle --arg 1
    pp "mpich bed (Hydra binds nothing)" 5000 mpich
    pp "mpich -bind-to core" 300 mpich --arg -bind-to --arg core
    if command -v ethtool > /dev/null; then
        local i ns=()
        for ((i = 1; i <= HOSTS_N; i++)); do
            ip netns exec "$HOSTS_PREFIX-${HOSTS_BED##*/}-h$i" ethtool -K eth0 tso off gso off gro off 2> /dev/null
            ip netns exec "$HOSTS_PREFIX-${HOSTS_BED##*/}-br" ethtool -K "h$i" tso off gso off gro off 2> /dev/null
        done
        pp "openmpi bed, veth tso/gso/gro off" 5000 openmpi
        pp "mpich bed, veth tso/gso/gro off" 5000 mpich
        for ((i = 1; i <= HOSTS_N; i++)); do
            ip netns exec "$HOSTS_PREFIX-${HOSTS_BED##*/}-h$i" ethtool -K eth0 tso on gso on 2> /dev/null
            ip netns exec "$HOSTS_PREFIX-${HOSTS_BED##*/}-br" ethtool -K "h$i" tso on gso on 2> /dev/null
        done
    fi
    echo "== two ranks per host (4 ranks on 2 cores), rank 0 (mdlh1) <-> rank 3 (mdlh2)"
    pp "openmpi bed, block" 1000 openmpi -n 2 --map block
    pp "openmpi bed, block + mpi_yield_when_idle 1" 1000 openmpi -n 2 --map block --arg --mca --arg mpi_yield_when_idle --arg 1
    pp "mpich bed, block" 1000 mpich -n 2 --map block
}

# fin LABEL RUNS FLAVOR options...: how many of RUNS trivial jobs end (ok),
# hang (killed by the timeout) or fail otherwise.
fin() {
    local label=$1 runs=$2 f=$3 r ok=0 hung=0 bad=0 rc out t0 worst=0 dt
    shift 3
    for ((r = 1; r <= runs; r++)); do
        t0=$(date +%s%N)
        out=$(hosts_mpirun "$f" "$@" --timeout 20 -- "$work/trivial.$f" 2>&1)
        rc=$?
        dt=$((($(date +%s%N) - t0) / 1000000))
        [ "$dt" -gt "$worst" ] && worst=$dt
        if [ $rc -eq 0 ] && [ "$(echo "$out" | grep -c '^finalized')" -eq 4 ]; then ok=$((ok + 1))
        elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
            hung=$((hung + 1))
            [ -n "${VERBOSE:-}" ] && echo "$out" | tail -5
        else bad=$((bad + 1)); echo "$out" | tail -3
        fi
    done
    printf '%-60s %2d/%d ok, %d hung, %d failed (slowest %d ms)\n' "$label" "$ok" "$runs" "$hung" "$bad" "$worst"
}

finalize() {
    local n=${1:-10} m
    for m in node block; do
        echo "== trivial job, 4 ranks on 2 hosts, --map $m, $n runs each"
        fin "openmpi bed" "$n" openmpi -n 2 --map "$m"
        fin "mpich UCX_TLS=tcp,self (bed)" "$n" mpich -n 2 --map "$m"
        fin "mpich UCX_TLS=tcp,sm,self" "$n" mpich -n 2 --map "$m" --env UCX_TLS=tcp,sm,self
        fin "mpich UCX_TLS=tcp" "$n" mpich -n 2 --map "$m" --env UCX_TLS=tcp
        fin "mpich UCX_TLS=all (UCX default)" "$n" mpich -n 2 --map "$m" --env UCX_TLS=all
        fin "mpich tcp,self -disable-hostname-propagation" "$n" mpich -n 2 --map "$m" --arg -disable-hostname-propagation
    done
}

case ${1:-} in
    latency) latency "${2:-3}" ;;
    finalize) finalize "${2:-10}" ;;
    *) echo "usage: $0 latency [REPEAT] | finalize [RUNS]" >&2; exit 2 ;;
esac
