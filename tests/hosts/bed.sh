#!/usr/bin/env bash
# Test hosts from the command line (the functions are in lib.sh):
#   bed.sh up N           make N hosts; prints `export MDL_HOSTS_BED=...`
#                         (eval it).  The bed belongs to the calling shell
#                         (MDL_HOSTS_OWNER=PID to choose): once that process
#                         is gone, the next up or sweep removes the bed.
#   bed.sh run HOST cmd   run cmd on HOST (mdlh2, h2 or 2) of $MDL_HOSTS_BED
#   bed.sh mpirun FLAVOR [options] -- prog args   a job from mdlh1 (lib.sh)
#   bed.sh down           tear down $MDL_HOSTS_BED, then every stale bed
#   bed.sh down --all     tear down every bed on this machine, live or not
#   bed.sh list           the beds, their owners and whether they are alive
#   bed.sh sweep          remove only beds whose owner is gone
# Without MDL_HOSTS_BED, run/mpirun/down use the only bed if there is one.
set -u
# shellcheck source=tests/hosts/lib.sh
. "$(dirname "$0")/lib.sh"

pick() {    # the bed to act on
    local beds
    if [ -n "${MDL_HOSTS_BED:-}" ]; then
        hosts_attach "$MDL_HOSTS_BED"
        return
    fi
    beds=$(ls -d "$HOSTS_RUNDIR"/*/ 2>/dev/null)
    if [ "$(echo "$beds" | grep -c .)" -ne 1 ]; then
        echo "bed.sh: set MDL_HOSTS_BED (beds: $(echo "$beds" | tr '\n' ' '))" >&2
        return 1
    fi
    hosts_attach "${beds%/}"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
    up)
        MDL_HOSTS_OWNER=${MDL_HOSTS_OWNER:-$PPID}
        if ! hosts_up "${1:-2}"; then
            echo "bed.sh: ${HOSTS_SKIP:-$HOSTS_ERROR}" >&2
            exit 1
        fi
        echo "export MDL_HOSTS_BED=$HOSTS_BED"
        ;;
    run) pick || exit 255; hosts_run "$@" ;;
    mpirun) pick || exit 255; hosts_mpirun "$@" ;;
    down)
        if [ "${1:-}" = --all ]; then
            for d in "$HOSTS_RUNDIR"/*/; do
                [ -d "$d" ] && hosts__teardown "$(basename "$d")"
            done
            # namespaces left by a bed killed before its state was written
            for id in $(ip netns list | awk '{print $1}' |
                        sed -n "s/^$HOSTS_PREFIX-\([0-9]*-[0-9a-f]*\)-.*/\1/p" | sort -u); do
                hosts__teardown "$id"
            done
        elif pick 2>/dev/null; then
            hosts_down
        else
            hosts_sweep
        fi
        ;;
    list)
        for d in "$HOSTS_RUNDIR"/*/; do
            [ -d "$d" ] || continue
            d=${d%/}
            state=stale
            hosts__owner_alive "$d/owner" && state=alive
            echo "$d $(cat "$d/n" 2>/dev/null) hosts, owner $(cut -d' ' -f1 "$d/owner" 2>/dev/null) ($state)"
        done
        ;;
    sweep) hosts_sweep ;;
    *) sed -n '2,13p' "$0" >&2; exit 2 ;;
esac
