/* Monte Carlo pi, a worker: draws points in the unit square and counts
 * those inside the quarter circle, one batch at a time. */
#include <stdint.h>
#include "sonMDL.h"

/* xorshift64*: fast, good enough for counting darts, seeded per son. */
static double next_uniform(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (double)((*s * 2685821657736338717ull) >> 11) * 0x1.0p-53;
}

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    t->me = MDL_MyRank(t);
    if (t->me == 0) {
        t->box = 1.0;                           /* area of the square */
        t->coef = 4.0;                          /* quarter circle -> circle */
        MDL_SendTo_father_startMessage(t, 0);
    }
    MDL_RecvFrom_father_shootMessage(t, 0);

    uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(t->me + 1);
    for (int b = 0; b < t->batches; b++) {
        long hits = 0;
        for (int k = 0; k < t->number; k++) {
            double x = next_uniform(&seed), y = next_uniform(&seed);
            hits += x * x + y * y <= 1.0;
        }
        MDL_oneShootWait(t);                    /* previous batch delivered */
        t->hits = hits;
        MDL_SendTo_father_oneShoot(t, 0);
    }
    MDL_oneShootWait(t);
    MDL_End(t);
    return 0;
}
