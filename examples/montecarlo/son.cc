// Monte Carlo pi, a worker, in the thesis's C++ style (Annex A): draws
// points in the unit square, one batch at a time, and sends back how many
// fell inside the quarter circle.
#include <cstdint>
#include "sonMDL.hh"

// xorshift64*, seeded per son (the same generator as son.c)
static double next_uniform(uint64_t &s)
{
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return (double)((s * 2685821657736338717ull) >> 11) * 0x1.0p-53;
}

int main(int argc, char **argv)
{
    son t;
    t.MDL_Init(&argc, &argv);
    t.me = t.MDL_MyRank();
    if (t.me == 0) {
        t.box = 1.0;                        // area of the square
        t.coef = 4.0;                       // quarter circle -> circle
        t.MDL_SendTo_father_startMessage(); // to the father (one instance: 0)
    }
    t.MDL_RecvFrom_father_shootMessage();

    uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(t.me + 1);
    for (int b = 0; b < t.batches; b++) {
        long hits = 0;
        for (int k = 0; k < t.number; k++) {
            double x = next_uniform(seed), y = next_uniform(seed);
            hits += x * x + y * y <= 1.0;
        }
        t.MDL_oneShootWait();               // previous batch delivered
        t.hits = hits;
        t.MDL_SendTo_father_oneShoot();
    }
    t.MDL_oneShootWait();
    t.MDL_End();
    return 0;
}
