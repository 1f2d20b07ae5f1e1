/* cxx_capi, a son: plain C against the same spec. */
#include <stdio.h>
#include "sonMDL.h"

int main(int argc, char **argv)
{
    struct son *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    /* the receive's bounds are read at the call: the size must be the sent one */
    int want = 3 + MDL_MyRank(t);
    t->count = want;
    if (MDL_RecvFrom_father_go(t, 0) != 0)
        return 1;
    if (t->count != want || t->data[want] != 0) {
        fprintf(stderr, "son: count %d\n", t->count);
        return 1;
    }
    long s = 0;
    for (int i = 0; i < t->count; i++)
        s += t->data[i];
    t->avg = (double)s / t->count;
    if (MDL_SendTo_father_back(t, 0) != MDL_SUCCESS)
        return 1;
    return MDL_End(t) == MDL_SUCCESS ? 0 : 1;
}
