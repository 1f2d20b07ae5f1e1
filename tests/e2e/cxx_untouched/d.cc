// cxx_untouched: the peak resident memory of each instance across MDL_Init
// and MDL_End, and the one value it wrote, there after MDL_End.
#include <cstdio>
#include <sys/resource.h>
#include "dMDL.hh"
#include "../cxx_check.hh"

static d object;

static long peak_kib()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
    object.A[100][7] = 42.0;
    CHECK(object.MDL_Init(&argc, &argv) == MDL_SUCCESS);
    const long before = peak_kib();
    const int me = object.MDL_MyRank();
    CHECK(object.MDL_Barrier() == MDL_SUCCESS);
    CHECK(object.MDL_End() == MDL_SUCCESS);
    const long grown = peak_kib() - before;
    std::printf("d[%d]: peak resident memory grew by %ld KiB in MDL_End (object %zu KiB)\n", me,
                grown, sizeof object >> 10);
    CHECK(grown < 16384);
    CHECK(object.A[100][7] == 42.0 && object.A[N - 1][N - 1] == 0.0 && object.B[7][7] == 0.0);
    if (me == 0)
        std::printf("cxx_untouched: ok\n");
    return 0;
}
