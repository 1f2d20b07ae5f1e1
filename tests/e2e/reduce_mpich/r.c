/* reduce_mpich: see spec.mdl.  Instance 0 holds the values with the top
 * bit set (the largest of their type), the others small ones. */
#include <limits.h>
#include <stdio.h>

#include "rMDL.h"

static int failures;

static void expect(int me, const char *what, int j, unsigned long long got, unsigned long long want)
{
    if (got != want) {
        fprintf(stderr, "r[%d]: %s[%d] = %llu, not %llu\n", me, what, j, got, want);
        failures++;
    }
}

int main(int argc, char **argv)
{
    struct r *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), n = MDL_FamilySize(t);
    for (int i = 0; i < N; i++) {
        t->X[i] = (double)(me + 1) * i;
        t->L[i] = (long)((me * 7 + i) % 11) - 5;
    }
    for (int j = 0; j < 3; j++) {
        unsigned long long small = (unsigned long long)(me + j);
        t->C[j] = (unsigned char)(me ? small : UCHAR_MAX - j);
        t->S[j] = (unsigned short)(me ? small : USHRT_MAX - j);
        t->U[j] = (unsigned)(me ? small : UINT_MAX - j);
        t->UL[j] = (unsigned long)(me ? small : ULONG_MAX - j);
        t->Q[j] = me ? small : ULLONG_MAX - (unsigned long long)j;
    }
    int rc = MDL_Reduce_rip(t) | MDL_Reduce_lip(t) | MDL_Allreduce_cmin(t) | MDL_Reduce_cmax(t) |
             MDL_Allreduce_smin(t) | MDL_Allreduce_smax(t) | MDL_Reduce_umin(t) |
             MDL_Allreduce_umax(t) | MDL_Allreduce_ulmin(t) | MDL_Allreduce_ulmax(t) |
             MDL_Allreduce_qmin(t) | MDL_Reduce_qmax(t) | MDL_Allreduce_qin(t);
    if (rc != MDL_SUCCESS)
        return 1;
    double sum = (double)n * (n + 1) / 2;
    for (int i = 0; i < N; i++) {
        double want = me == 1 ? sum * i : (double)(me + 1) * i;
        long lmax = LONG_MIN;
        for (int k = 0; k < n; k++)
            lmax = (long)((k * 7 + i) % 11) - 5 > lmax ? (long)((k * 7 + i) % 11) - 5 : lmax;
        long lwant = me == 1 ? lmax : (long)((me * 7 + i) % 11) - 5;
        if (t->X[i] != want || t->L[i] != lwant) {
            fprintf(stderr, "r[%d]: X[%d] = %g (%g), L[%d] = %ld (%ld)\n", me, i, t->X[i], want, i,
                    t->L[i], lwant);
            failures++;
            break;
        }
    }
    for (int j = 0; j < 3; j++) {
        unsigned long long lo = (unsigned long long)(1 + j);   /* instance 1's */
        expect(me, "Cmin", j, t->Cmin[j], lo);
        expect(me, "Smin", j, t->Smin[j], lo);
        expect(me, "Smax", j, t->Smax[j], USHRT_MAX - j);
        expect(me, "Umax", j, t->Umax[j], UINT_MAX - j);
        expect(me, "ULmin", j, t->ULmin[j], lo);
        expect(me, "ULmax", j, t->ULmax[j], ULONG_MAX - j);
        expect(me, "Qmin", j, t->Qmin[j], lo);
        expect(me, "Q (in place)", j, t->Q[j], lo);
        if (me == 1) {
            expect(me, "Cmax", j, t->Cmax[j], UCHAR_MAX - j);
            expect(me, "Umin", j, t->Umin[j], lo);
            expect(me, "Qmax", j, t->Qmax[j], ULLONG_MAX - j);
        }
    }
    if (MDL_End(t) != MDL_SUCCESS || failures)
        return 1;
    printf("r[%d] ok\n", me);
    return 0;
}
