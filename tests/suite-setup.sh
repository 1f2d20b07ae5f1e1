#!/usr/bin/env bash
# tools/setup.sh installs MPICH and Open MPI and leaves the system's default
# MPI as it found it (tools/mpi-alternatives.sh): tested on a private
# alternatives database (update-alternatives --altdir/--admindir), where
# "installing" an MPI registers its alternatives as its Debian package does
# (Open MPI priority 50, MPICH 40).  The machine's own alternatives are
# never touched.
#   PASS: setup/<case>   or   FAIL: setup/<case>: reason
set -u
cd "$(dirname "$0")/.."
if ! command -v update-alternatives > /dev/null; then
    echo "SKIP: setup/alternatives: update-alternatives is not installed (not Debian)"
    exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/medley-setup.XXXXXX")
trap 'rm -rf "$T"' EXIT

update-alternatives() { command update-alternatives --quiet --altdir "$T/alt" --admindir "$T/admin" "$@"; }
. tools/mpi-alternatives.sh

fresh() {
    rm -rf "$T/alt" "$T/admin" "$T/links" && mkdir -p "$T/alt" "$T/admin" "$T/links" "$T/bin"
}
# install FLAVOUR PRIORITY: its three alternatives
install() {
    local f
    for f in mpicc.$1 mpirun.$1 mpi.h.$1; do touch "$T/bin/$f"; done
    update-alternatives --install "$T/links/mpicc" mpi "$T/bin/mpicc.$1" "$2"
    update-alternatives --install "$T/links/mpirun" mpirun "$T/bin/mpirun.$1" "$2"
    update-alternatives --install "$T/links/mpi.h" mpi-x86_64-linux-gnu "$T/bin/mpi.h.$1" "$2"
}
# values: the three alternatives' flavours, as "mpi mpirun mpi-<triplet>"
values() {
    local n
    for n in mpi mpirun mpi-x86_64-linux-gnu; do
        update-alternatives --query "$n" | sed -n 's/^Value: .*\.//p'
    done | tr '\n' ' ' | sed 's/ $//'
}
check() {    # check CASE WANT
    local got
    got=$(values)
    if [ "$got" = "$2" ]; then echo "PASS: setup/$1"; else echo "FAIL: setup/$1: '$got', want '$2'"; fi
}

# MPICH alone, then Open MPI installed beside it: MPICH stays the default
fresh
install mpich 40
saved=$(mpi_alternatives)
install openmpi 50
if [ "$(values)" != "openmpi openmpi openmpi" ]; then
    echo "FAIL: setup/mpich-stays: the test's premise: installing Open MPI did not switch: $(values)"
else
    restore_mpi_alternatives <<< "$saved" > "$T/out" 2>&1
    check mpich-stays "mpich mpich mpich"
fi
# nothing to do: nothing set
restore_mpi_alternatives <<< "$saved" > "$T/out" 2>&1
if [ -s "$T/out" ]; then echo "FAIL: setup/unchanged: $(tr '\n' ' ' < "$T/out")"; else check unchanged "mpich mpich mpich"; fi

# a default chosen by hand, even mixed, stays when MPICH is installed again
update-alternatives --set mpi "$T/bin/mpicc.openmpi"
saved=$(mpi_alternatives)
update-alternatives --auto mpi
update-alternatives --set mpirun "$T/bin/mpirun.openmpi"
restore_mpi_alternatives <<< "$saved" > "$T/out" 2>&1
check by-hand "openmpi mpich mpich"

# no MPI before: both installed, Debian's choice stands (Open MPI)
fresh
saved=$(mpi_alternatives)
install mpich 40
install openmpi 50
restore_mpi_alternatives <<< "$saved" > "$T/out" 2>&1
check none-before "openmpi openmpi openmpi"

# MPI=<name> (make demo MPI=openmpi): that MPI's packages only, on a machine
# with nothing (a PATH of bash and pkg-config, and pkg-config finding no .pc)
mkdir -p "$T/bare" "$T/nopc"
ln -sf "$(command -v bash)" "$T/bare/bash"
ln -sf "$(command -v pkg-config)" "$T/bare/pkg-config"
listed() { env -i PATH="$T/bare" PKG_CONFIG_LIBDIR="$T/nopc" "$@" bash tools/setup.sh --list 2>&1; }
want_list() {    # want_list CASE WANT ENV…
    local case=$1 want=$2 got
    shift 2
    got=$(listed "$@")
    if [ "$got" = "$want" ]; then echo "PASS: setup/$case"; else echo "FAIL: setup/$case: '$got', want '$want'"; fi
}
rest="libcunit1-dev gcc g++ cmake make libxml2-utils spin iproute2 util-linux"
want_list list-both "flex bison mpich libmpich-dev openmpi-bin libopenmpi-dev $rest"
want_list list-openmpi "flex bison openmpi-bin libopenmpi-dev $rest" MPI=openmpi
want_list list-mpich "flex bison mpich libmpich-dev $rest" MPI=mpich
want_list list-unknown "tools/setup.sh: MPI=lam: want mpich or openmpi (or neither: both)" MPI=lam
exit 0
