#!/usr/bin/env bash
# Runs every test suite and prints one summary line.
#
# A suite is tests/suite-*.sh; it prints one line per test,
# "PASS: name", "FAIL: name: reason" or "SKIP: name: reason" (a test that
# cannot run on this machine: never counted as passed), and anything else
# it likes.
# Suites run in name order; MEDLEY_SUITES="golden e2e" limits the run.
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0 skip=0
failed=() skipped=()
suites=${MEDLEY_SUITES:-$(ls tests/suite-*.sh | sed 's|tests/suite-||; s|\.sh$||')}
# The private directory the MPI runtime makes for trace parts
# (docs/robustness.md): removed at the end if the tests made it and left
# it empty; parts left there are leftovers worth seeing, so it then stays.
trace_dir=/dev/shm/medley-$(id -u)
[ -e "$trace_dir" ] && trace_dir_was_there=1 || trace_dir_was_there=0
# Open MPI's files of each suite's jobs: a directory of the suite's own,
# removed when it ends (tests/lib/ompi-scratch.sh)
. tests/lib/ompi-scratch.sh
ompi_scratch=$(mktemp -d /dev/shm/medley-check.XXXXXX)
trap 'rm -rf "$ompi_scratch"' EXIT
for s in $suites; do
    echo "== suite $s"
    start=$(date +%s)
    scratch_begin "$ompi_scratch" "$s"
    while IFS= read -r line; do
        echo "$line"
        case "$line" in
            PASS:*) pass=$((pass + 1)) ;;
            FAIL:*) fail=$((fail + 1)); failed+=("$line") ;;
            SKIP:*) skip=$((skip + 1)); skipped+=("$line") ;;
        esac
    done < <(bash "tests/suite-$s.sh" 2>&1; rc=$?; [ $rc -eq 0 ] || echo "FAIL: suite $s exited with status $rc")
    scratch_end "$ompi_scratch" "$s"
    echo "== suite $s: $(( $(date +%s) - start )) s"
done
[ "$trace_dir_was_there" = 1 ] || rmdir "$trace_dir" 2>/dev/null
if [ ${#skipped[@]} -gt 0 ]; then
    echo "== skipped:"
    printf '%s\n' "${skipped[@]}"
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "== failures:"
    printf '%s\n' "${failed[@]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
