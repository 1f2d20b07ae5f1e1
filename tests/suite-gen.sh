#!/usr/bin/env bash
# Compile-only check of generated code, no runtime needed.
#
# For every accepted spec (tests/golden/ok/**/*.mdl, examples/*/*.mdl, and
# tests/gen/*.mdl: specs aimed at the generator, e.g. hostile names):
#   - medleyc generates TMDL.h/TMDL.c for every task (and the spec-wide
#     specMDL_common.h that every TMDL.h includes);
#   - one translation unit including ALL the task headers of the spec (the
#     multi-header rule of the reference §6) compiles with -Werror and calls
#     MDL_Init through the _Generic short name for every task;
#   - every TMDL.c compiles with -Werror (-c);
#   - C++ (g++ and clang++, -std=c++17 -pedantic -Werror): one unit including
#     every TMDL.h and TMDL.hh of the spec, calling MDL_Init through the
#     short-name overloads (C API) and through a class object (TMDL.hh),
#     and every TMDL.c compiled as C++ (-x c++);
#   - generating twice gives the same bytes (deterministic output);
#   - Fortran (medleyc --fortran, gfortran -std=f2018 -Wall -Wextra -Werror
#     -pedantic): <stem>MDL_common.f90, every TMDL.f90, and one program
#     using every task module, calling MDL_Init and MDL_Barrier through the
#     generic names for every task (they merge across the modules) — or,
#     when the spec has names Fortran cannot take, medleyc's errors all
#     say so (--fortran) and nothing is written.  Result: gen/<…>/fortran
# A spec that needs medleyc options gives them on a line of its own, as the
# golden suite reads them:   // ARGS: -D N=512 -D NPROC=8
# Result: PASS: gen/<spec path without .mdl>
set -u
cd "$(dirname "$0")/.."
: "${MEDLEY_STAGE:?run through make check (MEDLEY_STAGE unset)}"
CC=${CC:-cc}
W=(-std=c11 -Wall -Wextra -Werror -pedantic)
WF=(-std=f2018 -Wall -Wextra -Werror -pedantic)
WXX=(-std=c++17 -Wall -Wextra -Werror -pedantic)
CXXS=()
for cxx in g++ clang++; do command -v "$cxx" > /dev/null && CXXS+=("$cxx"); done
work=$(mktemp -d "${TMPDIR:-/tmp}/medley-gen.XXXXXX")
trap 'rm -rf "$work"' EXIT

specs=$( { find tests/golden/ok -name '*.mdl' 2>/dev/null; ls examples/*/*.mdl tests/gen/*.mdl 2>/dev/null; } | sort)
i=0
for spec in $specs; do
    i=$((i + 1))
    name=gen/${spec%.mdl}
    name=${name/gen\/tests\//gen/}
    d=$work/$i
    mkdir -p "$d/a" "$d/b"
    args=()
    argline=$(sed -n 's|^[[:space:]]*//[[:space:]]*ARGS:||p' "$spec" | head -n 1)
    [ -n "$argline" ] && read -r -a args <<< "$argline"
    if ! "$MEDLEY_STAGE/bin/medleyc" "${args[@]}" -o "$d/a" "$spec" > "$d/out" 2>&1; then
        echo "FAIL: $name: medleyc failed: $(head -c 300 "$d/out" | tr '\n' ' ')"
        continue
    fi
    "$MEDLEY_STAGE/bin/medleyc" "${args[@]}" -o "$d/b" "$spec" > /dev/null 2>&1
    if ! diff -r "$d/a" "$d/b" > /dev/null; then
        echo "FAIL: $name: two runs of medleyc generated different files"
        continue
    fi
    headers=$(cd "$d/a" && ls ./*MDL.h 2>/dev/null)
    if [ -z "$headers" ]; then
        echo "FAIL: $name: no header generated"
        continue
    fi
    {
        for h in $headers; do echo "#include \"${h#./}\""; done
        echo "int main(int argc, char **argv)"
        echo "{"
        echo "    int rc = 0;"
        for h in $headers; do
            t=$(basename "$h" MDL.h)
            echo "    { struct $t *t_$t; rc |= MDL_Init(&t_$t, &argc, &argv); rc |= MDL_Barrier(t_$t); }"
        done
        echo "    return rc;"
        echo "}"
    } > "$d/all.c"
    # C++: every header, both styles; a task object at namespace scope (as
    # a large task would be) and one on the stack
    {
        for h in $headers; do echo "#include \"${h#./}\""; echo "#include \"${h#./}h\""; done
        # the class's name in C++ (a C++ keyword gets a trailing _)
        cls() { sed -n 's/^inline int \(.*\)::MDL_Init(.*/\1/p' "$d/a/$(basename "$1" .h).hh"; }
        for h in $headers; do
            t=$(basename "$h" MDL.h)
            echo "static $(cls "$h") obj_$t;"
        done
        echo "int main(int argc, char **argv)"
        echo "{"
        echo "    int rc = 0;"
        for h in $headers; do
            t=$(basename "$h" MDL.h)
            echo "    { $(cls "$h") *t_$t; rc |= MDL_Init(&t_$t, &argc, &argv); rc |= MDL_Barrier(t_$t); }"
            echo "    rc |= obj_$t.MDL_Init(&argc, &argv); rc |= obj_$t.MDL_Barrier(); rc |= obj_$t.MDL_End();"
        done
        echo "    return rc;"
        echo "}"
    } > "$d/all.cc"
    why=""
    if ! "$CC" "${W[@]}" -I"$d/a" -I"$MEDLEY_STAGE/include" -c "$d/all.c" -o "$d/all.o" > "$d/cc" 2>&1; then
        why="all headers in one unit: $(head -c 400 "$d/cc" | tr '\n' ' ')"
    else
        for c in "$d"/a/*MDL.c; do
            if ! "$CC" "${W[@]}" -I"$d/a" -I"$MEDLEY_STAGE/include" -c "$c" -o "$c.o" > "$d/cc" 2>&1; then
                why="$(basename "$c"): $(head -c 400 "$d/cc" | tr '\n' ' ')"
                break
            fi
        done
    fi
    [ ${#CXXS[@]} -gt 0 ] || why="no C++ compiler (g++ or clang++)"
    for cxx in "${CXXS[@]}"; do
        [ -z "$why" ] || break
        if ! "$cxx" "${WXX[@]}" -I"$d/a" -I"$MEDLEY_STAGE/include" -c "$d/all.cc" -o "$d/all.o" > "$d/cc" 2>&1; then
            why="$cxx, all headers in one C++ unit: $(head -c 400 "$d/cc" | tr '\n' ' ')"
            break
        fi
        for c in "$d"/a/*MDL.c; do
            if ! "$cxx" "${WXX[@]}" -I"$d/a" -I"$MEDLEY_STAGE/include" -x c++ -c "$c" -o "$c.o" > "$d/cc" 2>&1; then
                why="$cxx, $(basename "$c") as C++: $(head -c 400 "$d/cc" | tr '\n' ' ')"
                break
            fi
        done
    done
    if [ -z "$why" ]; then echo "PASS: $name"; else echo "FAIL: $name: $why"; fi

    mkdir -p "$d/f"
    "$MEDLEY_STAGE/bin/medleyc" --fortran "${args[@]}" -o "$d/f" "$spec" > "$d/fout" 2>&1
    frc=$?
    why=""
    if [ $frc -eq 1 ]; then
        if grep ': error: ' "$d/fout" | grep -qv '(--fortran)$'; then
            why="medleyc --fortran: errors other than Fortran's: $(head -c 300 "$d/fout" | tr '\n' ' ')"
        elif [ -n "$(ls -A "$d/f")" ]; then
            why="medleyc --fortran failed but wrote $(ls "$d/f" | head -3 | tr '\n' ' ')"
        fi
    elif [ $frc -ne 0 ]; then
        why="medleyc --fortran exited $frc: $(head -c 300 "$d/fout" | tr '\n' ' ')"
    elif ! command -v gfortran > /dev/null; then
        why="gfortran not installed"
    else
        {
            echo "program all"
            for h in $headers; do echo "  use $(basename "$h" MDL.h)_mdl"; done
            echo "  implicit none"
            for h in $headers; do
                t=$(basename "$h" MDL.h)
                echo "  type($t), pointer :: t_$t => null()"
            done
            for h in $headers; do
                t=$(basename "$h" MDL.h)
                echo "  call MDL_Init(t_$t)"
                echo "  call MDL_Barrier(t_$t)"
            done
            echo "end program all"
        } > "$d/f/all.f90"
        for f in "$d"/f/*MDL_common.f90 "$d"/f/*MDL.f90 "$d/f/all.f90"; do
            if ! (cd "$d/f" && gfortran "${WF[@]}" -c "$f" -o "$f.o") > "$d/fc" 2>&1; then
                why="gfortran $(basename "$f"): $(head -c 400 "$d/fc" | tr '\n' ' ')"
                break
            fi
        done
    fi
    if [ -z "$why" ]; then echo "PASS: $name/fortran"; else echo "FAIL: $name/fortran: $why"; fi
done
exit 0
