/* rt_grid.c — grid shapes, coordinates, neighbours (corners, periodic) and a
 * Jacobi-style halo exchange (strided rows, contiguous columns, bounds at the
 * call, MDL_PROC_NULL at the edges).  4 instances: mpiexec -n 4 ./rt_grid
 *
 * The program initialises MPI itself, so that it can run MDL_Init/MDL_End
 * once per grid shape (the runtime must then leave MPI running).  Errors
 * are returned (MDL_ERRORS=return is set here) and checked. */
#include <mpi.h>
#include <string.h>

#include "rt_test.h"

typedef struct T {
    double U[4][4];
    int INFi, SUPi, INFj, SUPj;
    void *rt;
} T;

static const char *const tasks[] = { "noeud" };

static const mdl_item_desc u_item[] = { ITEM2(T, U, td_double, 4, 4, 0) };
static const long b_m2[] = { 1, 2, 1, 1 }, b_m3[] = { 2, 2, 1, 2 }, b_m4[] = { 1, 1, 1, 2 };
static const long b_m6[] = { 1, 2, 3, 3 }, b_m7[] = { 0, 0, 1, 2 }, b_m8[] = { 3, 3, 1, 2 };

#define NB(nm, idx, snd, asy, ch, dx, dy, fb)                                              \
    { .name = nm, .fn = snd ? "MDL_SendTo_noeud_" nm : "MDL_RecvFrom_noeud_" nm,         \
      .index = idx, .is_send = snd, .async = asy, .channel = ch, .peer_task = 0,          \
      .peer_kind = MDL_PEER_NEIGHBOR, .offset = { dx, dy, 0 }, .nitems = 1,               \
      .items = u_item, .npairs = 2, .fixed_bounds = fb }

static const mdl_msg_desc M[] = {
    NB("m1", 0, 1, 1, 0, 0, 1, NULL),     /* to North: U[INFi,SUPi][SUPj] */
    NB("m2", 1, 1, 1, 1, 0, -1, b_m2),    /* to South: U[1..2][1] */
    NB("m3", 2, 1, 1, 2, 1, 0, b_m3),     /* to East:  U[2][1..2] */
    NB("m4", 3, 1, 1, 3, -1, 0, b_m4),    /* to West:  U[1][1..2] */
    NB("m5", 4, 0, 0, 0, 0, -1, NULL),    /* from South: U[INFi,SUPi][INFj-1] */
    NB("m6", 5, 0, 0, 1, 0, 1, b_m6),     /* from North: U[1..2][3] */
    NB("m7", 6, 0, 0, 2, -1, 0, b_m7),    /* from West:  U[0][1..2] */
    NB("m8", 7, 0, 0, 3, 1, 0, b_m8),     /* from East:  U[3][1..2] */
};
static const mdl_msg_desc *const MP[] = { &M[0], &M[1], &M[2], &M[3],
                                          &M[4], &M[5], &M[6], &M[7] };

static double val(int rank, int i, int j)
{
    return rank * 100 + i * 10 + j;
}

static int run(const char *name, int ndims, int p0, int p1, int p2, int screate,
               const int *dims_in, const int *dims_want)
{
    mdl_task_desc d = { MDL_ABI, "grid.mdl", 99, 1, tasks, 0, ndims, { p0, p1, p2 }, 4,
                        NELEM(MP), MP, 0, NULL, sizeof(T), 0, 0, NULL, 0, NULL };
    void *mem;
    mdl_rt *rt;
    CHECK_EQ(mdl_init(&d, NULL, NULL, &mem, &rt), 0);
    T *t = mem;
    int r = mdl_my_rank(rt), n = mdl_task_size(rt, 0);
    int c[3], dims[3] = { 0, 0, 0 };

    /* nothing works before the grid exists */
    CHECK_EQ(mdl_grid_mycoords(rt, c), MDL_ERR_GRID);
    CHECK_EQ(mdl_send(rt, &M[1], t, 0, NULL, 0, NULL), MDL_ERR_GRID);
    CHECK_EQ(mdl_grid_neighbor(rt, (const int[3]){ 1, 0, 0 }), MDL_ERR_GRID);

    memcpy(dims, dims_in, sizeof(int) * (size_t)ndims);
    CHECK_EQ(mdl_grid_create(rt, dims, screate), 0);
    for (int i = 0; i < ndims; i++)
        CHECK_EQ(dims[i], dims_want[i]);
    int again[3] = { 0, 0, 0 };
    CHECK_EQ(mdl_grid_create(rt, again, 0), MDL_ERR_GRID);

    /* coordinates: row-major, as MPI */
    CHECK_EQ(mdl_grid_mycoords(rt, c), 0);
    int rank = -1;
    CHECK_EQ(mdl_grid_rank(rt, c, &rank), 0);
    CHECK_EQ(rank, r);
    for (int k = 0; k < n; k++) {
        int kc[3], back = -1;
        CHECK_EQ(mdl_grid_coords(rt, k, kc), 0);
        int lin = 0;
        for (int i = 0; i < ndims; i++) {
            CHECK(kc[i] >= 0 && kc[i] < dims[i]);
            lin = lin * dims[i] + kc[i];
        }
        CHECK_EQ(lin, k);
        CHECK_EQ(mdl_grid_rank(rt, kc, &back), 0);
        CHECK_EQ(back, k);
    }
    CHECK_EQ(mdl_grid_coords(rt, n, c), MDL_ERR_RANK);
    CHECK_EQ(mdl_get_neighbors(rt, ndims, 1, &rank, &rank), MDL_ERR_ARG);

    /* neighbours: Get_Neighbors agrees with mdl_grid_neighbor and with the
       coordinates (periodic wrap, MDL_PROC_NULL outside) */
    int per[3] = { p0, p1, p2 };
    for (int dir = 0; dir < ndims; dir++)
        for (int disp = 1; disp <= 2; disp++) {
            int src, dst, off[3] = { 0, 0, 0 };
            CHECK_EQ(mdl_get_neighbors(rt, dir, disp, &src, &dst), 0);
            off[dir] = disp;
            CHECK_EQ(mdl_grid_neighbor(rt, off), dst);
            off[dir] = -disp;
            CHECK_EQ(mdl_grid_neighbor(rt, off), src);
            CHECK_EQ(mdl_grid_mycoords(rt, c), 0);
            int want = c[dir] + disp;
            if (want >= dims[dir] && !per[dir])
                CHECK_EQ(dst, MDL_PROC_NULL);
            else {
                int wc[3];
                memcpy(wc, c, sizeof wc);
                wc[dir] = want % dims[dir];
                int wr;
                CHECK_EQ(mdl_grid_rank(rt, wc, &wr), 0);
                CHECK_EQ(dst, wr);
            }
        }
    /* corners: offset (dx, dy) is the instance at coords + offset */
    if (ndims >= 2)
        for (int dx = -1; dx <= 1; dx++)
            for (int dy = -1; dy <= 1; dy++) {
                int off[3] = { dx, dy, 0 };
                int nb = mdl_grid_neighbor(rt, off);
                int x = c[0] + dx, y = c[1] + dy;
                int out = (!p0 && (x < 0 || x >= dims[0])) || (!p1 && (y < 0 || y >= dims[1]));
                if (out) {
                    CHECK_EQ(nb, MDL_PROC_NULL);
                    continue;
                }
                int wc[3] = { (x + dims[0]) % dims[0], (y + dims[1]) % dims[1], ndims > 2 ? c[2] : 0 };
                int wr;
                CHECK_EQ(mdl_grid_rank(rt, wc, &wr), 0);
                CHECK_EQ(nb, wr);
            }

    /* halo exchange: async sends, sync receives, then wait */
    if (ndims >= 2) {
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                t->U[i][j] = i >= 1 && i <= 2 && j >= 1 && j <= 2 ? val(r, i, j) : 0;
        t->INFi = t->INFj = 1;
        t->SUPi = t->SUPj = 2;
        for (int iter = 0; iter < 2; iter++) {    /* the second reuses the cached types */
            const long b1[] = { t->INFi, t->SUPi, t->SUPj, t->SUPj };
            const long b5[] = { t->INFi, t->SUPi, t->INFj - 1, t->INFj - 1 };
            CHECK_EQ(mdl_send(rt, &M[0], t, 0, NULL, 0, b1), 0);
            for (int k = 1; k < 4; k++)
                CHECK_EQ(mdl_send(rt, &M[k], t, 0, NULL, 0, NULL), 0);
            for (int k = 4; k < 8; k++) {
                int nb = mdl_grid_neighbor(rt, M[k].offset);
                int from = mdl_recv(rt, &M[k], t, 0, k == 4 ? b5 : NULL);
                CHECK_EQ(from, nb);
            }
            for (int k = 0; k < 4; k++)
                CHECK_EQ(mdl_wait(rt, &M[k]), 0);
            int s = mdl_grid_neighbor(rt, M[4].offset), no = mdl_grid_neighbor(rt, M[5].offset);
            int w = mdl_grid_neighbor(rt, M[6].offset), e = mdl_grid_neighbor(rt, M[7].offset);
            for (int i = 1; i <= 2; i++) {
                CHECK(t->U[i][0] == (s < 0 ? 0 : val(s, i, 2)));
                CHECK(t->U[i][3] == (no < 0 ? 0 : val(no, i, 1)));
                CHECK(t->U[0][i] == (w < 0 ? 0 : val(w, 2, i)));
                CHECK(t->U[3][i] == (e < 0 ? 0 : val(e, 1, i)));
            }
            CHECK(t->U[0][0] == 0 && t->U[3][3] == 0);
        }
    }
    CHECK_EQ(mdl_barrier(rt), 0);
    CHECK_EQ(mdl_end(rt, t), 0);
    if (r == 0)
        printf("rt_grid %s: OK\n", name);
    return 0;
}

static void errors(void)
{
    mdl_task_desc d = { MDL_ABI, "grid.mdl", 99, 1, tasks, 0, 3, { 0, 0, 0 }, 4, NELEM(MP), MP, 0,
                        NULL, sizeof(T), 0, 0, NULL, 0, NULL };
    void *mem;
    mdl_rt *rt;
    CHECK_EQ(mdl_init(&d, NULL, NULL, &mem, &rt), 0);
    int r = mdl_my_rank(rt);
    int c[3], src, dst;
    CHECK_EQ(mdl_grid_coords(rt, 0, c), MDL_ERR_GRID);
    CHECK_EQ(mdl_get_neighbors(rt, 0, 1, &src, &dst), MDL_ERR_GRID);
    CHECK_EQ(mdl_recv(rt, &M[5], mem, 0, NULL), MDL_ERR_GRID);
    int bad1[3] = { 0, 3, 0 };    /* 3 does not divide 4 */
    CHECK_EQ(mdl_grid_create(rt, bad1, 0), MDL_ERR_GRID);
    int bad2[3] = { -1, 0, 0 };
    CHECK_EQ(mdl_grid_create(rt, bad2, 0), MDL_ERR_GRID);
    int bad3[3] = { 2, 0, 0 };    /* Screate wants all zero */
    CHECK_EQ(mdl_grid_create(rt, bad3, 1), MDL_ERR_GRID);
    int ok[3] = { 0, 0, 0 };
    CHECK_EQ(mdl_grid_create(rt, ok, 1), 0);
    CHECK(ok[0] == 2 && ok[1] == 2 && ok[2] == 1);
    int far[3] = { 5, 0, 0 };
    CHECK_EQ(mdl_grid_rank(rt, far, &src), MDL_ERR_ARG);
    CHECK_EQ(mdl_end(rt, mem), 0);

    d.grid_ndims = 0;    /* not a grid task */
    CHECK_EQ(mdl_init(&d, NULL, NULL, &mem, &rt), 0);
    CHECK_EQ(mdl_grid_create(rt, ok, 0), MDL_ERR_GRID);
    CHECK_EQ(mdl_end(rt, mem), 0);
    if (r == 0)
        printf("rt_grid errors: OK\n");
}

int main(int argc, char **argv)
{
    setenv("MDL_ERRORS", "return", 1);
    MPI_Init(&argc, &argv);
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK_EQ(n, 4);
    run("2x2", 2, 0, 0, 0, 0, (const int[]){ 0, 0 }, (const int[]){ 2, 2 });
    run("2x2-screate", 2, 0, 0, 0, 1, (const int[]){ 0, 0 }, (const int[]){ 2, 2 });
    run("2x2-periodic", 2, 1, 1, 0, 0, (const int[]){ 0, 0 }, (const int[]){ 2, 2 });
    run("1xN", 2, 0, 0, 0, 0, (const int[]){ 1, 0 }, (const int[]){ 1, 4 });
    run("Nx1", 2, 0, 0, 0, 0, (const int[]){ 0, 1 }, (const int[]){ 4, 1 });
    run("Nx1-periodic", 2, 1, 1, 0, 0, (const int[]){ 0, 1 }, (const int[]){ 4, 1 });
    run("2x2x1-3d", 3, 0, 0, 1, 0, (const int[]){ 0, 0, 0 }, (const int[]){ 2, 2, 1 });
    run("1x4x1-3d", 3, 0, 1, 0, 0, (const int[]){ 1, 0, 1 }, (const int[]){ 1, 4, 1 });
    errors();
    MPI_Finalize();
    return 0;
}
