/* The hand-written MPI transpose, the same program as ../transpose's (its
 * arrays are sized at run time already), its results named transpose_rt. */
#define TR_BENCH "transpose_rt"
#include "../transpose/mpi.c"
