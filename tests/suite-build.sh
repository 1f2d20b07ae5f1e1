#!/usr/bin/env bash
# make's refusals, each one line saying what to do, before anything is
# built or written (make -n: a broken refusal would print the commands and
# exit 0, writing nothing here):
#   build/no-mpi         MPICC names no program: "no MPI found", no mpi.mk
#   build/not-a-wrapper  MPICC is a plain compiler: it "does not tell its flags"
#   build/prefix-tree    PREFIX is this source tree (also through a link, and
#                        with a trailing slash): make install refuses it
#   PASS: build/<case>   or   FAIL: build/<case>: reason
set -u
cd "$(dirname "$0")/.." || exit 1
# a make of its own: not the jobserver of the make check that runs this
unset MAKEFLAGS MFLAGS MAKELEVEL
T=$(mktemp -d "${TMPDIR:-/tmp}/medley-build.XXXXXX")
trap 'rm -rf "$T"' EXIT

# refused NAME WANT make-arguments…: make -n exits non-zero, its first line
# of stderr is WANT (a pattern), and BUILD under $T holds no mpi.mk
refused() {
    local name=$1 want=$2 rc first
    shift 2
    make -n --no-print-directory BUILD="$T/$name" "$@" > "$T/$name.out" 2> "$T/$name.err" < /dev/null
    rc=$?
    first=$(head -n 1 "$T/$name.err")
    if [ $rc -eq 0 ]; then
        echo "FAIL: build/$name: make $* exited 0: $(head -c 200 "$T/$name.out" | tr '\n' ' ')"
    elif [[ $first != $want ]]; then
        echo "FAIL: build/$name: first line '$first', want '$want'"
    elif [ -e "$T/$name/mpi/mpi.mk" ]; then
        echo "FAIL: build/$name: $T/$name/mpi/mpi.mk written"
    else
        echo "PASS: build/$name"
    fi
}

refused no-mpi "medley: no MPI found: '$T/none/mpicc' is not on the PATH; *make MPICC=/path/to/mpicc" \
    MPICC="$T/none/mpicc"
refused not-a-wrapper "medley: '*' does not tell its flags (--showme:compile, -compile-info, -show): is it an MPI compiler wrapper? Name another with make MPICC=…" \
    MPICC="${CC:-cc}"

# The tree's own name, through a link to it, and with a trailing slash.
ln -s "$PWD" "$T/tree"
err=''
for p in "$PWD" "$PWD/" "$T/tree"; do
    make -n --no-print-directory install PREFIX="$p" > "$T/prefix.out" 2> "$T/prefix.err" < /dev/null
    rc=$?
    want="Makefile:*: \*\*\* PREFIX=$p is this source tree: install elsewhere, e.g. PREFIX=\$HOME/opt/medley.  Stop."
    if [ $rc -eq 0 ]; then err="PREFIX=$p: make -n install exited 0"; break; fi
    if [[ $(cat "$T/prefix.err") != $want ]]; then err="PREFIX=$p: $(head -c 300 "$T/prefix.err" | tr '\n' ' ')"; break; fi
done
if [ -z "$err" ]; then echo "PASS: build/prefix-tree"; else echo "FAIL: build/prefix-tree: $err"; fi
