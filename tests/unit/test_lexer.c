/* test_lexer.c — tokens, locations, comments and bad input. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parser.tab.h"
#include "lexer.h"
#include "unit.h"

enum { MAXTOK = 64 };

/* Every token of src with its location; diagnostics are captured. */
typedef struct lexed {
    int n;
    int tok[MAXTOK];
    YYSTYPE val[MAXTOK];
    mdl_loc loc[MAXTOK];
    mdl_unit_front u;           /* arena and diag only */
} lexed;

static void lex(lexed *r, const char *src, size_t len)
{
    memset(r, 0, sizeof *r);
    r->u.arena = mdl_arena_new();
    r->u.diag = mdl_diag_new("t.mdl", src, len);
    r->u.out = open_memstream(&r->u.buf, &r->u.size);
    mdl_diag_set_output(r->u.diag, r->u.out);
    mdl_pctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = r->u.arena;
    ctx.diag = r->u.diag;
    ctx.line = ctx.col = 1;
    yyscan_t sc;
    yylex_init_extra(&ctx, &sc);
    YY_BUFFER_STATE b = yy_scan_bytes(src, (int)len, sc);
    while (r->n < MAXTOK) {
        int t = mdl_lex(&r->val[r->n], &r->loc[r->n], sc);
        r->tok[r->n++] = t;
        if (t == 0)
            break;
    }
    yy_delete_buffer(b, sc);
    yylex_destroy(sc);
}

static void lex_s(lexed *r, const char *src)
{
    lex(r, src, strlen(src));
}

static int loc_is(mdl_loc l, int line, int col, int end_line, int end_col)
{
    return l.line == line && l.col == col && l.end_line == end_line &&
           l.end_col == end_col;
}

static void test_keyword_case(void)
{
    lexed r;
    lex_s(&r, "Task TASK task tAsK Sequence GATHER Neighbor");
    CU_ASSERT_EQUAL(r.n, 8);
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(r.tok[i], KW_TASK);
    CU_ASSERT_EQUAL(r.tok[4], KW_SEQUENCE);
    /* collective names and neighbours are identifiers, case kept */
    CU_ASSERT_EQUAL(r.tok[5], IDENT);
    CU_ASSERT_STRING_EQUAL(r.val[5].str, "GATHER");
    CU_ASSERT_EQUAL(r.tok[6], IDENT);
    CU_ASSERT_STRING_EQUAL(r.val[6].str, "Neighbor");
    CU_ASSERT_EQUAL(r.tok[7], 0);
    mdl_unit_free(&r.u);
}

static void test_type_words(void)
{
    lexed r;
    lex_s(&r, "unsigned LONG Double intx");
    CU_ASSERT_EQUAL(r.tok[0], TYPEWORD);
    CU_ASSERT_EQUAL(r.val[0].ival, MDL_TW_UNSIGNED);
    CU_ASSERT_EQUAL(r.tok[1], TYPEWORD);
    CU_ASSERT_EQUAL(r.val[1].ival, MDL_TW_LONG);
    CU_ASSERT_EQUAL(r.val[2].ival, MDL_TW_DOUBLE);
    CU_ASSERT_EQUAL(r.tok[3], IDENT);
    mdl_unit_free(&r.u);
}

static void test_locations(void)
{
    lexed r;
    lex_s(&r, "Task\n  abc_1 ..\t= 42;");
    CU_ASSERT_EQUAL(r.tok[0], KW_TASK);
    CU_ASSERT(loc_is(r.loc[0], 1, 1, 1, 4));
    CU_ASSERT(loc_is(r.loc[1], 2, 3, 2, 7));
    CU_ASSERT_EQUAL(r.tok[2], DOTDOT);
    CU_ASSERT(loc_is(r.loc[2], 2, 9, 2, 10));
    CU_ASSERT(loc_is(r.loc[3], 2, 12, 2, 12));      /* tab is one byte */
    CU_ASSERT_EQUAL(r.tok[4], INT);
    CU_ASSERT_EQUAL(r.val[4].ival, 42);
    CU_ASSERT(loc_is(r.loc[4], 2, 14, 2, 15));
    /* end of input sits just after the last token */
    CU_ASSERT_EQUAL(r.tok[6], 0);
    CU_ASSERT(loc_is(r.loc[6], 2, 17, 2, 17));
    mdl_unit_free(&r.u);
}

static void test_comments(void)
{
    lexed r;
    lex_s(&r, "a // b c\n/* d\n e */ f /**/g/***/h");
    CU_ASSERT_EQUAL(r.n, 5);
    CU_ASSERT_STRING_EQUAL(r.val[0].str, "a");
    CU_ASSERT_STRING_EQUAL(r.val[1].str, "f");
    CU_ASSERT(loc_is(r.loc[1], 3, 7, 3, 7));
    CU_ASSERT_STRING_EQUAL(r.val[2].str, "g");
    CU_ASSERT_STRING_EQUAL(r.val[3].str, "h");
    CU_ASSERT_EQUAL(mdl_error_count(r.u.diag), 0);
    mdl_unit_free(&r.u);
}

static void test_unterminated_comment(void)
{
    lexed r;
    lex_s(&r, "a\n  /* never\n closed");
    CU_ASSERT_EQUAL(r.n, 2);
    CU_ASSERT_EQUAL(mdl_error_count(r.u.diag), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&r.u),
                                  "t.mdl:2:3: error: unterminated comment"));
    mdl_unit_free(&r.u);
}

static void test_integer_overflow(void)
{
    lexed r;
    lex_s(&r, "9223372036854775807 9223372036854775808 00012");
    CU_ASSERT_EQUAL(r.tok[0], INT);
    CU_ASSERT_EQUAL(r.val[0].ival, 9223372036854775807LL);
    CU_ASSERT_EQUAL(r.tok[1], INT);
    CU_ASSERT_EQUAL(r.val[2].ival, 12);
    CU_ASSERT_EQUAL(mdl_error_count(r.u.diag), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&r.u),
                                  "t.mdl:1:21: error: integer literal too large"));
    mdl_unit_free(&r.u);
}

static void test_bad_bytes(void)
{
    static const char src[] = "a\0b @ \xff \xc3\xa9 c";
    lexed r;
    lex(&r, src, sizeof src - 1);
    CU_ASSERT_EQUAL(r.n, 4);                /* a b c EOF */
    CU_ASSERT_STRING_EQUAL(r.val[2].str, "c");
    CU_ASSERT_EQUAL(mdl_error_count(r.u.diag), 4);
    const char *d = mdl_unit_diags(&r.u);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:1:2: error: null character in input"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:1:5: error: stray '@' in spec"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:1:7: error: invalid byte 0xFF"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mdl:1:9: error: stray '\xc3\xa9' in spec"));
    mdl_unit_free(&r.u);
}

static void test_error_limit(void)
{
    char src[200];
    memset(src, '@', sizeof src);
    lexed r;
    lex(&r, src, sizeof src);
    CU_ASSERT_EQUAL(r.n, 1);
    CU_ASSERT_EQUAL(mdl_error_count(r.u.diag), MDL_MAX_ERRORS + 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&r.u), "too many errors"));
    mdl_unit_free(&r.u);
}

static void test_long_identifier(void)
{
    size_t n = 1 << 20;
    char *src = malloc(n + 3);
    memset(src, 'x', n);
    memcpy(src + n, " y", 3);
    lexed r;
    lex(&r, src, n + 2);
    CU_ASSERT_EQUAL(r.n, 3);
    CU_ASSERT_EQUAL(strlen(r.val[0].str), n);
    CU_ASSERT(loc_is(r.loc[1], 1, (int)n + 2, 1, (int)n + 2));
    mdl_unit_free(&r.u);
    free(src);
}

static void test_byte_order_mark(void)
{
    lexed r;
    lex_s(&r, "\xef\xbb\xbfTask \xef\xbb\xbf");
    CU_ASSERT_EQUAL(r.n, 2);
    CU_ASSERT_EQUAL(r.tok[0], KW_TASK);
    CU_ASSERT(loc_is(r.loc[0], 1, 4, 1, 7));
    /* only the first one is harmless */
    CU_ASSERT_EQUAL(mdl_error_count(r.u.diag), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(mdl_unit_diags(&r.u),
                                  "t.mdl:1:9: error: stray byte-order mark"));
    mdl_unit_free(&r.u);
}

static const mdl_unit_test tests[] = {
    { "keyword_case", test_keyword_case },
    { "type_words", test_type_words },
    { "locations", test_locations },
    { "comments", test_comments },
    { "unterminated_comment", test_unterminated_comment },
    { "integer_overflow", test_integer_overflow },
    { "bad_bytes", test_bad_bytes },
    { "error_limit", test_error_limit },
    { "long_identifier", test_long_identifier },
    { "byte_order_mark", test_byte_order_mark },
    { NULL, NULL },
};
MDL_UNIT_SUITE("lexer", tests)
