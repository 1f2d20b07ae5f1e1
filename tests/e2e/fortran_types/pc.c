/* pc.c — the C side of fortran_types: the values a sender writes are a
 * function of its instance (fill), the receiver checks them (check); the
 * Fortran program pf.f90 does the same with the same formulas, so each
 * message is read by the other language than the one that wrote it. */
#include <stdio.h>
#include <string.h>

#include "pMDL.h"

static int me, bad;
static int buf[10];

#define CHECK(cond, what)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("pc %d: %s wrong\n", me, what);                                          \
            bad = 1;                                                                       \
        }                                                                                  \
    } while (0)

static double a_val(int s, int i, int j) { return 100.0 * i + j + 1000.0 * s; }
static double b_val(int s, int i, int j, int k) { return 1000.0 * s + 100.0 * i + 10.0 * j + k; }

/* Everything instance s sends. */
static void fill(struct p *t, int s)
{
    t->c = (char)('A' + s);
    t->sc = (signed char)(-5 - s);
    t->uc = (unsigned char)(200 + s);
    t->s = (short)(-300 - s);
    t->us = (unsigned short)(60000 + s);
    t->k = -7 - s;
    t->u = 4000000000u + (unsigned)s;
    t->l = -9000000000L - s;
    t->ul = 18000000000000000000UL + (unsigned long)s;
    t->ll = -(1LL << 40) - s;
    t->ull = 18446744073709551615ULL - (unsigned long long)s;
    t->f = 1.5f + (float)s;
    t->d = 2.25 + s;
    memset(t->word, 0, sizeof t->word);
    snprintf(t->word, sizeof t->word, "hello %d", s);
    for (int j = 0; j < 2; j++) {
        Cell *c = &t->cells[j];
        c->p.x = 10 * j + s + 0.5;
        c->p.y = -(10 * j + s);
        c->tag = 100 + j + s;
        memset(c->name, 0, sizeof c->name);
        snprintf(c->name, sizeof c->name, "cell%d%d", j, s);
        for (int k = 0; k < 3; k++)
            c->flags[k] = (unsigned char)(250 + k - s);
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            t->A[i][j] = a_val(s, i, j);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            t->Q[i][j] = a_val(s, i, j);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                t->B[i][j][k] = b_val(s, i, j, k);
    for (int i = 0; i < 10; i++)
        buf[i] = 50 + i + s;
    t->ptr = buf;
}

/* Before receiving: everything -1 (or 0 for the characters). */
static void clear(struct p *t)
{
    memset(&t->c, 0, (size_t)((char *)&t->ptr - (char *)&t->c));
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            t->A[i][j] = -1;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            t->Q[i][j] = -1;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                t->B[i][j][k] = -1;
    for (int i = 0; i < 10; i++)
        buf[i] = -1;
    t->ptr = buf;
}

static void check_scalars(struct p *t, int s)
{
    char w[16] = { 0 };
    snprintf(w, sizeof w, "hello %d", s);
    CHECK(t->c == 'A' + s && t->sc == -5 - s && t->uc == 200 + s && t->s == -300 - s &&
              t->us == 60000 + s, "char/short");
    CHECK(t->k == -7 - s && t->u == 4000000000u + (unsigned)s && t->l == -9000000000L - s,
          "int/unsigned/long");
    CHECK(t->ul == 18000000000000000000UL + (unsigned long)s && t->ll == -(1LL << 40) - s &&
              t->ull == 18446744073709551615ULL - (unsigned long long)s, "long long");
    CHECK(t->f == 1.5f + (float)s && t->d == 2.25 + s, "float/double");
    CHECK(memcmp(t->word, w, sizeof w) == 0, "word");
}

static void check_cells(const Cell *cells, int s)
{
    for (int j = 0; j < 2; j++) {
        const Cell *c = &cells[j];
        char name[8] = { 0 };
        snprintf(name, sizeof name, "cell%d%d", j, s);
        CHECK(c->p.x == 10 * j + s + 0.5 && c->p.y == -(10 * j + s) && c->tag == 100 + j + s,
              "cell");
        CHECK(memcmp(c->name, name, sizeof name) == 0, "cell name");
        for (int k = 0; k < 3; k++)
            CHECK(c->flags[k] == (unsigned char)(250 + k - s), "cell flags");
    }
}

/* The synchronous messages, in order. */
enum { SCALARS, STRUCTS, WHOLE, BLOCK, COLUMN, CUBE, POINTED, NMSG };

static void send(struct p *t, int m, int to)
{
    switch (m) {
    case SCALARS: MDL_SendTo_p_scalars(t, to); break;
    case STRUCTS: MDL_SendTo_p_structs(t, to); break;
    case WHOLE: MDL_SendTo_p_whole(t, to); break;
    /* rows 1..2, columns 0..3: the bounds in the spec's order */
    case BLOCK: MDL_SendTo_p_block(t, to, 1, 2, 0, 3); break;
    case COLUMN: MDL_SendTo_p_column(t, to); break;
    case CUBE: MDL_SendTo_p_cube(t, to, 0, 2); break;
    case POINTED: MDL_SendTo_p_pointed(t, to, 2, 5); break;
    }
}

static void recv_check(struct p *t, int m, int s)
{
    switch (m) {
    case SCALARS:
        CHECK(MDL_RecvFrom_p_scalars(t, MDL_ANY) == s, "sender");
        check_scalars(t, s);
        break;
    case STRUCTS:
        MDL_RecvFrom_p_structs(t, s);
        check_cells(t->cells, s);
        break;
    case WHOLE:
        MDL_RecvFrom_p_whole(t, s);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < M; j++)
                CHECK(t->A[i][j] == a_val(s, i, j), "whole");
        break;
    case BLOCK:
        MDL_RecvFrom_p_block(t, s, 1, 2, 0, 3);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                CHECK(t->Q[i][j] == (i >= 1 && i <= 2 ? a_val(s, i, j) : -1), "block");
        break;
    case COLUMN:
        MDL_RecvFrom_p_column(t, s);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < M; j++)
                CHECK(t->A[i][j] == (j == 1 ? a_val(s, i, j) : -1), "column");
        break;
    case CUBE:
        MDL_RecvFrom_p_cube(t, s, 0, 2);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++)
                for (int k = 0; k < 4; k++)
                    CHECK(t->B[i][j][k] ==
                              (i == 1 && k >= 1 && k <= 2 ? b_val(s, i, j, k) : -1), "cube");
        break;
    case POINTED:
        MDL_RecvFrom_p_pointed(t, s, 2, 5);
        for (int i = 0; i < 10; i++)
            CHECK(buf[i] == (i >= 2 && i <= 5 ? 50 + i + s : -1), "pointed");
        break;
    }
}

int main(int argc, char **argv)
{
    struct p *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    me = MDL_MyRank(t);
    int other = 1 - me;
    CHECK(MDL_FamilySize(t) == 2 && MDL_pSize(t) == 2, "sizes");

    /* each message both ways: instance 0 sends first, 1 receives first;
     * what arrived is checked before the variables are filled again */
    for (int m = 0; m < NMSG; m++) {
        if (me == 0) {
            fill(t, me);
            send(t, m, other);
            clear(t);
            recv_check(t, m, other);
        } else {
            clear(t);
            recv_check(t, m, other);
            fill(t, me);
            send(t, m, other);
        }
    }

    /* async both ways, completed by Test: the receive and the send of one
     * name share it */
    fill(t, me);
    t->k2 = 0;
    t->d2 = 0;
    MDL_RecvFrom_p_later(t, other);
    MDL_SendTo_p_later(t, other);
    while (MDL_laterTest(t) == 0)
        ;
    CHECK(t->k2 == -7 - other && t->d2 == 2.25 + other, "later");

    fill(t, me);
    MDL_Allreduce_sum(t);
    CHECK(t->total == 2.25 + 2.25 + 1, "Allreduce");
    MDL_Gather_ks(t);
    if (me == 0)
        CHECK(t->kall[0] == -7 && t->kall[1] == -8, "Gather");
    if (me != 1)
        memset(t->cells, 0, sizeof t->cells);
    MDL_Bcast_cellcast(t);
    check_cells(t->cells, 1);
    t->members[0] = 0;
    t->members[1] = 1;
    if (me != 0)
        memset(t->word, 0, sizeof t->word);
    MDL_Mcast_wordcast(t, t->members, 2);
    CHECK(strcmp(t->word, "hello 0") == 0, "Mcast");
    MDL_Sbarrier(t, t->members, 2);
    MDL_End(t);
    if (bad)
        return 1;
    printf("pc %d: OK\n", me);
    return 0;
}
