# tests/lib/mpi.sh — the MPIs the tests run on, and how to build and launch
# on each: the one place that knows them.  Sourced by the suites (and by
# bench/run.sh) from the top of the tree; reads
#   MEDLEY_STAGE   the staged install of the build (its medley-mpi.pc names its
#                  MPI; default build/stage)
#   MEDLEY_BUILD   the build tree, where make check stages every other MPI:
#                  $MEDLEY_BUILD/stage-<name> (the compiler and libmdl_shm
#                  in it are the same as in MEDLEY_STAGE)
#   MEDLEY_MPIS    the MPIs to test, e.g. "mpich openmpi" (make check: every
#                  MPI installed, or MPI=<name>); default: the stage's
# A runtime, in test names too, is `shm` or `mpi-<name>` (mpi-mpich,
# mpi-openmpi).  Everything about an MPI is read from its staged
# medley-mpi.pc (mpi_flavor, mpicc, mpicxx, mpiexec), so the tests name that
# MPI's own wrappers and launcher, never the system's mpicc or mpiexec.
#
#   MPI_RTS            array: the MPI runtimes to test (mpi-mpich mpi-openmpi)
#   rt_use RT          selects runtime RT for what follows, or returns 1 with
#                      RT_WHY (an MPI that was asked for but is not installed
#                      is a failure, never a skip); sets
#     RT_LIB           mpi or shm: the library (medley-$RT_LIB.pc, libmdl_$RT_LIB)
#     RT_STAGE         the staged install to build with; PKG_CONFIG_PATH is
#                      exported to find its .pc files first
#     RT_LAUNCH        array: the launcher and the options every job needs
#                      (Open MPI: as root OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM)=1,
#                      and --oversubscribe: more processes than cores)
#     RT_CXX           the C++ compiler a user of RT builds with (MPI: its mpicxx)
#     RT_FC            the Fortran compiler a user of RT builds with (MPI: its
#                      mpifort, empty when that MPI has none; shm: gfortran)
#     MPI_NAME         (MPI) mpich, openmpi, …;  MPI_CC its mpicc
#     MPI_VG           array: (MPI) valgrind's --suppressions for its own leaks
#     MPI_NET          array: (MPI) VAR=value settings under which the MPI moves
#                      messages as between hosts (the mpi-net runs): MPICH
#                      treats every process as a node of its own, Open MPI
#                      uses its TCP transport only
#     MPI_SHARING      array: (MPI) VAR=value settings for a job that shares
#                      the cores with other jobs of its suite (exported by
#                      the suites of tests/README.md's rule): Open MPI
#                      yields when idle (what it does by itself only when
#                      it counts more processes than cores; its waits
#                      otherwise spin through their time slice while the
#                      process they wait for is off the CPU); MPICH has
#                      no such setting
#                    and, under SANITIZE=1, exports LSAN_OPTIONS with that MPI's
#                    LeakSanitizer suppressions (unless the caller set its own).
# A variable for every program of an MPMD line (-n 1 ./a : -n 2 ./b) is set
# in the launcher's environment: both launchers pass theirs on to the
# processes of the host (Open MPI's -x VAR=value would apply to its own
# program only).

: "${MEDLEY_STAGE:=$PWD/build/stage}"
MEDLEY_PKG_CONFIG_PATH=${MEDLEY_PKG_CONFIG_PATH-${PKG_CONFIG_PATH:-}}
MEDLEY_ASAN_OPTIONS=${MEDLEY_ASAN_OPTIONS-${ASAN_OPTIONS:-}}
MEDLEY_LSAN_OPTIONS=${MEDLEY_LSAN_OPTIONS-${LSAN_OPTIONS:-}}

# mpi_stage NAME: the staged install of MPI NAME, or nothing
mpi_stage() {
    local s
    for s in "$MEDLEY_STAGE" "${MEDLEY_BUILD:-/nonexistent}/stage-$1"; do
        [ "$(PKG_CONFIG_PATH=$s/lib/pkgconfig pkg-config --variable=mpi_flavor medley-mpi 2> /dev/null)" = "$1" ] &&
            { echo "$s"; return 0; }
    done
    return 1
}

MPI_RTS=()
for _m in ${MEDLEY_MPIS:-$(PKG_CONFIG_PATH=$MEDLEY_STAGE/lib/pkgconfig pkg-config --variable=mpi_flavor medley-mpi 2> /dev/null || echo none)}; do
    MPI_RTS+=("mpi-$_m")
done
unset _m

rt_use() {
    local rt=$1 var
    RT_WHY= RT_LIB=${rt%%-*} MPI_NAME= MPI_CC= MPI_VG=() MPI_NET=() MPI_SHARING=()
    if [ "$rt" = shm ]; then
        RT_STAGE=$MEDLEY_STAGE RT_LAUNCH=("$MEDLEY_STAGE/bin/mdlrun") RT_CXX=g++ RT_FC=gfortran
        export PKG_CONFIG_PATH=$RT_STAGE/lib/pkgconfig${MEDLEY_PKG_CONFIG_PATH:+:$MEDLEY_PKG_CONFIG_PATH}
        export ASAN_OPTIONS=$MEDLEY_ASAN_OPTIONS LSAN_OPTIONS=$MEDLEY_LSAN_OPTIONS
        [ -x "${RT_LAUNCH[0]}" ] || { RT_WHY="mdlrun not installed (${RT_LAUNCH[0]})"; return 1; }
        return 0
    fi
    MPI_NAME=${rt#mpi-}
    [ "$RT_LIB" = mpi ] && [ "$MPI_NAME" != "$rt" ] || { RT_WHY="unknown runtime '$rt'"; return 1; }
    RT_STAGE=$(mpi_stage "$MPI_NAME") ||
        { RT_WHY="MPI '$MPI_NAME' is not installed (no staged medley-mpi.pc for it: make check stages every MPI whose mpicc.$MPI_NAME is on the PATH)"; return 1; }
    export PKG_CONFIG_PATH=$RT_STAGE/lib/pkgconfig${MEDLEY_PKG_CONFIG_PATH:+:$MEDLEY_PKG_CONFIG_PATH}
    MPI_CC=$(pkg-config --variable=mpicc medley-mpi)
    RT_CXX=$(pkg-config --variable=mpicxx medley-mpi)
    RT_FC=$(pkg-config --variable=mpifort medley-mpi)
    RT_LAUNCH=("$(pkg-config --variable=mpiexec medley-mpi)")
    for var in MPI_CC RT_CXX; do
        [ -x "${!var}" ] || { RT_WHY="$MPI_NAME: $var '${!var}' of medley-mpi.pc is not a program"; return 1; }
    done
    [ -x "${RT_LAUNCH[0]}" ] || { RT_WHY="$MPI_NAME: launcher '${RT_LAUNCH[0]}' of medley-mpi.pc is not a program"; return 1; }
    local lsan=
    case $MPI_NAME in
        openmpi)
            [ "$(id -u)" = 0 ] && RT_LAUNCH=(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${RT_LAUNCH[@]}")
            RT_LAUNCH+=(--oversubscribe)
            MPI_NET=(OMPI_MCA_btl=self,tcp)
            MPI_SHARING=(OMPI_MCA_mpi_yield_when_idle=1) ;;
        mpich)
            MPI_NET=(MPIR_CVAR_NOLOCAL=1) ;;
    esac
    [ -f "tests/rt/$MPI_NAME.supp" ] && MPI_VG=("--suppressions=$PWD/tests/rt/$MPI_NAME.supp")
    [ -f "tests/rt/lsan-$MPI_NAME.supp" ] && lsan=suppressions=$PWD/tests/rt/lsan-$MPI_NAME.supp:print_suppressions=0
    # MPI's libraries lack frame pointers: suppressing by library needs
    # the slow unwinder's full stacks
    export ASAN_OPTIONS=${MEDLEY_ASAN_OPTIONS:-fast_unwind_on_malloc=0}
    export LSAN_OPTIONS=${MEDLEY_LSAN_OPTIONS:-$lsan}
    return 0
}
