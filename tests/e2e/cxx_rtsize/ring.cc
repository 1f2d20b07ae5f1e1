// cxx_rtsize: each instance sends the last column of its matrix, sized at
// run time, to the next one around the ring, which receives it whole into
// a vector sized alike; the object on the stack, the methods of the class,
// the arrays through their views (MDL_View_<v>(), mdl.h's mdl_view).
#include <cstdio>
#include "ringMDL.hh"
#include "../cxx_check.hh"

int main(int argc, char **argv)
{
    ring t;
    CHECK(t.m == nullptr);
    CHECK(t.MDL_Init(&argc, &argv) == MDL_SUCCESS);
    const int me = t.MDL_MyRank(), n = t.MDL_FamilySize();
    for (int round = 0; round < 2; round++) {
        t.rows = 5 + 3 * round;
        t.cols = 4 - round;
        CHECK(t.MDL_Allocate() == MDL_SUCCESS && t.m != nullptr);
        // the view (ringMDL.hh): m(i, j) is row-major element [i][j]
        const auto m = t.MDL_View_m();
        CHECK(m.data() == t.m && m.extent(0) == t.rows && m.extent(1) == t.cols);
        for (int i = 0; i < t.rows; i++)
            for (int j = 0; j < t.cols; j++) {
                CHECK(&m(i, j) == t.m + i * t.cols + j);
                m(i, j) = 1000.0 * me + 10 * i + j;
            }
        CHECK(t.MDL_SendTo_ring_right((me + 1) % n, 0, t.rows - 1) == MDL_SUCCESS);
        const int from = (me + n - 1) % n;
        CHECK(t.MDL_RecvFrom_ring_right(from) == from);
        CHECK(t.MDL_rightWait() == MDL_SUCCESS);
        const auto col = t.MDL_View_col();
        CHECK(col.data() == t.col && col.extent(0) == t.rows);
        for (int i = 0; i < t.rows; i++)
            CHECK(col(i) == 1000.0 * from + 10 * i + t.cols - 1);
    }
    CHECK(t.MDL_End() == MDL_SUCCESS);
    if (me == 0)
        std::printf("cxx_rtsize: ok\n");
    return 0;
}
