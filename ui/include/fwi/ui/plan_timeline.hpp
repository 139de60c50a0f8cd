#pragma once
// The timeline a checkpoint plan WOULD produce (schedule.hpp's actions replayed with step costs), drawn under
// the live timeline before and during a gradient run so the user can compare plan and reality. Pure; no
// engine.
#include "fwi/events.hpp"
#include "fwi/schedule.hpp"

#include <cstdint>
#include <vector>

namespace fwi::ui {

struct TimelineMark {
    EventType type = EventType::ForwardStep; ///< ForwardStep, Recompute, AdjointStep, Store or Load
    double time_s = 0;                       ///< predicted wall time at the end of the step / action
    std::int64_t step = 0;
};

struct PlanCosts {
    double forward_step_s = 1;
    double adjoint_step_s = 2;
    double store_s = 0;
    double load_s = 0;
};

/// One mark per step or storage action, in plan order; steps computed a second time are Recompute. At most
/// `max_marks` marks: longer plans keep every k-th step mark (storage marks are always kept).
std::vector<TimelineMark> plan_timeline(const std::vector<Action>& plan, const PlanCosts& costs,
                                        std::size_t max_marks = 20000);

} // namespace fwi::ui
