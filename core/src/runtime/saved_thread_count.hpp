#pragma once
// Restores the calling thread's OpenMP thread count on every path (a scope that sets its own).
#include <omp.h>

namespace fwi {

class SavedThreadCount {
  public:
    SavedThreadCount() : threads_(omp_get_max_threads()) {}
    ~SavedThreadCount() { omp_set_num_threads(threads_); }
    SavedThreadCount(const SavedThreadCount&) = delete;
    SavedThreadCount& operator=(const SavedThreadCount&) = delete;

  private:
    int threads_;
};

} // namespace fwi
