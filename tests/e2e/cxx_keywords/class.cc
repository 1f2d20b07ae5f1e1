// cxx_keywords, task `class` in C++: class_, new_, private_, or_, this_, and_.
#include <cstdio>
#include "classMDL.hh"

int main(int argc, char **argv)
{
    class_ t;
    if (t.MDL_Init(&argc, &argv) != MDL_SUCCESS)
        return 1;
    const int workers = t.MDL_workerSize();
    t.new_ = or_;
    for (int i = 0; i < 4; i++)
        t.private_[i] = 0.5 * i;
    t.delete_.this_ = 42;
    for (int i = 0; i < or_; i++)
        t.delete_.and_[i] = -i;
    struct template_ copy = t.delete_;           // a spec struct stays copyable
    if (t.MDL_SendTo_worker_m() != MDL_SUCCESS || t.MDL_mWait() != MDL_SUCCESS)
        return 1;
    long sum = 0;
    for (int k = 0; k < workers; k++) {
        if (t.MDL_RecvFrom_worker_r() < 0)
            return 1;
        sum += t.bool_;
    }
    // each worker answers with new + this + its rank
    long want = (long)workers * (or_ + copy.this_) + (long)workers * (workers - 1) / 2;
    if (sum != want) {
        std::fprintf(stderr, "class: sum %ld, expected %ld\n", sum, want);
        return 1;
    }
    std::printf("cxx_keywords: ok\n");
    return t.MDL_End() == MDL_SUCCESS ? 0 : 1;
}
