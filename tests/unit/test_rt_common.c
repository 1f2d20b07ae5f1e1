/* runtime/core: grid shapes and section layouts, which both runtimes
 * must agree on exactly. */
#include <CUnit/CUnit.h>
#include <limits.h>
#include <string.h>
#include "unit.h"
#include "core/rt_common.h"
#include "mdl_tables.h"

static char why[256];

static void fill(int n, int nd, int d0, int d1, int d2, int e0, int e1, int e2)
{
    int d[3] = {d0, d1, d2};
    CU_ASSERT_EQUAL(mdl_dims_fill(n, nd, d, why, sizeof why), 0);
    CU_ASSERT_EQUAL(d[0], e0);
    if (nd > 1)
        CU_ASSERT_EQUAL(d[1], e1);
    if (nd > 2)
        CU_ASSERT_EQUAL(d[2], e2);
}

/* The table of the reference (§6), plus balanced larger shapes. */
static void test_dims_reference(void)
{
    fill(6, 2, 0, 0, 0, 3, 2, 0);
    fill(7, 2, 0, 0, 0, 7, 1, 0);
    fill(6, 3, 0, 3, 0, 2, 3, 1);
    fill(12, 2, 0, 0, 0, 4, 3, 0);
    fill(16, 3, 0, 0, 0, 4, 2, 2);
    fill(36, 2, 0, 0, 0, 6, 6, 0);
    fill(4, 2, 1, 0, 0, 1, 4, 0);
    fill(1, 3, 0, 0, 0, 1, 1, 1);
}

static void test_dims_errors(void)
{
    int a[3] = {0, 3, 0};
    CU_ASSERT_EQUAL(mdl_dims_fill(7, 3, a, why, sizeof why), MDL_ERR_GRID);
    int b[2] = {-1, 0};
    CU_ASSERT_EQUAL(mdl_dims_fill(4, 2, b, why, sizeof why), MDL_ERR_GRID);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "negative"));
    int c[2] = {2, 3};
    CU_ASSERT_EQUAL(mdl_dims_fill(4, 2, c, why, sizeof why), MDL_ERR_GRID);
}

static void test_grid_shift(void)
{
    int dims[2] = {3, 2}, per[2] = {0, 1}, c[2] = {2, 1};
    int east[2] = {1, 0}, north[2] = {0, 1}, west_north[2] = {-1, 1};
    CU_ASSERT_EQUAL(mdl_grid_shift(2, dims, per, c, east), MDL_PROC_NULL);
    CU_ASSERT_EQUAL(mdl_grid_shift(2, dims, per, c, north), 4); /* (2,0) wraps */
    CU_ASSERT_EQUAL(mdl_grid_shift(2, dims, per, c, west_north), 2); /* (1,0) */
    int back[2];
    mdl_rank_to_coords(2, dims, 5, back);
    CU_ASSERT(back[0] == 2 && back[1] == 1);
    CU_ASSERT_EQUAL(mdl_coords_to_rank(2, dims, back), 5);
}

static double U[6][5];
static const mdl_type_desc dbl = {"double", MDL_T_DOUBLE, sizeof(double), 0, NULL};
static const mdl_item_desc U_item = {"U", 0, 0, &dbl, 2, {6, 5}, 0, -1};

/* A column U[1..4][3] is strided; a block of whole rows is one run. */
static void test_span_layouts(void)
{
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 5; j++)
            U[i][j] = i * 10 + j;
    mdl_span s;
    long column[] = {1, 4, 3, 3};
    CU_ASSERT_EQUAL(mdl_item_span(&U_item, column, U, &s, why, sizeof why), 0);
    CU_ASSERT_EQUAL(s.bytes, 4 * sizeof(double));
    CU_ASSERT_EQUAL(s.block, sizeof(double));
    CU_ASSERT_EQUAL(s.nloops, 1);
    double out[4];
    mdl_spans_pack(&s, 1, out);
    CU_ASSERT(out[0] == 13 && out[1] == 23 && out[2] == 33 && out[3] == 43);

    long rows[] = {2, 3, 0, 4};
    CU_ASSERT_EQUAL(mdl_item_span(&U_item, rows, U, &s, why, sizeof why), 0);
    CU_ASSERT_EQUAL(s.nloops, 0);
    CU_ASSERT_EQUAL(s.block, 10 * sizeof(double));
    CU_ASSERT_PTR_EQUAL(s.base, (char *)&U[2][0]);
}

static void test_span_bounds(void)
{
    mdl_span s;
    long outside[] = {2, 6, 0, 4};
    CU_ASSERT_EQUAL(mdl_item_span(&U_item, outside, U, &s, why, sizeof why),
                    MDL_ERR_BOUNDS);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "'U'"));
    long negative[] = {-1, 0, 0, 0};
    CU_ASSERT_EQUAL(mdl_item_span(&U_item, negative, U, &s, why, sizeof why),
                    MDL_ERR_BOUNDS);
    long empty[] = {3, 2, 0, 4};     /* hi == lo - 1: nothing selected */
    CU_ASSERT_EQUAL(mdl_item_span(&U_item, empty, U, &s, why, sizeof why), 0);
    CU_ASSERT_EQUAL(s.bytes, 0);
}

/* Section to section: a column into a row, the single-copy path. */
static void test_spans_copy(void)
{
    static double V[6][5];
    memset(V, 0, sizeof V);
    mdl_span src, dst;
    long column[] = {1, 4, 0, 0}, row[] = {5, 5, 1, 4};
    CU_ASSERT_EQUAL(mdl_item_span(&U_item, column, U, &src, why, sizeof why), 0);
    CU_ASSERT_EQUAL(mdl_item_span(&U_item, row, V, &dst, why, sizeof why), 0);
    mdl_spans_copy(&dst, 1, &src, 1);
    CU_ASSERT(V[5][1] == 10 && V[5][2] == 20 && V[5][3] == 30 && V[5][4] == 40);
    CU_ASSERT(V[5][0] == 0 && V[4][4] == 0);
}

/* Every shape a span takes, packed as one message and unpacked back: a
 * strided column of 8-byte, 4-byte and 2-byte elements (one loop, the
 * run a constant or not), a strided plane (two loops: rows of 16 bytes), a
 * block of three loops (rows of 4-byte runs, the odometer carrying over
 * two outer loops), whole rows (one run) and an empty section between
 * them. */
static void test_spans_pack_shapes(void)
{
    static const mdl_type_desc int_t = {"int", MDL_T_INT, sizeof(int), 0, NULL};
    static const mdl_type_desc short_t = {"short", MDL_T_SHORT, sizeof(short), 0, NULL};
    static const mdl_item_desc I_item = {"I", 0, 0, &int_t, 2, {5, 7}, 0, -1};
    static const mdl_item_desc S_item = {"S", 0, 0, &short_t, 2, {5, 7}, 0, -1};
    static const mdl_item_desc C_item = {"C", 0, 0, &dbl, 3, {4, 5, 6}, 0, -1};
    static const mdl_item_desc D_item = {"D", 0, 0, &int_t, 4, {3, 4, 5, 6}, 0, -1};
    static int I[5][7];
    static short S[5][7];
    static double C[4][5][6];
    static int D[3][4][5][6];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            I[i][j] = 100 * i + j, S[i][j] = (short)(-100 * i - j);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 6; k++)
                C[i][j][k] = 1000 * i + 10 * j + k + 0.5;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 5; j++)
            U[i][j] = i * 10 + j;
    for (int i = 0; i < 3 * 4 * 5 * 6; i++)
        (&D[0][0][0][0])[i] = i + 1;
    const struct {
        const mdl_item_desc *it;
        void *var;
        long pairs[8];
        int nloops;
    } items[] = {
        {&U_item, U, {1, 4, 2, 2}, 1},          /* U[1..4][2] */
        {&I_item, I, {0, 4, 6, 6}, 1},          /* I[0..4][6] */
        {&S_item, S, {1, 3, 0, 0}, 1},          /* S[1..3][0] */
        {&U_item, U, {3, 2, 0, 4}, 0},          /* empty */
        {&C_item, C, {1, 2, 1, 3, 4, 5}, 2},    /* C[1..2][1..3][4..5] */
        {&D_item, D, {0, 1, 1, 2, 0, 2, 3, 3}, 3},  /* D[0..1][1..2][0..2][3] */
        {&U_item, U, {2, 3, 0, 4}, 0},          /* U[2..3][*]: one run */
    };
    enum { NITEMS = sizeof items / sizeof items[0] };
    mdl_span spans[NITEMS];
    size_t total = 0;
    for (int n = 0; n < NITEMS; n++) {
        CU_ASSERT_EQUAL_FATAL(mdl_item_span(items[n].it, items[n].pairs, items[n].var, &spans[n],
                                            why, sizeof why), 0);
        CU_ASSERT_EQUAL(spans[n].nloops, items[n].nloops);
        total += spans[n].bytes;
    }
    unsigned char want[512], got[512];
    size_t at = 0;
#define PUT(x) (memcpy(want + at, &(x), sizeof(x)), at += sizeof(x))
    for (int i = 1; i <= 4; i++)
        PUT(U[i][2]);
    for (int i = 0; i <= 4; i++)
        PUT(I[i][6]);
    for (int i = 1; i <= 3; i++)
        PUT(S[i][0]);
    for (int i = 1; i <= 2; i++)
        for (int j = 1; j <= 3; j++)
            for (int k = 4; k <= 5; k++)
                PUT(C[i][j][k]);
    for (int i = 0; i <= 1; i++)
        for (int j = 1; j <= 2; j++)
            for (int k = 0; k <= 2; k++)
                PUT(D[i][j][k][3]);
    for (int i = 2; i <= 3; i++)
        for (int j = 0; j <= 4; j++)
            PUT(U[i][j]);
#undef PUT
    CU_ASSERT_EQUAL_FATAL(at, total);
    memset(got, 0xee, sizeof got);
    mdl_spans_pack(spans, NITEMS, got);
    CU_ASSERT(memcmp(got, want, total) == 0);
    CU_ASSERT_EQUAL(got[total], 0xee);
    /* back: every element sent in place again, its neighbours untouched */
    memset(U, 0, sizeof U);
    memset(I, 0, sizeof I);
    memset(S, 0, sizeof S);
    memset(C, 0, sizeof C);
    memset(D, 0, sizeof D);
    mdl_spans_unpack(spans, NITEMS, want);
    CU_ASSERT(U[1][2] == 12 && U[4][2] == 42 && U[2][4] == 24 && U[3][0] == 30);
    CU_ASSERT(U[1][1] == 0 && U[4][3] == 0 && U[5][2] == 0);
    CU_ASSERT(I[0][6] == 6 && I[4][6] == 406 && I[4][5] == 0);
    CU_ASSERT(S[1][0] == -100 && S[3][0] == -300 && S[0][0] == 0 && S[4][0] == 0 && S[1][1] == 0);
    CU_ASSERT(C[1][1][4] == 1014.5 && C[2][3][5] == 2035.5 && C[1][1][3] == 0 && C[2][4][4] == 0);
    int dn = 0, dok = 1;
    for (int i = 0; i < 3 * 4 * 5 * 6; i++) {
        int v = (&D[0][0][0][0])[i];
        dn += v != 0;
        dok &= v == 0 || v == i + 1;
    }
    CU_ASSERT(dn == 12 && dok && D[1][2][2][3] == 1 * 120 + 2 * 30 + 2 * 6 + 3 + 1);
    mdl_spans_pack(spans, NITEMS, got);
    CU_ASSERT(memcmp(got, want, total) == 0);
}

/* A pointer item's bounds come from the call alone: a span whose count,
 * byte size or end does not fit is an error, never a wrapped size. */
static void test_span_overflow(void)
{
    static const mdl_item_desc p_item = {"p", 0, 1, &dbl, 1, {-1}, 0, -1};
    double data[4] = {1, 2, 3, 4}, *p = data;
    mdl_span s;
    static const long bad[][2] = {
        {0, LONG_MAX},                  /* hi - lo + 1 overflows */
        {0, LONG_MAX / 4},              /* bytes overflow */
        {LONG_MAX / 2, LONG_MAX / 2},   /* offset overflows */
        {LONG_MAX / 8, LONG_MAX / 8},   /* end beyond PTRDIFF_MAX */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        CU_ASSERT_EQUAL(mdl_item_span(&p_item, bad[k], &p, &s, why, sizeof why), MDL_ERR_BOUNDS);
        CU_ASSERT_PTR_NOT_NULL(strstr(why, "spans more than"));
    }
    long fine[] = {1, 3};
    CU_ASSERT_EQUAL(mdl_item_span(&p_item, fine, &p, &s, why, sizeof why), 0);
    CU_ASSERT_EQUAL(s.bytes, 3 * sizeof(double));
    CU_ASSERT_PTR_EQUAL(s.base, (char *)&data[1]);

    /* two items each under the limit whose sum is not */
    static const mdl_item_desc two[2] = {{"p", 0, 1, &dbl, 1, {-1}, 0, -1},
                                         {"p", 0, 1, &dbl, 1, {-1}, 1, -1}};
    static const long halves[] = {0, LONG_MAX / 16 + 1, 0, LONG_MAX / 16 + 1};
    mdl_msg_desc m = {.name = "m", .nitems = 2, .items = two, .npairs = 2,
                      .fixed_bounds = halves};
    mdl_span spans[2];
    size_t total;
    CU_ASSERT_EQUAL(mdl_msg_spans(&m, &p, NULL, NULL, spans, &total, why, sizeof why), MDL_ERR_BOUNDS);
}

/* Names come from common/mdl_tables.h, keyed by enumerator. */
static void test_base_names(void)
{
    CU_ASSERT_STRING_EQUAL(mdl_base_name(MDL_T_UINT), "unsigned");
    CU_ASSERT_STRING_EQUAL(mdl_base_name(MDL_T_ULLONG), "unsigned long long");
    CU_ASSERT_STRING_EQUAL(mdl_base_name(MDL_T_STRUCT), "struct");
    CU_ASSERT_STRING_EQUAL(mdl_base_name(MDL_T_NBASE), "?");
}

/* Every code of common/mdl_tables.h: its name first, then its text. */
static void test_error_strings(void)
{
#define MDL_X(id, value, text)                                                  \
    CU_ASSERT_STRING_EQUAL(MDL_Error_string(MDL_ERR_##id), "MDL_ERR_" #id ": " text);
    MDL_ERROR_CODES(MDL_X)
#undef MDL_X
    CU_ASSERT_STRING_EQUAL(MDL_Error_string(MDL_ERR_TRUNCATE),
                           "MDL_ERR_TRUNCATE: message larger than the receive");
    CU_ASSERT_PTR_NOT_NULL(strstr(MDL_Error_string(MDL_ERR_TRUNCATE), "MDL_ERR_TRUNCATE"));
    CU_ASSERT_PTR_NOT_NULL(strstr(MDL_Error_string(MDL_ERR_PEER), "MDL_ERR_PEER"));
    CU_ASSERT_PTR_NOT_NULL(strstr(MDL_Error_string(MDL_SUCCESS), "MDL_SUCCESS"));
    CU_ASSERT_PTR_NOT_NULL(strstr(MDL_Error_string(-5000), "unknown"));
}

static const mdl_unit_test tests[] = {
    {"dims_reference", test_dims_reference},
    {"dims_errors", test_dims_errors},
    {"grid_shift", test_grid_shift},
    {"span_layouts", test_span_layouts},
    {"span_bounds", test_span_bounds},
    {"spans_copy", test_spans_copy},
    {"spans_pack_shapes", test_spans_pack_shapes},
    {"span_overflow", test_span_overflow},
    {"base_names", test_base_names},
    {"error_strings", test_error_strings},
    {NULL, NULL},
};
MDL_UNIT_SUITE("rt_common", tests)
