/* parser.y — the MeDLey grammar (reference §3).
 *
 * Builds the AST of medley/ast.h; every node gets the location of the
 * construct it came from.  Syntax errors are reported through diag in the
 * style of a C compiler, and the parser recovers at declaration, message
 * and top-level boundaries so that one run reports several errors.
 *
 * Missing ';' gets a precise message ("expected ';' after message
 * definition") from error productions; since bison reports the generic
 * message before it runs the error production, the generic message is kept
 * pending and replaced (or printed) later — see yylex() and expect_semi(). */

%code requires {
#include "arena.h"
#include "ast.h"
#include "diag.h"

typedef MDL_VEC(mdl_expr *) mdl_pexprs;
typedef MDL_VEC(mdl_item *) mdl_pitems;
typedef MDL_VEC(mdl_index *) mdl_pindices;

/* An expression while parsing: the tree and its depth, so that a chain
 * like 1+1+…+1 that would make later (recursive) stages overflow the C
 * stack is rejected here. */
typedef struct mdl_pexpr {
    mdl_expr *e;
    int depth;
} mdl_pexpr;

/* A declarator before its type is known: `x`, `a[3][4]`, `*p`. */
typedef struct mdl_pdecl {
    const char *name;
    mdl_loc loc;
    int is_pointer;
    mdl_pexprs dims;
} mdl_pdecl;
typedef MDL_VEC(mdl_pdecl *) mdl_pdecls;

/* C type words seen so far (`unsigned long long`). */
typedef struct mdl_ptypewords {
    int n[8];                   /* counts, indexed by MDL_TW_* */
    mdl_loc loc;
} mdl_ptypewords;
enum { MDL_TW_INT, MDL_TW_DOUBLE, MDL_TW_FLOAT, MDL_TW_CHAR, MDL_TW_LONG,
       MDL_TW_SHORT, MDL_TW_UNSIGNED, MDL_TW_SIGNED };

typedef struct mdl_ppeer {
    int given, is_from;         /* `to …` / `from …` present, and which */
    mdl_loc kw_loc;
    mdl_peer_kind kind;
    const char *name;
    mdl_loc loc;
    mdl_pexprs offsets;
} mdl_ppeer;

typedef struct mdl_pcoll_args {
    mdl_expr *root;
    const char *table;
    mdl_loc table_loc;
} mdl_pcoll_args;

/* Everything the lexer and the parser share; no globals. */
typedef struct mdl_pctx {
    mdl_arena *arena;
    mdl_diag *diag;
    mdl_spec *spec;
    void *scanner;
    /* lexer */
    int line, col;              /* position of the next character */
    mdl_loc last;               /* last token returned (for end of file) */
    int have_last;
    mdl_loc comment_start;
    /* parser */
    mdl_task *task;             /* task being parsed */
    mdl_coll *coll;             /* collective block being parsed */
    int in_sends;               /* 1 in `sends`, 0 in `receives` */
    int mode;                   /* -1 default, 0 sync block, 1 async block */
    int deep_reported;
    int has_pending;
    mdl_loc pending_loc;
    char pending[512];
    mdl_loc bad_template_at;    /* reported once: recovery re-runs the rule per skipped token */
} mdl_pctx;
}

%code provides {
int mdl_lex(YYSTYPE *lval, YYLTYPE *lloc, void *scanner);
int mdl_yyparse_run(mdl_pctx *ctx);
/* Text of the token the lexer returned last, for syntax messages. */
const char *mdl_lex_text(void *scanner, int *len);
}

%code {
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Deeper parenthesis nesting than this (bison stack) or deeper
 * expression trees than MAX_EXPR_DEPTH are refused. */
#define YYMAXDEPTH 10000
enum { MAX_EXPR_DEPTH = 1000 };

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                     \
    do {                                                                \
        if (N) {                                                        \
            (Cur).line = YYRHSLOC(Rhs, 1).line;                         \
            (Cur).col = YYRHSLOC(Rhs, 1).col;                           \
            (Cur).end_line = YYRHSLOC(Rhs, N).end_line;                 \
            (Cur).end_col = YYRHSLOC(Rhs, N).end_col;                   \
        } else {                                                        \
            (Cur).line = (Cur).end_line = YYRHSLOC(Rhs, 0).end_line;    \
            (Cur).col = (Cur).end_col = YYRHSLOC(Rhs, 0).end_col;       \
        }                                                               \
    } while (0)

#define VEC_MOVE(dst, src) \
    ((dst).v = (src).v, (dst).n = (src).n, (dst).cap = (src).cap)
#define A (ctx->arena)

static void yyerror(YYLTYPE *loc, mdl_pctx *ctx, const char *msg);

/* The parser's yylex: the pending generic message is printed as soon as
 * the parser moves on (no error production claimed it), so messages stay
 * in source order.  After too many errors the input is cut short. */
static int yylex(YYSTYPE *lval, YYLTYPE *lloc, mdl_pctx *ctx)
{
    if (ctx->has_pending) {
        ctx->has_pending = 0;
        mdl_error(ctx->diag, ctx->pending_loc, "%s", ctx->pending);
    }
    return mdl_lex(lval, lloc, ctx->scanner);
}

/* The position just after a construct, where a missing token belongs. */
static mdl_loc after(mdl_loc l)
{
    mdl_loc r = { l.end_line, l.end_col + 1, l.end_line, l.end_col + 1 };
    return r;
}

/* An error production for a missing ';' ran: replace the generic message
 * (if bison reported one; in its recovery phase it reports none). */
static void expect_semi(mdl_pctx *ctx, mdl_loc prev, const char *what)
{
    if (!ctx->has_pending)
        return;
    ctx->has_pending = 0;
    /* a misspelt keyword where ';' could also go (`match s`): the generic
       message names the word and what it should be */
    if (strstr(ctx->pending, "; did you mean"))
        mdl_error(ctx->diag, ctx->pending_loc, "%s", ctx->pending);
    else
        mdl_error(ctx->diag, after(prev), "expected ';' after %s", what);
}

/* `connected with gird(2)`: report the word; recover as what it most
 * likely means so that the task's messages are not reported as unconnected. */
static void bad_topology(mdl_pctx *ctx, const char *word, mdl_loc loc,
                         const mdl_pexprs *args, int periodic)
{
    static const char *const forms[] = { "setof", "grid" };
    const char *best = mdl_suggest_nocase(word, forms, 2);
    if (best)
        mdl_error(ctx->diag, loc, "unknown topology '%s'; did you mean '%s'?", word, best);
    else
        mdl_error(ctx->diag, loc,
                  "unknown topology '%s' (expected setof(...), grid(...) or task names)", word);
    if (best && strcmp(best, "grid") == 0 && args->n == 1) {
        ctx->task->conn = MDL_C_GRID;
        ctx->task->grid_dims_expr = args->v[0];
    } else if (best && strcmp(best, "setof") == 0 && !periodic) {
        ctx->task->conn = MDL_C_SETOF;
        for (int i = 0; i < args->n; i++)
            if (args->v[i]->kind == MDL_E_NAME) {
                MDL_VEC_PUSH(A, ctx->task->conn_names, args->v[i]->name);
                MDL_VEC_PUSH(A, ctx->task->conn_locs, args->v[i]->loc);
            }
    }
}

/* `vectr<double>[3] v;`: name the misspelt vector/matrix rather than
 * the '<' after it. */
static void bad_template(mdl_pctx *ctx, const mdl_typeref *t, mdl_loc lt)
{
    static const char *const forms[] = { "vector", "matrix" };
    ctx->has_pending = 0;
    if (lt.line == ctx->bad_template_at.line && lt.col == ctx->bad_template_at.col)
        return;
    ctx->bad_template_at = lt;
    const char *best = t->name && !t->struct_keyword
                           ? mdl_suggest_nocase(t->name, forms, 2) : NULL;
    if (best)
        mdl_error(ctx->diag, t->loc, "unknown type '%s'; did you mean '%s'?", t->name, best);
    else
        mdl_error(ctx->diag, lt, "only vector<...> and matrix<...> take a type in '<...>'");
}

/* `asynch { … }` in sends/receives: report the word, read the block as
 * the mode it most likely means. */
static void bad_block(mdl_pctx *ctx, const char *word, mdl_loc loc)
{
    static const char *const modes[] = { "sync", "async" };
    const char *best = mdl_suggest_nocase(word, modes, 2);
    if (best) {
        mdl_error(ctx->diag, loc, "unknown block '%s'; did you mean '%s'?", word, best);
        ctx->mode = strcmp(best, "async") == 0;
    } else {
        mdl_error(ctx->diag, loc,
                  "unknown block '%s' (only 'sync { … }' and 'async { … }' hold messages)", word);
    }
}

static mdl_pexpr mk_leaf(mdl_pctx *ctx, mdl_expr_kind k, mdl_loc loc)
{
    mdl_expr *e = mdl_alloc(A, sizeof *e);
    e->kind = k;
    e->loc = loc;
    return (mdl_pexpr){ e, 1 };
}

static mdl_pexpr mk_bin(mdl_pctx *ctx, mdl_expr_kind k, mdl_pexpr l,
                        mdl_pexpr r, mdl_loc loc)
{
    mdl_pexpr x = mk_leaf(ctx, k, loc);
    x.e->l = l.e;
    x.e->r = r.e;
    x.depth = 1 + (l.depth > r.depth ? l.depth : r.depth);
    if (x.depth > MAX_EXPR_DEPTH && !ctx->deep_reported) {
        ctx->deep_reported = 1;
        mdl_error(ctx->diag, loc, "expression too deeply nested");
    }
    return x;
}

static mdl_typeref basic_type(mdl_pctx *ctx, mdl_ptypewords w)
{
    mdl_typeref t = { .basic = MDL_B_INT, .loc = w.loc };
    const int *n = w.n;
    int others = n[MDL_TW_LONG] + n[MDL_TW_SHORT] + n[MDL_TW_UNSIGNED]
                 + n[MDL_TW_SIGNED] + n[MDL_TW_CHAR] + n[MDL_TW_INT];
    int uns = n[MDL_TW_UNSIGNED], sgn = n[MDL_TW_SIGNED];
    const char *bad = NULL;
    if (n[MDL_TW_DOUBLE] + n[MDL_TW_FLOAT] > 1 ||
        ((n[MDL_TW_DOUBLE] || n[MDL_TW_FLOAT]) && others))
        bad = n[MDL_TW_DOUBLE] && n[MDL_TW_LONG] == 1 && others == 1
                  ? "'long double' is not supported"
                  : "invalid combination of type words";
    else if (uns + sgn > 1 || n[MDL_TW_INT] > 1 || n[MDL_TW_CHAR] > 1 ||
             n[MDL_TW_SHORT] > 1 || n[MDL_TW_LONG] > 2 ||
             (n[MDL_TW_SHORT] && n[MDL_TW_LONG]) ||
             (n[MDL_TW_CHAR] && (n[MDL_TW_INT] || n[MDL_TW_SHORT] ||
                                 n[MDL_TW_LONG])))
        bad = "invalid combination of type words";
    if (bad) {
        mdl_error(ctx->diag, w.loc, "%s", bad);
        return t;
    }
    if (n[MDL_TW_DOUBLE])
        t.basic = MDL_B_DOUBLE;
    else if (n[MDL_TW_FLOAT])
        t.basic = MDL_B_FLOAT;
    else if (n[MDL_TW_CHAR])
        t.basic = uns ? MDL_B_UCHAR : sgn ? MDL_B_SCHAR : MDL_B_CHAR;
    else if (n[MDL_TW_SHORT])
        t.basic = uns ? MDL_B_USHORT : MDL_B_SHORT;
    else if (n[MDL_TW_LONG] == 2)
        t.basic = uns ? MDL_B_ULLONG : MDL_B_LLONG;
    else if (n[MDL_TW_LONG] == 1)
        t.basic = uns ? MDL_B_ULONG : MDL_B_LONG;
    else
        t.basic = uns ? MDL_B_UINT : MDL_B_INT;
    return t;
}

static void add_vars(mdl_pctx *ctx, mdl_typeref type, mdl_var_form form,
                     mdl_pdecls *ds)
{
    for (int i = 0; i < ds->n; i++) {
        mdl_pdecl *d = ds->v[i];
        mdl_var *v = mdl_alloc(A, sizeof *v);
        v->name = d->name;
        v->loc = d->loc;
        v->type = type;
        if (d->is_pointer && d->dims.n)
            mdl_error(ctx->diag, d->dims.v[0]->loc,
                      "pointer '%s' cannot have dimensions; the range goes in "
                      "the message (%s[lo..hi])", d->name, d->name);
        if (d->is_pointer)
            v->form = MDL_V_POINTER;
        else if (form != MDL_V_SCALAR)
            v->form = form;
        else
            v->form = d->dims.n ? MDL_V_ARRAY : MDL_V_SCALAR;
        if (!d->is_pointer)
            VEC_MOVE(v->dims, d->dims);
        if (ctx->task)
            MDL_VEC_PUSH(A, ctx->task->vars, v);
    }
}

static mdl_pdecl *mk_decl(mdl_pctx *ctx, const char *name, mdl_loc loc,
                          int is_pointer)
{
    mdl_pdecl *d = mdl_alloc(A, sizeof *d);
    d->name = name;
    d->loc = loc;
    d->is_pointer = is_pointer;
    return d;
}

static void add_msg(mdl_pctx *ctx, const char *name, mdl_loc loc,
                    mdl_ppeer *peer, const char *matches,
                    mdl_loc matches_loc, mdl_pitems *items,
                    mdl_loc content_loc)
{
    mdl_msg *m = mdl_alloc(A, sizeof *m);
    m->name = name;
    m->loc = loc;
    m->is_send = ctx->in_sends;
    m->is_async = ctx->mode < 0 ? ctx->in_sends : ctx->mode;
    m->peer_kind = peer->given ? peer->kind : MDL_P_NONE;
    m->peer = peer->name;
    m->peer_loc = peer->loc;
    VEC_MOVE(m->offset_exprs, peer->offsets);
    m->matches = matches;
    m->matches_loc = matches_loc;
    VEC_MOVE(m->items, *items);
    m->content_loc = content_loc;
    if (peer->given && peer->is_from == ctx->in_sends)
        mdl_error(ctx->diag, peer->kw_loc,
                  "a %s names its peer with '%s', not '%s'",
                  ctx->in_sends ? "send" : "receive",
                  ctx->in_sends ? "to" : "from",
                  ctx->in_sends ? "from" : "to");
    if (matches && ctx->in_sends)
        mdl_error(ctx->diag, matches_loc,
                  "'matches' belongs to a receive, not to a send");
    if (!ctx->task)
        return;
    if (ctx->in_sends)
        MDL_VEC_PUSH(A, ctx->task->sends, m);
    else
        MDL_VEC_PUSH(A, ctx->task->recvs, m);
}

static void add_coll_msg(mdl_pctx *ctx, const char *name, mdl_loc loc,
                         mdl_pitems *items, mdl_loc content_loc)
{
    mdl_msg *m = mdl_alloc(A, sizeof *m);
    m->name = name;
    m->loc = loc;
    m->peer_kind = MDL_P_NONE;
    VEC_MOVE(m->items, *items);
    m->content_loc = content_loc;
    if (ctx->coll) {
        m->coll = ctx->coll;
        MDL_VEC_PUSH(A, ctx->coll->msgs, m);
    }
}

static void begin_coll(mdl_pctx *ctx, const char *name, mdl_loc loc,
                       mdl_pcoll_args args)
{
    mdl_coll *c = mdl_alloc(A, sizeof *c);
    c->kind = mdl_co_kind_lookup(name);
    c->kind_name = name;
    c->loc = loc;
    c->root = args.root;
    c->table = args.table;
    c->table_loc = args.table_loc;
    ctx->coll = c;
    if (ctx->task)
        MDL_VEC_PUSH(A, ctx->task->colls, c);
}

static void begin_task(mdl_pctx *ctx, const char *name, mdl_loc loc)
{
    mdl_task *t = mdl_alloc(A, sizeof *t);
    t->name = name;
    t->loc = loc;
    ctx->task = t;
    MDL_VEC_PUSH(A, ctx->spec->tasks, t);
}

static mdl_struct *mk_struct(mdl_pctx *ctx, const char *tag,
                             const char *typedef_name, mdl_loc loc,
                             mdl_struct *fields)
{
    mdl_struct *s = fields;
    s->tag = tag;
    s->typedef_name = typedef_name;
    s->loc = loc;
    MDL_VEC_PUSH(A, ctx->spec->structs, s);
    return s;
}

static void add_fields(mdl_pctx *ctx, mdl_struct *s, mdl_typeref type,
                       mdl_pdecls *ds)
{
    for (int i = 0; i < ds->n; i++) {
        mdl_field *f = mdl_alloc(A, sizeof *f);
        f->name = ds->v[i]->name;
        f->loc = ds->v[i]->loc;
        f->type = type;
        f->is_pointer = ds->v[i]->is_pointer;
        VEC_MOVE(f->dims, ds->v[i]->dims);
        MDL_VEC_PUSH(A, s->fields, f);
    }
}

static mdl_index *mk_index(mdl_pctx *ctx, mdl_index_kind k, mdl_loc loc,
                           mdl_expr *lo, mdl_expr *hi)
{
    mdl_index *x = mdl_alloc(A, sizeof *x);
    x->kind = k;
    x->loc = loc;
    x->lo = lo;
    x->hi = hi;
    return x;
}
}

/* Two conflicts after a task's sections, both resolved by shifting:
 * on `error` (skip the block of a misspelt section and stay in the task
 * rather than resynchronise at the next top-level item), and on ';' (a
 * stray ';' after a section belongs to the task; either way it is
 * ignored). */
%expect 2
%define api.pure full
%define api.location.type {mdl_loc}
%define parse.error custom
%locations
%parse-param {mdl_pctx *ctx}
%lex-param {mdl_pctx *ctx}

%union {
    long long ival;
    const char *str;
    mdl_pexpr ex;
    mdl_pexprs exprs;
    mdl_pdecl *decl;
    mdl_pdecls decls;
    mdl_ptypewords tw;
    mdl_typeref type;
    mdl_ppeer peer;
    mdl_item *item;
    mdl_pitems items;
    mdl_index *index;
    mdl_pindices indices;
    mdl_pcoll_args cargs;
    mdl_struct *st;
}

%token <str> IDENT "identifier"
%token <ival> INT "integer"
%token <ival> TYPEWORD "type name"
%token DOTDOT "'..'"
%token KW_CONST "'const'" KW_STRUCT "'struct'" KW_TYPEDEF "'typedef'"
%token KW_TASK "'task'" KW_CONNECTED "'connected'" KW_WITH "'with'"
%token KW_SETOF "'setof'" KW_GRID "'grid'" KW_OF "'of'"
%token KW_PERIODIC "'periodic'" KW_USES "'uses'" KW_SENDS "'sends'"
%token KW_RECEIVES "'receives'" KW_COLLECTIVES "'collectives'"
%token KW_TO "'to'" KW_FROM "'from'" KW_SEQUENCE "'sequence'"
%token KW_MATCHES "'matches'" KW_SYNC "'sync'" KW_ASYNC "'async'"
%token KW_VECTOR "'vector'" KW_MATRIX "'matrix'"

%type <ex> expr term unary primary
%type <exprs> dims expr_list offsets
%type <decl> declarator
%type <decls> declarators
%type <tw> typewords
%type <type> type_spec
%type <peer> peer opt_peer
%type <item> item
%type <items> items content
%type <index> index
%type <indices> indices
%type <cargs> coll_args
%type <st> fields
%type <str> opt_ident

%%

spec
    : %empty
    | spec top_item
    | spec error top_item
    ;

top_item
    : const_def
    | struct_def
    | typedef_def
    | task
    | ';'
    ;

/* ---------------------------------------------------------------- const */

const_def
    : KW_CONST opt_typewords IDENT '=' expr ';'
        {
            mdl_const *c = mdl_alloc(A, sizeof *c);
            c->name = $3;
            c->loc = @3;
            c->value = $5.e;
            MDL_VEC_PUSH(A, ctx->spec->consts, c);
        }
    | KW_CONST opt_typewords IDENT '=' expr error
        { expect_semi(ctx, @5, "constant definition"); }
    ;

opt_typewords
    : %empty
    | typewords         { (void)$1; }
    ;

/* ---------------------------------------------------------------- structs */

struct_def
    : KW_STRUCT IDENT '{' fields '}' ';'
        { mk_struct(ctx, $2, NULL, @2, $4); }
    | KW_STRUCT IDENT '{' fields '}' error
        {
            mk_struct(ctx, $2, NULL, @2, $4);
            expect_semi(ctx, @5, "struct definition");
        }
    ;

typedef_def
    : KW_TYPEDEF KW_STRUCT opt_ident '{' fields '}' IDENT ';'
        { mk_struct(ctx, $3, $7, @7, $5); }
    | KW_TYPEDEF KW_STRUCT opt_ident '{' fields '}' IDENT error
        {
            mk_struct(ctx, $3, $7, @7, $5);
            expect_semi(ctx, @7, "typedef");
        }
    ;

opt_ident
    : %empty            { $$ = NULL; }
    | IDENT
    ;

fields
    : %empty            { $$ = mdl_alloc(A, sizeof *$$); }
    | fields type_spec declarators ';'
        { $$ = $1; add_fields(ctx, $$, $2, &$3); }
    | fields type_spec declarators error
        {
            $$ = $1;
            add_fields(ctx, $$, $2, &$3);
            expect_semi(ctx, @3, "field declaration");
        }
    | fields error ';'  { $$ = $1; }
    ;

/* ---------------------------------------------------------------- types */

typewords
    : TYPEWORD
        {
            memset(&$$, 0, sizeof $$);
            $$.n[$1]++;
            $$.loc = @1;
        }
    | typewords TYPEWORD
        {
            $$ = $1;
            $$.n[$2]++;
            $$.loc.end_line = @2.end_line;
            $$.loc.end_col = @2.end_col;
        }
    ;

type_spec
    : typewords         { $$ = basic_type(ctx, $1); }
    | KW_STRUCT IDENT
        {
            $$ = (mdl_typeref){ .basic = MDL_B_NONE, .name = $2,
                                .struct_keyword = 1, .loc = @$ };
        }
    | IDENT
        {
            $$ = (mdl_typeref){ .basic = MDL_B_NONE, .name = $1,
                                .loc = @1 };
        }
    ;

declarators
    : declarator
        { memset(&$$, 0, sizeof $$); MDL_VEC_PUSH(A, $$, $1); }
    | declarators ',' declarator
        { $$ = $1; MDL_VEC_PUSH(A, $$, $3); }
    ;

declarator
    : IDENT dims
        { $$ = mk_decl(ctx, $1, @1, 0); VEC_MOVE($$->dims, $2); }
    | '*' IDENT dims
        { $$ = mk_decl(ctx, $2, @2, 1); VEC_MOVE($$->dims, $3); }
    ;

dims
    : %empty            { memset(&$$, 0, sizeof $$); }
    | dims '[' expr ']' { $$ = $1; MDL_VEC_PUSH(A, $$, $3.e); }
    ;

/* ---------------------------------------------------------------- tasks */

task
    : task_head sections
    | task_head '{' sections '}'
    ;

task_head
    : KW_TASK IDENT { begin_task(ctx, $2, @2); } opt_index opt_conn
    ;

opt_index
    : %empty
    | '(' IDENT ')'
        { ctx->task->multi = 1; ctx->task->index_var = $2; }
    ;

opt_conn
    : %empty
    | KW_CONNECTED KW_WITH topology
    | KW_CONNECTED error        /* recover at the task body */
    ;

topology
    : KW_SETOF '(' task_names ')'   { ctx->task->conn = MDL_C_SETOF; }
    | task_names                    { ctx->task->conn = MDL_C_TASK; }
    | KW_GRID grid_args grid_of     { ctx->task->conn = MDL_C_GRID; }
    /* a misspelt setof/grid (`gird(2)`): name the word, not the '(' */
    | IDENT '(' expr_list ')' grid_of
        { bad_topology(ctx, $1, @1, &$3, 0); }
    | IDENT '(' expr_list ',' periodic ')' grid_of
        { bad_topology(ctx, $1, @1, &$3, 1); }
    ;

task_names
    : IDENT
        {
            MDL_VEC_PUSH(A, ctx->task->conn_names, $1);
            MDL_VEC_PUSH(A, ctx->task->conn_locs, @1);
        }
    | task_names ',' IDENT
        {
            MDL_VEC_PUSH(A, ctx->task->conn_names, $3);
            MDL_VEC_PUSH(A, ctx->task->conn_locs, @3);
        }
    ;

grid_args
    : %empty
    | '(' expr ')'      { ctx->task->grid_dims_expr = $2.e; }
    | '(' expr ',' periodic ')'
                        { ctx->task->grid_dims_expr = $2.e; }
    ;

periodic
    : KW_PERIODIC       { ctx->task->periodic_given = 1; }
    | KW_PERIODIC '(' expr_list ')'
        {
            ctx->task->periodic_given = 1;
            VEC_MOVE(ctx->task->periodic_exprs, $3);
        }
    ;

grid_of
    : %empty
    | KW_OF IDENT       { ctx->task->grid_of = $2; ctx->task->grid_of_loc = @2; }
    /* the thesis writes the optional part with its brackets (figure 7.3) */
    | '[' KW_OF IDENT ']'
        {
            ctx->task->grid_of = $3;
            ctx->task->grid_of_loc = @3;
            mdl_note(ctx->diag, @$, "'[of %s]' is read as 'of %s' (the brackets mark it optional in the thesis's grammar)",
                     $3, $3);
        }
    ;

expr_list
    : expr              { memset(&$$, 0, sizeof $$); MDL_VEC_PUSH(A, $$, $1.e); }
    | expr_list ',' expr { $$ = $1; MDL_VEC_PUSH(A, $$, $3.e); }
    ;

sections
    : %empty
    | sections section
    | sections ';'              /* `uses { … };` in real specs */
    | sections error '}'        /* a misspelt section: skip its block */
    ;

section
    : KW_USES '{' decls '}'
    | KW_SENDS { ctx->in_sends = 1; ctx->mode = -1; } '{' sr_elems '}'
    | KW_RECEIVES { ctx->in_sends = 0; ctx->mode = -1; } '{' sr_elems '}'
    | KW_COLLECTIVES '{' colls '}'
    ;

/* ---------------------------------------------------------------- uses */

decls
    : %empty
    | decls decl
    | decls error ';'
    ;

decl
    : type_spec declarators ';'
        { add_vars(ctx, $1, MDL_V_SCALAR, &$2); }
    | type_spec declarators error
        {
            add_vars(ctx, $1, MDL_V_SCALAR, &$2);
            expect_semi(ctx, @2, "declaration");
        }
    | type_spec '<' error       /* `vectr<double>[3] v;`; before the tokens
                                   up to ';' are read and flush the generic message */
        { bad_template(ctx, &$1, @2); } ';'
    | KW_VECTOR '<' type_spec '>' '[' expr ']' declarators ';'
        {
            for (int i = 0; i < $8.n; i++)
                MDL_VEC_PUSH(A, $8.v[i]->dims, $6.e);
            add_vars(ctx, $3, MDL_V_VECTOR, &$8);
        }
    | KW_MATRIX '<' type_spec '>' '[' expr ',' expr ']' declarators ';'
        {
            for (int i = 0; i < $10.n; i++) {
                MDL_VEC_PUSH(A, $10.v[i]->dims, $6.e);
                MDL_VEC_PUSH(A, $10.v[i]->dims, $8.e);
            }
            add_vars(ctx, $3, MDL_V_MATRIX, &$10);
        }
    | KW_MATRIX '<' type_spec '>' '[' expr ']' '[' expr ']' declarators ';'
        {
            for (int i = 0; i < $11.n; i++) {
                MDL_VEC_PUSH(A, $11.v[i]->dims, $6.e);
                MDL_VEC_PUSH(A, $11.v[i]->dims, $9.e);
            }
            add_vars(ctx, $3, MDL_V_MATRIX, &$11);
        }
    ;

/* ---------------------------------------------------------------- messages */

sr_elems
    : %empty
    | sr_elems sr_elem
    | sr_elems error ';'
    ;

sr_elem
    : msg_def
    | ';'
    | KW_SYNC { ctx->mode = 0; } '{' msg_defs '}' { ctx->mode = -1; }
    | KW_ASYNC { ctx->mode = 1; } '{' msg_defs '}' { ctx->mode = -1; }
    /* a misspelt sync/async (`asynch {`): name the word, keep its messages */
    | IDENT '{' { bad_block(ctx, $1, @1); } msg_defs '}' { ctx->mode = -1; }
    ;

msg_defs
    : %empty
    | msg_defs msg_def
    | msg_defs ';'
    | msg_defs error ';'
    ;

msg_def
    : IDENT opt_peer '=' content ';'
        {
            add_msg(ctx, $1, @1, &$2, NULL, @1, &$4, @4);
        }
    | IDENT opt_peer '=' content KW_MATCHES IDENT ';'
        {
            add_msg(ctx, $1, @1, &$2, $6, @6, &$4, @4);
        }
    | IDENT opt_peer '=' content error
        {
            add_msg(ctx, $1, @1, &$2, NULL, @1, &$4, @4);
            expect_semi(ctx, @4, "message definition");
        }
    | IDENT opt_peer '=' content KW_MATCHES IDENT error
        {
            add_msg(ctx, $1, @1, &$2, $6, @6, &$4, @4);
            expect_semi(ctx, @6, "message definition");
        }
    | IDENT opt_peer '=' content KW_MATCHES error
        {
            /* not "expected ';'" before the `matches` that is there */
            ctx->has_pending = 0;
            mdl_error(ctx->diag, after(@5), "expected the name of a send after 'matches' in '%s'",
                      $1);
        }
    ;

opt_peer
    : %empty            { memset(&$$, 0, sizeof $$); }
    | KW_TO peer        { $$ = $2; $$.kw_loc = @1; }
    | KW_FROM peer      { $$ = $2; $$.is_from = 1; $$.kw_loc = @1; }
    ;

peer
    : IDENT
        {
            memset(&$$, 0, sizeof $$);
            $$.given = 1; $$.kind = MDL_P_ONE; $$.name = $1; $$.loc = @1;
        }
    | '{' IDENT '}'
        {
            memset(&$$, 0, sizeof $$);
            $$.given = 1; $$.kind = MDL_P_ALL; $$.name = $2; $$.loc = @2;
        }
    | '[' IDENT ']'
        {
            memset(&$$, 0, sizeof $$);
            $$.given = 1; $$.kind = MDL_P_SUBSET; $$.name = $2; $$.loc = @2;
        }
    | IDENT offsets
        {
            memset(&$$, 0, sizeof $$);
            $$.given = 1; $$.kind = MDL_P_NEIGHBOR; $$.name = $1;
            $$.loc = @$;
            $$.offsets = $2;
            if (strcmp($1, "Neighbor") != 0)
                mdl_error(ctx->diag, @1,
                          "only 'Neighbor' takes offsets ('Neighbor[dx][dy]'), not '%s'",
                          $1);
        }
    ;

offsets
    : '[' expr ']'      { memset(&$$, 0, sizeof $$); MDL_VEC_PUSH(A, $$, $2.e); }
    | offsets '[' expr ']' { $$ = $1; MDL_VEC_PUSH(A, $$, $3.e); }
    ;

content
    : KW_SEQUENCE '{' items '}'   { $$ = $3; }
    ;

items
    : item              { memset(&$$, 0, sizeof $$); MDL_VEC_PUSH(A, $$, $1); }
    | items ',' item    { $$ = $1; MDL_VEC_PUSH(A, $$, $3); }
    ;

/* A bare identifier is a REF (sema decides whether it names a variable,
 * a const or MDL_SUM); any other expression is an EXPR item. */
item
    : expr
        {
            $$ = mdl_alloc(A, sizeof *$$);
            $$->loc = @1;
            if ($1.e->kind == MDL_E_NAME) {
                $$->kind = MDL_IT_REF;
                $$->name = $1.e->name;
            } else {
                $$->kind = MDL_IT_EXPR;
                $$->expr = $1.e;
            }
        }
    | IDENT indices
        {
            $$ = mdl_alloc(A, sizeof *$$);
            $$->kind = MDL_IT_REF;
            $$->loc = @$;
            $$->name = $1;
            VEC_MOVE($$->idx, $2);
        }
    ;

indices
    : index             { memset(&$$, 0, sizeof $$); MDL_VEC_PUSH(A, $$, $1); }
    | indices index     { $$ = $1; MDL_VEC_PUSH(A, $$, $2); }
    ;

index
    : '[' expr ']'              { $$ = mk_index(ctx, MDL_IX_SINGLE, @$, $2.e, NULL); }
    | '[' expr DOTDOT expr ']'  { $$ = mk_index(ctx, MDL_IX_RANGE, @$, $2.e, $4.e); }
    | '[' expr ',' expr ']'     { $$ = mk_index(ctx, MDL_IX_RANGE, @$, $2.e, $4.e); }
    | '[' DOTDOT ']'            { $$ = mk_index(ctx, MDL_IX_RUNTIME, @$, NULL, NULL); }
    ;

/* ---------------------------------------------------------------- collectives */

colls
    : %empty
    | colls coll
    | colls ';'
    | colls error ';'
    ;

coll
    : IDENT coll_args { begin_coll(ctx, $1, @1, $2); } '{' coll_msgs '}'
        { ctx->coll = NULL; }
    ;

coll_args
    : %empty            { memset(&$$, 0, sizeof $$); }
    | '(' ')'           { memset(&$$, 0, sizeof $$); }
    | '(' expr ')'      { memset(&$$, 0, sizeof $$); $$.root = $2.e; }
    | '(' expr ',' IDENT ')'
        {
            memset(&$$, 0, sizeof $$);
            $$.root = $2.e; $$.table = $4; $$.table_loc = @4;
        }
    ;

coll_msgs
    : %empty
    | coll_msgs coll_msg
    | coll_msgs ';'
    | coll_msgs error ';'
    ;

coll_msg
    : IDENT '=' content ';'     { add_coll_msg(ctx, $1, @1, &$3, @3); }
    | IDENT '=' content error
        {
            add_coll_msg(ctx, $1, @1, &$3, @3);
            expect_semi(ctx, @3, "collective message definition");
        }
    ;

/* ---------------------------------------------------------------- expressions */

expr
    : term
    | expr '+' term     { $$ = mk_bin(ctx, MDL_E_ADD, $1, $3, @$); }
    | expr '-' term     { $$ = mk_bin(ctx, MDL_E_SUB, $1, $3, @$); }
    ;

term
    : unary
    | term '*' unary    { $$ = mk_bin(ctx, MDL_E_MUL, $1, $3, @$); }
    | term '/' unary    { $$ = mk_bin(ctx, MDL_E_DIV, $1, $3, @$); }
    ;

unary
    : primary
    | '-' unary
        {
            mdl_pexpr none = { NULL, 0 };
            $$ = mk_bin(ctx, MDL_E_NEG, $2, none, @$);
        }
    | '+' unary         { $$ = $2; }
    ;

primary
    : INT               { $$ = mk_leaf(ctx, MDL_E_INT, @1); $$.e->ival = $1; }
    | IDENT             { $$ = mk_leaf(ctx, MDL_E_NAME, @1); $$.e->name = $1; }
    | '(' expr ')'      { $$ = $2; }
    ;

%%

/* Token names for "expected …" lists: the aliases above without bison's
 * double quotes. */
static void symbol_name(yysymbol_kind_t sym, char *buf, size_t size)
{
    if (sym == YYSYMBOL_YYEOF) {
        snprintf(buf, size, "end of file");
        return;
    }
    const char *n = yysymbol_name(sym);
    size_t len = strlen(n);
    if (len >= 2 && n[0] == '"' && n[len - 1] == '"')
        snprintf(buf, size, "%.*s", (int)len - 2, n + 1);
    else
        snprintf(buf, size, "%s", n);
}

static int is_arith(yysymbol_kind_t sym)
{
    const char *n = yysymbol_name(sym);
    /* '<' after a type is only there for a misspelt vector/matrix */
    return strcmp(n, "'+'") == 0 || strcmp(n, "'-'") == 0 ||
           strcmp(n, "'*'") == 0 || strcmp(n, "'/'") == 0 || strcmp(n, "'<'") == 0;
}

static int yyreport_syntax_error(const yypcontext_t *yc, mdl_pctx *ctx)
{
    char *out = ctx->pending;
    size_t size = sizeof ctx->pending, pos = 0;
    yysymbol_kind_t la = yypcontext_token(yc);
    int tlen = 0;
    const char *text = mdl_lex_text(ctx->scanner, &tlen);
    int show = tlen > 40 ? 40 : tlen;
    const char *ell = tlen > 40 ? "..." : "";

    /* The pending message of an earlier error is printed first. */
    if (ctx->has_pending)
        mdl_error(ctx->diag, ctx->pending_loc, "%s", ctx->pending);

    switch (la) {
    case YYSYMBOL_YYEOF:
        pos = snprintf(out, size, "unexpected end of file");
        break;
    case YYSYMBOL_IDENT:
        pos = snprintf(out, size, "unexpected identifier '%.*s%s'", show, text, ell);
        break;
    case YYSYMBOL_INT:
        pos = snprintf(out, size, "unexpected integer '%.*s%s'", show, text, ell);
        break;
    default:
        if (la >= YYSYMBOL_TYPEWORD && la <= YYSYMBOL_KW_MATRIX)
            pos = snprintf(out, size, "unexpected keyword '%.*s'", show, text);
        else
            pos = snprintf(out, size, "unexpected '%.*s'", show, text);
        break;
    }

    enum { MAX_LIST = 6 };
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(yc, exp, YYNTOKENS);
    /* Arithmetic operators are almost never what is missing; listing them
     * (and only some: default reductions hide the others) is noise. */
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!is_arith(exp[i]))
            exp[k++] = exp[i];
    if (k > 0)
        n = k;
    if (n > 0 && n <= MAX_LIST) {
        for (int i = 0; i < n && pos < size; i++) {
            char name[64];
            symbol_name(exp[i], name, sizeof name);
            pos += snprintf(out + pos, size - pos, "%s%s",
                            i == 0 ? ", expected " : i == n - 1 ? " or " : ", ",
                            name);
        }
    }
    /* A misspelt keyword: "did you mean 'uses'?" (unless it is the only
     * thing expected, which the message already says). */
    if (la == YYSYMBOL_IDENT && n != 1 && tlen < 64 && pos < size) {
        char word[64], names[YYNTOKENS][32];
        const char *cands[YYNTOKENS];
        int nc = 0;
        memcpy(word, text, (size_t)tlen);
        word[tlen] = '\0';
        for (int i = 0; i < n; i++)
            if (exp[i] >= YYSYMBOL_KW_CONST && exp[i] <= YYSYMBOL_KW_MATRIX) {
                char quoted[64];
                symbol_name(exp[i], quoted, sizeof quoted);
                snprintf(names[nc], sizeof names[nc], "%.*s",
                         (int)strlen(quoted) - 2, quoted + 1);
                cands[nc] = names[nc];
                nc++;
            }
        const char *best = mdl_suggest_nocase(word, cands, nc);
        /* a keyword cut short (`match` for `matches`) is too far for the
           edit distance of a short word, but plainly meant */
        for (int i = 0; !best && tlen >= 4 && i < nc; i++)
            if (strncasecmp(cands[i], word, (size_t)tlen) == 0)
                best = cands[i];
        /* default reductions hide some keywords from the expected set
           (`Task a(i) conected with`): then any keyword close enough */
        if (!best) {
            nc = 0;
            for (int k = YYSYMBOL_KW_CONST; k <= YYSYMBOL_KW_MATRIX; k++) {
                char quoted[64];
                symbol_name((yysymbol_kind_t)k, quoted, sizeof quoted);
                snprintf(names[nc], sizeof names[nc], "%.*s",
                         (int)strlen(quoted) - 2, quoted + 1);
                cands[nc] = names[nc];
                nc++;
            }
            best = mdl_suggest_nocase(word, cands, nc);
        }
        if (best)
            snprintf(out + pos, size - pos, "; did you mean '%s'?", best);
    }
    ctx->pending_loc = *yypcontext_location(yc);
    ctx->has_pending = 1;
    return 0;
}

static void yyerror(YYLTYPE *loc, mdl_pctx *ctx, const char *msg)
{
    if (ctx->has_pending) {
        ctx->has_pending = 0;
        mdl_error(ctx->diag, ctx->pending_loc, "%s", ctx->pending);
    }
    /* The only message bison itself produces with parse.error custom is
     * stack exhaustion, and only nested parentheses or signs can cause it. */
    if (strstr(msg, "exhausted"))
        mdl_error(ctx->diag, *loc, "expression too deeply nested");
    else
        mdl_error(ctx->diag, *loc, "%s", msg);
}

int mdl_yyparse_run(mdl_pctx *ctx)
{
    int r = yyparse(ctx);
    if (ctx->has_pending) {
        ctx->has_pending = 0;
        mdl_error(ctx->diag, ctx->pending_loc, "%s", ctx->pending);
    }
    return r;
}
