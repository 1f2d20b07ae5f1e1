# tools/mpi-alternatives.sh — sourced by tools/setup.sh (and its test,
# tests/suite-setup.sh).  Debian's alternatives mpi (mpicc, mpicxx …),
# mpirun (mpiexec) and mpi-<triplet> (mpi.h) say which MPI is the system's
# default; installing one MPI beside another switches them to the MPI of
# higher priority (Open MPI's 50 against MPICH's 40), which would change
# the MPI a plain `make` builds with.

# mpi_alternatives: "name value" of each of them, one a line
mpi_alternatives() {
    update-alternatives --get-selections 2> /dev/null |
        awk '$1 == "mpi" || $1 == "mpirun" || $1 ~ /^mpi-/ { print $1, $3 }'
}

# restore_mpi_alternatives: sets back the values mpi_alternatives printed
# (on stdin), those that changed only
restore_mpi_alternatives() {
    local name value
    while read -r name value; do
        [ -n "$name" ] || continue
        [ "$(update-alternatives --query "$name" 2> /dev/null | sed -n 's/^Value: //p')" = "$value" ] ||
            update-alternatives --set "$name" "$value"
    done
}
