/* Every one of the 66 neighbour members is set by MDL_Grid_Create to the
 * instance at its offset (periodic grid: MDL_Grid_Rank wraps). */
#include <stdio.h>
#include "cubeMDL.h"

int main(int argc, char **argv)
{
    struct cube *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int dims[3] = { 0, 0, 0 }, me[3];
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS || MDL_Grid_Mycoords(t, me) != MDL_SUCCESS)
        return 1;
    const struct { const int *member; int off[3]; const char *name; } nb[] = {
        { &t->West_South_Down_Neighbor, { -1, -1, -1 }, "West_South_Down_Neighbor" },
        { &t->east_north_up_Neighbor, { 1, 1, 1 }, "east_north_up_Neighbor" },
        { &t->West_South_Neighbor, { -1, -1, 0 }, "West_South_Neighbor" },
        { &t->east_north_Neighbor, { 1, 1, 0 }, "east_north_Neighbor" },
        { &t->West_South_Up_Neighbor, { -1, -1, 1 }, "West_South_Up_Neighbor" },
        { &t->east_north_down_Neighbor, { 1, 1, -1 }, "east_north_down_Neighbor" },
        { &t->West_Down_Neighbor, { -1, 0, -1 }, "West_Down_Neighbor" },
        { &t->east_up_Neighbor, { 1, 0, 1 }, "east_up_Neighbor" },
        { &t->West_Neighbor, { -1, 0, 0 }, "West_Neighbor" },
        { &t->east_Neighbor, { 1, 0, 0 }, "east_Neighbor" },
        { &t->West_Up_Neighbor, { -1, 0, 1 }, "West_Up_Neighbor" },
        { &t->east_down_Neighbor, { 1, 0, -1 }, "east_down_Neighbor" },
        { &t->West_North_Down_Neighbor, { -1, 1, -1 }, "West_North_Down_Neighbor" },
        { &t->east_south_up_Neighbor, { 1, -1, 1 }, "east_south_up_Neighbor" },
        { &t->West_North_Neighbor, { -1, 1, 0 }, "West_North_Neighbor" },
        { &t->east_south_Neighbor, { 1, -1, 0 }, "east_south_Neighbor" },
        { &t->West_North_Up_Neighbor, { -1, 1, 1 }, "West_North_Up_Neighbor" },
        { &t->east_south_down_Neighbor, { 1, -1, -1 }, "east_south_down_Neighbor" },
        { &t->South_Down_Neighbor, { 0, -1, -1 }, "South_Down_Neighbor" },
        { &t->north_up_Neighbor, { 0, 1, 1 }, "north_up_Neighbor" },
        { &t->South_Neighbor, { 0, -1, 0 }, "South_Neighbor" },
        { &t->north_Neighbor, { 0, 1, 0 }, "north_Neighbor" },
        { &t->South_Up_Neighbor, { 0, -1, 1 }, "South_Up_Neighbor" },
        { &t->north_down_Neighbor, { 0, 1, -1 }, "north_down_Neighbor" },
        { &t->Down_Neighbor, { 0, 0, -1 }, "Down_Neighbor" },
        { &t->up_Neighbor, { 0, 0, 1 }, "up_Neighbor" },
        { &t->Up_Neighbor, { 0, 0, 1 }, "Up_Neighbor" },
        { &t->down_Neighbor, { 0, 0, -1 }, "down_Neighbor" },
        { &t->North_Down_Neighbor, { 0, 1, -1 }, "North_Down_Neighbor" },
        { &t->south_up_Neighbor, { 0, -1, 1 }, "south_up_Neighbor" },
        { &t->North_Neighbor, { 0, 1, 0 }, "North_Neighbor" },
        { &t->south_Neighbor, { 0, -1, 0 }, "south_Neighbor" },
        { &t->North_Up_Neighbor, { 0, 1, 1 }, "North_Up_Neighbor" },
        { &t->south_down_Neighbor, { 0, -1, -1 }, "south_down_Neighbor" },
        { &t->East_South_Down_Neighbor, { 1, -1, -1 }, "East_South_Down_Neighbor" },
        { &t->west_north_up_Neighbor, { -1, 1, 1 }, "west_north_up_Neighbor" },
        { &t->East_South_Neighbor, { 1, -1, 0 }, "East_South_Neighbor" },
        { &t->west_north_Neighbor, { -1, 1, 0 }, "west_north_Neighbor" },
        { &t->East_South_Up_Neighbor, { 1, -1, 1 }, "East_South_Up_Neighbor" },
        { &t->west_north_down_Neighbor, { -1, 1, -1 }, "west_north_down_Neighbor" },
        { &t->East_Down_Neighbor, { 1, 0, -1 }, "East_Down_Neighbor" },
        { &t->west_up_Neighbor, { -1, 0, 1 }, "west_up_Neighbor" },
        { &t->East_Neighbor, { 1, 0, 0 }, "East_Neighbor" },
        { &t->west_Neighbor, { -1, 0, 0 }, "west_Neighbor" },
        { &t->East_Up_Neighbor, { 1, 0, 1 }, "East_Up_Neighbor" },
        { &t->west_down_Neighbor, { -1, 0, -1 }, "west_down_Neighbor" },
        { &t->East_North_Down_Neighbor, { 1, 1, -1 }, "East_North_Down_Neighbor" },
        { &t->west_south_up_Neighbor, { -1, -1, 1 }, "west_south_up_Neighbor" },
        { &t->East_North_Neighbor, { 1, 1, 0 }, "East_North_Neighbor" },
        { &t->west_south_Neighbor, { -1, -1, 0 }, "west_south_Neighbor" },
        { &t->East_North_Up_Neighbor, { 1, 1, 1 }, "East_North_Up_Neighbor" },
        { &t->west_south_down_Neighbor, { -1, -1, -1 }, "west_south_down_Neighbor" },
        { &t->UP_NORTH_EAST_Neighbor, { 1, 1, 1 }, "UP_NORTH_EAST_Neighbor" },
        { &t->NORTH_EAST_Neighbor, { 1, 1, 0 }, "NORTH_EAST_Neighbor" },
        { &t->DOWN_NORTH_EAST_Neighbor, { 1, 1, -1 }, "DOWN_NORTH_EAST_Neighbor" },
        { &t->UP_EAST_Neighbor, { 1, 0, 1 }, "UP_EAST_Neighbor" },
        { &t->EAST_Neighbor, { 1, 0, 0 }, "EAST_Neighbor" },
        { &t->DOWN_EAST_Neighbor, { 1, 0, -1 }, "DOWN_EAST_Neighbor" },
        { &t->UP_SOUTH_EAST_Neighbor, { 1, -1, 1 }, "UP_SOUTH_EAST_Neighbor" },
        { &t->SOUTH_EAST_Neighbor, { 1, -1, 0 }, "SOUTH_EAST_Neighbor" },
        { &t->DOWN_SOUTH_EAST_Neighbor, { 1, -1, -1 }, "DOWN_SOUTH_EAST_Neighbor" },
        { &t->UP_NORTH_Neighbor, { 0, 1, 1 }, "UP_NORTH_Neighbor" },
        { &t->NORTH_Neighbor, { 0, 1, 0 }, "NORTH_Neighbor" },
        { &t->DOWN_NORTH_Neighbor, { 0, 1, -1 }, "DOWN_NORTH_Neighbor" },
        { &t->UP_Neighbor, { 0, 0, 1 }, "UP_Neighbor" },
        { &t->DOWN_Neighbor, { 0, 0, -1 }, "DOWN_Neighbor" },
    };
    int bad = 0, n = (int)(sizeof nb / sizeof nb[0]);
    for (int k = 0; k < n; k++) {
        int c[3] = { me[0] + nb[k].off[0], me[1] + nb[k].off[1], me[2] + nb[k].off[2] }, want;
        if (MDL_Grid_Rank(t, c, &want) != MDL_SUCCESS || *nb[k].member != want) {
            printf("%d: %s is %d, want %d\n", MDL_MyRank(t), nb[k].name, *nb[k].member, want);
            bad = 1;
        }
    }
    if (MDL_MyRank(t) == 0 && !bad)
        printf("many_neighbors ok: %d members\n", n);
    MDL_End(t);
    return bad;
}
