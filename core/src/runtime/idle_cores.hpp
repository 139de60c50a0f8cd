#pragma once
// How many of this machine's cores nobody else is running on right now, for work that is only worth
// splitting across threads on a quiet machine: the two-tier schedule's table, with a barrier every few
// microseconds, ran 1.6x slower on two threads than on one beside a single busy process (1.5-1.8x faster
// on an idle machine).
#include <optional>
#include <string_view>

namespace fwi::detail {

/// The runnable tasks field of /proc/loadavg ("0.88 1.54 2.07 2/345 12345": 2); nothing when malformed.
std::optional<int> runnable_tasks(std::string_view loadavg);

/// Cores (omp_get_num_procs) less the tasks running besides the caller, at least 1; all cores where the
/// system does not say (no /proc).
int idle_cores();

} // namespace fwi::detail
