#include "fwi/schedules.hpp"

#include "fwi/error.hpp"
#include "schedule/plan_builders.hpp"

#include <string>

namespace fwi {

std::vector<Action> StoreAllSchedule::plan(std::int64_t steps) const {
    if (steps < 0) throw ConfigError("schedule all: step count must be >= 0, got " + std::to_string(steps));
    std::vector<Action> out;
    if (steps == 0) return out;
    out.reserve(static_cast<std::size_t>(steps) + 1);
    out.push_back(detail::advance_snapshots_action(0, steps));
    for (std::int64_t n = steps - 1; n >= 0; --n)
        out.push_back(detail::reverse_action(n));
    return out;
}

} // namespace fwi
