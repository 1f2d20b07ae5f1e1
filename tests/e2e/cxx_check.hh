// CHECK for the C++ e2e programs (included as "../cxx_check.hh"): a failed
// condition prints the file, line and condition, and fails the instance.
#ifndef CXX_CHECK_HH
#define CXX_CHECK_HH
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(c)                                                                  \
    do {                                                                          \
        if (!(c)) {                                                               \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            std::exit(1);                                                         \
        }                                                                         \
    } while (0)

// Whether p lies in a mapping of the memfd called `name` ("memfd:mdl-job":
// the shared-memory runtime's job segment; "memfd:mdl-task": the MPI
// runtime's task file): a task object the runtime aliased (mdl_init_at).
inline bool in_memfd(const void *p, const char *name)
{
    std::FILE *f = std::fopen("/proc/self/maps", "r");
    char line[512];
    bool in = false;
    unsigned long lo, hi, a = (unsigned long)p;
    while (f && !in && std::fgets(line, sizeof line, f))
        in = std::sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi &&
             std::strstr(line, name) != nullptr;
    if (f)
        std::fclose(f);
    return in;
}

inline bool in_job_segment(const void *p)
{
    return in_memfd(p, "memfd:mdl-job");
}

// On the shared-memory runtime, with aliasing allowed (MDL_SHM_ALIAS unset).
inline bool expect_aliased()
{
    const char *a = std::getenv("MDL_SHM_ALIAS");
    return std::getenv("MDL_SHM_FD") && !(a && std::strcmp(a, "0") == 0);
}
#endif
