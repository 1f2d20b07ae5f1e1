# svg_ok NAME FILE INSTANCE...: the SVG is well-formed (xmllint) and names
# every instance on both axes of the matrix.  For the trace suites, which
# define pass, fail and the scratch directory $W.
svg_ok() {
    local name=$1 svg=$2 inst n
    shift 2
    if ! xmllint --noout "$svg" 2> "$W/xml"; then
        fail "$name" "not well-formed: $(head -2 "$W/xml" | tr '\n' '|')"
        return
    fi
    for inst in "$@"; do
        n=$(xmllint --xpath "count(//*[local-name()='text'][.='$inst'])" "$svg")
        if [ "$n" != 2 ]; then
            fail "$name" "'$inst' is on $n axes, not 2"
            return
        fi
    done
    pass "$name"
}
