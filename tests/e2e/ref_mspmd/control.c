#include <stdio.h>
#include "controlMDL.h"

int main(int argc, char **argv)
{
    struct control *t;
    MDL_Init(&t, &argc, &argv);
    t->scale = 3.0;
    MDL_SendTo_agent_config(t);
    MDL_configWait(t);
    MDL_RecvFrom_agent_finished(t, 0);
    long served = t->served;
    printf("control: served %ld\n", served);
    MDL_End(t);
    return served > 0 && served % NB == 0 ? 0 : 1;
}
