#include "fwi/schedules.hpp"

#include "fwi/error.hpp"
#include "schedule/binomial.hpp"
#include "schedule/plan_builders.hpp"
#include "schedule/revolve_emitter.hpp"

#include <algorithm>
#include <string>

namespace fwi {

std::int64_t revolve_advance_steps(std::int64_t l, std::int64_t s) {
    return detail::optimal_advance_steps(l, s);
}
std::int64_t revolve_repetition_number(std::int64_t l, std::int64_t s) {
    return detail::repetition_number(l, s);
}

RevolveSchedule::RevolveSchedule(std::int64_t slots, int tier) : slots_(slots), tier_(tier) {
    if (slots < 1) throw ConfigError("schedule revolve:S needs S >= 1, got " + std::to_string(slots));
    if (tier < 0) throw ConfigError("schedule revolve: tier must be >= 0, got " + std::to_string(tier));
}

std::string RevolveSchedule::name() const {
    return "revolve:" + std::to_string(slots_);
}

std::vector<Action> RevolveSchedule::plan(std::int64_t steps) const {
    using namespace detail;
    if (steps < 0) throw ConfigError(name() + ": step count must be >= 0, got " + std::to_string(steps));
    std::vector<Action> out;
    if (steps == 0) return out;
    if (steps == 1) { // the single Reverse uses state 0 in hand: no slot needed
        out.push_back(reverse_action(0));
        return out;
    }
    SlotPool pool(tier_, static_cast<int>(std::min(slots_, steps)));
    const SlotRef base = pool.take();
    out.push_back(store_action(0, base.slot, base.tier));
    reverse_segment(out, 0, steps, slots_, base, false, pool);
    out.push_back(free_action(base.slot, base.tier));
    return out;
}

} // namespace fwi
