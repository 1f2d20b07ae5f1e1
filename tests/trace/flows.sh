# Checks of a trace file's time line, for every suite that runs jobs
# with MDL_TRACE (one event per line, as the runtimes write it).
#
# flows_forward FILE [SLACK_US]: no flow points back in time by SLACK_US
# or more (default 20), and there are some.  The shm runtime passes 0: its
# flows go forward by construction (docs/tracing.md §2.4: a send's start
# is read before its message is published, the receive's end after it was
# taken, and all instances share mdlrun's one calibration of the TSC); a
# process descheduled between its clock read and the message's passage
# drew arrows back before 2026-11-30.  MPI keeps 20 µs: each
# process calibrates its own ticks (§5.4), and across hosts the alignment
# is within 6-10 µs on the test hosts.
flows_forward() {
    awk -v slack="${2:-20}" -F'"ts":|,"pid"|"id":"|"}|","bp"' '/"ph":"s"/ { s[$4] = $2 } /"ph":"f"/ { f[$4] = $2 }
        END { n = 0; for (id in f) { n++; if (!(id in s) || f[id] + slack <= s[id] + 0) exit 1 } exit n == 0 }' "$1"
}

# flows_least FILE: the least time from a flow's start to its end, µs
# (negative: back in time), for a failure's message.
flows_least() {
    awk -F'"ts":|,"pid"|"id":"|"}|","bp"' '/"ph":"s"/ { s[$4] = $2 } /"ph":"f"/ { f[$4] = $2 }
        END { for (id in f) if (!n++ || f[id] - s[id] < m) m = f[id] - s[id]; print m + 0 }' "$1"
}

# events_ordered FILE: each instance's calls (its track: pid, tid) start
# in the order it made them, which is the order the file lists them in;
# and there are some.
events_ordered() {
    awk -F'"ts":|,"dur":|"pid":|,"tid":|,"name"' '/"ph":"X"/ { n++; k = $4 "." $5
        if ((k in last) && $2 + 0 < last[k]) exit 1; last[k] = $2 + 0 } END { exit n == 0 }' "$1"
}
