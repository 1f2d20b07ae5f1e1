/* rt_big.c — a task struct of 4096 x 4096 doubles (128 MiB): allocated
 * zeroed and aligned, a strided column and a row of it exchanged, the
 * datatypes reused over repeated calls.  mpiexec -n 2 ./rt_big */
#include <string.h>

#include "rt_test.h"

#define NB 4096

typedef struct T {
    double U[NB][NB];
    int lo, hi;
    void *rt;
} T;

static const char *const tasks[] = { "big" };
static const mdl_item_desc u_item[] = { ITEM2(T, U, td_double, NB, NB, 0) };
static const long col_b[] = { 0, NB - 1, 7, 7 }, col_into[] = { 0, NB - 1, NB - 1, NB - 1 };

static const mdl_msg_desc M[] = {
    { .name = "col", .fn = "MDL_SendTo_big_col", .index = 0, .is_send = 1, .channel = 0,
      .peer_task = 0, .peer_kind = MDL_PEER_ONE, .nitems = 1, .items = u_item, .npairs = 2,
      .fixed_bounds = col_b },
    { .name = "col", .fn = "MDL_RecvFrom_big_col", .index = 1, .is_send = 0, .channel = 0,
      .peer_task = 0, .peer_kind = MDL_PEER_ONE, .nitems = 1, .items = u_item, .npairs = 2,
      .fixed_bounds = col_into },
    { .name = "row", .fn = "MDL_SendTo_big_row", .index = 2, .is_send = 1, .async = 1,
      .channel = 1, .peer_task = 0, .peer_kind = MDL_PEER_ONE, .nitems = 1, .items = u_item,
      .npairs = 2, .fixed_bounds = NULL },
    { .name = "row", .fn = "MDL_RecvFrom_big_row", .index = 3, .is_send = 0, .channel = 1,
      .peer_task = 0, .peer_kind = MDL_PEER_ONE, .nitems = 1, .items = u_item, .npairs = 2,
      .fixed_bounds = NULL },
};
static const mdl_msg_desc *const MP[] = { &M[0], &M[1], &M[2], &M[3] };

int main(int argc, char **argv)
{
    mdl_task_desc d = { MDL_ABI, "big.mdl", 4096, 1, tasks, 0, 0, { 0, 0, 0 }, 2, NELEM(MP), MP, 0,
                        NULL, sizeof(T), 0, 0, NULL, 0, NULL };
    void *mem;
    mdl_rt *rt;
    CHECK_EQ(mdl_init(&d, &argc, &argv, &mem, &rt), 0);
    T *t = mem;
    CHECK(((size_t)mem & 63) == 0);
    for (size_t i = 0; i < NB; i += 511)
        for (size_t j = 0; j < NB; j += 257)
            CHECK(t->U[i][j] == 0.0);
    int r = mdl_my_rank(rt);
    CHECK_EQ(mdl_task_size(rt, 0), 2);
    for (int iter = 0; iter < 3; iter++) {
        if (r == 0) {
            for (int i = 0; i < NB; i++)
                t->U[i][7] = i + iter;
            CHECK_EQ(mdl_send(rt, &M[0], t, 1, NULL, 0, NULL), 0);
            for (int j = 0; j < NB; j++)
                t->U[NB / 2][j] = -j - iter;
            const long b[] = { NB / 2, NB / 2, 0, NB - 1 };
            CHECK_EQ(mdl_send(rt, &M[2], t, 1, NULL, 0, b), 0);
            CHECK_EQ(mdl_wait(rt, &M[2]), 0);
        } else {
            CHECK_EQ(mdl_recv(rt, &M[1], t, 0, NULL), 0);
            for (int i = 0; i < NB; i++)
                CHECK(t->U[i][NB - 1] == i + iter);
            const long b[] = { 3, 3, 0, NB - 1 };
            CHECK_EQ(mdl_recv(rt, &M[3], t, MDL_ANY, b), 0);
            for (int j = 0; j < NB; j++)
                CHECK(t->U[3][j] == -j - iter);
            CHECK(t->U[4][0] == 0.0 && t->U[2][NB - 2] == 0.0);
        }
    }
    CHECK_EQ(mdl_end(rt, t), 0);
    if (r == 0)
        printf("rt_big: OK\n");
    return 0;
}
