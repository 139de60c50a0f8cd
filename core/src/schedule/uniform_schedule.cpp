#include "fwi/schedules.hpp"

#include "fwi/error.hpp"
#include "schedule/binomial.hpp"
#include "schedule/plan_builders.hpp"

#include <algorithm>
#include <string>

namespace fwi {

UniformSchedule::UniformSchedule(std::int64_t slots) : slots_(slots) {
    if (slots < 1) throw ConfigError("schedule uniform:K needs K >= 1, got " + std::to_string(slots));
}

std::string UniformSchedule::name() const {
    return "uniform:" + std::to_string(slots_);
}

std::vector<Action> UniformSchedule::plan(std::int64_t steps) const {
    using namespace detail;
    if (steps < 0) throw ConfigError(name() + ": step count must be >= 0, got " + std::to_string(steps));
    std::vector<Action> out;
    if (steps == 0) return out;
    // K stored segments + one final segment that the first sweep already runs with snapshots. More than l-1
    // stored states would make empty segments, so K is capped (the cap stores every state but the last).
    const std::int64_t k = std::min(slots_, steps - 1);
    auto boundary = [&](std::int64_t i) { // floor(i l / (K+1)) without overflow for any sane l
        return static_cast<std::int64_t>(static_cast<detail::i128>(i) * steps / (k + 1));
    };
    for (std::int64_t i = 0; i < k; ++i) {
        out.push_back(store_action(boundary(i), static_cast<int>(i), 0));
        out.push_back(advance_action(boundary(i), boundary(i + 1)));
    }
    auto run_segment = [&](std::int64_t begin, std::int64_t end) {
        out.push_back(advance_snapshots_action(begin, end));
        for (std::int64_t n = end - 1; n >= begin; --n)
            out.push_back(reverse_action(n));
    };
    run_segment(boundary(k), steps);
    for (std::int64_t i = k - 1; i >= 0; --i) {
        // Free the slot before recomputing so its bytes do not add to the segment's snapshots.
        out.push_back(restore_action(boundary(i), static_cast<int>(i), 0));
        out.push_back(free_action(static_cast<int>(i), 0));
        run_segment(boundary(i), boundary(i + 1));
    }
    return out;
}

} // namespace fwi
