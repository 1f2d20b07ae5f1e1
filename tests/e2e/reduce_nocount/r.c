/* Each instance contributes values derived from its rank; every result is
 * compared with the value computed serially, so a count other than 1
 * (or an element other than the one named) shows as a wrong result. */
#include <stdio.h>
#include "rMDL.h"

int main(int argc, char **argv)
{
    struct r *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), n = MDL_FamilySize(t), bad = 0;
    t->k = me + 1;
    t->x = 0.5 * me;
    t->f = 2.0f;
    for (int i = 0; i < 4; i++)
        t->v[i] = i == 2 ? 100 - me : -1000;   /* only v[2] takes part */
    t->w[0] = me;
    t->w[1] = t->w[2] = 1e6;                   /* not reduced: no count */
    t->wsum = t->xmax = -1;
    t->vmin = 12345;
    if (MDL_Allreduce_s(t) || MDL_Allreduce_m(t) || MDL_Reduce_p(t) || MDL_Reduce_e(t) ||
        MDL_Allreduce_first(t)) {
        printf("%d: a reduction failed\n", me);
        return 1;
    }
    if (t->ksum != n * (n + 1) / 2) { printf("%d: ksum %d\n", me, t->ksum); bad = 1; }
    if (t->xmax != 0.5 * (n - 1)) { printf("%d: xmax %g\n", me, t->xmax); bad = 1; }
    if (t->wsum != n * (n - 1) / 2.0) { printf("%d: wsum %g\n", me, t->wsum); bad = 1; }
    if (me == 0) {
        float want = 1.0f;
        for (int i = 0; i < n; i++)
            want *= 2.0f;
        if (t->fprod != want) { printf("fprod %g, want %g\n", t->fprod, want); bad = 1; }
        if (t->vmin != 100 - (n - 1)) { printf("vmin %ld\n", t->vmin); bad = 1; }
    } else if (t->vmin != 12345) {
        printf("%d: vmin written on a non-root instance\n", me);
        bad = 1;
    }
    int failed = bad;
    MDL_Barrier(t);
    if (me == 0 && !bad)
        printf("reduce_nocount ok on %d\n", n);
    MDL_End(t);
    return failed;
}
