// cxx_class, a worker: the object on the stack.
#include <cstdio>
#include "workerMDL.hh"
#include "../cxx_check.hh"

int main(int argc, char **argv)
{
    worker t;
    CHECK(t.M[1][2] == 0.0 && t.z.im == 0.0);
    CHECK(t.MDL_Init(&argc, &argv) == MDL_SUCCESS);
    CHECK(in_job_segment(&t) == expect_aliased());       // a stack object too
    const int me = t.MDL_MyRank(), w = t.MDL_FamilySize();
    CHECK(t.MDL_masterSize() == 1);

    CHECK(t.MDL_RecvFrom_master_params() == 0);               // instance left out: any
    CHECK(t.n == 7 && t.scale == 0.5 && t.z.re == 1.5 && t.z.im == -2.5);
    CHECK(t.MDL_RecvFrom_master_block(0) == 0);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(t.M[i][j] == me * 10000.0 + i * N + j);
    CHECK(t.MDL_RecvFrom_master_part(me, me + 9) == MDL_SUCCESS);   // async, no instance
    CHECK(t.MDL_partWait() == MDL_SUCCESS && t.MDL_partTest() == 1);
    for (int i = me; i <= me + 9; i++)
        CHECK(t.V[i] == 1000.0 * me + i);
    CHECK(t.V[me + 10] == 0.0);

    for (int i = 0; i < N; i++)
        t.M[i][5] += 1;
    CHECK(t.MDL_SendTo_master_col() == MDL_SUCCESS);          // instance 0 left out
    for (int k = 0; k < 4; k++)
        t.ps[k] = { double(me + k), double(-k), me * 100 + k };
    CHECK(t.MDL_SendTo_master_parts(0) == MDL_SUCCESS);

    t.mine = me + 1;
    CHECK(t.MDL_Allreduce_red() == MDL_SUCCESS && t.sum == (long)w * (w + 1) / 2);
    CHECK(t.MDL_Gather_g() == MDL_SUCCESS);
    if (me == 0)
        for (int k = 0; k < w; k++)
            CHECK(t.all[k] == k + 1);
    if (me == 0)
        for (int i = 0; i < N; i++)
            t.V[i] = 3.0 * i;
    CHECK(t.MDL_Bcast_b() == MDL_SUCCESS);
    for (int i = 0; i < N; i++)
        CHECK(t.V[i] == 3.0 * i);
    int all[8];
    for (int k = 0; k < w; k++)
        all[k] = k;
    CHECK(t.MDL_Sbarrier(all, w) == MDL_SUCCESS && t.MDL_syncWithFamily() == MDL_SUCCESS);
    if (me == 0)
        CHECK(t.MDL_SendTo_master_total() == MDL_SUCCESS);
    CHECK(t.MDL_colWait() == MDL_SUCCESS && t.MDL_partsWait() == MDL_SUCCESS &&
          t.MDL_totalWait() == MDL_SUCCESS);
    CHECK(t.MDL_End() == MDL_SUCCESS && !in_job_segment(&t) && t.V[1] == 3.0);
    return 0;
}
