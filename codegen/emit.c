/* emit.c — mdl_emit_c: the spec-wide header, and TMDL.h, TMDL.c and
 * TMDL.hh (C++) for every task, written as one atomic set (writer.c); mdl_emit_all adds the
 * Fortran modules and the graph to the same set. */
#include <stdio.h>

#include "emit.h"
#include "emit_internal.h"

static void add_file(mdl_outset *o, const char *outdir, const char *task,
                     const char *suffix, mdl_buf *b)
{
    mdl_buf path = { 0 };
    cg_buf_printf(&path, "%s/%sMDL.%s", outdir, task, suffix);
    cg_outset_add(o, path.s, b);
    cg_buf_free(&path);
}

static void add_c(mdl_outset *o, const mdl_spec *spec, const char *outdir, int fortran)
{
    if (!outdir || !*outdir)
        outdir = ".";
    const cg_spec_facts sf = { mdl_spec_hash(spec) };
    if (fortran) {
        mdl_buf common = { 0 }, path = { 0 }, stem = { 0 };
        cg_emit_fortran_common(&common, spec);
        cg_spec_stem(&stem, spec);
        cg_buf_printf(&path, "%s/%sMDL_common.f90", outdir, stem.s);
        cg_outset_add(o, path.s, &common);
        cg_buf_free(&path);
        cg_buf_free(&stem);
        for (int i = 0; i < spec->tasks.n; i++) {
            mdl_buf f = { 0 };
            cg_emit_fortran_task(&f, spec, &sf, spec->tasks.v[i]);
            add_file(o, outdir, spec->tasks.v[i]->name, "f90", &f);
        }
    }
    /* the spec-wide header once, with the API list built once */
    api_list *apis = cg_spec_apis(spec);
    mdl_buf common = { 0 }, path = { 0 }, name = { 0 };
    cg_emit_common_header(&common, spec, &sf, apis);
    cg_spec_apis_free(spec, apis);
    cg_common_header_name(&name, spec);
    cg_buf_printf(&path, "%s/%s", outdir, name.s);
    cg_outset_add(o, path.s, &common);
    cg_buf_free(&path);
    cg_buf_free(&name);
    for (int i = 0; i < spec->tasks.n; i++) {
        const mdl_task *t = spec->tasks.v[i];
        mdl_buf h = { 0 }, c = { 0 }, hh = { 0 };
        cg_emit_header(&h, spec, t);
        cg_emit_source(&c, spec, &sf, t);
        cg_emit_cxx_header(&hh, spec, t);
        add_file(o, outdir, t->name, "h", &h);
        add_file(o, outdir, t->name, "c", &c);
        add_file(o, outdir, t->name, "hh", &hh);
    }
}

int mdl_emit_c(const mdl_spec *spec, const char *outdir)
{
    mdl_outset *o = cg_outset_new();
    add_c(o, spec, outdir, 0);
    return cg_outset_commit(o);
}

int mdl_emit_all(const mdl_spec *spec, const char *outdir, const char *dot, int fortran)
{
    mdl_outset *o = cg_outset_new();
    add_c(o, spec, outdir, fortran);
    if (dot)
        cg_dot_add(o, spec, dot);
    return cg_outset_commit(o);
}
