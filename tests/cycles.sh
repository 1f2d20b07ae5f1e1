#!/usr/bin/env bash
# cycles.sh — include and call cycles between the files of component folders.
#
#   tests/cycles.sh [-v] [-r ROOT] [-b BUILD] DIR...
#
# Prints, for each DIR (relative to ROOT, default the repository), either
#     PASS: cycles/DIR
#     FAIL: cycles/DIR: call cycle a.c → b.c → a.c; …
# and exits 1 when a DIR fails.  Two graphs are built over the files of
# all DIRs together, so a cycle through several folders is found too and
# reported under each folder it passes through:
#   include  a → b  when a has `#include "b"`; b resolved as the build
#            does: next to a, else in the folders the Makefile passes with
#            -I; the generated parser.tab.h and lexer.h stand for
#            grammar/parser.y and grammar/lexer.l.
#   call     a → b  when a's object uses a global symbol b's object
#            defines (nm), within one build: BUILD/DIR/x.o (the compiler
#            and the tools), BUILD/mpi/DIR/x.o or BUILD/shm/DIR/x.o (the
#            libraries; BUILD defaults to ROOT/build).  A source without
#            an object fails its folder (build first).  A symbol that
#            several files define, each in its own build, is a contract
#            (the be_* of runtime/api/rt_backend.h, which every transport
#            implements): who calls it depends on the contract, not on an
#            implementation, so no edge is drawn to them.
# Each knot of files (a strongly connected component) is shown as its
# shortest cycle through its first file, with the other files it holds;
# -v lists every edge inside each knot (with the symbols of a call edge),
# which is what one needs to untangle it.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build= verbose=0
usage="usage: $0 [-v] [-r ROOT] [-b BUILD] DIR..."
while getopts vr:b: opt; do
    case $opt in
        v) verbose=1 ;;
        r) root=$(cd "$OPTARG" && pwd) ;;
        b) build=$OPTARG ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
build=${build:-$root/build}
cd "$root" || exit 2

# The folders every compile may search, as the Makefile's -I options.
include_roots=(medley grammar codegen include common runtime tools/mdltrace tools/mdlrun)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/medley-cycles.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/files"
: >"$tmp/includes"
: >"$tmp/symbols"
: >"$tmp/problems"

# resolve FROM NAME: the file `#include "NAME"` in FROM means, or nothing
resolve() {
    local from=$1 name=$2 r
    case $name in
        parser.tab.h) echo grammar/parser.y; return ;;
        lexer.h) echo grammar/lexer.l; return ;;
    esac
    if [ -f "$(dirname "$from")/$name" ]; then
        realpath -m --relative-to=. "$(dirname "$from")/$name"
        return
    fi
    for r in "${include_roots[@]}"; do
        if [ -f "$r/$name" ]; then
            realpath -m --relative-to=. "$r/$name"
            return
        fi
    done
}

# objects FILE: "unit object" for each object built from FILE; the unit is
# the build it belongs to (the compiler and tools, or one library), in
# which its symbols resolve
objects() {
    local f=$1 base unit
    case $f in
        grammar/parser.y) base=grammar/parser.tab ;;
        grammar/lexer.l) base=grammar/lexer ;;
        *) base=${f%.c} ;;
    esac
    for unit in host mpi shm; do
        local o=$build/${unit#host}/$base.o
        [ -f "$o" ] && echo "$unit $o"
    done
}

for dir in "$@"; do
    dir=${dir%/}
    if [ ! -d "$dir" ]; then
        echo "$dir no such folder" >>"$tmp/problems"
        continue
    fi
    for f in "$dir"/*.[chly]; do
        [ -f "$f" ] || continue
        echo "$f" >>"$tmp/files"
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
            while IFS= read -r name; do
                to=$(resolve "$f" "$name")
                [ -n "$to" ] && echo "$f $to"
            done >>"$tmp/includes"
        case $f in *.h) continue ;; esac
        objs=$(objects "$f")
        if [ -z "$objs" ]; then
            echo "$dir no object for $f (build first)" >>"$tmp/problems"
            continue
        fi
        # "file unit D symbol" for what it defines, "file unit U symbol" for
        # what it uses
        while read -r unit o; do
            nm -P -g "$o" | awk -v f="$f" -v u="$unit" '$2 == "U" { print f, u, "U", $1; next }
                                                        $2 ~ /^[A-TV-Z]$/ { print f, u, "D", $1 }'
        done <<<"$objs" >>"$tmp/symbols"
    done
done

awk -v dirs="$*" -v tmp="$tmp" -v verbose=$verbose '
function add_edge(kind, a, b, sym) {
    if (a == b || !(a in file) || !(b in file))
        return
    if ((kind, a, b) in edge) {
        if (sym != "" && split(why[kind, a, b], w, ", ") < 4 &&
            index(", " why[kind, a, b] ", ", ", " sym ", ") == 0)
            why[kind, a, b] = why[kind, a, b] ", " sym
        return
    }
    edge[kind, a, b] = 1
    why[kind, a, b] = sym
    nout[kind, a]++
    out[kind, a, nout[kind, a]] = b
}
# Tarjan: the strongly connected components of graph `kind`
function connect(kind, v,    i, w, n) {
    index_of[v] = low[v] = ++counter
    stack[++sp] = v
    onstack[v] = 1
    for (i = 1; i <= nout[kind, v]; i++) {
        w = out[kind, v, i]
        if (!(w in index_of)) {
            connect(kind, w)
            if (low[w] < low[v]) low[v] = low[w]
        } else if (onstack[w] && index_of[w] < low[v])
            low[v] = index_of[w]
    }
    if (low[v] != index_of[v])
        return
    ncomp++
    n = 0
    do {
        w = stack[sp--]
        onstack[w] = 0
        comp_of[w] = ncomp
        member[ncomp, ++n] = w
    } while (w != v)
    comp_size[ncomp] = n
}
# The shortest cycle from s back to s inside its component (breadth first).
function cycle(kind, s,    head, tail, q, v, i, w, prev, seen, path, c) {
    c = comp_of[s]
    head = tail = 1
    q[1] = s
    while (head <= tail) {
        v = q[head++]
        for (i = 1; i <= nout[kind, v]; i++) {
            w = out[kind, v, i]
            if (comp_of[w] != c)
                continue
            if (w == s) {
                path = s
                for (; v != s; v = prev[v])
                    path = v " → " path
                return s " → " path
            }
            if (!(w in seen)) {
                seen[w] = 1
                prev[w] = v
                q[++tail] = w
            }
        }
    }
    return s
}
function knots(kind,    v, c, i, k, w, first, others, msg, d) {
    delete index_of; delete low; delete onstack; delete comp_of; delete member
    delete comp_size
    counter = sp = ncomp = 0
    for (i = 1; i <= nfiles; i++)
        if (!(files[i] in index_of))
            connect(kind, files[i])
    for (c = 1; c <= ncomp; c++) {
        if (comp_size[c] < 2)
            continue
        first = member[c, 1]
        for (i = 2; i <= comp_size[c]; i++)
            if (member[c, i] < first) first = member[c, i]
        msg = kind " cycle " cycle(kind, first)
        others = ""
        for (i = 1; i <= comp_size[c]; i++)
            if (index(msg, member[c, i]) == 0)
                others = others (others == "" ? "" : ", ") member[c, i]
        if (others != "")
            msg = msg " (tangled with it: " others ")"
        if (verbose) {
            print "    " kind " knot of " comp_size[c] " files:"
            for (i = 1; i <= comp_size[c]; i++)
                for (k = 1; k <= nout[kind, member[c, i]]; k++) {
                    w = out[kind, member[c, i], k]
                    if (comp_of[w] == c)
                        print "      " member[c, i] " → " w \
                              (why[kind, member[c, i], w] == "" ? "" : " (" why[kind, member[c, i], w] ")")
                }
        }
        delete touched
        for (i = 1; i <= comp_size[c]; i++) {
            d = member[c, i]
            sub(/\/[^\/]*$/, "", d)
            touched[d] = 1
        }
        for (d in touched)
            report[d] = report[d] (report[d] == "" ? "" : "; ") msg
    }
}
BEGIN {
    while ((getline line < (tmp "/files")) > 0) {
        files[++nfiles] = line
        file[line] = 1
    }
    while ((getline line < (tmp "/includes")) > 0) {
        split(line, p, " ")
        add_edge("include", p[1], p[2], "")
    }
    while ((getline line < (tmp "/symbols")) > 0) {
        split(line, p, " ")
        if (p[3] != "D") {
            used[++nused] = line
            continue
        }
        defined[p[2], p[4]] = defined[p[2], p[4]] " " p[1]
        if (index(" " implementers[p[4]] " ", " " p[1] " ") == 0)
            implementers[p[4]] = implementers[p[4]] " " p[1]
    }
    for (i = 1; i <= nused; i++) {
        split(used[i], p, " ")
        if (split(implementers[p[4]], by, " ") > 1)
            continue            # a contract (be_*): no edge to an implementation
        n = split(defined[p[2], p[4]], by, " ")
        for (k = 1; k <= n; k++)
            add_edge("call", p[1], by[k], p[4])
    }
    while ((getline line < (tmp "/problems")) > 0) {
        d = line
        sub(/ .*/, "", d)
        report[d] = report[d] (report[d] == "" ? "" : "; ") substr(line, length(d) + 2)
    }
    knots("include")
    knots("call")
    n = split(dirs, ds, " ")
    status = 0
    for (i = 1; i <= n; i++) {
        d = ds[i]
        sub(/\/$/, "", d)
        if (d in report) {
            print "FAIL: cycles/" d ": " report[d]
            status = 1
        } else
            print "PASS: cycles/" d
    }
    exit status
}'
