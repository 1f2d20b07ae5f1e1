/* rtsize: three phases, each with a shape (a, b) all instances agree on,
 * set with MDL_Allocate; every halo cell, block element, struct and
 * collective result is checked.  Phase 2 changes the shape (storage
 * replaced, zeroed), phase 3 keeps it (storage kept, contents too);
 * `ps`, sized by k alone, keeps its storage throughout. */
#include <stdio.h>
#include <string.h>
#include "cellMDL.h"

static int me;

static int fail(const char *what, int phase)
{
    fprintf(stderr, "cell %d: phase %d: %s\n", me, phase, what);
    return 1;
}

static double val(int rank, int i, int j, int phase)
{
    return 100000.0 * phase + 1000.0 * rank + 10 * i + j;
}

static int at(struct cell *t, const int *dims, const int *c, int dx, int dy)
{
    int nc[2] = { c[0] + dx, c[1] + dy }, r;
    if (nc[0] < 0 || nc[0] >= dims[0] || nc[1] < 0 || nc[1] >= dims[1])
        return MDL_PROC_NULL;
    if (MDL_Grid_Rank(t, nc, &r) != MDL_SUCCESS)
        return -100;
    return r;
}

/* One phase: fill, exchange, check. */
static int phase(struct cell *t, int ph, const int *dims, const int *c, int n)
{
    int a = t->a, b = t->b;
    /* the 2-D views cellMDL.h gives (cell_MDL_View_<v>): each element where
     * the row-major storage has it */
    double (*U)[b + 2] = cell_MDL_View_U(t);
    double (*B)[b] = cell_MDL_View_B(t);
    double (*R)[b + 1] = cell_MDL_View_R(t);
    for (int i = 0; i < a + 2; i++)
        for (int j = 0; j < b + 2; j++)
            if (&cell_MDL_View_U(t)[i][j] != t->U + i * (b + 2) + j ||
                (i < a + 1 && j < b + 1 && &R[i][j] != t->R + i * (b + 1) + j) ||
                (i < a && j < b && &B[i][j] != t->B + i * b + j))
                return fail("a view's element is not the storage's", ph);
    for (int i = 0; i < a + 2; i++)
        for (int j = 0; j < b + 2; j++) {
            if (ph != 3 && U[i][j] != 0)
                return fail("new storage not zeroed", ph);
            U[i][j] = (i >= 1 && i <= a && j >= 1 && j <= b) ? val(me, i, j, ph) : -1;
        }
    for (int i = 0; i < a + 1; i++)
        for (int j = 0; j < b + 1; j++)
            R[i][j] = -1;
    for (int i = 0; i < a; i++)
        for (int j = 0; j < b; j++)
            B[i][j] = val(me, i, j, ph) + 0.5;
    for (int i = 0; i < t->k; i++) {
        t->ps[i].id = 10 * me + i + ph;
        for (int d = 0; d < 3; d++)
            t->ps[i].x[d] = val(me, i, d, ph);
    }
    int north = at(t, dims, c, 0, 1), south = at(t, dims, c, 0, -1);
    int east = at(t, dims, c, 1, 0), west = at(t, dims, c, -1, 0);
    int sw = at(t, dims, c, -1, -1);
    if (MDL_SendTo_cell_ns(t) < 0 || MDL_SendTo_cell_sn(t) < 0 || MDL_SendTo_cell_we(t) < 0 ||
        MDL_SendTo_cell_ew(t) < 0 || MDL_SendTo_cell_dg(t) < 0)
        return fail("sends", ph);
    /* the block lands at rows 1..a, columns 0..b-1 of R */
    if (MDL_RecvFrom_cell_ns(t) != MDL_SUCCESS || MDL_RecvFrom_cell_sn(t) != MDL_SUCCESS ||
        MDL_RecvFrom_cell_we(t) != MDL_SUCCESS || MDL_RecvFrom_cell_ew(t) != MDL_SUCCESS ||
        MDL_RecvFrom_cell_dg(t, 1, a, 0, b - 1) != MDL_SUCCESS)
        return fail("receives", ph);
    if (MDL_nsWait(t) < 0 || MDL_snWait(t) < 0 || MDL_weWait(t) < 0 || MDL_ewWait(t) < 0 ||
        MDL_dgWait(t) < 0)
        return fail("waits", ph);
    for (int i = 1; i <= a; i++) {
        if (U[i][0] != (south >= 0 ? val(south, i, b, ph) : -1))
            return fail("south halo", ph);
        if (U[i][b + 1] != (north >= 0 ? val(north, i, 1, ph) : -1))
            return fail("north halo", ph);
    }
    for (int j = 1; j <= b; j++) {
        if (U[0][j] != (west >= 0 ? val(west, a, j, ph) : -1))
            return fail("west halo", ph);
        if (U[a + 1][j] != (east >= 0 ? val(east, 1, j, ph) : -1))
            return fail("east halo", ph);
    }
    if (U[0][0] != -1 || U[0][b + 1] != -1 || U[a + 1][0] != -1 || U[a + 1][b + 1] != -1)
        return fail("corner written", ph);
    for (int i = 0; i < a + 1; i++)
        for (int j = 0; j < b + 1; j++) {
            int in = i >= 1 && j <= b - 1;
            double want = in && sw >= 0 ? val(sw, i - 1, j, ph) + 0.5 : -1;
            if (R[i][j] != want)
                return fail("block", ph);
        }
    for (int i = 0; i < t->k; i++) {
        int src = sw >= 0 ? sw : me;   /* nothing arrives from outside the grid */
        if (t->ps[i].id != 10 * src + i + ph)
            return fail("struct id", ph);
        for (int d = 0; d < 3; d++)
            if (t->ps[i].x[d] != val(src, i, d, ph))
                return fail("struct field", ph);
    }

    for (int j = 0; j < b; j++)
        t->row[j] = val(me, 0, j, ph);
    if (MDL_Allgather_g(t) != MDL_SUCCESS)
        return fail("Allgather", ph);
    for (int r = 0; r < n; r++)
        for (int j = 0; j < b; j++)
            if (t->all[r * b + j] != val(r, 0, j, ph))
                return fail("Allgather result", ph);
    if (MDL_Allreduce_s(t) != MDL_SUCCESS)
        return fail("Allreduce", ph);
    for (int j = 0; j < b; j++) {
        double want = 0;
        for (int r = 0; r < n; r++)
            want += val(r, 0, j, ph);
        if (t->tot[j] != want)
            return fail("Allreduce result", ph);
    }
    memset(t->all, 0, sizeof(double) * (size_t)(b * n));
    t->m = b - 1;
    if (MDL_Gather_gt(t) != MDL_SUCCESS)
        return fail("Gather", ph);
    for (int r = 0; me == 0 && r < n; r++)
        for (int j = 0; j < b - 1; j++)
            if (t->all[r * (b - 1) + j] != val(r, 0, j + 1, ph))
                return fail("Gather result", ph);
    return 0;
}

int main(int argc, char **argv)
{
    struct cell *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int n = MDL_FamilySize(t);
    int dims[2] = { 0, 0 }, c[2];
    if (MDL_Grid_Create(t, dims) != MDL_SUCCESS || MDL_Grid_Mycoords(t, c) != MDL_SUCCESS)
        return fail("grid", 0);
    static const int shapes[3][2] = { { 3, 5 }, { 7, 2 }, { 7, 2 } };
    t->k = 2;
    t->n = n;
    void *ps = NULL, *u = NULL;
    for (int ph = 1; ph <= 3; ph++) {
        t->a = shapes[ph - 1][0];
        t->b = shapes[ph - 1][1];
        if (MDL_Allocate(t) != MDL_SUCCESS)
            return fail("MDL_Allocate", ph);
        if (ph > 1 && t->ps != ps)
            return fail("ps moved though its size did not change", ph);
        if (ph == 3 && t->U != u)
            return fail("U moved though its shape did not change", ph);
        if (((unsigned long)t->U & 4095) != 0)
            return fail("storage not page-aligned", ph);
        ps = t->ps;
        u = t->U;
        if (phase(t, ph, dims, c, n))
            return 1;
        if (MDL_Barrier(t) != MDL_SUCCESS)
            return fail("barrier", ph);
    }
    if (me == 0)
        printf("rtsize ok on %d x %d in 3 phases\n", dims[0], dims[1]);
    MDL_End(t);
    return 0;
}
