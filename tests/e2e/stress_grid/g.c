/* stress_grid: the non-periodic grid family (grid_body.h). */
#include "gMDL.h"
#define TASK g
#define FAM 0
#include "grid_body.h"
