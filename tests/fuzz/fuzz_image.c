/* fuzz_image.c — libFuzzer harness: one input = one trace image
 * (runtime/tracefile/rt_trace_image.h) as world rank 0 receives it from
 * another process, or mdlrun reads it from the job's segment: checked by
 * rt_trace_img_check, then, when the check accepts it, written into a
 * trace (fuzz_trace.h).  The image is copied to a buffer of exactly the
 * input's size, so a read past its end is an ASan report.  Built by
 * `make fuzz FUZZ_TARGET=image`. */
#include <stdint.h>
#include <string.h>

#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rt_trace_img *img = malloc(size ? size : 1);
    if (!img)
        return 0;
    memcpy(img, data, size);
    if (!rt_trace_img_check(img, size, 1))
        fuzz_write_trace(img);
    free(img);
    return 0;
}
