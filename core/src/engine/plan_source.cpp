#include "engine/plan_source.hpp"

#include "fwi/error.hpp"

namespace fwi {

PlanChoice choose_plan(const GradientSettings& settings, Simulation& /*sim*/, std::int64_t steps) {
    PlanChoice c;
    if (settings.schedule == "all" || settings.schedule.empty()) {
        c.plan.push_back({ActionType::AdvanceSnapshots, 0, steps});
        for (std::int64_t n = steps - 1; n >= 0; --n) c.plan.push_back({ActionType::Reverse, n, n});
        c.name = "all";
        return c;
    }
    throw ConfigError("schedule '" + settings.schedule + "' is not available yet");
}

} // namespace fwi
