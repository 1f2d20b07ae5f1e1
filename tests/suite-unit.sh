#!/usr/bin/env bash
# CUnit tests of the compiler's pieces (tests/unit/*.c).
exec "$MEDLEY_BUILD/tests/unit_tests"
