#include <stdio.h>
#include "clientsMDL.h"

int main(int argc, char **argv)
{
    struct clients *t;
    MDL_Init(&t, &argc, &argv);
    int me = MDL_MyRank(t), na = MDL_agentSize(t), bad = 0;
    int ag = me % na;
    /* batches sent back to back: each async send is waited before the
       variables are reused */
    for (int b = 0; b < NB; b++) {
        t->who = me; t->batch = b; t->val = me + 0.25 * b;
        MDL_SendTo_agent_request(t, ag);
        MDL_requestWait(t);
        t->n = 1 + b % 8;
        if (MDL_RecvFrom_agent_answer(t, ag) != ag) bad = 1;
        for (int j = 0; j < t->n; j++)
            if (t->back[j] != (me + 0.25 * b) * 3.0 + j) { printf("client %d: back[%d]=%g\n", me, j, t->back[j]); bad = 1; }
    }
    if (bad) printf("client %d FAILED\n", me);
    MDL_End(t);
    return bad;
}
