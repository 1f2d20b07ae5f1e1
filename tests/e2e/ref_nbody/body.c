#include <stdio.h>
#include <math.h>   /* fabs only: the suite links no libm */
#include <string.h>
#include "bodyMDL.h"

static void fill(Particle *p, int owner, int k)
{
    p->x = owner + 0.1 * k; p->y = 2.0 * owner - k; p->z = 0.5 * k; p->m = 1.0 + owner + k;
}

int main(int argc, char **argv)
{
    struct body *t;
    MDL_Init(&t, &argc, &argv);
    int me = MDL_MyRank(t), n = MDL_FamilySize(t);
    int bad = 0;
    for (int k = 0; k < LOCAL; k++) fill(&t->mine[k], me, k);
    t->count = LOCAL;
    /* Gather LOCAL particles from everyone at root 0 */
    MDL_Gather_g1(t);
    if (me == 0)
        for (int r = 0; r < n; r++)
            for (int k = 0; k < LOCAL; k++) {
                Particle e; fill(&e, r, k);
                if (memcmp(&e, &t->particles[r * LOCAL + k], sizeof e)) { printf("gather bad %d %d\n", r, k); bad = 1; }
            }
    /* GatherV: instance r contributes r%LOCAL+1 particles */
    memset(t->particles, 0, sizeof t->particles);
    int off = 0;
    for (int r = 0; r < n; r++) { t->counts[r] = r % LOCAL + 1; t->displs[r] = off; off += t->counts[r]; }
    int total = off;
    MDL_GatherV_g2(t);
    if (me == 0)
        for (int r = 0; r < n; r++)
            for (int k = 0; k < t->counts[r]; k++) {
                Particle e; fill(&e, r, k);
                if (memcmp(&e, &t->particles[t->displs[r] + k], sizeof e)) { printf("gatherv bad %d %d\n", r, k); bad = 1; }
            }
    /* Bcast in place from root 0 */
    if (me != 0) memset(t->particles, 0, sizeof t->particles);
    t->total = total;
    MDL_Bcast_b1(t);
    for (int r = 0; r < n; r++)
        for (int k = 0; k < t->counts[r]; k++) {
            Particle e; fill(&e, r, k);
            if (memcmp(&e, &t->particles[t->displs[r] + k], sizeof e)) { printf("%d: bcast bad %d %d\n", me, r, k); bad = 1; }
        }
    /* Allgather */
    MDL_Allgather_a1(t);
    for (int r = 0; r < n; r++)
        for (int k = 0; k < LOCAL; k++) {
            Particle e; fill(&e, r, k);
            if (memcmp(&e, &t->all[r * LOCAL + k], sizeof e)) { printf("%d: allgather bad %d %d\n", me, r, k); bad = 1; }
        }
    /* forces on my particles from all, potential energy */
    t->energy = 0; t->force[0] = t->force[1] = t->force[2] = 0;
    for (int k = 0; k < LOCAL; k++)
        for (int j = 0; j < n * LOCAL; j++) {
            Particle *a = &t->mine[k], *b = &t->all[j];
            double dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
            double r2 = dx * dx + dy * dy + dz * dz + 0.01;
            double f = a->m * b->m / (r2 * r2);
            t->force[0] += f * dx; t->force[1] += f * dy; t->force[2] += f * dz;
            t->energy -= a->m * b->m / r2;
        }
    double myE = t->energy;
    MDL_Reduce_r1(t);
    MDL_Reduce_r2(t);
    MDL_Reduce_r3(t);
    MDL_Allreduce_r4(t);
    /* serial check of the reductions from the gathered data */
    double E = 0, F[3] = {0, 0, 0}, Emax = -1e300, Emin = 1e300;
    for (int i = 0; i < n * LOCAL; i++) {
        double e = 0;
        for (int j = 0; j < n * LOCAL; j++) {
            Particle *a = &t->all[i], *b = &t->all[j];
            double dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
            double r2 = dx * dx + dy * dy + dz * dz + 0.01;
            double f = a->m * b->m / (r2 * r2);
            F[0] += f * dx; F[1] += f * dy; F[2] += f * dz;
            e -= a->m * b->m / r2;
        }
        E += e;
        if (i % LOCAL == LOCAL - 1) { /* per-instance energy: sum over its LOCAL particles */
            double ei = 0;
            for (int q = i - LOCAL + 1; q <= i; q++) {
                for (int j = 0; j < n * LOCAL; j++) {
                    Particle *a = &t->all[q], *b = &t->all[j];
                    double dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
                    ei -= a->m * b->m / (dx * dx + dy * dy + dz * dz + 0.01);
                }
            }
            if (ei > Emax) Emax = ei;
            if (ei < Emin) Emin = ei;
        }
    }
    if (me == 0) {
        if (fabs(t->total_energy - E) > 1e-9 * fabs(E)) { printf("reduce E %g vs %g\n", t->total_energy, E); bad = 1; }
        for (int d = 0; d < 3; d++)
            if (fabs(t->force_total[d] - F[d]) > 1e-9 * (1 + fabs(F[d]))) { printf("reduce F%d %g vs %g\n", d, t->force_total[d], F[d]); bad = 1; }
    }
    if (me == 1 % n && fabs(t->emax - Emax) > 1e-9 * fabs(Emax)) { printf("reduce max %g vs %g\n", t->emax, Emax); bad = 1; }
    if (fabs(t->emin - Emin) > 1e-9 * fabs(Emin)) { printf("allreduce min %g vs %g\n", t->emin, Emin); bad = 1; }
    if (t->energy != myE) { printf("energy clobbered\n"); bad = 1; }
    MDL_Barrier(t);
    if (me == 0) printf("nbody %s n=%d E=%.6f\n", bad ? "FAILED" : "ok", n, t->total_energy);
    MDL_End(t);
    return bad;
}
