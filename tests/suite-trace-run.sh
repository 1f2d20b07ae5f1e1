#!/usr/bin/env bash
# MDL_TRACE on both runtimes (docs/tracing.md): real jobs traced, their one
# file checked by mdltrace --check and by content.
#   montecarlo   examples/montecarlo, 1 father + 3 sons, 60 results: tracks,
#                60 MDL_RecvFrom_son_inMessage with bytes, >= 64 flows, the
#                report, the matrix SVG, --spec; then a buffer of 16 events
#                (counts and totals exact)
#   poisson      examples/poisson on a 2 x 2 grid: neighbours, MDL_PROC_NULL,
#                Allreduce, Grid_Create
#   async_many, ref_mcast   (tests/e2e) async receives from MDL_ANY polled
#                with Test, Mcast members, Scatter, subset barriers
#   self_kept    (tests/e2e) sends to itself kept outside MPI: every flow
#                ends in its receive, forward in time
#   hosts        tests/trace/run/hosts (MPI): large messages take the
#                one-copy path within a host, never between (a second
#                "host" by MDL_MPI_HOST)
#   pair         tests/trace/run/pair: the Wait and the Test of a name that
#                is both an async send and an async receive are one event
#                per call
#   rtsize       tests/trace/run/rtsize: a 2 MiB message from a variable
#                sized at run time is copied once (copy_us), on MPI too
#   strided      tests/trace/run/strided (MPI): strided messages of 2, 8,
#                16 KiB copied once from the MPI's threshold (Open MPI: its
#                eager limit, 8 KiB copied; also with the limit raised)
#   flows_loaded tests/trace/run/pingpong beside busy processes, 5 runs:
#                every flow forward (shm: not back at all, MPI: < 20 µs)
#   timing       tests/trace/run/timing: a receive that waits 300 ms and a
#                sync send that waits 300 ms last at least half that (the
#                waiting instance may reach its call late); the sends and
#                receives that do not wait do not
#   fail         tests/trace/run/fail: a fatal truncation (job ended by an
#                error: the others' calls are in the file too), an error
#                returned (MDL_ERRORS=return), an instance killed by a signal
#                (shm: mdlrun still writes the file; MPI: the processes'
#                parts stay, mdltrace --recover writes it from them)
#   hang         tests/trace/run/hang (MPI): a deadlock stopped with Ctrl-C
#                (--recover refused while it runs, a stale file noted);
#                the recovered trace names the receive each process hung in
#   misuse       MDL_TRACE that cannot be written, a bad MDL_TRACE_BUFFER,
#                (MPI) MDL_TRACE set for some processes only
# The MPI runtime is tested on every MPI of tests/lib/mpi.sh (<rt>
# mpi-mpich, mpi-openmpi …), with its own launcher.
# One line per check: PASS/FAIL: trace-run/<rt>/<name>.
set -u
cd "$(dirname "$0")/.."
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
S=$MEDLEY_STAGE
T=$S/bin/mdltrace
CFLAGS_T=(-std=c11 -Wall -Wextra -Werror -g)
CXXFLAGS_T=(-std=c++17 -Wall -Wextra -Werror -pedantic -g)
if [ "${SANITIZE:-}" = 1 ]; then
    CFLAGS_T+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
    CXXFLAGS_T+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
fi
. tests/lib/mpi.sh
unset MDL_TRACE MDL_TRACE_BUFFER MDL_ERRORS
W=$(mktemp -d "${TMPDIR:-/tmp}/medley-trace-run.XXXXXX")
# parts of killed jobs that a failed check left (tests/trace/parts.sh),
# their trace file written or not (a job that failed may write none)
. tests/trace/parts.sh
trap 'parts_under "$W" | xargs -r rm -f
      rm -rf "$W"' EXIT

pass() { echo "PASS: trace-run/$rt/$1"; }
fail() { echo "FAIL: trace-run/$rt/$1: $2"; }

# build NAME SPEC "MEDLEYC ARGS" PROG.c...: the programs in $W/NAME/$rt/.
build() {
    local name=$1 spec=$2 margs=$3 d=$W/$1/$rt p
    shift 3
    mkdir -p "$d/gen"
    # shellcheck disable=SC2086
    "$S/bin/medleyc" $margs -o "$d/gen" "$spec" > "$d/build.log" 2>&1 || return 1
    local c=(cc "${CFLAGS_T[@]}") x=()
    for p in "$@"; do
        # a .cc program as a C++ user builds it: the generated .c as C++ too
        if [[ $p == *.cc ]]; then
            c=(g++ "${CXXFLAGS_T[@]}") x=(-x c++)
            c[0]=$RT_CXX
        fi
        # shellcheck disable=SC2046
        "${c[@]}" -I"$d/gen" "$p" "${x[@]}" "$d"/gen/*MDL.c $(pkg-config --cflags --libs "medley-$RT_LIB") \
            -lm -o "$d/$(basename "${p%.cc}" .c)" >> "$d/build.log" 2>&1 || return 1
    done
}

# job DIR ARGS...: the launcher of $rt on ARGS (program names are in DIR),
# stdout in $W/out, stderr in $W/err, status in $rc.  The environment of
# the caller (MDL_TRACE …) passes through.
job() {
    local d=$1
    shift
    (cd "$d" && exec timeout -k 5 60 "${RT_LAUNCH[@]}" "$@") > "$W/out" 2> "$W/err" < /dev/null
    rc=$?
}

# traced NAME SPEC PROGRAM.c... -- LAUNCH...: builds the programs against
# SPEC in $d (= $W/NAME/$rt) and runs LAUNCH there traced into $f (=
# $W/NAME-$rt.json).  0 when the job succeeded and NAME_check passed;
# else NAME_build or NAME_check fails with the reason.
traced() {
    local name=$1 spec=$2 srcs=()
    shift 2
    while [ "$1" != -- ]; do
        srcs+=("$1")
        shift
    done
    shift
    d=$W/$name/$rt f=$W/$name-$rt.json
    if ! build "$name" "$spec" "" "${srcs[@]}"; then
        fail "${name}_build" "$(tail -c 400 "$d/build.log" | tr '\n' ' ')"
        return 1
    fi
    MDL_TRACE=$f job "$d" "$@"
    if [ $rc -ne 0 ]; then
        fail "${name}_check" "status $rc: $(tail -c 300 "$W/err" | tr '\n' ' ')"
        return 1
    fi
    valid "${name}_check" "$f"
}

# valid NAME FILE: mdltrace --check accepts it.
valid() {
    if [ ! -s "$2" ]; then
        fail "$1" "no trace file (status $rc: $(tail -c 300 "$W/err" | tr '\n' ' '))"
        return 1
    fi
    if ! "$T" --check "$2" > "$W/check" 2>&1; then
        fail "$1" "mdltrace --check: $(head -5 "$W/check" | tr '\n' '|')"
        return 1
    fi
    pass "$1"
}

# count FILE REGEX: lines of FILE matching (one event per line).
count() { grep -cE -- "$2" "$1"; }

# An event's wait_us: written by the runtimes whose waits are timed (shm).
WAIT='(,"wait_us":[0-9.]+)?'
# dur_of FILE NAME: the duration (µs) of the complete event NAME.
dur_of() { sed -n "s/.*\"dur\":\([0-9.]*\),\"pid\":[0-9]*,\"tid\":[0-9]*,\"name\":\"$2\".*/\1/p" "$1" | head -1; }
# wait_of / copy_of FILE NAME: its wait_us / copy_us (empty: none written).
wait_of() { sed -n "s/.*\"name\":\"$2\".*\"wait_us\":\([0-9.]*\).*/\1/p" "$1" | head -1; }
copy_of() { sed -n "s/.*\"name\":\"$2\".*\"copy_us\":\([0-9.]*\).*/\1/p" "$1" | head -1; }

# recover FILE: mdltrace --recover FILE, output in $W/out.  mpiexec can
# return before its processes are gone (slowly, under a sanitizer), and
# --recover says so until they are.
recover() {
    for _ in $(seq 100); do
        "$T" --recover "$1" > "$W/out" 2>&1
        grep -q "is still running" "$W/out" || return
        sleep 0.1
    done
}

# instance FILE NAME: its otherData entry, as `events dropped end`.
instance() {
    sed -n "s/.*{\"name\":\"$2\",\"pid\":[0-9]*,\"tid\":[0-9]*,\"events\":\([0-9]*\),\"dropped\":\([0-9]*\),\"end\":\"\([a-z]*\)\".*/\1 \2 \3/p" "$1"
}

. tests/trace/svg_ok.sh
. tests/trace/flows.sh

for rt in "${MPI_RTS[@]}" shm; do
    if ! rt_use "$rt"; then
        fail setup "$RT_WHY"
        continue
    fi
    # how far back a flow may point (tests/trace/flows.sh): none on shm
    slack=20
    [ "$RT_LIB" = shm ] && slack=0
    # ------------------------------------------------------------ Monte Carlo
    mc=$W/montecarlo/$rt
    if ! build montecarlo examples/montecarlo/montecarlo.mdl "-D BATCHES=20" \
            examples/montecarlo/father.c examples/montecarlo/son.c; then
        fail montecarlo_build "$(tail -c 400 "$W/montecarlo/$rt/build.log" | tr '\n' ' ')"
        continue
    fi
    f=$W/mc-$rt.json
    MDL_TRACE=$f job "$mc" -n 1 ./father 200 : -n 3 ./son
    if [ $rc -eq 0 ] && grep -q "son 2: 20 of 60 batches" "$W/out"; then
        pass montecarlo_run
    else
        fail montecarlo_run "status $rc: $(tail -c 300 "$W/err" | tr '\n' ' ')"
    fi
    # MPI keeps each process's buffer in a part file while the job runs:
    # a job that ends leaves none
    [ -n "$(parts_left "$f")" ] && fail montecarlo_no_parts "$(parts_left "$f" | tr '\n' ' ')" ||
        pass montecarlo_no_parts
    if valid montecarlo_check "$f"; then
        for i in 'father[0]' 'son[0]' 'son[1]' 'son[2]'; do
            grep -qF "\"name\":\"thread_name\",\"args\":{\"name\":\"$i\"}" "$f" ||
                { fail montecarlo_tracks "no track '$i'"; break; }
        done && pass montecarlo_tracks
        n=$(count "$f" '"ph":"X".*"name":"MDL_RecvFrom_son_inMessage","cat":"recv","args":\{"msg":"inMessage","bytes":12,"peer":"son\[[0-2]\]"')
        [ "$n" = 60 ] && [ "$(count "$f" 'MDL_RecvFrom_son_inMessage')" = 60 ] &&
            pass montecarlo_60_receives || fail montecarlo_60_receives "$n complete events with 12 bytes and a son"
        ns=$(count "$f" '"ph":"s"') nf=$(count "$f" '"ph":"f",.*"bp":"e"')
        [ "$ns" -ge 64 ] && [ "$nf" -ge 64 ] && pass montecarlo_flows ||
            fail montecarlo_flows "$ns flow starts, $nf flow ends"
        "$T" "$f" > "$W/report" 2>&1
        grep -qE '^inMessage +father +MDL_RecvFrom_son_inMessage +60 +60 +720 ' "$W/report" &&
            grep -qF "messages traced: 64, all received" "$W/report" &&
            grep -qF "4 instances (father[0], son[0..2]), ended normally" "$W/report" &&
            pass montecarlo_report || fail montecarlo_report "$(head -4 "$W/report" | tr '\n' '|')"
        if "$T" --matrix "$W/mc-$rt.svg" "$f" > "$W/out" 2>&1; then
            svg_ok montecarlo_matrix "$W/mc-$rt.svg" 'father[0]' 'son[0]' 'son[1]' 'son[2]'
        else
            fail montecarlo_matrix "$(head -2 "$W/out" | tr '\n' '|')"
        fi
        "$T" --spec examples/montecarlo/montecarlo.mdl -D BATCHES=20 "$f" > "$W/spec" 2>&1 &&
            pass montecarlo_spec || fail montecarlo_spec "$(tail -3 "$W/spec" | tr '\n' '|')"
    fi

    # a buffer of 16 slots: most calls dropped, counted exactly
    f=$W/mc16-$rt.json
    MDL_TRACE=$f MDL_TRACE_BUFFER=16 job "$mc" -n 1 ./father 200 : -n 3 ./son
    if [ $rc -eq 0 ] && valid full_buffer_check "$f"; then
        # calls per instance: father 1 + 2 + 60, son 0: 1 + 1 + 20 sends + 21 waits
        ok=1
        for e in 'father\[0\] 63' 'son\[0\] 43' 'son\[1\] 42' 'son\[2\] 42'; do
            set -- $e
            read -r ev dr end <<< "$(instance "$f" "$1")"
            if [ -z "${ev:-}" ] || [ $((ev + dr)) -ne "$2" ] || [ "$dr" -eq 0 ] || [ "$end" != normal ]; then
                fail full_buffer_counts "$1: events ${ev:-?} + dropped ${dr:-?} != $2 calls (end ${end:-?})"
                ok=0
                break
            fi
        done
        [ $ok = 1 ] && pass full_buffer_counts
        grep -qF '"buffer_events":16,' "$f" && grep -qF '"totals":[' "$f" ||
            fail full_buffer_counts "no buffer_events or totals in otherData"
        "$T" "$f" > "$W/report" 2>&1
        grep -qF "the table below is exact (the runtime's totals)" "$W/report" &&
            grep -qE '^inMessage +father +MDL_RecvFrom_son_inMessage +60 +60 +720 ' "$W/report" &&
            pass full_buffer_report || fail full_buffer_report "$(head -5 "$W/report" | tr '\n' '|')"
    elif [ $rc -ne 0 ]; then
        fail full_buffer_check "status $rc: $(tail -c 300 "$W/err" | tr '\n' ' ')"
    fi

    # MDL_TRACE empty: no tracing (and nothing written)
    (cd "$W" && MDL_TRACE= job "$mc" -n 1 ./father 200 : -n 3 ./son)
    [ -z "$(ls "$mc"/*.json 2>/dev/null)" ] && pass untraced_no_file || fail untraced_no_file "a file appeared"

    # ------------------------------------------------------------ Poisson
    if traced poisson examples/poisson/poisson.mdl examples/poisson/noeud.c -- -n 4 ./noeud 16 2 2 1e-30 10; then
        # 2 x 2, not periodic: each instance has 2 neighbours, 2 MDL_PROC_NULL
        na=$(count "$f" '"name":"MDL_Allreduce_m9","cat":"coll","args":\{"msg":"m9","bytes":8'"$WAIT"'\}')
        ng=$(count "$f" '"name":"MDL_Grid_Create","cat":"sync"')
        nnull=$(count "$f" '"name":"MDL_SendTo_noeud_m[1-4]","cat":"send","args":\{"msg":"m[1-4]","bytes":0'"$WAIT"'\}')
        npeer=$(count "$f" '"name":"MDL_SendTo_noeud_m[1-4]","cat":"send","args":\{"msg":"m[1-4]","bytes":64,"peer":"noeud\[[0-3]\]"'"$WAIT"'\}')
        if [ "$na" = 40 ] && [ "$ng" = 4 ] && [ "$nnull" = 80 ] && [ "$npeer" = 80 ] &&
           [ "$(count "$f" '"ph":"s"')" = 80 ] && [ "$(count "$f" '"ph":"f"')" = 80 ]; then
            pass poisson_events
        else
            fail poisson_events "Allreduce $na, Grid_Create $ng, sends to MDL_PROC_NULL $nnull, to a neighbour $npeer"
        fi
        "$T" --spec examples/poisson/poisson.mdl "$f" > "$W/spec" 2>&1 &&
            pass poisson_spec || fail poisson_spec "$(tail -3 "$W/spec" | tr '\n' '|')"
        "$T" --matrix "$W/poisson-$rt.svg" "$f" > /dev/null 2>&1
        svg_ok poisson_matrix "$W/poisson-$rt.svg" 'noeud[0]' 'noeud[1]' 'noeud[2]' 'noeud[3]'
    fi

    # ------------------------------------------------------------ async, Test, Mcast
    if traced async tests/e2e/async_many/spec.mdl tests/e2e/async_many/boss.c \
            tests/e2e/async_many/worker.c -- -n 1 ./boss : -n 3 ./worker &&
       grep -q '^async_many: OK$' "$W/out"; then
        # every answer (async, MDL_ANY) ends its flow in the Test that completed it
        nt=$(count "$f" '"name":"MDL_doneTest","cat":"wait"')
        "$T" "$f" > "$W/report" 2>&1
        [ "$nt" -ge 3 ] && [ "$(count "$f" '"ph":"f"')" = "$(count "$f" '"ph":"s"')" ] &&
            grep -qF "all received" "$W/report" && pass async_test_flows ||
            fail async_test_flows "$nt completing Tests; $(sed -n 3p "$W/report")"
    fi
    if traced mcast tests/e2e/ref_mcast/spec.mdl tests/e2e/ref_mcast/worker.c -- -n 3 ./worker; then
        count "$f" '"name":"MDL_Mcast_tab","cat":"coll","args":\{"msg":"tab","bytes":40,"root":"worker\[0\]","peer":\["worker\[0\]","worker\[2\]"\]'"$WAIT"'\}' > /dev/null &&
            count "$f" '"name":"MDL_Scatter_sc","cat":"coll"' > /dev/null &&
            pass mcast_events || fail mcast_events "no Mcast with its members, or no Scatter"
    fi

    # ------------------------------------------------------------ sends to itself
    # kept outside MPI by the MPI runtime (docs/runtime-mpi.md "send to
    # oneself"): each of the 26 messages' flow, from itself or from the
    # other instance, ends in the receive that took it, forward in time
    if traced self_kept tests/e2e/self_kept/spec.mdl tests/e2e/self_kept/d.c -- -n 2 ./d &&
       grep -q '^self_kept: ok$' "$W/out"; then
        ns=$(count "$f" '"ph":"s"') nf=$(count "$f" '"ph":"f"')
        [ "$ns" = 26 ] && [ "$nf" = 26 ] && flows_forward "$f" $slack && pass self_kept_flows ||
            fail self_kept_flows "flows: $ns starts, $nf ends (26 each), or one backwards"
    fi

    # ------------------------------------------------------------ flows under load
    # a ping-pong's 1240 flows (8 B blocking, 64 KiB, 8 B ended by a Wait),
    # 5 runs beside 2 busy processes (bench/load.sh): a process descheduled
    # between its clock read and the message's passage drew arrows back
    # before 2026-11-30 — on shm in every run, 2.7 ms back at worst
    if build flows_loaded tests/trace/run/pingpong/spec.mdl "" tests/trace/run/pingpong/pingpong.c; then
        f=$W/flows_loaded-$rt.json why=
        for run in 1 2 3 4 5; do
            rm -f "$f"
            (cd "$W/flows_loaded/$rt" && MDL_TRACE=$f exec "$OLDPWD/bench/load.sh" -n 2 \
                timeout -k 5 60 "${RT_LAUNCH[@]}" -n 2 ./pingpong) > "$W/out" 2> "$W/err" < /dev/null
            rc=$?
            ns=$(count "$f" '"ph":"s"') nf=$(count "$f" '"ph":"f"')
            if [ $rc -ne 0 ]; then
                why="run $run: status $rc: $(tail -c 300 "$W/err" | tr '\n' ' ')"
            elif [ "$ns" != 1240 ] || [ "$nf" != 1240 ]; then
                why="run $run: $ns starts, $nf ends (1240 each)"
            elif ! flows_forward "$f" $slack; then
                why="run $run: a flow back in time (least f - s $(flows_least "$f") µs, allowed above -$slack)"
            fi
            [ -z "$why" ] || break
        done
        [ -z "$why" ] && pass flows_loaded || fail flows_loaded "$why"
    else
        fail flows_loaded_build "$(tail -c 400 "$W/flows_loaded/$rt/build.log" | tr '\n' ' ')"
    fi

    # ------------------------------------------------------------ durations
    # waits inside the calls' events, computations outside, whichever way
    # the call was recorded (on shm off the message's path for 8 bytes).
    # On MPI too the sync send of 64 KiB to a receiver of its host that
    # computes waits for the receiver's copy (docs/runtime-mpi.md, "Large
    # messages on one host"): a sender that gave up on a receiver that is
    # only late — before 2026-11-28 after 10 ms, or after 100 µs of wall
    # clock when the receiver, descheduled on a loaded machine, still
    # showed the blocking receive it had left — returns well before 150 ms
    if traced timing tests/trace/run/timing/spec.mdl tests/trace/run/timing/timing.c -- -n 2 ./timing; then
        d_ss=$(dur_of "$f" MDL_SendTo_p_small) d_rs=$(dur_of "$f" MDL_RecvFrom_p_small)
        d_sb=$(dur_of "$f" MDL_SendTo_p_big) d_rb=$(dur_of "$f" MDL_RecvFrom_p_big)
        awk -v ss="$d_ss" -v rs="$d_rs" -v sb="$d_sb" -v rb="$d_rb" \
            'BEGIN { exit !(ss != "" && rb != "" && rs >= 150000 && sb >= 150000 && ss < 50000 && rb < 50000) }' &&
            pass timing_durations ||
            fail timing_durations "µs: send small $d_ss, receive small $d_rs (>= 150000), send big $d_sb (>= 150000), receive big $d_rb"
        flows_forward "$f" $slack && pass timing_flows_forward ||
            fail timing_flows_forward "$(grep '"ph":"[sf]"' "$f" | tr '\n' ' ')"
        # shm times the waits (the polls' clock reads): the two that
        # waited 300 ms say so, the others waited for nothing; and the
        # copy of 64 KiB (rendezvous), within the call with its wait;
        # of 8 bytes (eager), none.  MPI waits inside MPICH and writes no
        # wait_us; its copy of 64 KiB from a process of the same host is
        # its own (docs/runtime-mpi.md) and timed, unless MDL_MPI_DIRECT=0
        w_ss=$(wait_of "$f" MDL_SendTo_p_small) w_rs=$(wait_of "$f" MDL_RecvFrom_p_small)
        w_sb=$(wait_of "$f" MDL_SendTo_p_big) w_rb=$(wait_of "$f" MDL_RecvFrom_p_big)
        c_rb=$(copy_of "$f" MDL_RecvFrom_p_big) c_rs=$(copy_of "$f" MDL_RecvFrom_p_small)
        if [ "$rt" = shm ]; then
            awk -v c="$c_rb" -v w="$w_rb" -v d="$d_rb" -v cs="$c_rs" \
                'BEGIN { exit !(c != "" && c > 0 && c + w <= d + 0.002 && cs == "") }' &&
                pass timing_copy ||
                fail timing_copy "copy µs: receive big $c_rb (wait $w_rb, dur $d_rb), receive small '$c_rs' (none)"
            awk -v ss="$w_ss" -v rs="$w_rs" -v sb="$w_sb" -v rb="$w_rb" -v drs="$d_rs" -v dsb="$d_sb" \
                'BEGIN { exit !(ss != "" && rb != "" && rs >= 150000 && sb >= 150000 && rs <= drs &&
                                sb <= dsb && ss < 1000 && rb < 1000) }' &&
                pass timing_waits ||
                fail timing_waits "wait µs: send small $w_ss, receive small $w_rs (>= 150000, <= $d_rs), send big $w_sb (>= 150000, <= $d_sb), receive big $w_rb"
            "$T" "$f" > "$W/table"
            grep -qE '^small +p +MDL_RecvFrom_p_small +1 +1 +8 +[0-9.]+ +[0-9.]+ +[0-9]{5,}\.[0-9] +- *$' "$W/table" &&
                grep -qE '^big +p +MDL_RecvFrom_p_big +1 +1 +65536 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9] *$' "$W/table" &&
                pass timing_wait_table || fail timing_wait_table "$(grep MDL_RecvFrom "$W/table" | tr '\n' '|')"
        else
            [ -z "$w_ss$w_rs$w_sb$w_rb" ] && ! grep -qE '"wait_us"' "$f" &&
                pass timing_no_waits || fail timing_no_waits "wait_us written on MPI"
            awk -v c="$c_rb" -v d="$d_rb" -v cs="$c_rs" \
                'BEGIN { exit !(c != "" && c > 0 && c <= d + 0.002 && cs == "") }' &&
                pass timing_copy ||
                fail timing_copy "copy µs: receive big '$c_rb' (dur $d_rb), receive small '$c_rs' (none)"
        fi
    fi
    if [ "$RT_LIB" = mpi ] && MDL_MPI_DIRECT=0 traced timing_through_mpi tests/trace/run/timing/spec.mdl \
            tests/trace/run/timing/timing.c -- -n 2 ./timing; then
        ! grep -qE '"(wait|copy)_us"' "$f" && pass timing_through_mpi_no_copy ||
            fail timing_through_mpi_no_copy "copy_us written with MDL_MPI_DIRECT=0"
    fi

    # a large message from a variable sized at run time is copied once by
    # its receiver too (MPI: its storage is in the memfd the host maps)
    if traced rtsize tests/trace/run/rtsize/spec.mdl tests/trace/run/rtsize/r.c -- -n 2 ./r; then
        c=$(copy_of "$f" MDL_RecvFrom_r_blk)
        grep -q '^rtsize: ok' "$W/out" && awk -v c="$c" 'BEGIN { exit !(c != "" && c > 0) }' &&
            pass rtsize_one_copy ||
            fail rtsize_one_copy "copy_us of MDL_RecvFrom_r_blk '$c': $(head -c 200 "$W/out" | tr '\n' ' ')"
    fi

    # strided messages between two processes of a host take the one-copy
    # path from the MPI's own threshold (docs/runtime-mpi.md, "Which
    # messages"): 16 KiB on MPICH; on Open MPI its shared-memory eager limit
    # (4 KiB by default: 8 KiB is copied once there only), read from the
    # MPI, so that raising the limit raises the threshold
    strided_copied() {
        local name=$1 want=" $2 " got='' m
        for m in s2k s8k s16k; do
            [ -n "$(copy_of "$f" "MDL_RecvFrom_p_$m")" ] && got+="$m "
        done
        grep -q '^strided: ok' "$W/out" && [ " $got" = "$want" ] && pass "$name" ||
            fail "$name" "copied once: '${got% }', expected '$2': $(head -c 200 "$W/out" | tr '\n' ' ')"
    }
    if [ "$RT_LIB" = mpi ] && traced strided tests/trace/run/strided/spec.mdl \
            tests/trace/run/strided/strided.c -- -n 2 ./strided; then
        if [ "$MPI_NAME" = openmpi ]; then
            strided_copied strided_one_copy "s8k s16k"
        else
            strided_copied strided_one_copy "s16k"
        fi
        if [ "$MPI_NAME" = openmpi ]; then
            rm -f "$f"
            OMPI_MCA_btl_vader_eager_limit=16384 MDL_TRACE=$f job "$d" -n 2 ./strided
            if [ $rc -ne 0 ]; then
                fail strided_eager_16k_check "status $rc: $(tail -c 300 "$W/err" | tr '\n' ' ')"
            elif valid strided_eager_16k_check "$f"; then
                strided_copied strided_eager_16k_one_copy "s16k"
            fi
        fi
    fi

    # ------------------------------------------------------------ C++
    # task objects the program owns (the class binding, mdl_init_at) are
    # traced like any others (on MPI the job crashed in MDL_End before)
    if traced cxx tests/e2e/cxx_class/spec.mdl tests/e2e/cxx_class/master.cc \
            tests/e2e/cxx_class/worker.cc -- -n 1 ./master : -n 1 ./worker; then
        grep -q '^cxx_class: ok' "$W/out" && grep -qF '"name":"master[0]"' "$f" &&
            grep -qF '"name":"worker[0]"' "$f" &&
            [ "$(count "$f" '"name":"MDL_RecvFrom_worker_')" -ge 1 ] && pass cxx_objects ||
            fail cxx_objects "$(head -c 300 "$W/out" | tr '\n' ' ')"
    fi
    # and their large messages between the processes of a host are copied
    # once by the receiver, as the C API's struct (MPI: the object's pages
    # are the runtime's memfd while it runs; shm: aliased into the segment)
    if traced cxx_direct tests/e2e/cxx_direct/spec.mdl tests/e2e/cxx_direct/d.cc \
            -- -n 1 ./d global : -n 1 ./d stack; then
        c=$(copy_of "$f" MDL_RecvFrom_d_blk)
        grep -q '^cxx_direct: ok' "$W/out" && awk -v c="$c" 'BEGIN { exit !(c != "" && c > 0) }' &&
            pass cxx_objects_one_copy ||
            fail cxx_objects_one_copy "copy_us of MDL_RecvFrom_d_blk '$c': $(head -c 200 "$W/out" | tr '\n' ' ')"
    fi
    # an object that cannot be aliased (not page-aligned, as from C++14's
    # new) still receives its host peer's large messages in one copy; on
    # MPI it sends its own through MPI, and the rest of the host keeps the
    # path (the whole host went through MPI before)
    if traced cxx_unaligned tests/e2e/cxx_direct/spec.mdl tests/e2e/cxx_direct/d.cc \
            -- -n 1 ./d global : -n 1 ./d unaligned; then
        c=$(grep -o '"name":"MDL_RecvFrom_d_blk"[^}]*"peer":"d\[0\]"[^}]*' "$f" |
            sed -n 's/.*"copy_us":\([0-9.]*\).*/\1/p' | head -1)
        n=$(grep -o '"name":"MDL_RecvFrom_d_blk"[^}]*"peer":"d\[1\]"[^}]*"copy_us"' "$f" | wc -l)
        grep -q '^cxx_direct: ok' "$W/out" && awk -v c="$c" 'BEGIN { exit !(c != "" && c > 0) }' &&
            { [ "$rt" = shm ] || [ "$n" = 0 ]; } && pass cxx_unaligned_one_copy ||
            fail cxx_unaligned_one_copy "copy_us of d[1]'s MDL_RecvFrom_d_blk '$c', of d[0]'s: $n: $(head -c 200 "$W/out" | tr '\n' ' ')"
    fi

    # the one-copy path between the processes of one host only: with p[2]
    # on a "host" of its own (MDL_MPI_HOST), p[1]'s receive from p[0]
    # is copied once, p[2]'s from p[1] and p[0]'s from p[2] go through
    # MPI (MPI_COMM_TYPE_SHARED alone grouped all three).  Again with the
    # hashes of the host identities made to collide (every process's the
    # same, MDL_TEST_ONLY_HOST_HASH): the identities still keep p[2] apart.
    one_copy_within() {
        copied() { grep -o '"name":"MDL_RecvFrom_p_big"[^}]*"peer":"p\['"$1"'\]"[^}]*"copy_us"' "$f" | wc -l; }
        n0=$(copied 0) n1=$(copied 1) n2=$(copied 2)
        [ "$n0" = 1 ] && [ "$n1" = 0 ] && [ "$n2" = 0 ] && pass "$1" ||
            fail "$1" "receives copied once from p[0] (same host) $n0 (1), from p[1] $n1 (0), from p[2] $n2 (0)"
    }
    if [ "$RT_LIB" = mpi ] && traced hosts tests/trace/run/hosts/spec.mdl tests/trace/run/hosts/hosts.c \
            -- -n 2 ./hosts : -n 1 env MDL_MPI_HOST=second ./hosts; then
        one_copy_within hosts_one_copy_within
    fi
    if [ "$RT_LIB" = mpi ] && traced hosts_collide tests/trace/run/hosts/spec.mdl tests/trace/run/hosts/hosts.c \
            -- -n 2 env MDL_TEST_ONLY_HOST_HASH=7 ./hosts : \
               -n 1 env MDL_TEST_ONLY_HOST_HASH=7 MDL_MPI_HOST=second ./hosts; then
        one_copy_within hosts_collide_one_copy_within
    fi

    # ------------------------------------------------------------ pair
    # one name both an async send and an async receive: one Wait call is
    # one event, and a Test loop records at most the Test that completed
    # the receive and the one that completed both, not every poll
    if traced pair tests/trace/run/pair/spec.mdl tests/trace/run/pair/pair.c -- -n 2 ./pair; then
        nw=$(count "$f" '"name":"MDL_swapWait"') nt=$(count "$f" '"name":"MDL_swapTest"')
        nf=$(count "$f" '"ph":"f"')
        # 2 instances x 3 Waits; Tests: 3 to 6 per instance; 12 flows
        if [ "$nw" = 6 ] && [ "$nt" -ge 6 ] && [ "$nt" -le 12 ] && [ "$nf" = 12 ]; then
            pass pair_events
        else
            fail pair_events "MDL_swapWait $nw (want 6), MDL_swapTest $nt (6..12), flow ends $nf (12)"
        fi
        "$T" "$f" | grep -qE '^ +p +MDL_swapTest +([6-9]|1[0-2]) ' &&
            "$T" "$f" | grep -qE '^ +p +MDL_swapWait +6 ' &&
            pass pair_table || fail pair_table "$("$T" "$f" | grep -E 'swap(Wait|Test)' | tr '\n' '|')"
    fi

    # ------------------------------------------------------------ errors
    d=$W/fail/$rt
    if ! build fail tests/trace/run/fail/spec.mdl "" tests/trace/run/fail/father.c tests/trace/run/fail/son.c; then
        fail fail_build "$(tail -c 400 "$W/fail/$rt/build.log" | tr '\n' ' ')"
        continue
    fi
    # a fatal error: the job ends, its file is written
    f=$W/truncate-$rt.json
    MDL_TRACE=$f job "$d" -n 1 ./father truncate : -n 3 ./son truncate
    if [ $rc -ne 0 ] && valid error_check "$f"; then
        msg='father\[0\]: MDL_RecvFrom_son_res: the message from son\[1\] is larger than the receive \(16 bytes\) \(MDL_ERR_TRUNCATE\)'
        # son[1] sent six results, the sixth too large: at least the go and
        # five sends are recorded (MPI: read from its part by father[0],
        # which reported; on shm the sixth send's record, written once it
        # has published, can be lost to the tear-down)
        if grep -qE "\"end\":\"error\",\"error\":\"$msg\"" "$f" &&
           grep -qE "\"name\":\"MDL_RecvFrom_son_res\",\"cat\":\"recv\",\"args\":\{\"msg\":\"res\",\"bytes\":0$WAIT,\"error\":\"$msg\"\}" "$f" &&
           [ "$(instance "$f" 'father\[0\]' | cut -d' ' -f3)" = error ] &&
           instance "$f" 'son\[1\]' | grep -qE '^([6-9]|[1-9][0-9]+) 0 (error|normal)$'; then
            pass error_content
        else
            fail error_content "no job error, failing call or instance ends as expected: son[1] $(instance "$f" 'son\[1\]')"
        fi
        [ -n "$(parts_left "$f")" ] && fail error_parts "parts left: $(parts_left "$f" | tr '\n' ' ')" ||
            pass error_parts
        "$T" "$f" > "$W/report" 2>&1
        grep -qF "ended by an error:" "$W/report" && grep -qF "(MDL_ERR_TRUNCATE)" "$W/report" &&
            pass error_report || fail error_report "$(head -3 "$W/report" | tr '\n' '|')"
    elif [ $rc -eq 0 ]; then
        fail error_check "the job did not fail"
    fi
    # an error returned: recorded with the call, the job ends normally
    f=$W/return-$rt.json
    MDL_ERRORS=return MDL_TRACE=$f job "$d" -n 1 ./father badrank : -n 3 ./son ok
    if [ $rc -eq 0 ] && valid error_returned_check "$f"; then
        grep -qE '"name":"MDL_RecvFrom_son_res","cat":"recv","args":\{"msg":"res","bytes":0'"$WAIT"',"error":"father\[0\]: MDL_RecvFrom_son_res: instance 7 of son does not exist \(0\.\.2\) \(MDL_ERR_RANK\)"\}' "$f" &&
            grep -qF '"end":"normal"' "$f" && pass error_returned_call ||
            fail error_returned_call "no failed call with its error"
    elif [ $rc -ne 0 ]; then
        fail error_returned_check "status $rc: $(tail -c 300 "$W/err" | tr '\n' ' ')"
    fi
    if [ "$RT_LIB" = mpi ]; then
        # a process killed by a signal: mpiexec ends the job and nobody
        # writes the file; the processes' parts stay, mdltrace --recover
        # writes it from them
        f=$W/kill-$rt.json
        MDL_TRACE=$f job "$d" -n 1 ./father kill : -n 3 ./son kill
        nparts=$(parts "$f" | wc -l)
        if [ $rc -ne 0 ] && [ ! -e "$f" ] && [ "$nparts" = 4 ]; then
            pass killed_parts
        else
            fail killed_parts "status $rc, file $( [ -e "$f" ] && echo written || echo absent), $nparts parts (want 4)"
        fi
        "$T" "$f" > "$W/out" 2>&1
        [ $? = 2 ] && grep -qF "mdltrace --recover $f' writes its trace from them" "$W/out" &&
            pass killed_hint || fail killed_hint "$(tr '\n' '|' < "$W/out")"
        recover "$f"
        if ! grep -qxF "wrote $f: 4 of 4 processes recovered" "$W/out"; then
            fail killed_recovered "$(tr '\n' '|' < "$W/out")"
        elif valid killed_recovered "$f"; then
            # son[2] received go and sent five results before it was killed
            # outside any call (its part says it had not ended, and was in
            # none); the father received some, and the receive it was in
            # when mpiexec ended it is recorded.  The other sons may be
            # anywhere: not yet past their go on a loaded machine (seen at
            # load 13: one event each), or done sending and not yet in
            # MDL_End, then listed too (about one run in eight)
            if grep -qF '"end":"error","error":"the job did not end: its processes'"'"' buffers were recovered by mdltrace --recover"' "$f" &&
               grep -qF '"name":"MDL_RecvFrom_son_res","cat":"recv","args":{"msg":"res","bytes":0,"error":"father[0]: MDL_RecvFrom_son_res: had not returned when the job ended (waiting for son[any])"}' "$f" &&
               [ "$(instance "$f" 'son\[2\]')" = "6 0 error" ] &&
               grep -qxE 'not in an MDL call when the job ended: (son\[[01]\], )*son\[2\]' "$W/out" &&
               [ "$(count "$f" '"pid":2,"tid":[0-9]+,"name":"MDL_SendTo_father_res"')" -ge 5 ] &&
               [ "$(count "$f" '"name":"MDL_RecvFrom_son_res"')" -ge 1 ] &&
               [ -z "$(parts_left "$f")" ]; then
                pass killed_content
            else
                fail killed_content "son[2] $(instance "$f" 'son\[2\]'), parts $(parts_left "$f" | wc -l): $(tail -c 400 "$f" | tr '\n' '|')"
            fi
        fi
        "$T" --recover "$f" > "$W/out" 2>&1
        [ $? = 2 ] && grep -qF "mdltrace: error: no part of '$f' ($f) to recover" "$W/out" &&
            pass recover_nothing || fail recover_nothing "$(tr '\n' '|' < "$W/out")"
        # a deadlock stopped with Ctrl-C (SIGINT to mpiexec): the recovered
        # trace shows where each process hung.  The job names its trace
        # with a detour (hang/./../hang-mpi.json), recovered by its plain
        # name; while the job runs, --recover refuses; an earlier run's
        # file in the way gets a note
        f=$W/hang-$rt.json
        cp "$W/mc-$rt.json" "$f"
        if build hang tests/trace/run/hang/spec.mdl "" tests/trace/run/hang/d.c; then
            (cd "$W/hang/$rt" && MDL_TRACE=$W/hang/./../hang-$rt.json exec timeout -s INT -k 5 20 "${RT_LAUNCH[@]}" -n 2 ./d) \
                > "$W/out" 2> "$W/err" < /dev/null &
            job_pid=$!
            for _ in $(seq 150); do [ "$(parts "$f" | wc -l)" = 2 ] && break; sleep 0.1; done
            "$T" --recover "$f" > "$W/out2" 2>&1
            [ $? = 2 ] && grep -qE "^mdltrace: error: process [01] of the job \(pid [0-9]+\) is still running: recover its trace once the job has ended$" "$W/out2" &&
                [ "$(parts "$f" | wc -l)" = 2 ] && pass hang_running ||
                fail hang_running "$(tr '\n' '|' < "$W/out2"), $(parts "$f" | wc -l) parts"
            sleep 1             # both past their Barrier, in the receive (hang_where)
            kill -INT $job_pid  # timeout passes it on to mpiexec: Ctrl-C
            wait $job_pid
            "$T" "$f" > /dev/null 2> "$W/out2"
            grep -qF "mdltrace: note: an MPI job run with MDL_TRACE=$f did not end and left its buffers on this host: this file may be from an earlier run" "$W/out2" &&
                pass hang_stale_note || fail hang_stale_note "$(tr '\n' '|' < "$W/out2")"
            recover "$f"
            if ! grep -qxF "wrote $f: 2 of 2 processes recovered" "$W/out"; then
                fail hang_recovered "$(tr '\n' '|' < "$W/out")"
            elif valid hang_recovered "$f"; then
                for i in 0 1; do
                    grep -qF "\"name\":\"MDL_RecvFrom_d_r\",\"cat\":\"recv\",\"args\":{\"msg\":\"r\",\"bytes\":0,\"error\":\"d[$i]: MDL_RecvFrom_d_r: had not returned when the job ended (waiting for d[$((1 - i))])\"}" "$f" ||
                        { fail hang_where "no open receive of d[$i]"; break; }
                done && [ "$(count "$f" '"name":"MDL_Barrier"')" = 2 ] &&
                    ! grep -q "not in an MDL call" "$W/out" && pass hang_where
                "$T" "$f" > "$W/report" 2>&1
                grep -A2 -xF "  calls that failed:" "$W/report" | tail -2 | tr '\n' '|' |
                    grep -qxF "    d[0]: MDL_RecvFrom_d_r: had not returned when the job ended (waiting for d[1])|    d[1]: MDL_RecvFrom_d_r: had not returned when the job ended (waiting for d[0])|" &&
                    pass hang_report || fail hang_report "$(head -6 "$W/report" | tr '\n' '|')"
            fi
        else
            fail hang_build "$(tail -c 400 "$W/hang/$rt/build.log" | tr '\n' ' ')"
        fi
    fi
    if [ "$rt" = shm ]; then
        # an instance killed by a signal: mdlrun writes the file all the same
        f=$W/kill-$rt.json
        MDL_TRACE=$f job "$d" -n 1 ./father kill : -n 3 ./son kill
        if [ $rc -eq 137 ] && valid killed_check "$f"; then
            grep -qE '"end":"error","error":"son\[2\] \(pid [0-9]+\) killed by signal 9 \(Killed\)"' "$f" &&
                [ "$(instance "$f" 'son\[2\]')" = "0 0 lost" ] &&
                [ "$(instance "$f" 'father\[0\]' | cut -d' ' -f3)" = error ] &&
                pass killed_content || fail killed_content "$(tail -c 600 "$f" | tr '\n' '|')"
        elif [ $rc -ne 137 ]; then
            fail killed_check "status $rc, expected 137"
        fi
    fi

    # ------------------------------------------------------------ misuse
    MDL_TRACE=$W/no/such/dir/t.json job "$mc" -n 1 ./father 200 : -n 3 ./son
    if [ "$rt" = shm ]; then
        [ $rc -eq 2 ] && grep -qxF "mdlrun: cannot write the trace to '$W/no/such/dir/t.json': $W/no/such/dir: No such file or directory" "$W/err" &&
            [ ! -s "$W/out" ] && pass unwritable || fail unwritable "status $rc: $(head -2 "$W/err" | tr '\n' '|')"
    else
        [ $rc -ne 0 ] && grep -qE "^(father|son)\[[0-3]\]: MDL_Init: cannot write the trace to '$W/no/such/dir/t.json': .*No such file or directory \(MDL_ERR_LAUNCH\)$" "$W/err" &&
            pass unwritable || fail unwritable "status $rc: $(head -2 "$W/err" | tr '\n' '|')"
    fi
    MDL_TRACE=$W/t.json MDL_TRACE_BUFFER=lots job "$mc" -n 1 ./father 200 : -n 3 ./son
    [ $rc -ne 0 ] && grep -qF "MDL_TRACE_BUFFER=lots is not a number of events between 1 and 2^25" "$W/err" &&
        pass bad_buffer || fail bad_buffer "status $rc: $(head -2 "$W/err" | tr '\n' '|')"
    if [ "$RT_LIB" = mpi ]; then
        job "$mc" -n 1 env MDL_TRACE=$W/t.json ./father 200 : -n 3 ./son
        [ $rc -ne 0 ] && grep -qF "MDL_TRACE is set for process 0 but not for process 1: set it for the whole job" "$W/err" &&
            pass partly_traced || fail partly_traced "status $rc: $(head -2 "$W/err" | tr '\n' '|')"
    fi
done

# the real trace of docs/tracing.md §6 and its matrix picture
rt=docs
if "$T" --check docs/poisson-trace.json > "$W/check" 2>&1 &&
   "$T" --csv docs/poisson-trace.json > "$W/csv" 2>&1 &&
   [ "$(sed -n 2p "$W/csv")" = "noeud[0],0,480,480,0" ] &&
   grep -qF 'poisson-trace.json — poisson.mdl, runtime shm' docs/poisson-matrix.svg; then
    svg_ok poisson_example docs/poisson-matrix.svg 'noeud[0]' 'noeud[1]' 'noeud[2]' 'noeud[3]'
else
    fail poisson_example "$(head -3 "$W/check" "$W/csv" | tr '\n' '|')"
fi

# mdlrun reads the images and writes the file without a memory error
if command -v valgrind >/dev/null && [ "${SANITIZE:-}" != 1 ]; then
    rt=shm
    f=$W/vg.json
    (cd "$W/montecarlo/shm" && MDL_TRACE=$f MDL_TRACE_BUFFER=40 valgrind -q --leak-check=full \
        --errors-for-leak-kinds=all --error-exitcode=99 "$S/bin/mdlrun" -n 1 ./father 200 : -n 3 ./son) \
        > "$W/out" 2> "$W/vg" < /dev/null
    rc=$?
    [ $rc -eq 0 ] && ! grep -q '^==[0-9]*==' "$W/vg" && valid mdlrun_valgrind "$f" > /dev/null &&
        pass mdlrun_valgrind || fail mdlrun_valgrind "status $rc: $(grep '^==' "$W/vg" | head -4 | tr '\n' '|')"
fi
exit 0
