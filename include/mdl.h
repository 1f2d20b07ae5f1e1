/* mdl.h — public constants of the MeDLey runtimes.
 * Included by every generated task header; user programs may use any of
 * these names. */
#ifndef MDL_H
#define MDL_H

#define MDL_SUCCESS     0
#define MDL_ANY         (-1)    /* receive from any instance */
#define MDL_PROC_NULL   (-2)    /* no instance (outside a non-periodic grid):
                                   sends and receives to it are no-ops */

/* Error codes: negative and far from MDL_ANY/MDL_PROC_NULL, so that a
 * receive can return MDL_PROC_NULL (a no-op neighbour receive) without it
 * reading as an error. */
#define MDL_ERR_ARG       (-101) /* invalid argument (NULL, negative count, …) */
#define MDL_ERR_RANK      (-102) /* instance number out of range / duplicate in a list */
#define MDL_ERR_TRUNCATE  (-103) /* receive smaller than the message that arrived */
#define MDL_ERR_BOUNDS    (-104) /* section bounds outside the declared variable */
#define MDL_ERR_GRID      (-105) /* grid call before MDL_Grid_Create, or bad dims */
#define MDL_ERR_STATE     (-106) /* MDL_Init twice, use after MDL_End, … */
#define MDL_ERR_LAUNCH    (-107) /* wrong launcher, programs built from different specs,
                                    or code generated for another runtime interface */
#define MDL_ERR_INTERN    (-108) /* failure of the underlying system (MPI, OS) */
#define MDL_ERR_PEER      (-109) /* a peer instance died, or ended without receiving
                                    a message sent to it (shared-memory runtime) */
#define MDL_ERR_FIRST     MDL_ERR_ARG
#define MDL_ERR_LAST      MDL_ERR_PEER

/* Reduction operators (spec files name them; programs rarely need them). */
#define MDL_SUM   1
#define MDL_PROD  2
#define MDL_MAX   3
#define MDL_MIN   4

#ifdef __cplusplus
extern "C" {
#endif

/* Text of an error code ("MDL_ERR_TRUNCATE: message truncated …"). */
const char *MDL_Error_string(int code);

#ifdef __cplusplus
}

/* C++: a run-time-sized variable seen with its shape, as the method
   MDL_View_<v>() of a task's class gives it (docs/generated-code.md):
   v(i, j) is C's v[i][j] of the row-major storage, extent(d) the d-th
   extent as MDL_Allocate took it, data() the first element.  It holds the
   pointer and the extents only, so at -O2 an access costs what indexing
   the pointer by hand does.  Take it again after an MDL_Allocate that may
   change the variable's extents (new storage). */
template <class T, int N>
class mdl_view {
    static_assert(N >= 1, "a view has one extent per dimension");
    T *data_;
    long ext_[N];

public:
    mdl_view(T *data, const long (&extents)[N]) noexcept : data_(data), ext_()
    {
        for (int d = 0; d < N; d++)
            ext_[d] = extents[d];
    }
    template <class... I>
    T &operator()(I... i) const noexcept
    {
        static_assert(sizeof...(I) == N, "one index per dimension");
        long at = 0;
        int d = 0;
        ((at = at * ext_[d++] + static_cast<long>(i)), ...);
        return data_[at];
    }
    long extent(int d) const noexcept { return ext_[d]; }
    T *data() const noexcept { return data_; }
};
#endif

#endif
