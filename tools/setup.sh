#!/usr/bin/env bash
# Installs the Debian packages medley needs, when they are missing.
# As root it runs apt-get; otherwise it prints the exact command and stops.
# Both MPIs are installed (make check tests the MPI runtime on each), or
# only the one MPI=mpich|openmpi names (make demo MPI=openmpi: a machine
# that is to have no MPICH); the system's default MPI (what plain mpicc and
# mpiexec are) stays as it was.
#   tools/setup.sh [--list] [fuzz]   --list: print the missing packages, install nothing
set -eu
list=0
[ "${1:-}" = --list ] && { list=1; shift; }
case ${MPI:-both} in
    both) mpis="mpich openmpi" ;;
    mpich|openmpi) mpis=$MPI ;;
    *) echo "tools/setup.sh: MPI=$MPI: want mpich or openmpi (or neither: both)" >&2; exit 2 ;;
esac
need=()
command -v flex >/dev/null || need+=(flex)
command -v bison >/dev/null || need+=(bison)
for mpi in $mpis; do
    case $mpi in
        mpich)
            command -v mpicc.mpich >/dev/null || need+=(mpich)
            pkg-config --exists mpich 2>/dev/null || need+=(libmpich-dev) ;;
        openmpi)
            command -v mpicc.openmpi >/dev/null || need+=(openmpi-bin)
            pkg-config --exists ompi-c 2>/dev/null || need+=(libopenmpi-dev) ;;
    esac
done
pkg-config --exists cunit 2>/dev/null || need+=(libcunit1-dev)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v cc >/dev/null || need+=(gcc)
# the C++ binding's tests (g++; the MPIs' mpicxx) and the CMake package's
command -v g++ >/dev/null || need+=(g++)
command -v cmake >/dev/null || need+=(cmake)
command -v make >/dev/null || need+=(make)
command -v xmllint >/dev/null || need+=(libxml2-utils)   # trace tests: SVG validity
command -v spin >/dev/null || need+=(spin)      # make model (part of make check)
command -v ip >/dev/null || need+=(iproute2)     # the hosts suite: test hosts joined by veth pairs
command -v unshare >/dev/null || need+=(util-linux)   # ... each in namespaces of its own
# `tools/setup.sh fuzz`: also what `make fuzz` needs (clang and its
# libFuzzer runtime); `make check` does not need them.
if [ "${1:-}" = fuzz ]; then
    command -v clang >/dev/null || need+=(clang)
    ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
        need+=(libclang-rt-14-dev)
fi
[ "$list" = 1 ] && { echo "${need[*]}"; exit 0; }
[ ${#need[@]} -eq 0 ] && exit 0
cmd="apt-get install -y ${need[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "medley needs: ${need[*]}. Run as root:"
    echo "  apt-get update && $cmd"
    exit 1
fi

# the system's default MPI stays as it was (none yet: Debian's choice stands)
. "$(dirname "$0")/mpi-alternatives.sh"
export DEBIAN_FRONTEND=noninteractive
saved=$(mpi_alternatives)
apt-get update -qq
$cmd
restore_mpi_alternatives <<< "$saved"
