/* mpi_fail.c — a failed MPI call reported as a MeDLey error: the one
 * place that maps MPI's error classes to MDL codes and texts. */
#include <stdio.h>

#include "mpi_rt.h"

int mpi_fail(mdl_rt *rt, const char *fn, int mpirc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, cls = 0;
    MPI_Error_class(mpirc, &cls);
    if (cls == MPI_ERR_TRUNCATE)
        return rt_fail(rt, fn, MDL_ERR_TRUNCATE,
                       "the message that arrived is larger than the receive");
    /* the class's text: MPICH's full error stack spans several lines and
       the report must stay one line */
    if (MPI_Error_string(cls, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", mpirc);
    for (char *c = text; *c; c++)
        if (*c == '\n')
            *c = ' ';
    return rt_fail(rt, fn, MDL_ERR_INTERN, "%s failed: %s", what, text);
}
