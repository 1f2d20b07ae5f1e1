/* grid_misuse: both runtimes refuse the same grid mistakes with the same
 * codes when errors are returned (MDL_ERRORS=return). */
#include <stdio.h>
#include "gMDL.h"

#define EXPECT(call, code)                                                  \
    do {                                                                    \
        int rc_ = (call);                                                   \
        if (rc_ != (code)) {                                                \
            fprintf(stderr, "%s returned %d, expected %d\n", #call, rc_,    \
                    code);                                                  \
            return 1;                                                       \
        }                                                                   \
    } while (0)

int main(int argc, char **argv)
{
    struct g *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int c[2], r;
    EXPECT(MDL_Grid_Mycoords(t, c), MDL_ERR_GRID);         /* before the grid */
    int nonzero[2] = {2, 0};
    EXPECT(MDL_Grid_Screate(t, nonzero), MDL_ERR_GRID);    /* Screate wants zeros */
    int dims[2] = {0, 0};
    EXPECT(MDL_Grid_Create(t, dims), MDL_SUCCESS);
    if (dims[0] * dims[1] != MDL_FamilySize(t))
        return 1;
    int again[2] = {0, 0};
    EXPECT(MDL_Grid_Create(t, again), MDL_ERR_GRID);       /* only one grid */
    int outside[2] = {dims[0], 0};
    EXPECT(MDL_Grid_Rank(t, outside, &r), MDL_ERR_ARG);     /* not periodic */
    EXPECT(MDL_Grid_Coords(t, MDL_FamilySize(t), c), MDL_ERR_RANK);
    int last[2] = {dims[0] - 1, dims[1] - 1};
    EXPECT(MDL_Grid_Rank(t, last, &r), MDL_SUCCESS);
    if (r != MDL_FamilySize(t) - 1)
        return 1;
    MDL_End(t);
    return 0;
}
