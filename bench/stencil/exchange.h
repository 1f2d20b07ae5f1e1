/* The exchange and the timed run of the MeDLey stencil programs
 * (stencil.c here and in ../stencil_rt, whose specs name the task, its
 * variables and messages alike).  An exchange: the four receives posted,
 * the four edges sent straight from the array (strided columns East/West,
 * rows North/South), a Wait per direction.  Included after the generated
 * header, stencil.h and bench.h. */
#ifndef MEDLEY_BENCH_STENCIL_EXCHANGE_H
#define MEDLEY_BENCH_STENCIL_EXCHANGE_H

static void exchange(struct stencil *t)
{
    MDL_RecvFrom_stencil_east(t);
    MDL_RecvFrom_stencil_west(t);
    MDL_RecvFrom_stencil_north(t);
    MDL_RecvFrom_stencil_south(t);
    MDL_SendTo_stencil_east(t);
    MDL_SendTo_stencil_west(t);
    MDL_SendTo_stencil_north(t);
    MDL_SendTo_stencil_south(t);
    MDL_eastWait(t);
    MDL_westWait(t);
    MDL_northWait(t);
    MDL_southWait(t);
}

/* The run once the tile is set (its interior, s->ld): one untimed
 * iteration, then s->iters timed; the slowest instance's time printed
 * under `name` by instance 0, the MDL_End.  The exit status. */
static int st_mdl_run(struct stencil *t, st_run *s, double *in, const char *name)
{
    t->X0 = t->Y0 = RADIUS;
    t->X1 = RADIUS + s->tx - 1;
    t->Y1 = RADIUS + s->ty - 1;
    double *out = malloc(sizeof *out * (size_t)s->tx * (size_t)s->ty);
    if (!out)
        return 1;
    st_fill(s, in, out);
    for (int k = 0; k <= s->iters; k++) {
        if (k == 1) {
            MDL_Barrier(t);
            t->t = bench_now();
        }
        exchange(t);
        st_step(s, in, out);
    }
    t->t = bench_now() - t->t;
    MDL_Reduce_slowest(t);
    int rc = bench_kernel_end(name, "points", MDL_MyRank(t), s->n, t->tmax, s->iters,
                              st_check(s, out, s->iters + 1));
    free(out);
    MDL_End(t);
    return rc;
}

#endif
