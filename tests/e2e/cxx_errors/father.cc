// cxx_errors, the father: state, rank and use-after-end errors through the
// methods and through the C short names on the same object.
#include <cstdio>
#include "fatherMDL.hh"
#include "../cxx_check.hh"

int main(int argc, char **argv)
{
    father t;
    CHECK(t.MDL_Barrier() == MDL_ERR_STATE);                  // before MDL_Init
    CHECK(t.MDL_Init(&argc, &argv) == MDL_SUCCESS);
    CHECK(t.MDL_Init(&argc, &argv) == MDL_ERR_STATE);         // twice
    const int sons = t.MDL_sonSize();
    t.value = 1;
    CHECK(t.MDL_SendTo_son_ping(sons) == MDL_ERR_RANK);
    CHECK(MDL_SendTo_son_ping(&t, -5) == MDL_ERR_RANK);         // C API, same object
    CHECK(t.MDL_RecvFrom_son_pong(sons + 3) == MDL_ERR_RANK);
    for (int k = 0; k < sons; k++) {
        t.value = 10 * k;
        CHECK(t.MDL_SendTo_son_ping(k) == MDL_SUCCESS);
    }
    long sum = 0;
    for (int k = 0; k < sons; k++) {
        CHECK(t.MDL_RecvFrom_son_pong() >= 0);
        sum += t.value;
    }
    CHECK(sum == 10L * sons * (sons - 1) / 2 + sons);
    CHECK(t.MDL_End() == MDL_SUCCESS);
    CHECK(t.MDL_MyRank() == MDL_ERR_STATE);                   // after MDL_End
    std::printf("cxx_errors: ok\n");
    return 0;
}
