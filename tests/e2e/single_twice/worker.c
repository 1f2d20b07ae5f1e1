#include "workerMDL.h"

int main(int argc, char **argv)
{
    struct worker *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    MDL_End(t);
    return 0;
}
