#!/usr/bin/env bash
# tools/find-mpi.sh MPICC MPIEXEC CC KEY — what the MPI behind the compiler
# wrapper MPICC needs, as make variables on stdout (the Makefile includes
# them from <build>/mpi/mpi.mk):
#   MPI_CFLAGS, MPI_LIBS   the wrapper's own compile and link flags, asked as
#                          CMake's FindMPI asks: Open MPI --showme:compile /
#                          --showme:link, MPICH and its kin -compile-info /
#                          -link-info, else -show (the compiler word dropped;
#                          the C compiler stays CC)
#   MPI_FLAVOR, MPI_VERSION  from mpi.h: openmpi (OPEN_MPI), mpich (MPICH_VERSION:
#                          MPICH and its derivatives), else unknown
#   MPI_CC, MPI_CXX, MPI_FC, MPI_EXEC  the wrappers (C, C++, Fortran: empty
#                          when that MPI has none) and the launcher of that MPI, by a
#                          name that stays that MPI's: Debian's alternatives
#                          (/usr/bin/mpicc -> /etc/alternatives/mpi -> mpicc.mpich)
#                          are followed, since installing another MPI switches
#                          them; the launcher is the one beside the wrapper
#                          (mpiexec.mpich for mpicc.mpich) that says it is of
#                          the same MPI, unless MPIEXEC names one
#   MPI_FOUND_KEY          KEY: the Makefile finds again when it changes
# Fails with one line on stderr saying what to do when there is no MPI.
set -u
mpicc=$1 mpiexec=$2 cc=$3 key=$4
die() { echo "medley: $*" >&2; exit 1; }

# follow links through /etc/alternatives only: mpicc.openmpi -> opal_wrapper
# is a name Open MPI's wrapper reads, and must stay
resolve() {
    local p=$1 t
    while [ -L "$p" ]; do
        t=$(readlink "$p")
        [[ $t == /* ]] || t=$(dirname "$p")/$t
        [[ $p == /etc/alternatives/* || $t == /etc/alternatives/* ]] || break
        p=$t
    done
    echo "$p"
}

path=$(command -v "$mpicc") ||
    die "no MPI found: '$mpicc' is not on the PATH; install MPICH or Open MPI (Debian: tools/setup.sh), load its module, or name its compiler wrapper: make MPICC=/path/to/mpicc"
wrapper=$(resolve "$path")
dir=$(dirname "$wrapper") base=$(basename "$wrapper")
suffix=${base#mpicc}
[ "$suffix" = "$base" ] && suffix=

# the wrapper's answers; MPICH's and -show begin with the compiler
if out=$("$wrapper" --showme:compile 2>/dev/null) && link=$("$wrapper" --showme:link 2>/dev/null); then
    read -r -a cwords <<< "$out"
    read -r -a lwords <<< "$link"
elif out=$("$wrapper" -compile-info 2>/dev/null) && link=$("$wrapper" -link-info 2>/dev/null); then
    read -r -a cwords <<< "$out"
    read -r -a lwords <<< "$link"
    cwords=("${cwords[@]:1}") lwords=("${lwords[@]:1}")
elif out=$("$wrapper" -show 2>/dev/null) && [ -n "$out" ]; then
    read -r -a cwords <<< "$out"
    cwords=("${cwords[@]:1}") lwords=("${cwords[@]}")
else
    die "'$wrapper' does not tell its flags (--showme:compile, -compile-info, -show): is it an MPI compiler wrapper? Name another with make MPICC=…"
fi
# compile flags: no linker words; link flags: no preprocessor words
cflags=() libs=()
for ((i = 0; i < ${#cwords[@]}; i++)); do
    w=${cwords[i]}
    case $w in
        -L*|-l*|-Wl,*|*.so|*.a) ;;
        -Xlinker) i=$((i + 1)) ;;
        -isystem|-include|-idirafter) cflags+=("$w" "${cwords[i + 1]:-}"); i=$((i + 1)) ;;
        *) cflags+=("$w") ;;
    esac
done
for ((i = 0; i < ${#lwords[@]}; i++)); do
    w=${lwords[i]}
    case $w in
        -I*|-D*|-U*) ;;
        -isystem|-include|-idirafter) i=$((i + 1)) ;;
        *) libs+=("$w") ;;
    esac
done

probe=$(printf '%s\n' '#include <mpi.h>' \
    '#if defined(OPEN_MPI)' 'medley_mpi openmpi OMPI_MAJOR_VERSION.OMPI_MINOR_VERSION.OMPI_RELEASE_VERSION' \
    '#elif defined(MPICH_VERSION)' 'medley_mpi mpich MPICH_VERSION' \
    '#else' 'medley_mpi unknown MPI_VERSION.MPI_SUBVERSION' '#endif' |
    $cc -E -P "${cflags[@]}" -x c - 2>&1) ||
    die "mpi.h does not compile with the flags of '$wrapper' (${cflags[*]}): $(echo "$probe" | grep -m1 error)"
read -r _ flavor version <<< "$(echo "$probe" | grep -m1 '^medley_mpi ')"
version=$(echo "$version" | tr -d ' "')

# first WORDS...: the first of the candidate programs that exists
first() {
    local c
    for c in "$@"; do
        [ -x "$c" ] && { echo "$c"; return 0; }
    done
    return 1
}
cxx=$(first "$dir/mpicxx$suffix" "$dir/mpic++$suffix" "$dir/mpiCC$suffix") && cxx=$(resolve "$cxx")
fc=$(first "$dir/mpifort$suffix" "$dir/mpif90$suffix") && fc=$(resolve "$fc")

# the launcher: named, or beside the wrapper and of the same MPI
if [ -n "$mpiexec" ]; then
    launcher=$(command -v "$mpiexec") || die "MPIEXEC='$mpiexec' is not on the PATH"
else
    case $flavor in
        openmpi) says='Open ?MPI|OpenRTE' ;;
        mpich) says='HYDRA|MPICH|Intel' ;;
        *) says='' ;;
    esac
    launcher= tried=(mpiexec$suffix mpirun$suffix)
    [ -n "$suffix" ] && tried+=(mpiexec mpirun)
    for c in "${tried[@]}"; do
        [ -x "$dir/$c" ] || continue
        c=$(resolve "$dir/$c")
        if "$c" --version 2>&1 | grep -Eqi -- "${says:-.}"; then launcher=$c; break; fi
    done
    [ -n "$launcher" ] ||
        die "no launcher of $flavor beside '$wrapper' (${tried[*]}): name it with make MPIEXEC=…"
fi

cat <<EOF
# $wrapper: $flavor $version (tools/find-mpi.sh; make finds it again when MPICC or MPIEXEC changes)
MPI_FOUND_KEY := $key
MPI_FLAVOR := $flavor
MPI_VERSION := $version
MPI_CC := $wrapper
MPI_CXX := $cxx
MPI_FC := $fc
MPI_EXEC := $launcher
MPI_CFLAGS := ${cflags[*]}
MPI_LIBS := ${libs[*]}
EOF
echo "medley: the MPI runtime is built with $flavor $version ($wrapper; launcher $launcher)" >&2
