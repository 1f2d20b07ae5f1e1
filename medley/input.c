/* input.c — what the front end reads besides the driver's options: the
 * spec file and the -D NAME=VALUE definitions (mdltrace --spec reads them
 * the same way: it must see the spec exactly as the program was
 * compiled). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

/* NAME=VALUE with NAME an identifier and VALUE a (possibly negative)
 * decimal integer that fits a long long. */
int mdl_define_parse(const char *arg, mdl_define *d)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return -1;
    if (!(arg[0] == '_' || (arg[0] >= 'A' && arg[0] <= 'Z') ||
          (arg[0] >= 'a' && arg[0] <= 'z')))
        return -1;
    for (const char *p = arg; p < eq; p++)
        if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') ||
              (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            return -1;
    const char *v = eq + 1;
    const char *digits = (*v == '-' || *v == '+') ? v + 1 : v;
    if (*digits < '0' || *digits > '9')
        return -1;
    for (const char *p = digits; *p; p++)
        if (*p < '0' || *p > '9')
            return -1;
    errno = 0;
    char *end;
    long long val = strtoll(v, &end, 10);
    if (errno || *end)
        return -1;
    d->name = arg;
    d->namelen = (size_t)(eq - arg);
    d->value = val;
    return 0;
}

/* Whole file in memory (it may contain NUL bytes; the lexer reports them),
 * up to 2 GiB. */
char *mdl_read_spec_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                free(buf);
                buf = NULL;
            }
            break;
        }
        /* the lexer takes at most INT_MAX - 2 bytes: stop there rather
         * than read /dev/zero until memory runs out */
        if (cap >= (size_t)INT_MAX) {
            free(buf);
            buf = NULL;
            errno = EFBIG;
            break;
        }
        char *nb = realloc(buf, cap *= 2);
        if (!nb) {
            free(buf);
            errno = ENOMEM;
        }
        buf = nb;
    }
    int saved = errno;
    fclose(f);
    errno = saved;
    *len = n;
    return buf;
}

/* -D NAME=VALUE: overrides the spec's const NAME, or adds it. */
void mdl_defines_apply(mdl_spec *spec, mdl_arena *arena,
                       const mdl_define *defs, int ndefs)
{
    for (int i = 0; i < ndefs; i++) {
        const char *name = mdl_strndup(arena, defs[i].name, defs[i].namelen);
        mdl_const *c = NULL;
        for (int k = 0; k < spec->consts.n; k++)
            if (strcmp(spec->consts.v[k]->name, name) == 0)
                c = spec->consts.v[k];
        if (c && c->value) {
            /* the spec's expression gives way to the -D value */
            mdl_expr *e = mdl_alloc(arena, sizeof *e);
            e->kind = MDL_E_INT;
            e->loc = c->value->loc;
            e->ival = defs[i].value;
            c->value = e;
        } else if (!c) {
            c = mdl_alloc(arena, sizeof *c);
            c->name = name;
            MDL_VEC_PUSH(arena, spec->consts, c);
        }
        c->from_cmdline = 1;
        c->val = defs[i].value;
        c->evaluated = 1;
    }
}
