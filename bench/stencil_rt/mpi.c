/* The hand-written MPI stencil, the same program as ../stencil's (its
 * arrays are sized at run time already), its results named stencil_rt. */
#define ST_BENCH "stencil_rt"
#include "../stencil/mpi.c"
