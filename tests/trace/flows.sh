# Checks of a trace file's time line, for every suite that runs jobs
# with MDL_TRACE (one event per line, as the runtimes write it).
#
# flows_forward FILE: no flow points back in time by more than 20 µs (the
# receive's end of a message that it waited for is not drawn before the
# send, which put it 50 ms back).  The slack is docs/tracing.md §2.4's:
# a small message's ends are read each side of its passage, and a
# sanitizer's checks between them made that 3.5 µs once.
flows_forward() {
    awk -F'"ts":|,"pid"|"id":"|"}|","bp"' '/"ph":"s"/ { s[$4] = $2 } /"ph":"f"/ { f[$4] = $2 }
        END { n = 0; for (id in f) { n++; if (!(id in s) || f[id] + 20 <= s[id] + 0) exit 1 } exit n == 0 }' "$1"
}

# events_ordered FILE: each instance's calls (its track: pid, tid) start
# in the order it made them, which is the order the file lists them in;
# and there are some.
events_ordered() {
    awk -F'"ts":|,"dur":|"pid":|,"tid":|,"name"' '/"ph":"X"/ { n++; k = $4 "." $5
        if ((k in last) && $2 + 0 < last[k]) exit 1; last[k] = $2 + 0 } END { exit n == 0 }' "$1"
}
