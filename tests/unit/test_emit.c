/* test_emit.c — the emitters: names and signatures of the generated API,
 * the spec-wide header section, determinism, atomic output, dot. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "emit_internal.h"
#include "unit.h"

static const char *spec_src =
    "const N = 8;\n"
    "struct P { double x; int k[2]; };\n"
    "Task father connected with setof(son)\n"
    "uses { int n; vector<double>[N] V; int ids[4]; }\n"
    "sends { all to {son} = sequence{n};\n"
    "        some to [son] = sequence{V[..]};\n"
    "        sync { one to son = sequence{n, V[2..3]}; } }\n"
    "receives { back from son = sequence{n}; async { ar from son = sequence{V}; } }\n"
    "Task son(i) connected with father\n"
    "uses { int n; vector<double>[N] V; P ps[4]; P all[8]; }\n"
    "sends { async { back to father = sequence{n}; ar to father = sequence{V}; } }\n"
    "receives { all from father = sequence{n}; some from father = sequence{V[..]};\n"
    "           async { one from father = sequence{n, V[2..3]}; } }\n"
    "collectives { gather(1) { g = sequence{ps, all, 4}; }\n"
    "              MCAST(0) { mc = sequence{V, V, N}; } }\n";

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = 0;
    fclose(f);
    return s;
}

static char *file_in(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp(path);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static void rm_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (rmdir(path) != 0)
            unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Checks and emits the spec into a fresh directory (caller frees/removes). */
static int emit_fresh(mdl_unit_front *u, char *dir)
{
    strcpy(dir, "/tmp/medley-unit-emit.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    mdl_spec *s = mdl_unit_check(u, spec_src);
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(u), "");
    return mdl_emit_c(s, dir);
}

static void test_api_names(void)
{
    mdl_unit_front u;
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(emit_fresh(&u, dir), 0);
    /* what a program including sonMDL.h sees: the spec-wide header, then
     * the task's own */
    char *common = file_in(dir, "tMDL_common.h"), *own = file_in(dir, "sonMDL.h");
    CU_ASSERT_PTR_NOT_NULL_FATAL(common);
    CU_ASSERT_PTR_NOT_NULL_FATAL(own);
    size_t lc = strlen(common), lo = strlen(own);
    char *h = malloc(lc + lo + 1);
    memcpy(h, common, lc);
    memcpy(h + lc, own, lo + 1);
    static const char *const want[] = {
        "int father_MDL_Init(struct father **t, int *argc, char ***argv);",
        "int father_MDL_sonSize(struct father *t);",
        "int father_MDL_SendTo_son_all(struct father *t);",
        "int father_MDL_SendTo_son_some(struct father *t, const int *insts, int n, int lo0, int hi0);",
        "int father_MDL_SendTo_son_one(struct father *t, int inst);",
        "int father_MDL_RecvFrom_son_back(struct father *t, int inst);",
        "int father_MDL_allTest(struct father *t);",
        "int father_MDL_arWait(struct father *t);",
        "int son_MDL_RecvFrom_father_some(struct son *t, int inst, int lo0, int hi0);",
        "int son_MDL_Gather_g(struct son *t);",
        "int son_MDL_Mcast_mc(struct son *t, const int *insts, int n);",
        "int son_MDL_Sbarrier(struct son *t, const int *ranks, int n);",
        "int son_MDL_syncWithFamily(struct son *t);",
        "struct son *: son_MDL_Barrier",
        "struct father **: father_MDL_Init",
        "#define MDL_FIRST_(a, ...) a",
        "#define N (8)",
        "struct P {",
        "    struct P ps[4];",
        "    double V[8];  /* [N] */",
        "    struct mdl_rt *mdl_rt_;",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(h, want[i])) {
            fprintf(stderr, "missing: %s\n", want[i]);
            CU_FAIL("generated header lacks an expected line");
        }
    /* sync send `one` has no Test; `ar` (async both ways) has one pair */
    CU_ASSERT_PTR_NULL(strstr(h, "father_MDL_oneTest"));
    CU_ASSERT_PTR_NOT_NULL(strstr(h, "son_MDL_oneTest"));
    const char *ar = strstr(h, "int son_MDL_arTest");
    CU_ASSERT_PTR_NOT_NULL(ar);
    if (ar)
        CU_ASSERT_PTR_NULL(strstr(ar + 1, "int son_MDL_arTest"));
    CU_ASSERT_PTR_NULL(strstr(h, "mpi.h"));
    CU_ASSERT_PTR_NULL(strstr(h, "mdl_rt.h"));
    free(h);
    free(common);
    free(own);
    rm_dir(dir);
    mdl_unit_free(&u);
}

static const api_fn *api_named(const api_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i].name, name) == 0)
            return &l->v[i];
    return NULL;
}

static int param_is(const api_fn *f, int i, enum mdl_param_kind kind, const char *name,
                    int index)
{
    return i < f->nparams && f->params[i].kind == kind &&
           strcmp(f->params[i].name, name) == 0 && f->params[i].index == index;
}

/* The list every binding walks (common/mdl_api.h), with what a binding
 * needs beyond C's text: the task argument, each parameter's kind, the
 * meaning of the result; grid functions only in a grid task. */
static void test_api_list(void)
{
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u, spec_src);
    CU_ASSERT_STRING_EQUAL_FATAL(mdl_unit_diags(&u), "");
    api_list l = { 0 };
    cg_task_api(s->tasks.v[0], &l);             /* father */
    CU_ASSERT_EQUAL_FATAL(l.n > 2, 1);
    CU_ASSERT_EQUAL(l.v[0].kind, API_INIT);
    CU_ASSERT_EQUAL(l.v[1].kind, API_INIT_AT);
    const api_fn *f = api_named(&l, "MDL_Init");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->self, MDL_SELF_HANDLE);
    CU_ASSERT_EQUAL(f->nparams, 2);
    CU_ASSERT_TRUE(param_is(f, 0, MDL_PARAM_ARGC, "argc", -1));
    CU_ASSERT_TRUE(param_is(f, 1, MDL_PARAM_ARGV, "argv", -1));
    static const struct { const char *name; enum mdl_api_returns returns; } results[] = {
        { "MDL_MyRank", MDL_RET_NUMBER },
        { "MDL_sonSize", MDL_RET_NUMBER },
        { "MDL_allTest", MDL_RET_FLAG },
        { "MDL_allWait", MDL_RET_STATUS },
        /* a synchronous receive gives the sender, an async one does not */
        { "MDL_RecvFrom_son_back", MDL_RET_SENDER },
        { "MDL_RecvFrom_son_ar", MDL_RET_STATUS },
    };
    for (size_t i = 0; i < sizeof results / sizeof *results; i++) {
        const api_fn *r = api_named(&l, results[i].name);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(r->returns, results[i].returns);
    }
    f = api_named(&l, "MDL_SendTo_son_some");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->self, MDL_SELF_OBJECT);
    CU_ASSERT_EQUAL(f->returns, MDL_RET_STATUS);
    CU_ASSERT_EQUAL(f->nparams, 4);
    CU_ASSERT_TRUE(param_is(f, 0, MDL_PARAM_INTS_IN, "insts", -1));
    CU_ASSERT_TRUE(param_is(f, 1, MDL_PARAM_INT, "n", -1));
    CU_ASSERT_TRUE(param_is(f, 2, MDL_PARAM_INT, "lo", 0));
    CU_ASSERT_TRUE(param_is(f, 3, MDL_PARAM_INT, "hi", 0));
    /* the parameters in each style, as the C and C++ emitters print them */
    mdl_buf b = { 0 };
    cg_api_params(&b, f, API_P_C, 0);
    cg_buf_puts(&b, "|");
    cg_api_params(&b, f, API_P_DECL, 1);
    cg_buf_puts(&b, "|");
    cg_api_params(&b, f, API_P_DEF, 0);
    cg_buf_puts(&b, "|");
    cg_api_params(&b, f, API_P_ARGS, 2);
    cg_buf_puts(&b, "|");
    cg_api_params(&b, f, API_P_FORWARD, 0);
    CU_ASSERT_STRING_EQUAL(b.s, ", const int *insts, int n, int lo0, int hi0|"
                                "int /*n*/, int /*lo0*/, int /*hi0*/|"
                                "const int *mdl_insts, int mdl_n, int mdl_lo0, int mdl_hi0|"
                                ", mdl_lo0, mdl_hi0|, insts, n, lo0, hi0");
    cg_buf_free(&b);
    CU_ASSERT_PTR_NULL(api_named(&l, "MDL_Grid_Create"));
    cg_api_free(&l);
    mdl_unit_free(&u);

    s = mdl_unit_check(&u, "Task g(i) connected with grid(2)\nuses { int x; }\n");
    CU_ASSERT_STRING_EQUAL_FATAL(mdl_unit_diags(&u), "");
    cg_task_api(s->tasks.v[0], &l);
    CU_ASSERT_EQUAL_FATAL(l.n > 0, 1);
    CU_ASSERT_EQUAL(l.v[l.n - 1].kind, API_GET_NEIGHBORS);
    f = api_named(&l, "MDL_Grid_Rank");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_TRUE(param_is(f, 0, MDL_PARAM_INTS_IN, "coords", -1));
    CU_ASSERT_TRUE(param_is(f, 1, MDL_PARAM_INT_OUT, "rank", -1));
    f = api_named(&l, "MDL_Grid_Create");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_TRUE(param_is(f, 0, MDL_PARAM_INTS_INOUT, "dims", -1));
    cg_api_free(&l);
    mdl_unit_free(&u);
}

/* Names from patterns, as both the emitters and the runtimes make them:
 * the whole length is returned, the text cut to the buffer. */
static void test_fn_format(void)
{
    char b[16];
    CU_ASSERT_EQUAL(mdl_fn_format(b, sizeof b, MDL_FN_NAME(WAIT), "halo", NULL), 12);
    CU_ASSERT_STRING_EQUAL(b, "MDL_haloWait");
    CU_ASSERT_EQUAL(mdl_fn_format(b, sizeof b, MDL_FN_NAME(SEND), "son", "results"), 22);
    CU_ASSERT_STRING_EQUAL(b, "MDL_SendTo_son_");
    CU_ASSERT_EQUAL(mdl_fn_format(NULL, 0, MDL_FN_NAME(BARRIER), NULL, NULL), 11);
    CU_ASSERT_EQUAL(mdl_fn_format(b, 1, MDL_FN_NAME(BARRIER), NULL, NULL), 11);
    CU_ASSERT_STRING_EQUAL(b, "");
    mdl_buf n = { 0 };
    cg_fn_name(&n, API_COLL, mdl_co_kind_name(MDL_CO_ALLGATHERV), "m");
    CU_ASSERT_STRING_EQUAL(n.s, "MDL_AllgatherV_m");
    cg_buf_free(&n);
}

/* The spec-wide section is written once, into tMDL_common.h (the spec is
 * "t.mdl"), and every task header includes it instead of repeating it. */
static void test_common_section(void)
{
    mdl_unit_front u;
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(emit_fresh(&u, dir), 0);
    char *c = file_in(dir, "tMDL_common.h");
    char *f = file_in(dir, "fatherMDL.h"), *s = file_in(dir, "sonMDL.h");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "#ifndef MDL_SPEC_"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "#endif /* MDL_SPEC_"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "int father_MDL_Barrier(struct father *t);"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "int son_MDL_Barrier(struct son *t);"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "#define MDL_Barrier(...)"));
    CU_ASSERT_PTR_NULL(strstr(c, "struct son {"));
    static const char inc[] = "#include \"tMDL_common.h\"";
    CU_ASSERT_PTR_NOT_NULL(strstr(f, inc));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, inc));
    /* nothing spec-wide is repeated in a task header */
    CU_ASSERT_PTR_NULL(strstr(f, "MDL_SPEC_"));
    CU_ASSERT_PTR_NULL(strstr(f, "_MDL_Barrier"));
    CU_ASSERT_PTR_NULL(strstr(s, "#define MDL_Barrier"));
    /* the task sections differ */
    CU_ASSERT_PTR_NOT_NULL(strstr(f, "struct father {"));
    CU_ASSERT_PTR_NULL(strstr(f, "struct son {"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "struct son {"));
    free(c);
    free(f);
    free(s);
    rm_dir(dir);
    mdl_unit_free(&u);
}

/* The common header's name comes from the spec's file name, without
 * directories or ".mdl", with anything unfit for a file name or an
 * #include "…" replaced. */
static void test_common_name(void)
{
    static const struct { const char *path, *want; } cases[] = {
        { "t.mdl", "tMDL_common.h" },
        { "dir/sub/heat.mdl", "heatMDL_common.h" },
        { "heat.spec", "heat.specMDL_common.h" },
        { "we ird\"x\\.mdl", "we_ird_x_MDL_common.h" },
        { ".hidden.mdl", "_hiddenMDL_common.h" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        mdl_spec s;
        memset(&s, 0, sizeof s);
        s.path = cases[i].path;
        mdl_buf b = { 0 };
        cg_common_header_name(&b, &s);
        CU_ASSERT_STRING_EQUAL(b.s, cases[i].want);
        cg_buf_free(&b);
    }
}

static void test_deterministic(void)
{
    mdl_unit_front u1, u2;
    char d1[64], d2[64];
    CU_ASSERT_EQUAL_FATAL(emit_fresh(&u1, d1), 0);
    CU_ASSERT_EQUAL_FATAL(emit_fresh(&u2, d2), 0);
    static const char *const files[] = { "tMDL_common.h", "fatherMDL.h", "fatherMDL.c",
                                         "fatherMDL.hh", "sonMDL.h", "sonMDL.c", "sonMDL.hh" };
    for (int i = 0; i < 7; i++) {
        char *a = file_in(d1, files[i]), *b = file_in(d2, files[i]);
        CU_ASSERT_PTR_NOT_NULL(a);
        CU_ASSERT(a && b && strcmp(a, b) == 0);
        free(a);
        free(b);
    }
    CU_ASSERT_EQUAL(count_entries(d1), 7);
    rm_dir(d1);
    rm_dir(d2);
    mdl_unit_free(&u1);
    mdl_unit_free(&u2);
}

static void test_source_calls(void)
{
    mdl_unit_front u;
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(emit_fresh(&u, dir), 0);
    char *c = file_in(dir, "fatherMDL.c");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "#include \"mdl_rt.h\"\n#include \"fatherMDL.h\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "#define MDL_STATIC_ASSERT_ _Static_assert\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "MDL_STATIC_ASSERT_((N) == 8,"));
    /* fixed bounds: V[2..3] after a scalar */
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "= { 2, 3 };"));
    /* run-time bounds built at the call */
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "const long b[] = { (long)lo0, (long)hi0 };"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "mdl_send(t->mdl_rt_, &mdlg_msg_1, t, 0, insts, n, b);"));
    /* positional tables (C++17 has no designated initialisers) */
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "    sizeof(struct father), 1, 0, NULL, 0, NULL\n};"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "    2, mdlg_task_names, 0, 0, { 0, 0, 0 },"));
    /* names of this task and its peers only, at their spec indices, stored
     * by MDL_Init (no array designators in C++) */
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "static const char *mdlg_task_names[2];"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "    mdlg_task_names[0] = \"father\";\n"
                                     "    mdlg_task_names[1] = \"son\";\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "    mdlg_name_tasks();\n    int rc = mdl_init(&mdlg_task,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "    mdlg_name_tasks();\n    int rc = mdl_init_at(&mdlg_task,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "*t = (struct father *)mem;"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "#undef N\n"));
    free(c);
    c = file_in(dir, "sonMDL.c");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "offsetof(struct P, k)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "{ MDL_T_INT, NULL, 2, offsetof(struct P, k) }"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "mdl_collective(t->mdl_rt_, &mdlg_coll_0, t->ps, t->all,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "\"g\", \"MDL_Gather_g\", 0, MDL_COLL_GATHER,\n    1, 0, &"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, ",\n    4, 8, 0,\n    -1, -1\n};"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "insts, n);"));
    free(c);
    rm_dir(dir);
    mdl_unit_free(&u);
}

/* C++: the short names as overloads, the class members of struct T, and
 * TMDL.hh with the methods; default instance arguments. */
static void test_cxx(void)
{
    mdl_unit_front u;
    char dir[64];
    CU_ASSERT_EQUAL_FATAL(emit_fresh(&u, dir), 0);
    char *c = file_in(dir, "tMDL_common.h"), *h = file_in(dir, "sonMDL.h");
    char *hh = file_in(dir, "sonMDL.hh"), *fh = file_in(dir, "fatherMDL.h");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hh);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fh);
    static const char *const want[][2] = {
        /* overloads under __cplusplus, the macros in the other branch */
        { "c", "#ifdef __cplusplus\n}\n\n/* Short names: one overload" },
        { "c", "inline int MDL_Init(struct father **t, int *argc, char ***argv) "
               "{ return father_MDL_Init(t, argc, argv); }" },
        { "c", "inline int MDL_SendTo_son_some(struct father *t, const int *insts, int n, int lo0, "
               "int hi0) { return father_MDL_SendTo_son_some(t, insts, n, lo0, hi0); }" },
        { "c", "inline int MDL_Barrier(struct son *t) { return son_MDL_Barrier(t); }" },
        { "c", "\n#else\n\n/* Short names: the task is chosen by the type" },
        { "c", "int son_MDL_Init_at(struct son *t, unsigned long size, int *argc, char ***argv);" },
        /* the class: members added to the C struct, no data */
        { "h", "#ifdef __cplusplus\nstruct alignas(4096) son {\n#else\nstruct son {\n#endif\n" },
        { "h", "    struct mdl_rt *mdl_rt_;  /* runtime handle: do not touch */\n#ifdef __cplusplus\n" },
        { "h", "    constexpr son() noexcept\n        : n(), V(), ps(), all(), mdl_rt_() {}\n" },
        { "h", "    son(const son &) = delete;\n    son &operator=(const son &) = delete;\n" },
        { "h", "    int MDL_Init(int * /*argc*/, char *** /*argv*/);\n" },
        /* father is not a family: its instance may be left out */
        { "h", "    int MDL_SendTo_father_back(int /*inst*/ = 0);\n" },
        { "h", "    int MDL_RecvFrom_father_all(int /*inst*/ = MDL_ANY);\n" },
        /* bounds after the instance: an overload without it */
        { "h", "    int MDL_RecvFrom_father_some(int /*inst*/, int /*lo0*/, int /*hi0*/);\n"
               "    int MDL_RecvFrom_father_some(int /*lo0*/, int /*hi0*/);  /* inst = MDL_ANY */\n" },
        { "h", "    int MDL_Mcast_mc(const int * /*insts*/, int /*n*/);\n" },
        { "h", "#endif\n};\n\n#ifdef __cplusplus\n#include \"sonMDL.hh\"" },
        /* son is a family: no default towards it */
        { "f", "    int MDL_SendTo_son_one(int /*inst*/);\n" },
        { "hh", "#ifndef __cplusplus\n#error \"sonMDL.hh is the C++ binding" },
        { "hh", "#include \"sonMDL.h\"\n" },
        { "hh", "inline int son::MDL_Init(int *mdl_argc, char ***mdl_argv) "
                "{ return son_MDL_Init_at(this, sizeof *this, mdl_argc, mdl_argv); }\n" },
        { "hh", "inline int son::MDL_RecvFrom_father_some(int mdl_lo0, int mdl_hi0) "
                "{ return son_MDL_RecvFrom_father_some(mdl_rt_ ? this : nullptr, MDL_ANY, mdl_lo0, mdl_hi0); }\n" },
        { "hh", "inline int son::MDL_SendTo_father_back(int mdl_inst) "
                "{ return son_MDL_SendTo_father_back(mdl_rt_ ? this : nullptr, mdl_inst); }\n" },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const char *in = want[i][0][0] == 'c' ? c : want[i][0][0] == 'f' ? fh
                         : want[i][0][1] ? hh : h;
        if (!strstr(in, want[i][1])) {
            fprintf(stderr, "missing in %s: %s\n", want[i][0], want[i][1]);
            CU_FAIL("generated C++ lacks an expected text");
        }
    }
    CU_ASSERT_PTR_NULL(strstr(c, "#define MDL_Init_at"));   /* no C short name */
    CU_ASSERT_PTR_NULL(strstr(c, "MDL_CXX_"));              /* no keyword here */
    free(c);
    free(h);
    free(hh);
    free(fh);
    rm_dir(dir);
    mdl_unit_free(&u);
}

/* Spec names that are C++ keywords: MDL_CXX_(c, c_) where they stand
 * alone, the C++ spelling in C++-only code, two branches for constants. */
static void test_cxx_keywords(void)
{
    mdl_unit_front u;
    char dir[64];
    strcpy(dir, "/tmp/medley-unit-emit.XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    mdl_spec *s = mdl_unit_check(&u,
        "const new = 4;\n"
        "struct class { int this; };\n"
        "Task template(i) uses { struct class obj[new]; int delete, k; }\n"
        "sends { m = sequence{obj[delete], k}; } receives { m = sequence{obj[delete], k}; }\n");
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u), "");
    CU_ASSERT_EQUAL_FATAL(mdl_emit_c(s, dir), 0);
    char *c = file_in(dir, "tMDL_common.h"), *h = file_in(dir, "templateMDL.h");
    char *src = file_in(dir, "templateMDL.c"), *hh = file_in(dir, "templateMDL.hh");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hh);
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "#define MDL_CXX_(c, cxx) cxx\n#else\n#define MDL_CXX_(c, cxx) c\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "struct MDL_CXX_(class, class_) {\n    int MDL_CXX_(this, this_);"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "#ifdef __cplusplus\n#ifndef new_\n#define new_ (4)\n#endif\n"
                                     "#else\n#ifndef new\n#define new (4)\n#endif\n#endif\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "int template_MDL_Barrier(struct MDL_CXX_(template, template_) *t);"));
    CU_ASSERT_PTR_NOT_NULL(strstr(c, "inline int MDL_Barrier(struct template_ *t)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(h, "#ifdef __cplusplus\nstruct alignas(4096) template_ {\n#else\n"
                                     "struct MDL_CXX_(template, template_) {\n#endif\n"
                                     "    struct MDL_CXX_(class, class_) obj[4];"));
    CU_ASSERT_PTR_NOT_NULL(strstr(h, "    int MDL_CXX_(delete, delete_);\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(h, "constexpr template_() noexcept\n        : obj(), delete_(), k(), mdl_rt_() {}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hh, "inline int template_::MDL_Barrier() { return template_MDL_Barrier(mdl_rt_ ? this : nullptr); }"));
    CU_ASSERT_PTR_NOT_NULL(strstr(src, "MDL_STATIC_ASSERT_((MDL_CXX_(new, new_)) == 4,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(src, "#ifdef __cplusplus\n#undef new_\n#else\n#undef new\n#endif\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(src, "offsetof(struct MDL_CXX_(template, template_), k)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(src, "offsetof(struct MDL_CXX_(class, class_), MDL_CXX_(this, this_))"));
    CU_ASSERT_PTR_NOT_NULL(strstr(src, "(long)(t->MDL_CXX_(delete, delete_))"));
    free(c);
    free(h);
    free(src);
    free(hh);
    rm_dir(dir);
    mdl_unit_free(&u);
}

/* A variable named like its task cannot be a member of the class (it has
 * a constructor): C is unaffected, C++ stops at a clear #error. */
static void test_cxx_member_like_class(void)
{
    mdl_unit_front u;
    char dir[64];
    strcpy(dir, "/tmp/medley-unit-emit.XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    mdl_spec *s = mdl_unit_check(&u, "Task son(i) uses { int son; }\n"
                                     "sends { m = sequence{son}; } receives { m = sequence{son}; }\n");
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u), "");
    CU_ASSERT_EQUAL_FATAL(mdl_emit_c(s, dir), 0);
    char *h = file_in(dir, "sonMDL.h"), *hh = file_in(dir, "sonMDL.hh");
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hh);
    CU_ASSERT_PTR_NOT_NULL(strstr(h, "    int son;\n    struct mdl_rt *mdl_rt_;  /* runtime handle: do not touch */\n"
                                     "#ifdef __cplusplus\n#error \"task son has a variable named son: C++ cannot"));
    CU_ASSERT_PTR_NULL(strstr(h, "constexpr"));
    CU_ASSERT_PTR_NULL(strstr(hh, "inline"));
    free(h);
    free(hh);
    rm_dir(dir);
    mdl_unit_free(&u);
}

/* A failure leaves nothing behind: no output, no temporary. */
static void test_atomic_failure(void)
{
    mdl_unit_front u;
    char dir[64];
    strcpy(dir, "/tmp/medley-unit-emit.XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char sub[128];
    snprintf(sub, sizeof sub, "%s/sonMDL.c", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
    mdl_spec *s = mdl_unit_check(&u, spec_src);
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    int rc = mdl_emit_c(s, dir);
    fclose(stderr);
    stderr = saved;
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT_EQUAL(count_entries(dir), 1);
    rm_dir(dir);
    mdl_unit_free(&u);
}

static void test_dot(void)
{
    mdl_unit_front u;
    char dir[64], path[128];
    strcpy(dir, "/tmp/medley-unit-emit.XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/g.dot", dir);
    mdl_spec *s = mdl_unit_check(&u, spec_src);
    CU_ASSERT_EQUAL_FATAL(mdl_emit_dot(s, path), 0);
    char *d = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT(strncmp(d, "digraph", 7) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"father\" [label=\"father\\nMPMD single"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"son\" [label=\"son\\nSPMD"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "Gather(1) g = {ps, all, 4}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"father\" -> \"son\" [dir=none, style=dashed"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"father\" -> \"son\" [label=\"one → one\\nint, double[2]\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "\"son\" -> \"father\" [label=\"back → back"));
    free(d);
    rm_dir(dir);
    mdl_unit_free(&u);
}

/* The hash tells apart specs whose programs could not work together, and
 * only those. */
static void test_spec_hash(void)
{
    static const char *const base =
        "Task a(i) uses { vector<int>[%d] v; int k; }\n"
        "sends { m = sequence{%s}; } receives { m = sequence{%s}; }\n";
    char src[512];
    unsigned long long h[4];
    const char *items[4][2] = { { "v", "v" }, { "v", "v" }, { "v", "v" }, { "k", "k" } };
    int dims[4] = { 4, 4, 5, 4 };
    for (int i = 0; i < 4; i++) {
        mdl_unit_front u;
        snprintf(src, sizeof src, base, dims[i], items[i][0], items[i][1]);
        mdl_spec *s = mdl_unit_check(&u, src);
        CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u), "");
        h[i] = mdl_spec_hash(s);
        mdl_unit_free(&u);
    }
    CU_ASSERT_EQUAL(h[0], h[1]);    /* same spec */
    CU_ASSERT_NOT_EQUAL(h[0], h[2]); /* another extent */
    CU_ASSERT_NOT_EQUAL(h[0], h[3]); /* another content */
}

/* S40 holds two S39, each two S38 …: hashing each struct once makes this
 * linear; walking the nesting at every use took 2^40 steps.  The layout
 * at the bottom still counts. */
static unsigned long long deep_hash(const char *s0_fields)
{
    enum { DEPTH = 40 };
    static char src[DEPTH * 64 + 256];
    size_t n = (size_t)snprintf(src, sizeof src, "struct S0 { %s };\n", s0_fields);
    for (int i = 1; i <= DEPTH; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "struct S%d { struct S%d a, b; };\n", i,
                              i - 1);
    snprintf(src + n, sizeof src - n,
             "Task a(i) uses { struct S%d s; } sends { m = sequence{s}; } "
             "receives { m = sequence{s}; }\n", DEPTH);
    mdl_unit_front u;
    mdl_spec *s = mdl_unit_check(&u, src);
    CU_ASSERT_STRING_EQUAL(mdl_unit_diags(&u), "");
    unsigned long long h = mdl_spec_hash(s);
    mdl_unit_free(&u);
    return h;
}

static void test_spec_hash_deep_structs(void)
{
    unsigned long long a = deep_hash("double x;"), b = deep_hash("double x;");
    unsigned long long c = deep_hash("double x; int k;");
    CU_ASSERT_EQUAL(a, b);
    CU_ASSERT_NOT_EQUAL(a, c);
}

static const mdl_unit_test tests[] = {
    { "spec_hash", test_spec_hash },
    { "spec_hash_deep_structs", test_spec_hash_deep_structs },
    { "api_names", test_api_names },
    { "api_list", test_api_list },
    { "fn_format", test_fn_format },
    { "common_section", test_common_section },
    { "common_name", test_common_name },
    { "deterministic", test_deterministic },
    { "source_calls", test_source_calls },
    { "cxx", test_cxx },
    { "cxx_keywords", test_cxx_keywords },
    { "cxx_member_like_class", test_cxx_member_like_class },
    { "atomic_failure", test_atomic_failure },
    { "dot", test_dot },
    { NULL, NULL },
};
MDL_UNIT_SUITE("emit", tests)
