#pragma once
// Sets the OpenMP thread count of the calling thread for a scope (tests of results that must not depend on
// it).
#include <omp.h>

namespace fwi::test {

class ThreadCount {
  public:
    explicit ThreadCount(int n) : saved_(omp_get_max_threads()) { omp_set_num_threads(n); }
    ~ThreadCount() { omp_set_num_threads(saved_); }
    ThreadCount(const ThreadCount&) = delete;
    ThreadCount& operator=(const ThreadCount&) = delete;

  private:
    int saved_;
};

} // namespace fwi::test
