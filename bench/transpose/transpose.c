/* The blocked transpose on the generated stubs (either runtime):
 *     transpose [order] [blocks] [iterations]
 * One untimed iteration, then `iterations` timed; instance 0 prints the
 * slowest instance's time per iteration.  Each iteration posts the
 * receives of every block the others owe it, sends its own blocks straight
 * from a, transposes the blocks it keeps, waits, transposes the received
 * blocks where they landed in b, and adds 1 to a.  Exit status 1 when an
 * element is wrong (transpose.h) or the matrix does not fit the spec's
 * ORDER x ROWS (the program is built for one size: -D ORDER, ROWS). */
#include "transposeMDL.h"
#include "../bench.h"
#include "transpose.h"
#include "exchange.h"

int main(int argc, char **argv)
{
    struct transpose *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    tr_run s;
    if (!tr_setup(&s, argc, argv, MDL_FamilySize(t), MDL_MyRank(t)))
        return 1;
    if (s.order > ORDER || s.rows > ROWS) {
        fprintf(stderr, "transpose: %d rows of %d, but built for %d of %d (medleyc -D ORDER=%d "
                "-D ROWS=%d)\n", s.rows, s.order, ROWS, ORDER, s.order, s.rows);
        return 1;
    }
    s.ld = ORDER;               /* the spec's row: padded when the order is smaller */
    return tr_mdl_run(t, &s, &t->a[0][0], &t->b[0][0], "transpose");
}
