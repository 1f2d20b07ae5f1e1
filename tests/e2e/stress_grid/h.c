/* stress_grid: the periodic grid family (grid_body.h). */
#include "hMDL.h"
#define TASK h
#define FAM 1
#include "grid_body.h"
