/* Iterations and checks of the halo benchmark, shared by all variants.
 * Instance r fills its interior with val(r, i, j); after an exchange every
 * halo cell must hold the neighbour's edge value. */
#define HALO_BATCHES 5
#define HALO_QUICK_BATCHES 3

/* With one instance per core an exchange takes microseconds; with more
 * instances than cores MPICH needs milliseconds (busy-waiting processes
 * take turns on the cores): few iterations then. */
static inline int halo_iters(int n, int np, int quick)
{
    int it = np <= 2 ? 400000 / (n + 256) : n <= 64 ? 40 : n <= 256 ? 20 : 10;
    return quick ? (it + 3) / 4 : it;
}

static inline double halo_val(int rank, int i, int j)
{
    return 1e6 * rank + 1000.0 * i + j;
}
