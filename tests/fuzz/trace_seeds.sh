#!/usr/bin/env bash
# Writes the seeds of the trace fuzzers (docs/robustness.md, "Fuzzing the
# trace readers") into tests/fuzz/parts/ and tests/fuzz/images/: the parts
# that real MPI jobs, killed, left on this host, with buffers of 8 and 64
# events (small inputs), and the image of each.  Needs MPICH and the staged
# install (make check does it):
#   tests/fuzz/trace_seeds.sh [STAGE]      (default build/stage)
# The seeds are committed: `make fuzz` needs neither MPI nor a stage.
set -eu
cd "$(dirname "$0")/../.."
S=$(realpath "${1:-build/stage}")
export PKG_CONFIG_PATH=$S/lib/pkgconfig
unset MDL_TRACE MDL_TRACE_BUFFER MDL_ERRORS
W=$(mktemp -d)
trap 'parts_under "$W" | xargs -r rm -f; rm -rf "$W"' EXIT
. tests/trace/parts.sh
cc -std=c11 -D_GNU_SOURCE -Iruntime -Icommon -Iinclude tests/shared-node/part_edit.c -o "$W/part_edit"
build() {       # build DIR SPEC MEDLEYC_ARGS PROG.c...
    local d=$W/$1 spec=$2 margs=$3 p
    shift 3
    mkdir -p "$d/gen"
    # shellcheck disable=SC2086
    "$S/bin/medleyc" $margs -o "$d/gen" "$spec"
    for p in "$@"; do
        # shellcheck disable=SC2046
        mpicc -std=c11 -D_GNU_SOURCE -I"$d/gen" "$p" "$d"/gen/*MDL.c \
            $(pkg-config --cflags --libs medley-mpi) -o "$d/$(basename "$p" .c)"
    done
}
# killed NAME BUFFER DIR ARGS...: the job, stopped after 3 s, its parts kept
# as tests/fuzz/parts/NAME.<rank> and their images as tests/fuzz/images/.
killed() {
    local name=$1 buf=$2 d=$3 p r
    shift 3
    (cd "$d" && MDL_ERRORS=return MDL_TRACE_BUFFER=$buf MDL_TRACE=$W/$name.json \
        timeout -s INT -k 5 3 mpiexec "$@" > /dev/null 2>&1 < /dev/null) || true
    sleep 0.5
    for p in $(parts "$W/$name.json"); do
        r=${p##*.}
        cp "$p" "tests/fuzz/parts/$name.$r"
        "$W/part_edit" "$p" image="tests/fuzz/images/$name.$r"
        rm -f "$p"
    done
}
rm -f tests/fuzz/parts/* tests/fuzz/images/*
build slow tests/shared-node/spec.mdl "" tests/shared-node/slow.c
killed waiting 64 "$W/slow" -n 2 ./slow "$W/never"
build mc tests/trace/run/fail/spec.mdl "-D BATCHES=6" tests/trace/run/fail/father.c tests/trace/run/fail/son.c
killed badrank 64 "$W/mc" -n 1 ./father badrank : -n 3 ./son kill
killed dropped 8 "$W/mc" -n 1 ./father badrank : -n 3 ./son kill
ls -l tests/fuzz/parts tests/fuzz/images
