/* cxx_keywords, a worker in C: the spec's own names. */
#include <stdio.h>
#include "workerMDL.h"

int main(int argc, char **argv)
{
    struct worker *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS || MDL_RecvFrom_class_m(t, 0) != 0)
        return 1;
    if (t->new != or || t->private[3] != 1.5 || t->delete.this != 42 || t->delete.and[2] != -2) {
        fprintf(stderr, "worker: wrong values\n");
        return 1;
    }
    t->bool = t->new + t->delete.this + MDL_MyRank(t);
    if (MDL_SendTo_class_r(t, 0) != MDL_SUCCESS)
        return 1;
    return MDL_End(t) == MDL_SUCCESS ? 0 : 1;
}
