// cxx_class, the master: the thesis's style, the object at namespace scope.
#include <cstdio>
#include "masterMDL.hh"
#include "../cxx_check.hh"

static master t;

int main(int argc, char **argv)
{
    CHECK(t.n == 0 && t.M[7][7] == 0.0 && t.ps[3].id == 0);   // zero from the start
    CHECK(t.MDL_Init(&argc, &argv) == MDL_SUCCESS);
    // on shm the object's pages became part of the job's segment
    CHECK(in_job_segment(&t) == expect_aliased() && in_job_segment(&t.M[N - 1][N - 1]) == expect_aliased());
    const int w = t.MDL_workerSize();
    CHECK(w >= 1 && w <= 8 && t.MDL_MyRank() == 0 && t.MDL_FamilySize() == 1);

    t.n = 7;
    t.scale = 0.5;
    t.z = { 1.5, -2.5 };
    CHECK(t.MDL_SendTo_worker_params() == MDL_SUCCESS);       // async, to {worker}
    int polls = 0;
    while (t.MDL_paramsTest() == 0)
        polls++;
    CHECK(t.MDL_paramsTest() == 1 && t.MDL_paramsWait() == MDL_SUCCESS);

    for (int k = 0; k < w; k++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                t.M[i][j] = k * 10000.0 + i * N + j;
        CHECK(t.MDL_SendTo_worker_block(k) == MDL_SUCCESS);   // sync: M may change after
    }
    for (int k = 0; k < w; k++) {
        for (int i = 0; i < N; i++)
            t.V[i] = 1000.0 * k + i;
        CHECK(t.MDL_SendTo_worker_part(k, k, k + 9) == MDL_SUCCESS);   // V[k..k+9]
        CHECK(t.MDL_partWait() == MDL_SUCCESS);
    }

    int seen = 0;
    for (int r = 0; r < w; r++) {
        int from = t.MDL_RecvFrom_worker_col();                // any worker
        CHECK(from >= 0 && from < w && !(seen & 1 << from));
        seen |= 1 << from;
        for (int i = 0; i < N; i++)                            // its column 5, plus one
            CHECK(t.M[i][3] == from * 10000.0 + i * N + 5 + 1);
    }
    for (int r = 0; r < w; r++) {
        int from = t.MDL_RecvFrom_worker_parts(MDL_ANY);
        CHECK(from >= 0 && from < w);
        for (int k = 0; k < 4; k++)
            CHECK(t.ps[k].id == from * 100 + k && t.ps[k].x == from + k && t.ps[k].y == -k);
    }
    CHECK(t.MDL_RecvFrom_worker_total(0) == 0);
    CHECK(t.sum == (long)w * (w + 1) / 2);
    CHECK(t.MDL_End() == MDL_SUCCESS);
    // private again, with its values
    CHECK(!in_job_segment(&t) && t.sum == (long)w * (w + 1) / 2 && t.M[N - 1][3] != 0);
    std::printf("cxx_class: ok (%d workers, params polled %d times)\n", w, polls);
    return 0;
}
