/* Grids: shapes from Grid_Create/Screate, coordinates, Get_Neighbors, and
 * a Jacobi-style halo exchange (strided rows, rendezvous-sized) with
 * MDL_PROC_NULL at the borders; `rt_grid periodic` wraps dimension 0.
 * Run with 6 instances and MDL_ERRORS=return. */
#include "shm_rtt.h"

#define N 1100

struct T {
    double U[N + 2][N + 2];
    mdl_rt *mdl_rt_;
};
typedef struct T T;

#define UI(first) ITEM(T, U, t_double, 2, first, N + 2, N + 2)
static const mdl_item_desc u[] = {UI(0)};
static const long b_sn[] = {1, N, N, N}, b_ss[] = {1, N, 1, 1}, b_se[] = {N, N, 1, N},
                  b_sw[] = {1, 1, 1, N}, b_rn[] = {1, N, N + 1, N + 1},
                  b_rs[] = {1, N, 0, 0}, b_re[] = {N + 1, N + 1, 1, N},
                  b_rw[] = {0, 0, 1, N};
#define NB(nm, idx, snd, ch, dx, dy, b) \
    {nm, "MDL_" nm, idx, snd, snd, ch, 0, MDL_PEER_NEIGHBOR, {dx, dy, 0}, 1, u, 2, b}
static const mdl_msg_desc msgs[] = {
    NB("sn", 0, 1, 0, 0, 1, b_sn),  NB("ss", 1, 1, 1, 0, -1, b_ss),
    NB("se", 2, 1, 2, 1, 0, b_se),  NB("sw", 3, 1, 3, -1, 0, b_sw),
    NB("rs", 4, 0, 0, 0, -1, b_rs), NB("rn", 5, 0, 1, 0, 1, b_rn),
    NB("rw", 6, 0, 2, -1, 0, b_rw), NB("re", 7, 0, 3, 1, 0, b_re),
};
static const mdl_msg_desc *const msgp[] = {&msgs[0], &msgs[1], &msgs[2], &msgs[3],
                                           &msgs[4], &msgs[5], &msgs[6], &msgs[7]};
static const char *const tasks[] = {"noeud"};
static mdl_task_desc desc = {
    MDL_ABI, "rt_grid.mdl", 0x99, 1, tasks, 0, 2, {0, 0, 0}, 4, 8, msgp, 0, NULL, sizeof(T), 0,
    0, NULL, 0, NULL, /* no run-time-sized variables */
};

static double val(int rank, int i, int j)
{
    return rank * 1e7 + i * 1e3 + j;
}

int main(int argc, char **argv)
{
    int periodic = argc > 1 && strcmp(argv[1], "periodic") == 0;
    desc.periodic[0] = periodic;
    T *t;
    mdl_rt *rt;
    CHECK(mdl_init(&desc, &argc, &argv, (void **)&t, &rt) == 0);
    int me = mdl_my_rank(rt), n = mdl_task_size(rt, 0);
    CHECK(n == 6);
    int c[3];
    CHECK(mdl_grid_mycoords(rt, c) == MDL_ERR_GRID);
    CHECK(mdl_grid_neighbor(rt, (const int[3]){0, 1, 0}) == MDL_ERR_GRID);
    CHECK(mdl_send(rt, &msgs[0], t, 0, NULL, 0, NULL) == MDL_ERR_GRID);
    int bad[2] = {4, 0};
    CHECK(mdl_grid_create(rt, bad, 0) == MDL_ERR_GRID);
    int neg[2] = {-1, 0};
    CHECK(mdl_grid_create(rt, neg, 0) == MDL_ERR_GRID);
    int s[2] = {5, 5};
    CHECK(mdl_grid_create(rt, s, 1) == MDL_ERR_GRID);      /* Screate: zeros only */
    int dims[2] = {0, 0};
    CHECK(mdl_grid_create(rt, dims, 1) == 0 && dims[0] == 3 && dims[1] == 2);
    CHECK(mdl_grid_create(rt, dims, 0) == MDL_ERR_GRID);   /* one grid per task */
    CHECK(mdl_grid_mycoords(rt, c) == 0 && c[0] == me / 2 && c[1] == me % 2);
    int r;
    CHECK(mdl_grid_rank(rt, c, &r) == 0 && r == me);
    int cc[2];
    CHECK(mdl_grid_coords(rt, 5, cc) == 0 && cc[0] == 2 && cc[1] == 1);
    CHECK(mdl_grid_coords(rt, 6, cc) == MDL_ERR_RANK);
    int src, dst;
    CHECK(mdl_get_neighbors(rt, 0, 1, &src, &dst) == 0);
    CHECK(src == (c[0] > 0 ? me - 2 : periodic ? me + 4 : MDL_PROC_NULL));
    CHECK(dst == (c[0] < 2 ? me + 2 : periodic ? me - 4 : MDL_PROC_NULL));
    CHECK(mdl_get_neighbors(rt, 1, 1, &src, &dst) == 0);
    CHECK(src == (c[1] > 0 ? me - 1 : MDL_PROC_NULL));
    CHECK(dst == (c[1] < 1 ? me + 1 : MDL_PROC_NULL));
    CHECK(mdl_get_neighbors(rt, 2, 1, &src, &dst) == MDL_ERR_ARG);

    for (int i = 0; i < N + 2; i++)
        for (int j = 0; j < N + 2; j++)
            t->U[i][j] = (i >= 1 && i <= N && j >= 1 && j <= N) ? val(me, i, j) : -1;
    for (int iter = 0; iter < 3; iter++) {
        for (int k = 0; k < 4; k++)
            CHECK(mdl_send(rt, &msgs[k], t, 0, NULL, 0, NULL) == 0);
        for (int k = 4; k < 8; k++) {
            int from = mdl_grid_neighbor(rt, msgs[k].offset);
            CHECK(mdl_recv(rt, &msgs[k], t, 0, NULL) == from);
        }
        for (int k = 0; k < 4; k++)
            CHECK(mdl_wait(rt, &msgs[k]) == 0);
        int north = mdl_grid_neighbor(rt, (const int[3]){0, 1, 0});
        int south = mdl_grid_neighbor(rt, (const int[3]){0, -1, 0});
        int east = mdl_grid_neighbor(rt, (const int[3]){1, 0, 0});
        int west = mdl_grid_neighbor(rt, (const int[3]){-1, 0, 0});
        for (int i = 1; i <= N; i++) {
            CHECK(t->U[i][N + 1] == (north < 0 ? -1 : val(north, i, 1)));
            CHECK(t->U[i][0] == (south < 0 ? -1 : val(south, i, N)));
            CHECK(t->U[N + 1][i] == (east < 0 ? -1 : val(east, 1, i)));
            CHECK(t->U[0][i] == (west < 0 ? -1 : val(west, N, i)));
        }
        CHECK(mdl_barrier(rt) == 0);
    }
    CHECK(mdl_end(rt, t) == 0);
    if (me == 0)
        printf("rt_grid ok\n");
    return 0;
}
