#include "runtime/idle_cores.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace fwi::detail {

std::optional<int> runnable_tasks(std::string_view loadavg) {
    // Three load averages, then "running/total".
    std::size_t at = 0;
    for (int field = 0; field < 3; ++field) {
        at = loadavg.find(' ', at);
        if (at == std::string_view::npos) return std::nullopt;
        at = loadavg.find_first_not_of(' ', at);
        if (at == std::string_view::npos) return std::nullopt;
    }
    const std::string_view rest = loadavg.substr(at);
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos || slash == 0) return std::nullopt;
    int running = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + slash, running);
    if (error != std::errc() || end != rest.data() + slash || running < 0) return std::nullopt;
    return running;
}

int idle_cores() {
    const int cores = std::max(1, omp_get_num_procs());
    std::ifstream file("/proc/loadavg");
    std::ostringstream text;
    text << file.rdbuf();
    const std::optional<int> running = file ? runnable_tasks(text.str()) : std::nullopt;
    if (!running) return cores;
    // The caller is one of the running tasks.
    return std::clamp(cores - (*running - 1), 1, cores);
}

} // namespace fwi::detail
