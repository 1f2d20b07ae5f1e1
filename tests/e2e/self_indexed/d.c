/* self_indexed: on each of the 64 channels, a send to itself meeting an
 * async receive posted before it (see spec.mdl).  Message k carries
 * 100 * k + j in element j. */
#include <stdio.h>
#include <string.h>
#include "dMDL.h"

/* every pair of the spec, m<k> sent and r<k> received (the task-named
 * functions: the MDL_ names are _Generic macros, no function pointers) */
#define PAIRS                                                              \
    X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12)    \
    X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23)     \
    X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32) X(33) X(34)     \
    X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45)     \
    X(46) X(47) X(48) X(49) X(50) X(51) X(52) X(53) X(54) X(55) X(56)     \
    X(57) X(58) X(59) X(60) X(61) X(62) X(63)

typedef struct pair {
    int (*send)(struct d *, int);
    int (*recv)(struct d *, int);
    int (*test)(struct d *);
} pair;

#define X(k) { d_MDL_SendTo_d_m##k, d_MDL_RecvFrom_d_r##k, d_MDL_r##k##Test },
static const pair pairs[] = { PAIRS };
#undef X

int main(int argc, char **argv)
{
    struct d *t;
    if (MDL_Init(&t, &argc, &argv) != MDL_SUCCESS)
        return 1;
    int me = MDL_MyRank(t), fails = 0, n = (int)(sizeof pairs / sizeof pairs[0]);
    for (int k = 0; k < n; k++) {
        memset(t->p, 0, sizeof t->p);
        int rc = pairs[k].recv(t, k % 2 ? MDL_ANY : me);
        for (int j = 0; j < 4; j++)
            t->w[j] = 100.0 * k + j;
        if (rc >= 0)
            rc = pairs[k].send(t, me);
        int done = 0;
        for (int i = 0; rc >= 0 && !done && i < 1000000; i++)
            rc = done = pairs[k].test(t);
        if (rc < 0 || !done) {
            fprintf(stderr, "self_indexed: r%d: %s\n", k,
                    rc < 0 ? "an error" : "the receive posted before the send never got it");
            fails++;
            break;
        }
        for (int j = 0; j < 4; j++)
            if (t->p[j] != 100.0 * k + j) {
                fprintf(stderr, "self_indexed: r%d: element %d is %g, want %g\n", k, j,
                        t->p[j], 100.0 * k + j);
                fails++;
                break;
            }
    }
    int rc = MDL_End(t);
    if (!fails && rc == MDL_SUCCESS && me == 0) /* one line: MPICH's launcher may interleave two */
        printf("self_indexed: ok\n");
    return fails || rc != MDL_SUCCESS;
}
