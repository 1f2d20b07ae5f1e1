#!/usr/bin/env bash
# Run-time errors read the same on both runtimes: the programs of
# tests/errors/ make every misuse of the generated API (and of MDL_Init's
# descriptor) on the MPI runtime and on the shared-memory runtime, and the
# lines each runtime prints are compared byte for byte with
# tests/errors/expected/<run> (so with each other).  The C++ class
# binding's misuses (wcxx.cc) must print lines of the C program's run; the
# Fortran module's fatal ones (wf.f90: without ierr, under either policy)
# the C program's lines of those runs (expected/fatal-*), and its misuses
# with ierr (wf.f90 all and gf.f90, run as w.c all and g.c are: the codes
# of their calls) lines the C program printed too (expected/f90-all); r.c
# makes the misuses of run-time-sized variables (rtsize.mdl), rf.f90 the
# same through the Fortran module (expected/rtsize-f90, each line one r.c
# prints).  Also: the libraries'
# sonames carry the interface version (errors/soname, errors/needed).
#   PASS: errors/<run>/<rt>   or   FAIL: errors/<run>/<rt>: reason
# A runtime line ends with "(MDL_ERR_…)"; launcher lines (mpiexec's,
# mdlrun's) are left out, and lines are grouped by their "task[inst]"
# prefix (instances print concurrently), keeping each instance's order;
# lines of no instance (before MDL_Init) are sorted by their text.
# Every MPI of tests/lib/mpi.sh is a runtime of its own (mpi-mpich,
# mpi-openmpi …), compared with the same expected lines.
# UPDATE=1 rewrites the expected files from the first MPI's run (review with git diff);
# KEEP=1 keeps the work directory.
set -u
cd "$(dirname "$0")/.."
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
. tests/lib/mpi.sh
CC=${CC:-cc}
CFLAGS_E=(-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g)
CXXFLAGS_E=(-std=c++17 -Wall -Wextra -Werror -pedantic -g)
FFLAGS_E=(-std=f2018 -Wall -Wextra -Werror -pedantic -g)
if [ "${SANITIZE:-}" = 1 ]; then
    CFLAGS_E+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
    CXXFLAGS_E+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
    FFLAGS_E+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
fi
SRC=tests/errors
work=$(mktemp -d "${TMPDIR:-/tmp}/medley-errors.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

runtime_lines() {    # stderr -> the runtime's lines, grouped by instance
    grep -E '\(MDL_ERR_[A-Z]+\)$' "$1" |
        awk '{ p = substr($0, 1, index($0, ": ")); print p "\t" (index(p, "[") ? NR : 0) "\t" $0 }' |
        sort -t "$(printf '\t')" -k1,1 -k2,2n -k3 -s | cut -f3-
}

# check RUN RT RC WANT_RC STDOUT-PATTERN COUNT [EXPECTED]: compares the lines
# of one run (WANT_RC: 0, nonzero or any; the pattern must be printed COUNT
# times) with expected/RUN, or expected/EXPECTED: another run's lines
check() {
    local run=$1 rt=$2 rc=$3 want=$4 pat=$5 count=$6 d=$work/$rt
    local got=$d/$run.lines expected=$SRC/expected/${7:-$run}
    runtime_lines "$d/$run.err" > "$got"
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "FAIL: errors/$run/$rt: timed out: $(tail -c 300 "$d/$run.err" | tr '\n' ' ')"
    elif [ "$want" = 0 ] && [ "$rc" -ne 0 ]; then
        echo "FAIL: errors/$run/$rt: exit $rc: $(tail -c 300 "$d/$run.out" "$d/$run.err" | tr '\n' ' ')"
    elif [ "$want" = nonzero ] && [ "$rc" -eq 0 ]; then
        echo "FAIL: errors/$run/$rt: exit status 0, expected nonzero"
    elif [ -n "$pat" ] && [ "$(grep -c -- "$pat" "$d/$run.out")" -ne "$count" ]; then
        echo "FAIL: errors/$run/$rt: '$pat' not printed $count times: $(head -c 300 "$d/$run.out" | tr '\n' ' ')"
    elif [ -n "${UPDATE:-}" ] && [ "$rt" = "${MPI_RTS[0]}" ] && [ -z "${7:-}" ]; then
        mkdir -p "$SRC/expected" && cp "$got" "$expected"
        echo "PASS: errors/$run/$rt"
    elif ! [ -f "$expected" ]; then
        echo "FAIL: errors/$run/$rt: no $expected (UPDATE=1 creates it)"
    elif ! diff -u "$expected" "$got" > "$d/$run.diff"; then
        echo "FAIL: errors/$run/$rt: lines differ from $expected: $(head -c 600 "$d/$run.diff" | tr '\n' ' ')"
    else
        echo "PASS: errors/$run/$rt"
    fi
}

# as_c RUN RT WHAT [C-RUN]: each runtime line of run RUN (of another
# binding than C's: WHAT) is a line the C program printed in its run
# C-RUN (default `all`)
as_c() {
    local run=$1 rt=$2 what=$3 d=$work/$2 foreign
    if [ -s "$d/$run.lines" ] && foreign=$(grep -vxFf "$d/${4:-all}.lines" "$d/$run.lines"); then
        echo "FAIL: errors/$run-as-c/$rt: lines the C program does not print: $(echo "$foreign" | head -c 400 | tr '\n' ' ')"
    elif [ -s "$d/$run.lines" ]; then
        echo "PASS: errors/$run-as-c/$rt"
    else
        echo "FAIL: errors/$run-as-c/$rt: the $what program printed no runtime line"
    fi
}

# The libraries' sonames carry the interface version, so a program built
# against one interface never loads a library of another (the descriptor
# check above is for static links); the usual links are installed.
abi=$(sed -n 's/^#define MDL_ABI_VERSION *\([0-9][0-9]*\).*/\1/p' "$MEDLEY_STAGE/include/mdl_rt.h")
for rt in "${MPI_RTS[@]}" shm; do
    rt_use "$rt" || { echo "FAIL: errors/soname/$rt: $RT_WHY"; continue; }
    lib=$RT_STAGE/lib/libmdl_$RT_LIB.so
    soname=$(readelf -d "$lib.$abi.0.0" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
    if [ -z "$abi" ]; then
        echo "FAIL: errors/soname/$rt: no MDL_ABI_VERSION in the installed mdl_rt.h"
    elif [ "$soname" != "libmdl_$RT_LIB.so.$abi" ]; then
        echo "FAIL: errors/soname/$rt: soname of $lib.$abi.0.0 is '$soname', expected libmdl_$RT_LIB.so.$abi"
    elif [ "$(readlink "$lib")" != "libmdl_$RT_LIB.so.$abi" ] || [ "$(readlink "$lib.$abi")" != "libmdl_$RT_LIB.so.$abi.0.0" ]; then
        echo "FAIL: errors/soname/$rt: links $lib -> $(readlink "$lib"), $lib.$abi -> $(readlink "$lib.$abi")"
    else
        echo "PASS: errors/soname/$rt"
    fi
done

for rt in "${MPI_RTS[@]}" shm; do
    d=$work/$rt
    mkdir -p "$d/gen" "$d/old"
    rt_use "$rt" || { echo "FAIL: errors/build/$rt: $RT_WHY"; continue; }
    launch=("${RT_LAUNCH[@]}")
    # shellcheck disable=SC2046
    flags=($(pkg-config --cflags --libs "medley-$RT_LIB"))
    if ! "$RT_STAGE/bin/medleyc" -o "$d/gen" "$SRC/spec.mdl" > "$d/build.log" 2>&1 ||
       ! "$CC" "${CFLAGS_E[@]}" -I"$d/gen" "$SRC/w.c" "$d/gen/wMDL.c" "${flags[@]}" -o "$d/w" >> "$d/build.log" 2>&1 ||
       ! "$CC" "${CFLAGS_E[@]}" -I"$d/gen" "$SRC/g.c" "$d/gen/gMDL.c" "${flags[@]}" -o "$d/g" >> "$d/build.log" 2>&1 ||
       ! "$CC" "${CFLAGS_E[@]}" "$SRC/abi.c" "${flags[@]}" -o "$d/abi" >> "$d/build.log" 2>&1 ||
       ! "$RT_STAGE/bin/medleyc" -o "$d/gen" "$SRC/rtsize.mdl" >> "$d/build.log" 2>&1 ||
       ! "$CC" "${CFLAGS_E[@]}" -I"$d/gen" "$SRC/r.c" "$d/gen/rMDL.c" "${flags[@]}" -o "$d/r" >> "$d/build.log" 2>&1; then
        echo "FAIL: errors/build/$rt: $(head -c 400 "$d/build.log" | tr '\n' ' ')"
        continue
    fi
    # the C++ class binding: wMDL.c compiled as C++ on the same command line
    if ! "$RT_CXX" "${CXXFLAGS_E[@]}" -I"$d/gen" "$SRC/wcxx.cc" "$d/gen/wMDL.c" "${flags[@]}" \
            -o "$d/wcxx" > "$d/build-cxx.log" 2>&1; then
        echo "FAIL: errors/build-cxx/$rt: $(head -c 400 "$d/build-cxx.log" | tr '\n' ' ')"
        continue
    fi
    # the Fortran module (medleyc --fortran): the runtime's Fortran compiler
    # (RT_FC: the MPI's mpifort, or gfortran) compiles the modules and the
    # program and links, the C compiler compiles wMDL.c
    mkdir -p "$d/f"
    wf=$PWD/$SRC/wf.f90 gf=$PWD/$SRC/gf.f90
    fc=${RT_FC:-"no Fortran wrapper of $MPI_NAME"}
    # shellcheck disable=SC2046
    if ! "$RT_STAGE/bin/medleyc" --fortran -o "$d/f" "$SRC/spec.mdl" > "$d/build-f.log" 2>&1 ||
       ! (cd "$d/f" && "$fc" "${FFLAGS_E[@]}" -c specMDL_common.f90 wMDL.f90 "$wf" gMDL.f90 "$gf" &&
          "$CC" "${CFLAGS_E[@]}" -I. -c wMDL.c -o wMDL.c.o $(pkg-config --cflags "medley-$RT_LIB") &&
          "$CC" "${CFLAGS_E[@]}" -I. -c gMDL.c -o gMDL.c.o $(pkg-config --cflags "medley-$RT_LIB") &&
          "$fc" "${FFLAGS_E[@]}" wf.o specMDL_common.o wMDL.o wMDL.c.o $(pkg-config --libs "medley-$RT_LIB") -o ../wf &&
          "$fc" "${FFLAGS_E[@]}" gf.o specMDL_common.o gMDL.o gMDL.c.o $(pkg-config --libs "medley-$RT_LIB") -o ../gf) \
            >> "$d/build-f.log" 2>&1; then
        echo "FAIL: errors/build-fortran/$rt: $(head -c 400 "$d/build-f.log" | tr '\n' ' ')"
        continue
    fi
    # the misuses of run-time-sized variables through the Fortran module
    mkdir -p "$d/rfgen"
    rf=$PWD/$SRC/rf.f90
    # shellcheck disable=SC2046
    if ! "$RT_STAGE/bin/medleyc" --fortran -o "$d/rfgen" "$SRC/rtsize.mdl" > "$d/build-rf.log" 2>&1 ||
       ! (cd "$d/rfgen" && "$fc" "${FFLAGS_E[@]}" -c rtsizeMDL_common.f90 rMDL.f90 "$rf" &&
          "$CC" "${CFLAGS_E[@]}" -I. -c rMDL.c -o rMDL.c.o $(pkg-config --cflags "medley-$RT_LIB") &&
          "$fc" "${FFLAGS_E[@]}" rf.o rtsizeMDL_common.o rMDL.o rMDL.c.o $(pkg-config --libs "medley-$RT_LIB") -o ../rf) \
            >> "$d/build-rf.log" 2>&1; then
        echo "FAIL: errors/build-fortran-rtsize/$rt: $(head -c 400 "$d/build-rf.log" | tr '\n' ' ')"
        continue
    fi
    # a Fortran type laid out otherwise than the C struct (a longer V, so
    # the members after it move): MDL_Init's layout check names the first
    # shellcheck disable=SC2046
    if ! (cd "$d/f" && sed 's/:: V(0:7)$/:: V(0:8)/' specMDL_common.f90 > moved.f90 &&
          ! cmp -s specMDL_common.f90 moved.f90 &&
          "$fc" "${FFLAGS_E[@]}" -c moved.f90 -o moved.o && "$fc" "${FFLAGS_E[@]}" -c wMDL.f90 "$wf" &&
          "$fc" "${FFLAGS_E[@]}" wf.o moved.o wMDL.o wMDL.c.o $(pkg-config --libs "medley-$RT_LIB") -o ../wf-moved) \
            >> "$d/build-f.log" 2>&1; then
        echo "FAIL: errors/build-fortran-moved/$rt: $(tail -c 400 "$d/build-f.log" | tr '\n' ' ')"
        continue
    fi
    # the same program from generated code of a medleyc that wrote no
    # interface version: its compile-time check removed, and the field 0,
    # as a table without it compiled against this mdl_rt.h has it
    mkdir -p "$d/oldgen"
    cp "$d/gen"/*.h "$d/oldgen/"
    sed -e '/^#if !defined(MDL_ABI)/,/^#endif/d' \
        -e '/\/\* abi, spec, spec_hash \*\//{n;s/^\( *\)0x[0-9a-f]*ULL,/\10,/;}' \
        "$d/gen/wMDL.c" > "$d/oldgen/wMDL.c"
    if grep -q '0x4d444c41424900' "$d/oldgen/wMDL.c"; then
        echo "FAIL: errors/build-old/$rt: the interface version was not removed from wMDL.c"
        continue
    fi
    if ! "$CC" "${CFLAGS_E[@]}" -I"$d/oldgen" "$SRC/w.c" "$d/oldgen/wMDL.c" "${flags[@]}" -o "$d/old/w" >> "$d/build.log" 2>&1; then
        echo "FAIL: errors/build-old/$rt: $(tail -c 400 "$d/build.log" | tr '\n' ' ')"
        continue
    fi

    go() {    # go RUN POLICY launcher-args…
        local run=$1 policy=$2
        shift 2
        (cd "$d" && if [ -n "$policy" ]; then export MDL_ERRORS=$policy; fi &&
            exec timeout -k 5 60 "${launch[@]}" "$@") > "$d/$run.out" 2> "$d/$run.err" < /dev/null
        rc=$?
    }
    if readelf -d "$d/w" | grep -q "NEEDED.*\[libmdl_$RT_LIB.so.$abi\]"; then
        echo "PASS: errors/needed/$rt"
    else
        echo "FAIL: errors/needed/$rt: a program linked with pkg-config does not need libmdl_$RT_LIB.so.$abi"
    fi
    go all return,print -n 2 ./w all : -n 2 ./g
    check all "$rt" $rc 0 ': OK$' 4
    # returned without a word (as MPI_ERRORS_RETURN), the codes the same
    go silent return -n 2 ./w all : -n 2 ./g
    if grep -q 'MDL_' "$d/silent.err"; then
        echo "FAIL: errors/silent/$rt: MDL_ERRORS=return printed: $(grep 'MDL_' "$d/silent.err" | head -c 300 | tr '\n' ' ')"
    else
        check silent "$rt" $rc 0 ': OK$' 4
    fi
    # the class binding's misuses read as the C API's: its lines are
    # expected/cxx, and each is a line the C program printed in run `all`
    go cxx return,print -n 2 ./wcxx
    check cxx "$rt" $rc 0 ': OK$' 2
    as_c cxx "$rt" C++
    # the Fortran modules' misuses, each with ierr: the C call's code, and
    # its lines (expected/f90-all) the C program's; the same job as `all`
    go f90-all return,print -n 2 ./wf all : -n 2 ./gf
    check f90-all "$rt" $rc 0 ': OK$' 4
    as_c f90-all "$rt" Fortran
    # run-time-sized variables: before MDL_Allocate, bad sizes, a size
    # changed without MDL_Allocate, storage still in an async receive
    go rtsize return,print -n 2 ./r
    check rtsize "$rt" $rc 0 ': OK$' 2
    # the same through the Fortran module, with ierr: r.c's lines
    go rtsize-f90 return,print -n 2 ./rf
    check rtsize-f90 "$rt" $rc 0 ': OK$' 2
    as_c rtsize-f90 "$rt" Fortran rtsize
    go fatal-rank "" -n 2 ./w fatal-rank
    check fatal-rank "$rt" $rc nonzero '' 0
    go fatal-truncate "" -n 2 ./w fatal-truncate
    check fatal-truncate "$rt" $rc nonzero '' 0
    go fatal-rank-f90 "" -n 2 ./wf fatal-rank
    check fatal-rank-f90 "$rt" $rc nonzero '' 0 fatal-rank
    go fatal-truncate-f90 "" -n 2 ./wf fatal-truncate
    check fatal-truncate-f90 "$rt" $rc nonzero '' 0 fatal-truncate
    # errors returned: with ierr the code and no line, without it the end
    # of the job with the line C prints
    go unchecked-f90 return -n 2 ./wf unchecked
    check unchecked-f90 "$rt" $rc nonzero '^wf 0: ierr -102$' 1 fatal-rank
    go layout-f90 "" -n 1 ./wf-moved fatal-rank
    check layout-f90 "$rt" $rc nonzero '' 0
    # (mdlrun counts an instance without MDL_Init as failed: any status)
    go abi-newer return,print -n 1 ./abi newer
    check abi-newer "$rt" $rc any '^abi newer: -107$' 1
    go abi-old return,print -n 1 ./abi old
    check abi-old "$rt" $rc any '^abi old: -107$' 1
    go abi-oldgen "" -n 1 ./old/w fatal-rank
    check abi-oldgen "$rt" $rc nonzero '' 0
done
exit 0
