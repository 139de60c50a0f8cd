#include "fwi/threading.hpp"

#include <omp.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace fwi {
namespace {

constexpr const char* reexec_guard = "FWI_PASSIVE_WAIT_REEXEC";

/// The thread count OpenMP started with (OMP_NUM_THREADS or the cores), read before anyone changed it.
int initial_thread_count() {
    static const int n = omp_get_max_threads();
    return n;
}

} // namespace

void ensure_passive_openmp_wait(int argc, char** argv) {
    if (std::getenv(reexec_guard) != nullptr && argc > 0 && argv[0] != nullptr) {
        // Executed as /proc/self/exe, the process is named "exe" (ps, top, pkill): give it back its own name
        // before any thread starts (threads inherit it).
        const char* slash = std::strrchr(argv[0], '/');
        prctl(PR_SET_NAME, slash != nullptr ? slash + 1 : argv[0], 0, 0, 0);
    }
    initial_thread_count();
    if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;
    if (std::getenv(reexec_guard) != nullptr) return; // the exec happened and the variable did not stick
    if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0 ||
        setenv("GOMP_SPINCOUNT", default_spin_count, 1) != 0 || setenv(reexec_guard, "1", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    // exec failed (no /proc, say): carry on with the default policy; undo so children see the user's env.
    unsetenv("OMP_WAIT_POLICY");
    unsetenv("GOMP_SPINCOUNT");
}

void set_thread_count(int n) {
    omp_set_num_threads(n > 0 ? n : initial_thread_count());
}

int thread_count() {
    return omp_get_max_threads();
}

} // namespace fwi
