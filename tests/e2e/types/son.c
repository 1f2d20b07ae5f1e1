/* types: check everything; even sons get the structs and echo a checksum;
 * the odd ones meet in a barrier of odd instances only. */
#include <stdio.h>
#include "sonMDL.h"
#include "common.h"

static int me;

static int fail(const char *what)
{
    fprintf(stderr, "son %d: %s\n", me, what);
    return 1;
}

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t);
    if (MDL_RecvFrom_father_basics(t, 0) != 0)
        return fail("basics");
    if (t->c != 'x' || t->sc != -100 || t->uc != 200 || t->s != -30000 || t->us != 60000 ||
        t->i != -2000000000 || t->u != 4000000000u || t->l != -3000000000L ||
        t->ul != 9000000000UL || t->ll != -9000000000000000000LL ||
        t->ull != 18000000000000000000ULL || t->f != 1.5f || t->d != -2.0e300)
        return fail("basic values");
    if (me % 2 == 0) {
        for (int k = 0; k < 4; k++)
            FILL_CELL(&t->cells[k], 50);
        if (MDL_RecvFrom_father_structs(t, 0) != 0)
            return fail("structs");
        if (!CELL_OK(&t->blk.cells[0], 1) || !CELL_OK(&t->blk.cells[1], 2) || t->blk.s != -7)
            return fail("typedef struct values");
        if (!CELL_OK(&t->cells[0], 11) || !CELL_OK(&t->cells[1], 12) ||
            !CELL_OK(&t->cells[2], 50) || !CELL_OK(&t->cells[3], 50))
            return fail("struct array section");
        t->back = t->blk.cells[1].k[0] + t->cells[0].k[0] + t->blk.s;
        if (MDL_SendTo_father_echo(t, 0) != MDL_SUCCESS)
            return fail("echo");
        int done;
        while ((done = MDL_echoTest(t)) == 0)
            ;
        if (done != 1 || MDL_echoWait(t) != MDL_SUCCESS)
            return fail("echo completion");
    } else {
        int odd[32], k = 0;
        for (int r = 1; r < n && k < 32; r += 2)
            odd[k++] = r;
        if (MDL_Sbarrier(t, odd, k) != MDL_SUCCESS)
            return fail("Sbarrier");
    }
    MDL_End(t);
    return 0;
}
