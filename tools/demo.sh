#!/usr/bin/env bash
# The first run: compile examples/montecarlo for the shared-memory runtime
# with the freshly built tree and run it with four sons.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stage=$top/build/stage
make -C "$top" --no-print-directory install PREFIX="$stage" >/dev/null
work=$top/build/demo
rm -rf "$work" && mkdir -p "$work"
cd "$top/examples/montecarlo"
export PKG_CONFIG_PATH=$stage/lib/pkgconfig
"$stage/bin/medleyc" -o "$work" montecarlo.mdl
flags=$(pkg-config --cflags --libs medley-shm)
cc -std=c11 -O2 -I"$work" father.c "$work/fatherMDL.c" $flags -lm -o "$work/father"
cc -std=c11 -O2 -I"$work" son.c "$work/sonMDL.c" $flags -o "$work/son"
echo "mdlrun -n 1 father : -n 4 son"
"$stage/bin/mdlrun" -n 1 "$work/father" 200000 : -n 4 "$work/son"
