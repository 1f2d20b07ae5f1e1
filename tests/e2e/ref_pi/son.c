#include <stdio.h>
#include <stdlib.h>
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS) return 1;
    int me = MDL_MyRank(t);
    if (me == 0) {
        t->box = 1.0; t->coef = 4.0;
        if (MDL_SendTo_father_start(t, 0) != MDL_SUCCESS) return 1;
    }
    if (MDL_RecvFrom_father_shootMessage(t, 0) != 0) { fprintf(stderr, "bad sender\n"); return 1; }
    unsigned s = 12345u + 777u * (unsigned)me;
    long hits = 0;
    for (int k = 0; k < t->number; k++) {
        s = s * 1103515245u + 12345u; double x = (s >> 8) / 16777216.0;
        s = s * 1103515245u + 12345u; double y = (s >> 8) / 16777216.0;
        if (x * x + y * y <= 1.0) hits++;
    }
    t->hits = hits;
    MDL_SendTo_father_oneShoot(t, 0);
    MDL_oneShootWait(t);
    MDL_End(t);
    return 0;
}
