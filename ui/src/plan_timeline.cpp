#include "fwi/ui/plan_timeline.hpp"

#include <algorithm>
#include <set>

namespace fwi::ui {

std::vector<TimelineMark> plan_timeline(const std::vector<Action>& plan, const PlanCosts& costs,
                                        std::size_t max_marks) {
    // Count the step marks first so that the decimation is even over the whole plan.
    std::int64_t step_marks = 0;
    for (const Action& a : plan) {
        if (a.type == ActionType::Advance || a.type == ActionType::AdvanceSnapshots)
            step_marks += a.to - a.from;
        if (a.type == ActionType::Reverse) step_marks += 2;
    }
    const std::int64_t keep_every =
        std::max<std::int64_t>(1, step_marks / std::int64_t(std::max<std::size_t>(max_marks, 1)) + 1);
    std::vector<TimelineMark> marks;
    std::set<std::int64_t> snapshots; // steps whose gradient snapshot is buffered
    std::int64_t computed_up_to = 0; // forward steps < this were computed before: a repeat is a recomputation
    std::int64_t counter = 0;
    double t = 0;
    auto step_mark = [&](EventType type, std::int64_t step) {
        if (counter++ % keep_every == 0) marks.push_back({type, t, step});
    };
    auto forward = [&](std::int64_t step) {
        t += costs.forward_step_s;
        step_mark(step < computed_up_to ? EventType::Recompute : EventType::ForwardStep, step);
        computed_up_to = std::max(computed_up_to, step + 1);
    };
    for (const Action& a : plan) {
        switch (a.type) {
        case ActionType::Advance:
        case ActionType::AdvanceSnapshots:
            for (std::int64_t s = a.from; s < a.to; ++s) {
                forward(s);
                if (a.type == ActionType::AdvanceSnapshots) snapshots.insert(s);
            }
            break;
        case ActionType::Store:
            t += costs.store_s;
            marks.push_back({EventType::Store, t, a.from});
            break;
        case ActionType::Restore:
            t += costs.load_s;
            marks.push_back({EventType::Load, t, a.from});
            break;
        case ActionType::Free:
            break;
        case ActionType::Reverse:
            if (!snapshots.erase(a.from))
                forward(a.from); // Revolve's "youturn": the step runs inside the reverse
            t += costs.adjoint_step_s;
            step_mark(EventType::AdjointStep, a.from);
            break;
        }
    }
    return marks;
}

} // namespace fwi::ui
