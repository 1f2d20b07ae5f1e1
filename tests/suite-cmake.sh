#!/usr/bin/env bash
# The CMake package (lib/cmake/medley, docs/tutorial.md "CMake"), used as a
# user would, against the staged install (each MPI of tests/lib/mpi.sh:
# its own staged install, runtime mpi-<name>):
#   cmake/<rt>/build, cmake/<rt>/run   examples/montecarlo (C++, its
#       CMakeLists.txt) configured with -DMEDLEY_RUNTIME=<shm|mpi>, built with
#       -Wall -Wextra -Werror -pedantic, run with mdlrun / that MPI's launcher;
#   cmake/<rt>/mpi     MEDLEY_MPI_FLAVOR and MEDLEY_MPIEXEC name that MPI;
#   cmake/spec-change   the spec edited (BATCHES 10 -> 4): the build runs
#       medleyc again and the program sees the new constant;
#   cmake/c-project     a C project (TMDL.c compiled as C) with TASKS and DEFINES;
#   cmake/no-task       medley_generate on a task the spec lacks: configure fails, saying so;
#   cmake/fortran       a Fortran project (LANGUAGE Fortran): examples/poisson's noeud.f90
#       twice (two targets of one spec: their modules apart), run with mdlrun;
#   cmake/version       find_package(medley 0.1) is found, 0.2 and 1.0 are not;
#   cmake/tutorial/<rt> docs/tutorial.md section 8: its C++ master and C worker,
#       built with its CMakeLists.txt, run as the page shows.
# Needs MEDLEY_STAGE (make check sets it) and cmake (tools/setup.sh installs it).
set -u
cd "$(dirname "$0")/.."
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
work=$(mktemp -d "${TMPDIR:-/tmp}/medley-cmake.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! command -v cmake > /dev/null; then
    echo "FAIL: cmake: cmake is not installed (tools/setup.sh)"
    exit 0
fi
FLAGS="-Wall -Wextra -Werror -pedantic"
LDFLAGS_SAN=""
if [ "${SANITIZE:-}" = 1 ]; then
    FLAGS="$FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer"
    LDFLAGS_SAN="-fsanitize=address,undefined"
fi
. tests/lib/mpi.sh
tail_of() { tail -c 400 "$1" | tr '\n' ' '; }

# configure <src> <build> [cmake args…]: 0 or 1, log in <build>.log; the
# package of the runtime last selected with rt_use
rt_use shm
configure() {
    local src=$1 b=$2
    shift 2
    cmake -S "$src" -B "$b" -DCMAKE_PREFIX_PATH="$RT_STAGE" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_CXX_FLAGS="$FLAGS" \
        -DCMAKE_EXE_LINKER_FLAGS="$LDFLAGS_SAN" "$@" > "$b.log" 2>&1
}

# run <rt> <log> <launcher args…>
run() {
    local rt=$1 log=$2
    shift 2
    rt_use "$rt" || { echo "$RT_WHY" > "$log"; return 1; }
    (cd "$work" && exec timeout -k 5 120 "${RT_LAUNCH[@]}" "$@") > "$log" 2>&1 < /dev/null
}

for rt in shm "${MPI_RTS[@]}"; do
    src=$work/src-$rt b=$work/build-$rt
    rt_use "$rt" || { echo "FAIL: cmake/$rt/build: $RT_WHY"; continue; }
    cp -r examples/montecarlo "$src"
    if ! configure "$src" "$b" -DMEDLEY_RUNTIME=$RT_LIB || ! cmake --build "$b" >> "$b.log" 2>&1; then
        echo "FAIL: cmake/$rt/build: $(tail_of "$b.log")"
        continue
    fi
    echo "PASS: cmake/$rt/build"
    sons=3
    [ "$RT_LIB" = mpi ] && sons=2
    if run $rt "$b.run" -n 1 "$b/father" 20000 : -n $sons "$b/son" &&
            grep -Eq '^pi = 3\.1[3-5]' "$b.run" && grep -q "of $((sons * 10)) batches" "$b.run"; then
        echo "PASS: cmake/$rt/run"
        grep -E '^pi =' "$b.run" | sed 's/^/    | /'
    else
        echo "FAIL: cmake/$rt/run: $(tail_of "$b.run")"
    fi
done

# The package names the MPI of its libmdl_mpi, and its launcher.
for rt in "${MPI_RTS[@]}"; do
    rt_use "$rt" || { echo "FAIL: cmake/$rt/mpi: $RT_WHY"; continue; }
    src=$work/src-vars-$rt b=$work/build-vars-$rt
    mkdir -p "$src"
    printf '%s\n' 'cmake_minimum_required(VERSION 3.13)' 'project(vars NONE)' 'find_package(medley REQUIRED)' \
        'message(STATUS "mpi: ${MEDLEY_MPI_FLAVOR} ${MEDLEY_MPI_VERSION} ${MEDLEY_MPIEXEC}")' > "$src/CMakeLists.txt"
    want="-- mpi: $MPI_NAME $(pkg-config --variable=mpi_version medley-mpi) $(pkg-config --variable=mpiexec medley-mpi)"
    if ! configure "$src" "$b"; then
        echo "FAIL: cmake/$rt/mpi: $(tail_of "$b.log")"
    elif ! grep -qxF -- "$want" "$b.log"; then
        echo "FAIL: cmake/$rt/mpi: no line '$want': $(grep -- '-- mpi:' "$b.log")"
    else
        echo "PASS: cmake/$rt/mpi"
    fi
done
rt_use shm

# The spec changes: the next build regenerates and recompiles.
src=$work/src-shm b=$work/build-shm
if [ -x "$b/father" ]; then
    sleep 1     # a coarse file system clock must see the edit as newer
    sed -i 's/^const BATCHES = 10;/const BATCHES = 4;/' "$src/montecarlo.mdl"
    if ! cmake --build "$b" > "$b.rebuild" 2>&1; then
        echo "FAIL: cmake/spec-change: rebuild failed: $(tail_of "$b.rebuild")"
    elif ! grep -q 'medleyc montecarlo.mdl (father)' "$b.rebuild"; then
        echo "FAIL: cmake/spec-change: medleyc did not run again: $(tail_of "$b.rebuild")"
    elif ! run shm "$b.run2" -n 1 "$b/father" 1000 : -n 3 "$b/son" || ! grep -q 'of 12 batches' "$b.run2"; then
        echo "FAIL: cmake/spec-change: the programs do not use the new spec: $(tail_of "$b.run2")"
    else
        echo "PASS: cmake/spec-change"
    fi
else
    echo "FAIL: cmake/spec-change: no shm build"
fi

# A C project: the C programs of the example, one target per program
# named otherwise than its task (TASKS), a constant set with DEFINES.
src=$work/src-c b=$work/build-c
mkdir -p "$src"
cp examples/montecarlo/montecarlo.mdl examples/montecarlo/father.c examples/montecarlo/son.c "$src/"
cat > "$src/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(mc C)
find_package(medley 0.1 REQUIRED)
add_executable(supervisor father.c)
medley_generate(supervisor montecarlo.mdl TASKS father DEFINES BATCHES=3)
target_link_libraries(supervisor PRIVATE medley::shm m)
add_executable(worker son.c)
medley_generate(worker montecarlo.mdl TASKS son DEFINES BATCHES=3)
target_link_libraries(worker PRIVATE medley::shm)
CM
if ! configure "$src" "$b" -DCMAKE_C_STANDARD=11 || ! cmake --build "$b" >> "$b.log" 2>&1; then
    echo "FAIL: cmake/c-project: $(tail_of "$b.log")"
elif ! run shm "$b.run" -n 1 "$b/supervisor" 1000 : -n 2 "$b/worker" || ! grep -q 'of 6 batches' "$b.run"; then
    echo "FAIL: cmake/c-project: $(tail_of "$b.run")"
elif ! grep -q 'Building C object' "$b.log"; then
    echo "FAIL: cmake/c-project: the generated code was not compiled as C"
else
    echo "PASS: cmake/c-project"
fi

# A Fortran project: two targets from one spec (modules of the same names,
# each in its target's directory), built with -std=f2018 -Werror.
src=$work/src-f b=$work/build-f
mkdir -p "$src"
cp examples/poisson/poisson.mdl examples/poisson/noeud.f90 "$src/"
cat > "$src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(poisson_f C Fortran)
find_package(medley REQUIRED)
foreach(target noeud noeud2)
    add_executable(${target} noeud.f90)
    medley_generate(${target} poisson.mdl TASKS noeud LANGUAGE Fortran)
    target_link_libraries(${target} PRIVATE medley::shm)
endforeach()
EOF
if ! configure "$src" "$b" -DCMAKE_Fortran_FLAGS="-std=f2018 $FLAGS" ||
   ! cmake --build "$b" -j 2 >> "$b.log" 2>&1; then
    echo "FAIL: cmake/fortran: $(tail_of "$b.log")"
elif ! [ -f "$b/medley/noeud/mod/noeud_mdl.mod" ] || ! [ -f "$b/medley/noeud2/mod/noeud_mdl.mod" ]; then
    echo "FAIL: cmake/fortran: no module directory per target: $(cd "$b" && find . -name '*.mod' | tr '\n' ' ')"
elif ! run shm "$b.run" -n 1 "$b/noeud" 24 2 1 : -n 1 "$b/noeud2" 24 2 1 ||
     ! grep -q '^poisson: ok' "$b.run"; then
    echo "FAIL: cmake/fortran: $(tail_of "$b.run")"
else
    echo "PASS: cmake/fortran"
fi

# A task the spec does not have.
src=$work/src-bad b=$work/build-bad
mkdir -p "$src"
cp examples/montecarlo/montecarlo.mdl examples/montecarlo/son.cc "$src/"
printf 'cmake_minimum_required(VERSION 3.13)\nproject(bad CXX)\nfind_package(medley REQUIRED)\nadd_executable(daughter son.cc)\nmedley_generate(daughter montecarlo.mdl)\n' > "$src/CMakeLists.txt"
if configure "$src" "$b"; then
    echo "FAIL: cmake/no-task: configure succeeded"
elif ! grep -q "spec 'montecarlo.mdl' has no task 'daughter'" "$b.log"; then
    echo "FAIL: cmake/no-task: no clear message: $(tail_of "$b.log")"
else
    echo "PASS: cmake/no-task"
fi

# Versions.
why=""
for v in "0.1:1" "0.1.0:1" "0:1" "0.2:0" "1.0:0"; do
    src=$work/src-v b=$work/build-v
    rm -rf "$src" "$b"
    mkdir -p "$src"
    printf 'cmake_minimum_required(VERSION 3.13)\nproject(v NONE)\nfind_package(medley %s REQUIRED)\n' "${v%:*}" > "$src/CMakeLists.txt"
    if configure "$src" "$b"; then got=1; else got=0; fi
    [ "$got" = "${v#*:}" ] || why="$why find_package(medley ${v%:*}) gave $got;"
done
if [ -z "$why" ]; then echo "PASS: cmake/version"; else echo "FAIL: cmake/version:$why"; fi

# The tutorial's C++ and CMake section.
. tests/tutorial.sh
src=$work/tutorial
mkdir -p "$src"
extract_tutorial "$src"
for rt in shm "${MPI_RTS[@]}"; do
    b=$work/build-tutorial-$rt
    workers=4
    [ "$rt" != shm ] && workers=2
    if ! rt_use "$rt"; then
        echo "FAIL: cmake/tutorial/$rt: $RT_WHY"
    elif [ ! -s "$src/master.cc" ] || [ ! -s "$src/CMakeLists.txt" ]; then
        echo "FAIL: cmake/tutorial/$rt: docs/tutorial.md has no master.cc or CMakeLists.txt block"
    elif ! configure "$src" "$b" -DMEDLEY_RUNTIME=$RT_LIB || ! cmake --build "$b" >> "$b.log" 2>&1; then
        echo "FAIL: cmake/tutorial/$rt: $(tail_of "$b.log")"
    elif ! run $rt "$b.run" -n 1 "$b/master" : -n $workers "$b/worker" ||
            ! grep -q "^$workers workers: sum of squares = [0-9]* (right)" "$b.run"; then
        echo "FAIL: cmake/tutorial/$rt: $(tail_of "$b.run")"
    else
        echo "PASS: cmake/tutorial/$rt"
    fi
done
exit 0
