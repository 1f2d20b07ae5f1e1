/* One step of the Vlasov code on the generated stubs: the slabs an
 * instance owns, the two transpositions, and the step between them.  Used
 * by vlasov.c and, beside the hand-written MPI step of
 * bench/vlasov/vlasov_mpi.h, by bench/vlasov/side.c (bench/hosts.sh). */
#ifndef VLASOV_MDL_H
#define VLASOV_MDL_H

#include <time.h>
#include "vlasovMDL.h"
#include "vlasov_numerics.h"

static inline double vlasov_mdl_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What instance me of np owns: rows v0..v1 in the x phase, columns x0..x1
 * in the v phase. */
typedef struct slabs {
    int np, me, lv, lx, v0, v1, x0, x1;
} slabs;

static inline slabs slabs_of(const vlasov_mesh *m, int np, int me)
{
    slabs s = { np, me, m->nv / np, m->nx / np, 0, 0, 0, 0 };
    s.v0 = me * s.lv;
    s.v1 = s.v0 + s.lv - 1;
    s.x0 = me * s.lx;
    s.x1 = s.x0 + s.lx - 1;
    return s;
}

/* x phase -> v phase: instance q gets my rows of its columns, I get its
 * rows of mine.  The receives are posted first, then the sends (all
 * asynchronous, the spec's defaults for these messages); partners are
 * taken from my successor on, so that not everyone starts with the same. */
static inline void to_vslabs(struct vlasov *t, const slabs *s)
{
    for (int k = 1; k < s->np; k++) {
        int q = (s->me + k) % s->np;
        MDL_RecvFrom_vlasov_into_vslab(t, q, q * s->lv, q * s->lv + s->lv - 1, s->x0, s->x1);
    }
    for (int k = 1; k < s->np; k++) {
        int q = (s->me + k) % s->np;
        MDL_SendTo_vlasov_to_vslab(t, q, s->v0, s->v1, q * s->lx, q * s->lx + s->lx - 1);
    }
    MDL_into_vslabWait(t);
    MDL_to_vslabWait(t);
}

/* v phase -> x phase: the same blocks going back. */
static inline void to_xslabs(struct vlasov *t, const slabs *s)
{
    for (int k = 1; k < s->np; k++) {
        int q = (s->me + k) % s->np;
        MDL_RecvFrom_vlasov_into_xslab(t, q, s->v0, s->v1, q * s->lx, q * s->lx + s->lx - 1);
    }
    for (int k = 1; k < s->np; k++) {
        int q = (s->me + k) % s->np;
        MDL_SendTo_vlasov_to_xslab(t, q, q * s->lv, q * s->lv + s->lv - 1, s->x0, s->x1);
    }
    MDL_into_xslabWait(t);
    MDL_to_xslabWait(t);
}

/* One step of the Strang splitting on t->f; at instance 0 *W is the
 * electric energy of the step and *Etot the total energy.  Returns the
 * time spent in MDL calls. */
static inline double vlasov_mdl_step(struct vlasov *t, vlasov_mesh *m, const slabs *s,
                                     double *W, double *Etot)
{
    double (*f)[m->nx] = vlasov_MDL_View_f(t);
    double t_comm = 0, c0;
    advect_x(m, f, s->v0, s->v1, DT / 2);

    t->energy = moments(m, f, s->v0, s->v1, t->rho);
    c0 = vlasov_mdl_now();
    MDL_Reduce_density(t);
    MDL_Reduce_energy_sum(t);
    t_comm += vlasov_mdl_now() - c0;
    if (s->me == 0) {
        *W = solve_field(m, t->rho_total, t->efield);
        *Etot = t->total_energy + *W;
    }
    c0 = vlasov_mdl_now();
    MDL_Bcast_field(t);
    to_vslabs(t, s);
    t_comm += vlasov_mdl_now() - c0;

    advect_v(m, f, s->x0, s->x1, t->efield, DT);

    c0 = vlasov_mdl_now();
    to_xslabs(t, s);
    t_comm += vlasov_mdl_now() - c0;

    advect_x(m, f, s->v0, s->v1, DT / 2);
    return t_comm;
}

#endif
