#!/usr/bin/env bash
# Runtime-level tests of the shared-memory runtime (libmdl_shm): C programs
# with hand-written descriptor tables (tests/rt/*.c), built against the
# installed tree and started with mdlrun.  tests/rt/rt_*.c are runtime
# independent (they run on the MPI runtime too); tests/rt/shm_*.c are
# specific to this runtime.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
STAGE=${MEDLEY_STAGE:-$ROOT/build/stage}
BUILD=${MEDLEY_BUILD:-$ROOT/build}
MDLRUN=$STAGE/bin/mdlrun
OUT=$BUILD/tests/rt-shm
mkdir -p "$OUT"
CFLAGS="-O1 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I$STAGE/include -Iruntime -Itests/rt"
LIBS="-L$STAGE/lib -Wl,-rpath,$STAGE/lib -lmdl_shm -lpthread -lrt"
NA2A=64
if [ "${SANITIZE:-}" = 1 ]; then
    CFLAGS="$CFLAGS -fsanitize=address,undefined -fno-omit-frame-pointer"
    LIBS="$LIBS -fsanitize=address,undefined"
    NA2A=16
fi

. tests/lib/mpi.sh
pass() { echo "PASS: rt-shm/$1"; }
fail() { echo "FAIL: rt-shm/$1: $2"; }

if [ ! -x "$MDLRUN" ]; then
    fail build "no mdlrun at $MDLRUN"
    exit 0
fi
built=()
for src in tests/rt/rt_p2p.c tests/rt/rt_coll.c tests/rt/rt_errors.c tests/rt/rt_big.c \
           tests/rt/shm_*.c; do
    name=$(basename "$src" .c)
    [ "$name" = shm_rogue ] && continue         # built from the sources, below
    if cc $CFLAGS -o "$OUT/$name" "$src" $LIBS 2> "$OUT/$name.build"; then
        built+=("$name")
    else
        fail "build-$name" "$(head -3 "$OUT/$name.build" | tr '\n' ' ')"
    fi
done

# from_sources NAME SOURCE [CFLAGS...]: a program linked with the library's
# sources themselves, which it can reach into
from_sources() {
    local name=$1 src=$2
    shift 2
    if cc $CFLAGS -fvisibility=hidden "$@" -Icommon -o "$OUT/$name" "$src" runtime/core/*.c \
            runtime/api/*.c runtime/trace/*.c runtime/tracefile/rt_trace_write.c common/*.c \
            runtime/shm/*.c -lpthread -lrt 2> "$OUT/$name.build"; then
        built+=("$name")
    else
        fail "build-$name" "$(head -3 "$OUT/$name.build" | tr '\n' ' ')"
    fi
}
# the stress program over a library built with another segment layout
# version, as a program linked with another build would be
from_sources shm_stress_other tests/rt/shm_stress.c -DSHM_LAYOUT=7
# a peer that forges records in the segment
from_sources shm_rogue tests/rt/shm_rogue.c

# run NAME EXPECTED-STATUS EXPECTED-STDOUT-PATTERN cmd...: bounded in time
run() {
    local name=$1 want=$2 pat=$3
    shift 3
    local log=$OUT/$name.log
    (cd "$OUT" && timeout -k 5 120 "$@") > "$log.out" 2> "$log.err"
    local rc=$?
    if [ $rc -ne "$want" ]; then
        fail "$name" "exit status $rc, expected $want: $(tail -2 "$log.err" | tr '\n' ' ')"
    elif [ -n "$pat" ] && ! grep -q -- "$pat" "$log.out" "$log.err"; then
        fail "$name" "output lacks '$pat': $(head -c 300 "$log.out" "$log.err" | tr '\n' ' ')"
    else
        pass "$name"
    fi
}

# errors returned, with their line (the launch-* runs look for it)
export MDL_ERRORS=return,print
run p2p-3 0 "rt_p2p ok" "$MDLRUN" -n 3 ./shm_p2p
run p2p-5 0 "rt_p2p ok" "$MDLRUN" -n 5 ./shm_p2p
# pointer items through a packed copy instead of process_vm_readv
MDL_SHM_CMA=0 run p2p-nocma 0 "rt_p2p ok" "$MDLRUN" -n 3 ./shm_p2p
for n in 2 3 4 7; do
    run coll-$n 0 "rt_coll ok" "$MDLRUN" -n $n ./shm_coll
done
run grid 0 "rt_grid ok" "$MDLRUN" -n 6 ./shm_grid
run grid-periodic 0 "rt_grid ok" "$MDLRUN" -n 6 ./shm_grid periodic
# the runtime-independent tests, written against the MPI runtime first
run portable-p2p 0 "rt_p2p: OK" "$MDLRUN" -n 1 ./rt_p2p father : -n 3 ./rt_p2p son
run portable-coll-3 0 "rt_coll: OK" "$MDLRUN" -n 3 ./rt_coll
run portable-coll-4 0 "rt_coll: OK" "$MDLRUN" -n 4 ./rt_coll
run portable-errors 0 "rt_errors return: OK" "$MDLRUN" -n 2 ./rt_errors return
run portable-big 0 "rt_big: OK" "$MDLRUN" -n 2 ./rt_big
# (returned: the instances end without MDL_End, which mdlrun reports)
run portable-errors-channel-return 1 "rt_errors channel: returned -101" "$MDLRUN" -n 2 ./rt_errors channel
# stress: oversubscribed all-to-all with MDL_ANY, and a million messages in order
run a2a-$NA2A 0 "a2a ok: $NA2A instances" "$MDLRUN" -n $NA2A ./shm_stress a2a 40
run coll-$NA2A 0 "coll ok: $NA2A instances" "$MDLRUN" -n $NA2A ./shm_stress coll 100
run million 0 "million ok: 1000000" "$MDLRUN" -n 2 ./shm_stress million 1000000
run any-fair 0 "fair ok" "$MDLRUN" -n 4 ./shm_stress fair 1000
# a receive behind 1000 unreceived messages, polling as when oversubscribed:
# no 100 ms sleep with messages pending (docs/runtime-shm.md, Model checking)
MDL_SHM_SPIN_US=0 MDL_SHM_YIELD=0 run behind 0 "behind ok" "$MDLRUN" -n 2 ./shm_stress behind 1000
# a killed instance ends the job (128+9) instead of leaving the others waiting
run peer-killed 137 "" "$MDLRUN" -n 3 ./shm_stress die 0
# launch errors
run launch-abi 0 "mdlrun is from another build" ./shm_launch abi
run launch-notseg 0 "not an mdlrun segment" ./shm_launch notseg
run launch-plain 0 "must be started with mdlrun" ./shm_launch plain
# started by each MPI's launcher (tests/lib/mpi.sh): it says so
for rt in "${MPI_RTS[@]}"; do
    if rt_use "$rt"; then
        run "launch-$rt" 0 "(it was started by an MPI launcher)" "${RT_LAUNCH[@]}" -n 2 ./shm_launch plain
    else
        fail "launch-$rt" "$RT_WHY"
    fi
done
rt_use shm
unset MDL_ERRORS
# every message's channel in 0..nchannels-1, checked once at MDL_Init
run portable-errors-channel 1 "^w: MDL_Init: invalid task descriptor: message MDL_SendTo_w_dyn has channel 8, not in 0\.\.7 (MDL_ERR_ARG)$" \
    "$MDLRUN" -n 2 ./rt_errors channel
run launch-spec 1 "built from another spec" "$MDLRUN" -n 1 ./shm_p2p : -n 2 ./shm_stress million 1
run launch-layout 1 "linked with different builds of libmdl_shm" \
    "$MDLRUN" -n 1 ./shm_stress million 1 : -n 1 ./shm_stress_other million 1
run launch-plain-fatal 1 "must be started with mdlrun" ./shm_launch plain
# a fatal error stops the whole job at once (one line from the failing
# instance, the others torn down instead of waiting in a barrier)
run portable-errors-rank 1 "does not exist (0..1) (MDL_ERR_RANK)" "$MDLRUN" -n 2 ./rt_errors rank
run portable-errors-truncate 1 "larger than the receive (16 bytes) (MDL_ERR_TRUNCATE)" \
    "$MDLRUN" -n 2 ./rt_errors truncate
# what a peer forged in the segment is found, named, and fatal whatever
# MDL_ERRORS says (nothing shared can be trusted after it)
export MDL_ERRORS=return
run rogue-eager 1 "t\[1\] wrote an eager message of 18446744073709551599 bytes" \
    "$MDLRUN" -n 2 ./shm_rogue eager
run rogue-node 1 "t\[1\] wrote an overflow record at offset" "$MDLRUN" -n 2 ./shm_rogue node
run rogue-rdv 1 "t\[1\] wrote a rendezvous record at offset" "$MDLRUN" -n 2 ./shm_rogue rdv
run rogue-span 1 "t\[1\] wrote a rendezvous span at offset" "$MDLRUN" -n 2 ./shm_rogue span
run rogue-coll 1 "t\[1\] wrote a collective's buffer at offset" "$MDLRUN" -n 2 ./shm_rogue coll
unset MDL_ERRORS
run fatal-teardown 1 "the receive holds 80: the sections of the send and the receive differ (MDL_ERR_TRUNCATE)" "$MDLRUN" -n 3 ./shm_p2p
exit 0
