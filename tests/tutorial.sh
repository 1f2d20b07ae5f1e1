# Sourced by the suites that build docs/tutorial.md's programs
# (suite-examples.sh: the C program and its Makefile, section 10's blocks;
# suite-cmake.sh: the C++ master and the CMakeLists.txt).

# extract_tutorial DIR: every fenced block right after a line "`name`:"
# of docs/tutorial.md, written to DIR/name.
extract_tutorial() {
    awk -v dir="$1" '
        /^`[^`]+`:$/ && !fence { name = substr($0, 2, length($0) - 3); next }
        /^```/ {
            if (fence) { fence = 0; if (out != "") close(out); out = ""; name = "" }
            else { fence = 1; if (name != "") { out = dir "/" name; printf "" > out } }
            next
        }
        fence && out != "" { print > out }
    ' docs/tutorial.md
}
