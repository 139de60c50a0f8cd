#include "fwi/schedule.hpp"

#include "schedule/plan_replay.hpp"

#include <string>

namespace fwi {

std::string to_string(ActionType type) {
    switch (type) {
    case ActionType::Advance:
        return "Advance";
    case ActionType::AdvanceSnapshots:
        return "AdvanceSnapshots";
    case ActionType::Store:
        return "Store";
    case ActionType::Restore:
        return "Restore";
    case ActionType::Free:
        return "Free";
    case ActionType::Reverse:
        return "Reverse";
    }
    return "Action(" + std::to_string(static_cast<int>(type)) + ")";
}

std::string to_string(const Action& a) {
    const std::string name = to_string(a.type);
    switch (a.type) {
    case ActionType::Advance:
    case ActionType::AdvanceSnapshots:
        return name + "{" + std::to_string(a.from) + " -> " + std::to_string(a.to) + "}";
    case ActionType::Store:
    case ActionType::Restore:
        return name + "{step " + std::to_string(a.from) + ", slot " + std::to_string(a.slot) + ", tier " +
               std::to_string(a.tier) + "}";
    case ActionType::Free:
        return name + "{slot " + std::to_string(a.slot) + ", tier " + std::to_string(a.tier) + "}";
    case ActionType::Reverse:
        return name + "{" + std::to_string(a.from) + "}";
    }
    return name;
}

PlanCounts simulate_plan(const std::vector<Action>& plan, std::int64_t steps,
                         const std::vector<int>& max_slots_per_tier) {
    detail::PlanReplay replay(steps, max_slots_per_tier);
    for (std::size_t i = 0; i < plan.size(); ++i)
        replay.apply(plan[i], i);
    replay.finish(plan.size());
    return replay.final_counts();
}

} // namespace fwi
