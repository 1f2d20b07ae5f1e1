#!/usr/bin/env bash
# The measurements behind tests/hosts/README.md, repeatable:
#   measure.sh latency [REPEAT]   ping-pong 8 B and 64 KiB between two hosts
#                                 under each setting (REPEAT runs each, default 3)
#   measure.sh finalize [RUNS]    the trivial job RUNS times (default 10) under
#                                 each MPICH/UCX setting, and Open MPI: ok/hung
#                                 (FIN_HOSTS="2 3", FIN_PER_HOST="1 2" choose
#                                 the shapes, FIN_GRACE=10 the seconds a job
#                                 has after its work before it counts as hung)
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
        hosts_mpirun_watch "$work/pp.out" '^pingpong 65536' 10 "$f" "$@" --timeout 300 \
            -- "$work/pingpong.$f" "$iters" 8 65536
        [ $? -eq 200 ] && echo "(then hung in MPI_Finalize)" >> "$work/pp.out"
        out=$(cat "$work/pp.out")
        printf '%-44s %s\n' "$label" "$(echo "$out" | sed -n 's/^pingpong \([0-9]*\) B: [0-9]* iters, one-way min \(.*\) us median \(.*\) us, \(.*\)/\1 B: min \2 med \3 \4/p' | tr '\n' ' ')"
        echo "$out" | grep -v '^pingpong' | head -5
    done
}


latency() {
    REPEAT=${1:-3}
    local b=(--arg --bind-to --arg core)
    echo "== one rank per host (2 ranks, 2 hosts, 2 cores)"
    pp "openmpi bed (--bind-to none)" 2000 openmpi
    pp "openmpi --bind-to core (its default)" 300 openmpi "${b[@]}"
    pp "openmpi bind core + mpi_yield_when_idle 1" 2000 openmpi "${b[@]}" --arg --mca --arg mpi_yield_when_idle --arg 1
    pp "openmpi bind core + btl_tcp_progress_thread 1" 300 openmpi "${b[@]}" --arg --mca --arg btl_tcp_progress_thread --arg 1
    pp "openmpi bed + btl_tcp_use_nagle 1" 300 openmpi --arg --mca --arg btl_tcp_use_nagle --arg 1
    pp "mpich bed (Hydra binds nothing)" 2000 mpich
    pp "mpich -bind-to core" 300 mpich --arg -bind-to --arg core
    if command -v ethtool > /dev/null; then
        local i ns=()
        for ((i = 1; i <= HOSTS_N; i++)); do
            ip netns exec "$HOSTS_PREFIX-${HOSTS_BED##*/}-h$i" ethtool -K eth0 tso off gso off gro off 2> /dev/null
            ip netns exec "$HOSTS_PREFIX-${HOSTS_BED##*/}-br" ethtool -K "h$i" tso off gso off gro off 2> /dev/null
        done
        pp "openmpi bed, veth tso/gso/gro off" 2000 openmpi
        pp "mpich bed, veth tso/gso/gro off" 2000 mpich
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

# fin LABEL RUNS PROGARGS FLAVOR options...: how many of RUNS trivial jobs
# end (ok), hang after their work (MPI_Finalize: FIN_GRACE, 10 s, after
# "trivial: ok"),
# hang before it (60 s) or fail otherwise.
fin() {
    local label=$1 runs=$2 pa=$3 f=$4 r ok=0 hung=0 early=0 bad=0 rc
    shift 4
    for ((r = 1; r <= runs; r++)); do
        # shellcheck disable=SC2086 # program arguments: words
        hosts_mpirun_watch "$work/fin.out" '^trivial: ok' "${FIN_GRACE:-10}" "$f" "$@" --timeout 60 \
            -- "$work/trivial.$f" $pa
        rc=$?
        if [ $rc -eq 0 ] && grep -q '^trivial: ok [0-9]' "$work/fin.out"; then ok=$((ok + 1))
        elif [ $rc -eq 200 ]; then hung=$((hung + 1))
        elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then early=$((early + 1))
        else bad=$((bad + 1)); tail -3 "$work/fin.out"
        fi
    done
    printf '%-52s %2d/%d ok, %d hung in Finalize, %d hung before, %d failed\n' \
        "$label" "$ok" "$runs" "$hung" "$early" "$bad"
}

finalize() {
    local n=${1:-10} h k
    for h in ${FIN_HOSTS:-2 3}; do
        hosts_down
        hosts_up "$h" || { echo "no bed: $HOSTS_SKIP$HOSTS_ERROR"; exit 1; }
        for k in ${FIN_PER_HOST:-1 2}; do
            echo "== trivial job, $h hosts x $k ranks, round-robin, $n runs each"
            fin "openmpi (bed settings)" "$n" '' openmpi -n "$k"
            fin "mpich UCX_TLS=tcp,self (bed settings)" "$n" '' mpich -n "$k"
            fin "mpich UCX_TLS=tcp" "$n" '' mpich -n "$k" --env UCX_TLS=tcp
            fin "mpich UCX_TLS=tcp,sm,self" "$n" '' mpich -n "$k" --env UCX_TLS=tcp,sm,self
            fin "mpich UCX_TLS=all (UCX's default)" "$n" '' mpich -n "$k" --env UCX_TLS=all
            fin "mpich UCX_TCP_PUT_ENABLE=n" "$n" '' mpich -n "$k" --env UCX_TCP_PUT_ENABLE=n
            fin "mpich UCX_KEEPALIVE_INTERVAL=inf" "$n" '' mpich -n "$k" --env UCX_KEEPALIVE_INTERVAL=inf
            fin "mpich UCX_TCP_CONN_NB=y" "$n" '' mpich -n "$k" --env UCX_TCP_CONN_NB=y
            fin "mpich UCX_PROTO_ENABLE=y" "$n" '' mpich -n "$k" --env UCX_PROTO_ENABLE=y
            fin "mpich UCX_UNIFIED_MODE=y" "$n" '' mpich -n "$k" --env UCX_UNIFIED_MODE=y
            fin "mpich MPIR_CVAR_ASYNC_PROGRESS=1" "$n" '' mpich -n "$k" --env MPIR_CVAR_ASYNC_PROGRESS=1
            fin "mpich -disable-hostname-propagation" "$n" '' mpich -n "$k" --arg -disable-hostname-propagation
            fin "mpich, program: Alltoall after MPI_Init" "$n" warm mpich -n "$k"
            fin "mpich, program: MPI_Barrier before MPI_Finalize" "$n" barrier mpich -n "$k"
        done
    done
}

case ${1:-} in
    latency) latency "${2:-3}" ;;
    finalize) finalize "${2:-10}" ;;
    *) echo "usage: $0 latency [REPEAT] | finalize [RUNS]" >&2; exit 2 ;;
esac
