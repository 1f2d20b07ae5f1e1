// cxx_direct: `d global` keeps its object at namespace scope, `d stack` on
// the stack, `d unaligned` where C++11/14's `new` would put it (malloc's
// 16-byte alignment, not the class's 4096: the runtimes cannot alias it);
// each sends the other 64 KiB blocks three times, a row block sync (then
// overwrites what it sent) and a column block async.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include "dMDL.hh"
#include "../cxx_check.hh"

static d global_object;

static double val(int inst, int k, int i, int j)
{
    return inst * 1e6 + k * 1e5 + i * N + j;
}

static void fill(d &t, int me, int k)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            t.A[i][j] = val(me, k, i, j);
}

// Where the runtime keeps the object while it runs.
static const char *home()
{
    return std::getenv("MDL_SHM_FD") ? "memfd:mdl-job" : "memfd:mdl-task";
}

// Whether it does: on MPI not when the one-copy path is off
// (docs/runtime-mpi.md, "Turning it off").
static bool aliased()
{
    const char *d = std::getenv("MDL_MPI_DIRECT"), *n = std::getenv("MPIR_CVAR_NOLOCAL");
    return std::getenv("MDL_SHM_FD") ||
           !((d && std::strcmp(d, "0") == 0) || (n && *n && std::strcmp(n, "0") != 0));
}

// A misaligned object is what that test is about: the sanitizer's
// alignment check would stop it at once.
__attribute__((no_sanitize("alignment"))) static int run(d &t, bool alignable, int *argc,
                                                         char ***argv)
{
    CHECK(t.MDL_Init(argc, argv) == MDL_SUCCESS);
    const bool in = alignable && aliased();
    CHECK(in_memfd(&t, home()) == in && in_memfd(&t.B[N - 1][N - 1], home()) == in);
    const int me = t.MDL_MyRank(), other = 1 - me;
    CHECK(t.MDL_FamilySize() == 2);
    for (int k = 0; k < 3; k++) {
        fill(t, me, k);
        // rows 0..63 of A into rows 64..127 of B; instance 0 sends first
        if (me == 1)
            CHECK(t.MDL_RecvFrom_d_blk(other, 64, N - 1, 0, N - 1) == other);
        CHECK(t.MDL_SendTo_d_blk(other, 0, 63, 0, N - 1) == MDL_SUCCESS);
        std::memset(t.A, 0xff, sizeof t.A);    // sent: the receiver has it
        if (me == 0)
            CHECK(t.MDL_RecvFrom_d_blk(other, 64, N - 1, 0, N - 1) == other);
        for (int i = 64; i < N; i++)
            for (int j = 0; j < N; j++)
                CHECK(t.B[i][j] == val(other, k, i - 64, j));
        // columns 32..95 of A into columns 0..63 of B, both ways at once
        fill(t, me, k);
        CHECK(t.MDL_RecvFrom_d_ablk(other, 0, N - 1, 0, 63) == other);
        CHECK(t.MDL_SendTo_d_ablk(other, 0, N - 1, 32, 95) == MDL_SUCCESS);
        CHECK(t.MDL_ablkWait() == MDL_SUCCESS);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < 64; j++)
                CHECK(t.B[i][j] == val(other, k, i, 32 + j));
    }
    CHECK(t.MDL_End() == MDL_SUCCESS);
    // its own pages again, with what it received
    CHECK(!in_memfd(&t, home()) && t.B[N - 1][63] == val(other, 2, N - 1, 95));
    t.B[0][0] = -1.0;
    if (me == 0)
        std::printf("cxx_direct: ok\n");
    return 0;
}

__attribute__((no_sanitize("alignment"))) int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "stack") == 0) {
        d object;
        return run(object, true, &argc, &argv);
    }
    if (argc > 1 && std::strcmp(argv[1], "unaligned") == 0) {
        void *at = ::operator new(sizeof(d));
        CHECK(reinterpret_cast<std::uintptr_t>(at) % 4096 != 0);
        d *object = ::new (at) d;
        int rc = run(*object, false, &argc, &argv);
        object->~d();
        ::operator delete(at);
        return rc;
    }
    return run(global_object, true, &argc, &argv);
}
