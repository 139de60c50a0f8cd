#pragma once
// Chooses the checkpoint plan for a run from the gradient settings.
#include "fwi/schedule.hpp"
#include "fwi/settings.hpp"
#include "fwi/simulation.hpp"

namespace fwi {

struct PlanChoice {
    std::vector<Action> plan;
    std::string name;
    int tiers = 1;
};

PlanChoice choose_plan(const GradientSettings& settings, Simulation& sim, std::int64_t steps);

} // namespace fwi
