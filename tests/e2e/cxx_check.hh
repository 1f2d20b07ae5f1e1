// CHECK for the C++ e2e programs (included as "../cxx_check.hh"): a failed
// condition prints the file, line and condition, and fails the instance.
#ifndef CXX_CHECK_HH
#define CXX_CHECK_HH
#include <cstdio>
#include <cstdlib>

#define CHECK(c)                                                                  \
    do {                                                                          \
        if (!(c)) {                                                               \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            std::exit(1);                                                         \
        }                                                                         \
    } while (0)
#endif
