/* types: the values the father sends and the sons check. */
#ifndef TYPES_COMMON_H
#define TYPES_COMMON_H
#define FILL_CELL(p, v) do { (p)->w = (v) + 0.25; (p)->k[0] = (v); (p)->k[1] = -(v); \
                             (p)->k[2] = 3 * (v); (p)->c = (char)('a' + (v)); } while (0)
#define CELL_OK(p, v) ((p)->w == (v) + 0.25 && (p)->k[0] == (v) && (p)->k[1] == -(v) && \
                       (p)->k[2] == 3 * (v) && (p)->c == (char)('a' + (v)))
#endif
