/* reduce_ops: each instance contributes r+1, r%2+1 and 3-r (r = its rank);
 * every result is compared with the value computed here. */
#include <stdio.h>
#include "redMDL.h"

static int me;

static long long contrib(int j, int r)
{
    return j == 0 ? r + 1 : j == 1 ? r % 2 + 1 : 3 - r;
}

static long long expect(int op, int j, int n)
{
    long long acc = contrib(j, 0);
    for (int r = 1; r < n; r++) {
        long long v = contrib(j, r);
        acc = op == MDL_SUM ? acc + v : op == MDL_PROD ? acc * v
            : op == MDL_MAX ? (v > acc ? v : acc) : (v < acc ? v : acc);
    }
    return acc;
}

static int bad;

#define RUN(x, op, fn, check)                                                      \
    do {                                                                            \
        for (int j = 0; j < 3; j++) {                                               \
            t->x[j] = contrib(j, me);                                               \
            t->x##_r[j] = 0;                                                        \
        }                                                                           \
        if (fn(t) != MDL_SUCCESS) {                                                 \
            fprintf(stderr, "red %d: %s failed\n", me, #fn);                        \
            bad = 1;                                                                \
        } else if (check)                                                           \
            for (int j = 0; j < 3; j++)                                             \
                if ((long long)t->x##_r[j] != expect(op, j, n)) {                   \
                    fprintf(stderr, "red %d: %s element %d = %lld, expected %lld\n", \
                            me, #fn, j, (long long)t->x##_r[j], expect(op, j, n));  \
                    bad = 1;                                                        \
                }                                                                   \
    } while (0)

int main(int argc, char **argv)
{
    struct red *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t);

    RUN(c, MDL_SUM, MDL_Allreduce_c_sum, 1);
    RUN(c, MDL_PROD, MDL_Allreduce_c_prod, 1);
    RUN(c, MDL_MAX, MDL_Allreduce_c_max, 1);
    RUN(c, MDL_MIN, MDL_Allreduce_c_min, 1);
    RUN(sc, MDL_SUM, MDL_Allreduce_sc_sum, 1);
    RUN(sc, MDL_PROD, MDL_Allreduce_sc_prod, 1);
    RUN(sc, MDL_MAX, MDL_Allreduce_sc_max, 1);
    RUN(sc, MDL_MIN, MDL_Allreduce_sc_min, 1);
    RUN(uc, MDL_SUM, MDL_Allreduce_uc_sum, 1);
    RUN(uc, MDL_PROD, MDL_Allreduce_uc_prod, 1);
    RUN(uc, MDL_MAX, MDL_Allreduce_uc_max, 1);
    RUN(uc, MDL_MIN, MDL_Allreduce_uc_min, 1);
    RUN(s, MDL_SUM, MDL_Allreduce_s_sum, 1);
    RUN(s, MDL_PROD, MDL_Allreduce_s_prod, 1);
    RUN(s, MDL_MAX, MDL_Allreduce_s_max, 1);
    RUN(s, MDL_MIN, MDL_Allreduce_s_min, 1);
    RUN(us, MDL_SUM, MDL_Allreduce_us_sum, 1);
    RUN(us, MDL_PROD, MDL_Allreduce_us_prod, 1);
    RUN(us, MDL_MAX, MDL_Allreduce_us_max, 1);
    RUN(us, MDL_MIN, MDL_Allreduce_us_min, 1);
    RUN(i, MDL_SUM, MDL_Allreduce_i_sum, 1);
    RUN(i, MDL_PROD, MDL_Allreduce_i_prod, 1);
    RUN(i, MDL_MAX, MDL_Allreduce_i_max, 1);
    RUN(i, MDL_MIN, MDL_Allreduce_i_min, 1);
    RUN(u, MDL_SUM, MDL_Allreduce_u_sum, 1);
    RUN(u, MDL_PROD, MDL_Allreduce_u_prod, 1);
    RUN(u, MDL_MAX, MDL_Allreduce_u_max, 1);
    RUN(u, MDL_MIN, MDL_Allreduce_u_min, 1);
    RUN(l, MDL_SUM, MDL_Allreduce_l_sum, 1);
    RUN(l, MDL_PROD, MDL_Allreduce_l_prod, 1);
    RUN(l, MDL_MAX, MDL_Allreduce_l_max, 1);
    RUN(l, MDL_MIN, MDL_Allreduce_l_min, 1);
    RUN(ul, MDL_SUM, MDL_Allreduce_ul_sum, 1);
    RUN(ul, MDL_PROD, MDL_Allreduce_ul_prod, 1);
    RUN(ul, MDL_MAX, MDL_Allreduce_ul_max, 1);
    RUN(ul, MDL_MIN, MDL_Allreduce_ul_min, 1);
    RUN(ll, MDL_SUM, MDL_Allreduce_ll_sum, 1);
    RUN(ll, MDL_PROD, MDL_Allreduce_ll_prod, 1);
    RUN(ll, MDL_MAX, MDL_Allreduce_ll_max, 1);
    RUN(ll, MDL_MIN, MDL_Allreduce_ll_min, 1);
    RUN(ull, MDL_SUM, MDL_Allreduce_ull_sum, 1);
    RUN(ull, MDL_PROD, MDL_Allreduce_ull_prod, 1);
    RUN(ull, MDL_MAX, MDL_Allreduce_ull_max, 1);
    RUN(ull, MDL_MIN, MDL_Allreduce_ull_min, 1);
    RUN(f, MDL_SUM, MDL_Allreduce_f_sum, 1);
    RUN(f, MDL_PROD, MDL_Allreduce_f_prod, 1);
    RUN(f, MDL_MAX, MDL_Allreduce_f_max, 1);
    RUN(f, MDL_MIN, MDL_Allreduce_f_min, 1);
    RUN(d, MDL_SUM, MDL_Allreduce_d_sum, 1);
    RUN(d, MDL_PROD, MDL_Allreduce_d_prod, 1);
    RUN(d, MDL_MAX, MDL_Allreduce_d_max, 1);
    RUN(d, MDL_MIN, MDL_Allreduce_d_min, 1);
    RUN(i, MDL_SUM, MDL_Reduce_i_rsum, me == 2);
    RUN(i, MDL_PROD, MDL_Reduce_i_rprod, me == 2);
    RUN(i, MDL_MAX, MDL_Reduce_i_rmax, me == 2);
    RUN(i, MDL_MIN, MDL_Reduce_i_rmin, me == 2);
    RUN(d, MDL_SUM, MDL_Reduce_d_rsum, me == 2);
    RUN(d, MDL_PROD, MDL_Reduce_d_rprod, me == 2);
    RUN(d, MDL_MAX, MDL_Reduce_d_rmax, me == 2);
    RUN(d, MDL_MIN, MDL_Reduce_d_rmin, me == 2);
    if (MDL_End(t) != MDL_SUCCESS || bad)
        return 1;
    if (me == 0)
        printf("reduce_ops: OK\n");
    return 0;
}
