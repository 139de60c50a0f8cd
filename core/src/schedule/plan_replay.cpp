#include "schedule/plan_replay.hpp"

#include "fwi/error.hpp"

#include <algorithm>
#include <string>

namespace fwi::detail {

namespace {
constexpr int kDefaultTiers = 8;
std::string str(std::int64_t v) {
    return std::to_string(v);
}
} // namespace

PlanReplay::PlanReplay(std::int64_t steps, std::vector<int> max_slots_per_tier, int sampling_interval)
    : steps_(steps), limits_(std::move(max_slots_per_tier)), sampling_interval_(sampling_interval),
      next_reverse_(steps - 1) {
    if (steps < 0) throw ConfigError("simulate_plan: step count must be >= 0, got " + str(steps));
    if (sampling_interval < 1)
        throw ConfigError("simulate_plan: sampling interval must be >= 1, got " + str(sampling_interval));
    for (std::size_t t = 0; t < limits_.size(); ++t)
        if (limits_[t] < 0)
            throw ConfigError("simulate_plan: slot limit of tier " + str(static_cast<std::int64_t>(t)) +
                              " is negative (" + str(limits_[t]) + ")");
    const std::size_t tiers = limits_.empty() ? kDefaultTiers : limits_.size();
    slots_.resize(tiers);
    occupied_.assign(tiers, 0);
    buffered_.assign(static_cast<std::size_t>(steps), 0);
    counts_.writes.assign(tiers, 0);
    counts_.reads.assign(tiers, 0);
    counts_.peak_slots.assign(tiers, 0);
}

void PlanReplay::fail(const Action& a, std::size_t index, const std::string& what) const {
    throw PlanError("plan action #" + std::to_string(index) + " (" + to_string(a) + "): " + what);
}

void PlanReplay::check_slot(const Action& a, std::size_t index) const {
    const int tiers = static_cast<int>(slots_.size());
    if (a.tier < 0 || a.tier >= tiers)
        fail(a, index, "tier " + str(a.tier) + " is outside 0.." + str(tiers - 1));
    const std::int64_t max_slots = limits_.empty() ? steps_ + 1 : limits_[static_cast<std::size_t>(a.tier)];
    if (a.slot < 0 || a.slot >= max_slots)
        fail(a, index,
             "slot " + str(a.slot) + " is outside tier " + str(a.tier) + "'s " + str(max_slots) + " slots");
}

void PlanReplay::apply(const Action& a, std::size_t index) {
    last_sampled_added_ = 0;
    last_sampled_consumed_ = 0;
    last_reverse_ran_forward_ = false;
    switch (a.type) {
    case ActionType::Advance:
    case ActionType::AdvanceSnapshots: {
        if (current_ < 0) fail(a, index, "the current state is unknown (Restore first)");
        if (a.from != current_)
            fail(a, index, "the current state is " + str(current_) + ", not " + str(a.from));
        if (a.to <= a.from) fail(a, index, "empty or backward range");
        if (a.to > next_reverse_ + 1)
            fail(a, index,
                 "computes step " + str(next_reverse_ + 1) + ", which is already reversed or past the end (" +
                     str(steps_) + " steps)");
        counts_.advance_steps += a.to - a.from;
        if (a.type == ActionType::AdvanceSnapshots) {
            for (std::int64_t n = a.from; n < a.to; ++n) {
                auto& held = buffered_[static_cast<std::size_t>(n)];
                if (held) fail(a, index, "the snapshot of step " + str(n) + " is already buffered");
                held = 1;
                if (sampled(n)) ++last_sampled_added_;
            }
            held_ += a.to - a.from;
            held_sampled_ += last_sampled_added_;
            counts_.snapshot_steps += a.to - a.from;
            counts_.peak_snapshots = std::max(counts_.peak_snapshots, held_);
            counts_.peak_kept_snapshots = std::max(counts_.peak_kept_snapshots, held_sampled_);
        }
        current_ = a.to;
        break;
    }
    case ActionType::Store: {
        check_slot(a, index);
        if (current_ < 0) fail(a, index, "the current state is unknown");
        if (a.from != current_)
            fail(a, index, "the current state is " + str(current_) + ", not " + str(a.from));
        auto& tier_slots = slots_[static_cast<std::size_t>(a.tier)];
        if (static_cast<std::size_t>(a.slot) >= tier_slots.size())
            tier_slots.resize(static_cast<std::size_t>(a.slot) + 1, -1);
        auto& held = tier_slots[static_cast<std::size_t>(a.slot)];
        if (held >= 0) fail(a, index, "the slot still holds step " + str(held) + " (Free it first)");
        held = a.from;
        const auto t = static_cast<std::size_t>(a.tier);
        ++occupied_[t];
        ++counts_.writes[t];
        counts_.peak_slots[t] = std::max(counts_.peak_slots[t], occupied_[t]);
        highest_tier_used_ = std::max(highest_tier_used_, a.tier);
        break;
    }
    case ActionType::Restore: {
        check_slot(a, index);
        const auto& tier_slots = slots_[static_cast<std::size_t>(a.tier)];
        const std::int64_t held = static_cast<std::size_t>(a.slot) < tier_slots.size()
                                      ? tier_slots[static_cast<std::size_t>(a.slot)]
                                      : -1;
        if (held < 0) fail(a, index, "the slot is empty");
        if (held != a.from) fail(a, index, "the slot holds step " + str(held) + ", not " + str(a.from));
        current_ = a.from;
        ++counts_.reads[static_cast<std::size_t>(a.tier)];
        break;
    }
    case ActionType::Free: {
        check_slot(a, index);
        auto& tier_slots = slots_[static_cast<std::size_t>(a.tier)];
        if (static_cast<std::size_t>(a.slot) >= tier_slots.size() ||
            tier_slots[static_cast<std::size_t>(a.slot)] < 0)
            fail(a, index, "the slot is already free");
        tier_slots[static_cast<std::size_t>(a.slot)] = -1;
        --occupied_[static_cast<std::size_t>(a.tier)];
        break;
    }
    case ActionType::Reverse: {
        if (next_reverse_ < 0) fail(a, index, "every step is already reversed");
        if (a.from != next_reverse_) fail(a, index, "the next step to reverse is " + str(next_reverse_));
        auto& held = buffered_[static_cast<std::size_t>(a.from)];
        if (held) {
            held = 0;
            --held_;
            if (sampled(a.from)) {
                --held_sampled_;
                last_sampled_consumed_ = 1;
            }
        } else {
            if (current_ != a.from)
                fail(a, index,
                     "no snapshot of step " + str(a.from) + " is buffered and the current state is " +
                         (current_ < 0 ? std::string("unknown") : str(current_)));
            ++counts_.reverse_forward_steps;
            last_reverse_ran_forward_ = true;
            current_ = -1; // the executor may have stepped the state to obtain the snapshot
        }
        ++counts_.reverse_steps;
        --next_reverse_;
        break;
    }
    default:
        fail(a, index, "unknown action type");
    }
}

void PlanReplay::finish(std::size_t plan_size) {
    auto fail_end = [&](const std::string& what) {
        throw PlanError("plan of " + std::to_string(plan_size) + " actions for " + str(steps_) +
                        " steps ends too early: " + what);
    };
    if (next_reverse_ >= 0)
        fail_end("step " + str(next_reverse_) + " (and those before it) is never reversed");
    for (std::size_t t = 0; t < slots_.size(); ++t)
        for (std::size_t s = 0; s < slots_[t].size(); ++s)
            if (slots_[t][s] >= 0)
                fail_end("slot " + std::to_string(s) + " of tier " + std::to_string(t) +
                         " still holds step " + str(slots_[t][s]) + " (Free it)");
}

PlanCounts PlanReplay::final_counts() const {
    PlanCounts c = counts_;
    if (limits_.empty()) {
        const auto tiers = static_cast<std::size_t>(highest_tier_used_ + 1);
        c.writes.resize(tiers);
        c.reads.resize(tiers);
        c.peak_slots.resize(tiers);
    }
    return c;
}

} // namespace fwi::detail
