// cxx_errors, a son: ping in, pong out, instance arguments left out.
#include "sonMDL.hh"

int main(int argc, char **argv)
{
    son t;
    if (t.MDL_Init(&argc, &argv) != MDL_SUCCESS || t.MDL_RecvFrom_father_ping() != 0)
        return 1;
    t.value++;
    if (t.MDL_SendTo_father_pong() != MDL_SUCCESS || t.MDL_pongWait() != MDL_SUCCESS)
        return 1;
    return t.MDL_End() == MDL_SUCCESS ? 0 : 1;
}
