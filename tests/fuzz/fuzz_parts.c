/* fuzz_parts.c — libFuzzer harness: one input = one MPI trace part (the
 * file a process keeps its trace in, runtime/tracefile/rt_trace_parts.h),
 * read as mdltrace --recover and the fatal path read another process's
 * part, then, when the reader accepts it, written into a trace
 * (fuzz_trace.h).  The part is given by a memfd of exactly the input's
 * bytes.  The trace, job and rank it is looked up for are those its head
 * names (when it has one): checking them is one comparison each; what is
 * fuzzed is everything after.  Built by `make fuzz FUZZ_TARGET=parts`. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rt_trace_part_head h = { 0 };
    memcpy(&h, data, size < sizeof h ? size : sizeof h);
    /* the path the head names, NUL-terminated within the input */
    char path[8192] = "/fuzz/trace.json";
    if (size > sizeof h) {
        size_t n = size - sizeof h < sizeof path - 1 ? size - sizeof h : sizeof path - 1;
        memcpy(path, data + sizeof h, n);
        path[n] = '\0';
    }
    int fd = memfd_create("part", MFD_CLOEXEC);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        abort();
    char why[600];
    int in_call, nprocs;
    /* a process that had not ended: the reader samples the clock and closes
     * its call, as if it were being torn down (odd sizes) or killed */
    rt_trace_img *img = rt_trace_part_load(fd, "part", path, h.job, h.rank, (int)(size & 1),
                                           &in_call, &nprocs, why, sizeof why);
    close(fd);
    if (img)
        fuzz_write_trace(img);
    free(img);
    return 0;
}
