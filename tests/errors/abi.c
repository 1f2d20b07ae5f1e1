/* abi.c — MDL_Init given the descriptor of code generated for another
 * runtime interface (argv[1] = "newer": a later interface version; "old":
 * code from before interface versions, whose first word is a pointer).
 * Run with errors returned and printed: prints the code it got. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mdl_rt.h"

int main(int argc, char **argv)
{
    static const char *const tasks[] = { "a" };
    static const char spec[] = "abi.mdl";
    int old = argc > 1 && strcmp(argv[1], "old") == 0;
    mdl_task_desc d = { .abi = old ? (unsigned long long)(uintptr_t)spec : MDL_ABI_MAGIC | 99,
                        .spec = spec, .ntasks = 1, .tasks = tasks, .struct_size = 8 };
    void *mem;
    mdl_rt *rt;
    printf("abi %s: %d\n", old ? "old" : "newer", mdl_init(&d, &argc, &argv, &mem, &rt));
    return 0;
}
