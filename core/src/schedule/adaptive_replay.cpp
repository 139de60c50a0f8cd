// Runs an AdaptiveSchedule on known stored sizes, as an executor would, without wavefields: the bytes held
// are counted from the replayed Store and Free actions and the given size of each stored state, never taken
// from the schedule. Used by tests (validity, budget, recomputation) and by plan() of the adaptive schedule.
#include "fwi/error.hpp"
#include "fwi/schedules.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace fwi {

AdaptiveReplay replay_adaptive(AdaptiveSchedule& schedule, std::int64_t steps,
                               const std::vector<std::uint64_t>& state_bytes) {
    if (steps < 0)
        throw ConfigError("replay_adaptive: step count must be >= 0, got " + std::to_string(steps));
    if (state_bytes.size() != std::size_t(steps))
        throw ConfigError("replay_adaptive: " + std::to_string(state_bytes.size()) + " state sizes for " +
                          std::to_string(steps) + " steps");
    schedule.reset(steps);
    AdaptiveReplay r;
    std::map<std::pair<int, int>, std::uint64_t> held; // (tier, slot) -> bytes
    std::uint64_t held_bytes = 0;
    for (;;) {
        const std::vector<Action> batch = schedule.next(held_bytes);
        if (batch.empty()) break;
        for (const Action& a : batch) {
            const std::size_t index = r.plan.size();
            r.plan.push_back(a);
            const auto key = std::make_pair(a.tier, a.slot);
            if (a.type == ActionType::Store) {
                if (a.from < 0 || a.from >= steps)
                    throw PlanError("action " + std::to_string(index) + " " + to_string(a) +
                                    ": no such state");
                if (held.count(key) != 0)
                    throw PlanError("action " + std::to_string(index) + " " + to_string(a) +
                                    ": the slot is occupied");
                const std::uint64_t bytes = state_bytes[std::size_t(a.from)];
                held.emplace(key, bytes);
                held_bytes += bytes;
                r.peak_held_bytes = std::max(r.peak_held_bytes, held_bytes);
                r.peak_slots = std::max(r.peak_slots, std::int64_t(held.size()));
            } else if (a.type == ActionType::Free) {
                const auto it = held.find(key);
                if (it == held.end())
                    throw PlanError("action " + std::to_string(index) + " " + to_string(a) +
                                    ": the slot is empty");
                held_bytes -= it->second;
                held.erase(it);
            }
        }
    }
    return r;
}

} // namespace fwi
