/* rt_dims.c — grid shapes chosen by mdl_dims_fill (runtime/core), which
 * both runtimes use: the reference's examples and its errors.  No MPI. */
#include <string.h>

#include "core/rt_common.h"
#include "rt_test.h"

static void want(int nnodes, int ndims, const int *in, const int *out)
{
    int d[3] = { 0, 0, 0 };
    char why[200];
    memcpy(d, in, sizeof(int) * (size_t)ndims);
    int rc = mdl_dims_fill(nnodes, ndims, d, why, sizeof why);
    if (!out) {
        CHECK_EQ(rc, MDL_ERR_GRID);
        CHECK(why[0] != '\0');
        return;
    }
    CHECK_EQ(rc, 0);
    for (int i = 0; i < ndims; i++)
        CHECK_EQ(d[i], out[i]);
}

int main(void)
{
    want(6, 2, (int[]){ 0, 0 }, (int[]){ 3, 2 });
    want(7, 2, (int[]){ 0, 0 }, (int[]){ 7, 1 });
    want(6, 3, (int[]){ 0, 3, 0 }, (int[]){ 2, 3, 1 });
    want(7, 3, (int[]){ 0, 3, 0 }, NULL);
    want(4, 2, (int[]){ -1, 0 }, NULL);
    want(4, 2, (int[]){ 1, 0 }, (int[]){ 1, 4 });
    want(4, 2, (int[]){ 0, 1 }, (int[]){ 4, 1 });
    want(4, 3, (int[]){ 0, 0, 0 }, (int[]){ 2, 2, 1 });
    want(12, 3, (int[]){ 0, 0, 0 }, (int[]){ 3, 2, 2 });
    want(4, 2, (int[]){ 2, 3 }, NULL);
    want(1, 2, (int[]){ 0, 0 }, (int[]){ 1, 1 });
    printf("rt_dims: OK\n");
    return 0;
}
