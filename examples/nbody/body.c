/* N-body: direct O(N^2) gravity with Plummer softening, SPMD over the
 * instances of `body`.
 *
 * The particles are shared four ways — Gather then Bcast, Allgather (every
 * instance owns CHUNK particles), GatherV then Bcast and AllgatherV (the
 * instances own different numbers) — and each time the shared array is
 * checked bit for bit and the potential energy, reduced at instance 0, is
 * compared with the same sum computed serially by instance 0.  Then a few
 * leapfrog steps (AllgatherV each step): the energy drift is printed and the
 * final positions, gathered at 0, are compared with a serial leapfrog.
 *
 *   body [steps]        default 20 steps; exit status 0 when every check holds
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bodyMDL.h"

#define EPS2 (0.05 * 0.05)      /* softening length squared */
#define DT 1e-2
#define TOL 1e-12               /* parallel vs serial, relative */
#define DRIFT_MAX 1e-3          /* relative energy drift allowed over the run */

static int me, np, failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "body %d: FAILED: %s\n", me, what);
        failures++;
    }
}

/* splitmix64's finaliser: a good hash of (system, particle, field). */
static double unif(uint64_t seed, int k, int field)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + (uint64_t)k * 8 + (uint64_t)field;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* Particle k of system `seed` of n particles: a pure function, so each
 * instance builds its own particles and instance 0 the whole reference
 * system without any communication. */
static Particle make_particle(uint64_t seed, int k, int n)
{
    Particle p;
    p.x = 2 * unif(seed, k, 0) - 1;
    p.y = 2 * unif(seed, k, 1) - 1;
    p.z = 2 * unif(seed, k, 2) - 1;
    p.vx = 0.1 * (2 * unif(seed, k, 3) - 1);
    p.vy = 0.1 * (2 * unif(seed, k, 4) - 1);
    p.vz = 0.1 * (2 * unif(seed, k, 5) - 1);
    p.m = (0.5 + unif(seed, k, 6)) / n;
    return p;
}

/* Acceleration of all[self] from the n particles of `all` and its
 * potential per unit mass.  The loop order is the same for the parallel
 * and the serial computation, so both give the same bits. */
static double accel(const Particle *all, int n, int self, double a[3])
{
    double ax = 0, ay = 0, az = 0, pot = 0;
    const Particle *p = &all[self];
    for (int j = 0; j < n; j++) {
        if (j == self)
            continue;
        double dx = all[j].x - p->x, dy = all[j].y - p->y, dz = all[j].z - p->z;
        double inv = 1.0 / sqrt(dx * dx + dy * dy + dz * dz + EPS2);
        double w = all[j].m * inv * inv * inv;
        ax += w * dx;
        ay += w * dy;
        az += w * dz;
        pot -= all[j].m * inv;
    }
    a[0] = ax;
    a[1] = ay;
    a[2] = az;
    return pot;
}

static double kinetic(const Particle *p)
{
    return 0.5 * p->m * (p->vx * p->vx + p->vy * p->vy + p->vz * p->vz);
}

/* Serial potential energy of the whole system (instance 0's reference). */
static double serial_potential(const Particle *all, int n)
{
    double u = 0, a[3];
    for (int i = 0; i < n; i++)
        u += 0.5 * all[i].m * accel(all, n, i, a);
    return u;
}

/* counts/displs of the unequal distribution: CHUNK/2 .. CHUNK-1 particles,
 * different on neighbouring instances; returns the total. */
static int unequal_counts(int *counts, int *displs)
{
    int total = 0;
    for (int k = 0; k < np; k++) {
        counts[k] = CHUNK / 2 + (k * 29 + 7) % (CHUNK / 2);
        displs[k] = total;
        total += counts[k];
    }
    return total;
}

/* Fills `mine` with this instance's particles of system `seed` and poisons
 * `particles`, so that a check after a share sees only what arrived. */
static void fill_mine(struct body *t, uint64_t seed, int first, int count, int n)
{
    t->count = count;
    for (int k = 0; k < count; k++)
        t->mine[k] = make_particle(seed, first + k, n);
    memset(t->particles, 0xff, sizeof t->particles);
}

/* After a share: every instance checks the n particles it holds bit for
 * bit, then the potential energy is reduced at 0 and compared with the
 * serial sum of the reference system `ref`. */
static void check_shared(struct body *t, const char *how, uint64_t seed, int n, int first,
                         const Particle *ref, const char *counts_text)
{
    int same = 1;
    for (int g = 0; g < n && same; g++) {
        Particle p = make_particle(seed, g, n);
        same = memcmp(&p, &t->particles[g], sizeof p) == 0;
    }
    char what[96];
    snprintf(what, sizeof what, "%s: shared particles differ from the originals", how);
    check(same, what);

    double u = 0, a[3];
    t->force[0] = t->force[1] = t->force[2] = 0;
    for (int k = 0; k < t->count; k++) {
        double m = t->particles[first + k].m;
        u += 0.5 * m * accel(t->particles, n, first + k, a);
        for (int d = 0; d < 3; d++)
            t->force[d] += m * a[d];
    }
    t->energy = u;
    MDL_Reduce_energy_sum(t);
    MDL_Reduce_force_sum(t);
    if (me == 0) {
        double us = serial_potential(ref, n);
        double rel = fabs(t->total_energy - us) / fabs(us);
        double f = sqrt(t->force_total[0] * t->force_total[0] +
                        t->force_total[1] * t->force_total[1] +
                        t->force_total[2] * t->force_total[2]);
        printf("%-14s N=%-5d U=%.15f serial=%.15f rel.diff=%.1e |sum F|=%.1e%s%s\n",
               how, n, t->total_energy, us, rel, f, counts_text[0] ? " counts=" : "",
               counts_text);
        snprintf(what, sizeof what, "%s: relative difference %.3g > %g", how, rel, TOL);
        check(rel <= TOL, what);
    }
}

static Particle *reference(uint64_t seed, int n)
{
    if (me != 0)
        return NULL;
    Particle *ref = malloc((size_t)n * sizeof *ref);
    if (!ref) {
        perror("malloc");
        exit(1);
    }
    for (int g = 0; g < n; g++)
        ref[g] = make_particle(seed, g, n);
    return ref;
}

/* Kick-drift-kick leapfrog: half a kick with the old acceleration, a drift,
 * the new accelerations from everybody's new positions, half a kick. */
static void kick(Particle *p, const double a[3])
{
    p->vx += 0.5 * DT * a[0];
    p->vy += 0.5 * DT * a[1];
    p->vz += 0.5 * DT * a[2];
}

static void drift(Particle *p)
{
    p->x += DT * p->vx;
    p->y += DT * p->vy;
    p->z += DT * p->vz;
}

/* The same steps serially on the whole reference system. */
static void serial_leapfrog(Particle *all, int n, int steps)
{
    double (*acc)[3] = malloc((size_t)n * sizeof *acc);
    Particle *snap = malloc((size_t)n * sizeof *snap);
    if (!acc || !snap) {
        perror("malloc");
        exit(1);
    }
    for (int i = 0; i < n; i++)
        accel(all, n, i, acc[i]);
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++) {
            kick(&all[i], acc[i]);
            drift(&all[i]);
        }
        /* every particle sees the others' new positions, as after AllgatherV */
        memcpy(snap, all, (size_t)n * sizeof *snap);
        for (int i = 0; i < n; i++) {
            accel(snap, n, i, acc[i]);
            kick(&all[i], acc[i]);
        }
    }
    free(acc);
    free(snap);
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);          /* C11; wall time is enough here */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Total energy (kinetic + potential) of the system in t->particles, reduced
 * at 0; acc receives the own particles' accelerations. */
static double total_energy(struct body *t, int n, int first, double (*acc)[3])
{
    double e = 0;
    for (int k = 0; k < t->count; k++) {
        const Particle *p = &t->particles[first + k];
        e += kinetic(p) + 0.5 * p->m * accel(t->particles, n, first + k, acc[k]);
    }
    t->energy = e;
    MDL_Reduce_energy_sum(t);
    return t->total_energy;
}

int main(int argc, char **argv)
{
    struct body *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    np = MDL_FamilySize(t);
    int steps = argc > 1 ? atoi(argv[1]) : 20;
    if (np > NPROC_MAX || steps < 0) {
        if (me == 0)
            fprintf(stderr, "body: at most %d instances, steps >= 0\n", NPROC_MAX);
        MDL_Barrier(t);                 /* let 0 print before anyone exits */
        MDL_End(t);
        return 2;
    }
    double t0 = now();
    if (me == 0)
        printf("nbody: %d instances, softening %g\n", np, sqrt(EPS2));

    /* 1. equal counts: CHUNK particles each */
    const uint64_t seed_eq = 1;
    int n_eq = np * CHUNK;
    Particle *ref = reference(seed_eq, n_eq);
    fill_mine(t, seed_eq, me * CHUNK, CHUNK, n_eq);
    MDL_Gather_collect(t);                      /* CHUNK from each, by rank, at 0 */
    if (me == 0)
        t->total_count = np * t->count;
    MDL_Bcast_share_count(t);
    MDL_Bcast_share(t);                         /* in place at the root */
    check(t->total_count == n_eq, "gather+bcast: total_count");
    check_shared(t, "gather+bcast", seed_eq, n_eq, me * CHUNK, ref, "");

    fill_mine(t, seed_eq, me * CHUNK, CHUNK, n_eq);
    MDL_Allgather_everyone(t);
    check_shared(t, "allgather", seed_eq, n_eq, me * CHUNK, ref, "");
    free(ref);

    /* 2. unequal counts */
    const uint64_t seed_v = 2;
    int n_v = unequal_counts(t->counts, t->displs);
    char counts_text[NPROC_MAX * 5 + 1] = "";
    for (int k = 0; k < np; k++)
        snprintf(counts_text + strlen(counts_text), sizeof counts_text - strlen(counts_text),
                 "%s%d", k ? "," : "", t->counts[k]);
    int first = t->displs[me];
    ref = reference(seed_v, n_v);
    fill_mine(t, seed_v, first, t->counts[me], n_v);
    MDL_GatherV_collectv(t);
    if (me == 0)
        t->total_count = n_v;
    MDL_Bcast_share_count(t);
    MDL_Bcast_share(t);
    check(t->total_count == n_v, "gatherv+bcast: total_count");
    check_shared(t, "gatherv+bcast", seed_v, n_v, first, ref, counts_text);

    fill_mine(t, seed_v, first, t->counts[me], n_v);
    MDL_AllgatherV_everyonev(t);
    check_shared(t, "allgatherv", seed_v, n_v, first, ref, counts_text);

    /* 3. leapfrog on the unequal system, starting from the shared state */
    double acc[CHUNK][3];
    double e0 = total_energy(t, n_v, first, acc);
    for (int s = 0; s < steps; s++) {
        for (int k = 0; k < t->count; k++) {
            kick(&t->mine[k], acc[k]);
            drift(&t->mine[k]);
        }
        MDL_AllgatherV_everyonev(t);
        for (int k = 0; k < t->count; k++)
            accel(t->particles, n_v, first + k, acc[k]);
        for (int k = 0; k < t->count; k++)
            kick(&t->mine[k], acc[k]);
    }
    /* the energy needs the final velocities in `particles` too */
    MDL_AllgatherV_everyonev(t);
    double e1 = total_energy(t, n_v, first, acc);
    memset(t->particles, 0xff, sizeof t->particles);
    MDL_GatherV_collectv(t);
    if (me == 0) {
        serial_leapfrog(ref, n_v, steps);
        double dev = 0, scale = 0;
        for (int g = 0; g < n_v; g++) {
            const double *p = &t->particles[g].x, *q = &ref[g].x;
            for (int d = 0; d < 6; d++) {
                dev = fmax(dev, fabs(p[d] - q[d]));
                scale = fmax(scale, fabs(q[d]));
            }
        }
        double drift_rel = fabs(e1 - e0) / fabs(e0);
        printf("leapfrog       N=%-5d %d steps of %g: E0=%.12f E=%.12f drift=%.1e "
               "max|x,v - serial|=%.1e\n", n_v, steps, DT, e0, e1, drift_rel, dev);
        char what[96];
        snprintf(what, sizeof what, "leapfrog: deviation from serial %.3g", dev / scale);
        check(dev / scale <= TOL, what);
        snprintf(what, sizeof what, "leapfrog: energy drift %.3g > %g", drift_rel, DRIFT_MAX);
        check(drift_rel <= DRIFT_MAX, what);
        printf("nbody: %s in %.2f s\n", failures ? "FAILED" : "ok", now() - t0);
    }
    free(ref);
    MDL_End(t);
    return failures ? 1 : 0;
}
