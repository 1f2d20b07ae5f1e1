/* The values both programs expect: every field of a Job and a Cell is a
 * function of a seed, so any misplaced byte shows. */
static void fill_cell(struct Cell *c, int seed)
{
    c->p.x = seed + 0.25;
    c->p.y = -seed - 0.5;
    c->w = seed * 3.0;
    for (int k = 0; k < 2; k++) {
        c->tags[k].a = (short)(seed * 10 + k);
        c->tags[k].b = (char)('a' + (seed + k) % 26);
    }
}

static void fill_job(struct Job *j, int seed)
{
    j->id = seed;
    fill_cell(&j->cell, seed + 1);
    for (int k = 0; k < 2; k++) {
        j->pairs[k].lo = -(long)seed * 1000000007L - k;
        j->pairs[k].hi = (long)seed * 1000000007L + k;
    }
}

static int same_cell(const struct Cell *a, const struct Cell *b)
{
    int same = a->p.x == b->p.x && a->p.y == b->p.y && a->w == b->w;
    for (int k = 0; k < 2; k++)
        same &= a->tags[k].a == b->tags[k].a && a->tags[k].b == b->tags[k].b;
    return same;
}

static int same_job(const struct Job *a, const struct Job *b)
{
    int same = a->id == b->id && same_cell(&a->cell, &b->cell);
    for (int k = 0; k < 2; k++)
        same &= a->pairs[k].lo == b->pairs[k].lo && a->pairs[k].hi == b->pairs[k].hi;
    return same;
}
