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
#endif

#endif
