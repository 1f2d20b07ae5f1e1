// cxx_capi, the father: C++ with the C API's short names.
#include <cstdio>
#include "fatherMDL.h"
#include "sonMDL.h"
#include "fatherMDL.hh"
#include "sonMDL.hh"
#include "../cxx_check.hh"

int main(int argc, char **argv)
{
    struct father *t;
    CHECK(MDL_Init(&t, &argc, &argv) == MDL_SUCCESS);
    CHECK(t->count == 0 && t->data[K - 1] == 0);        // zeroed by MDL_Init
    const int sons = MDL_sonSize(t);
    CHECK(sons >= 1 && MDL_FamilySize(t) == 1);
    // one type: the struct MDL_Init allocated has the class's methods too
    father &obj = *t;
    CHECK(obj.MDL_MyRank() == MDL_MyRank(t) && obj.MDL_sonSize() == sons);
    for (int k = 0; k < sons; k++) {
        // the bounds (count) are read when the send is called
        t->count = 3 + k;
        for (int i = 0; i < t->count; i++)
            t->data[i] = 100 * k + i;
        CHECK(MDL_SendTo_son_go(t, k) == MDL_SUCCESS);
        CHECK(MDL_goWait(t) == MDL_SUCCESS && MDL_goTest(t) == 1);
    }
    double total = 0;
    for (int k = 0; k < sons; k++) {
        int from = MDL_RecvFrom_son_back(t, MDL_ANY);
        CHECK(from >= 0 && from < sons);
        // mean of 100*from + 0..(3+from-1)
        CHECK(t->avg == 100.0 * from + (2 + from) / 2.0);
        total += t->avg;
    }
    CHECK(MDL_Barrier(t) == MDL_SUCCESS && MDL_syncWithFamily(t) == MDL_SUCCESS);
    std::printf("cxx_capi: ok (%d sons, sum of means %.1f)\n", sons, total);
    return MDL_End(t) == MDL_SUCCESS ? 0 : 1;
}
