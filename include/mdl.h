/* mdl.h — public constants of the MeDLey runtimes.
 * Included by every generated task header; user programs may use any of
 * these names. */
#ifndef MDL_H
#define MDL_H

#define MDL_SUCCESS     0
#define MDL_ANY         (-1)    /* receive from any instance */
#define MDL_PROC_NULL   (-2)    /* no instance (outside a non-periodic grid):
                                   sends and receives to it are no-ops */

/* Error codes: always negative. */
#define MDL_ERR_ARG       (-1)  /* invalid argument (NULL, negative count, …) */
#define MDL_ERR_RANK      (-2)  /* instance number out of range / duplicate in a list */
#define MDL_ERR_TRUNCATE  (-3)  /* receive smaller than the message that arrived */
#define MDL_ERR_BOUNDS    (-4)  /* section bounds outside the declared variable */
#define MDL_ERR_GRID      (-5)  /* grid call before MDL_Grid_Create, or bad dims */
#define MDL_ERR_STATE     (-6)  /* MDL_Init twice, use after MDL_End, … */
#define MDL_ERR_LAUNCH    (-7)  /* wrong launcher, or instances built from different specs */
#define MDL_ERR_INTERN    (-8)  /* failure of the underlying system (MPI, OS) */
#define MDL_ERR_PEER      (-9)  /* a peer instance died (shared-memory runtime) */
#define MDL_ERR_LAST      (-9)

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
