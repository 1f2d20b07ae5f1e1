/* The radius-2 star stencil, hand-written MPI (the reference), as the
 * Parallel Research Kernels write it:
 *     stencil [grid size] [iterations]
 * a Cartesian communicator (not periodic: MPI_PROC_NULL at the edges);
 * each exchange posts the four receives into buffers of their own, packs
 * the four edges into others, sends them, one MPI_Waitall, and unpacks
 * into the halo.  Packed, not vector types straight from the array: with
 * MPICH 4.0.2 (ch4:ucx, no yaksa) vector types made the whole run 1.17-1.25
 * times slower (n = 4000, 4 instances; docs/performance.md): a contiguous
 * message is read by its receiver alone, a derived datatype needs its
 * sender again.  The tile is allocated to its size at run time.  Same
 * computation, timing and check as the MeDLey program (stencil.h). */
#include <mpi.h>
#include <string.h>
#include "../bench.h"
#include "stencil.h"

/* the name of the results: ../stencil_rt includes this file under its own */
#ifndef ST_BENCH
#define ST_BENCH "stencil"
#endif

/* RADIUS columns from x on, to or from a buffer of ty rows of RADIUS. */
static void columns(const st_run *s, double *in, int x, double *buf, int out)
{
    for (long y = 0; y < s->ty; y++) {
        double *p = &in[(RADIUS + y) * s->ld + RADIUS + x];
        for (int r = 0; r < RADIUS; r++) {
            if (out)
                buf[y * RADIUS + r] = p[r];
            else
                p[r] = buf[y * RADIUS + r];
        }
    }
}

/* RADIUS rows from y on, to or from a buffer of RADIUS rows of tx. */
static void rows(const st_run *s, double *in, int y, double *buf, int out)
{
    for (long r = 0; r < RADIUS; r++) {
        double *p = &in[(RADIUS + y + r) * s->ld + RADIUS];
        if (out)
            memcpy(buf + r * s->tx, p, sizeof *p * (size_t)s->tx);
        else
            memcpy(p, buf + r * s->tx, sizeof *p * (size_t)s->tx);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np, me, dims[2] = { 0, 0 }, periods[2] = { 0, 0 }, coords[2];
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Dims_create(np, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &me);
    MPI_Cart_coords(cart, me, 2, coords);
    st_run s;
    if (!st_setup(&s, argc, argv, dims, coords))
        MPI_Abort(MPI_COMM_WORLD, 1);
    int west, east, south, north;
    MPI_Cart_shift(cart, 0, 1, &west, &east);
    MPI_Cart_shift(cart, 1, 1, &south, &north);

    int cn = RADIUS * s.ty, rn = RADIUS * s.tx;    /* doubles of a column / row edge */
    double *in = malloc(sizeof *in * (size_t)s.ld * (size_t)(s.ty + 2 * RADIUS));
    double *out = malloc(sizeof *out * (size_t)s.tx * (size_t)s.ty);
    double *cbuf = malloc(sizeof *cbuf * 4 * (size_t)cn), *rbuf = malloc(sizeof *rbuf * 4 * (size_t)rn);
    if (!in || !out || !cbuf || !rbuf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    /* receive from West, East; send East, West (the same for rows) */
    double *c_w = cbuf, *c_e = cbuf + cn, *c_to_e = cbuf + 2 * cn, *c_to_w = cbuf + 3 * cn;
    double *r_s = rbuf, *r_n = rbuf + rn, *r_to_n = rbuf + 2 * rn, *r_to_s = rbuf + 3 * rn;
    enum { TE, TW, TN, TS };    /* tag = direction of travel */
    st_fill(&s, in, out);
    double t0 = 0;
    for (int k = 0; k <= s.iters; k++) {
        if (k == 1) {
            MPI_Barrier(cart);
            t0 = bench_now();
        }
        MPI_Request rq[8];
        MPI_Status st[8];   /* not MPI_STATUSES_IGNORE: GCC 12 warns on MPICH's (false positive) */
        MPI_Irecv(c_w, cn, MPI_DOUBLE, west, TE, cart, &rq[0]);
        MPI_Irecv(c_e, cn, MPI_DOUBLE, east, TW, cart, &rq[1]);
        MPI_Irecv(r_s, rn, MPI_DOUBLE, south, TN, cart, &rq[2]);
        MPI_Irecv(r_n, rn, MPI_DOUBLE, north, TS, cart, &rq[3]);
        columns(&s, in, s.tx - RADIUS, c_to_e, 1);
        columns(&s, in, 0, c_to_w, 1);
        rows(&s, in, s.ty - RADIUS, r_to_n, 1);
        rows(&s, in, 0, r_to_s, 1);
        MPI_Isend(c_to_e, cn, MPI_DOUBLE, east, TE, cart, &rq[4]);
        MPI_Isend(c_to_w, cn, MPI_DOUBLE, west, TW, cart, &rq[5]);
        MPI_Isend(r_to_n, rn, MPI_DOUBLE, north, TN, cart, &rq[6]);
        MPI_Isend(r_to_s, rn, MPI_DOUBLE, south, TS, cart, &rq[7]);
        MPI_Waitall(8, rq, st);
        if (west != MPI_PROC_NULL)
            columns(&s, in, -RADIUS, c_w, 0);
        if (east != MPI_PROC_NULL)
            columns(&s, in, s.tx, c_e, 0);
        if (south != MPI_PROC_NULL)
            rows(&s, in, -RADIUS, r_s, 0);
        if (north != MPI_PROC_NULL)
            rows(&s, in, s.ty, r_n, 0);
        st_step(&s, in, out);
    }
    double t = bench_now() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
    int rc = bench_kernel_end(ST_BENCH, "points", me, s.n, tmax, s.iters,
                              st_check(&s, out, s.iters + 1));
    MPI_Comm_free(&cart);
    free(in);
    free(out);
    free(cbuf);
    free(rbuf);
    MPI_Finalize();
    return rc;
}
