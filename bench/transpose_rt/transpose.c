/* The blocked transpose on the generated stubs, its matrices sized at run
 * time (spec.mdl): as ../transpose/transpose.c, but any order and
 * instance count with one build, the rows exactly the matrix's.
 *     transpose [order] [blocks] [iterations] */
#include "transposeMDL.h"
#include "../bench.h"
#include "../transpose/transpose.h"
#include "../transpose/exchange.h"

int main(int argc, char **argv)
{
    struct transpose *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    tr_run s;
    if (!tr_setup(&s, argc, argv, MDL_FamilySize(t), MDL_MyRank(t)))
        return 1;
    t->rows = s.rows;
    t->order = s.order;
    if (MDL_Allocate(t) != MDL_SUCCESS)
        return 1;
    s.ld = s.order;
    return tr_mdl_run(t, &s, t->a, t->b, "transpose_rt");
}
