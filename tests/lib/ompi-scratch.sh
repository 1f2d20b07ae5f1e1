# tests/lib/ompi-scratch.sh — where the Open MPI jobs of a suite keep their
# shared-memory segments (vader_segment.*) and session files: a directory of
# the suite's own under $1, removed when the suite ends.  A job that a test
# kills on purpose (a hang, a guard, an abort) cannot remove its own, and
# in /dev/shm they would stay for good.  Sourced by tests/run.sh (and by
# the test of it, tests/suite-leftovers.sh).
#   scratch_begin BASE NAME   exports the Open MPI variables naming BASE/NAME
#   scratch_end BASE NAME     removes BASE/NAME; says how many segments it held

scratch_begin() {
    mkdir -p "$1/$2"
    export OMPI_MCA_btl_vader_backing_directory=$1/$2 OMPI_MCA_orte_tmpdir_base=$1/$2
}

scratch_end() {
    local left
    left=$(find "$1/$2" -name 'vader_segment.*' | wc -l)
    [ "$left" = 0 ] || echo "== suite $2: removed $left Open MPI segment(s) its killed jobs left"
    rm -rf "${1:?}/${2:?}"
}
