#pragma once
// PlanReplay steps through a plan without wavefields, enforcing the rules of fwi/schedule.hpp and counting.
// simulate_plan() and the performance model both drive it, so they can never disagree about what a plan does.
#include "fwi/schedule.hpp"

#include <cstdint>
#include <vector>

namespace fwi::detail {

class PlanReplay {
  public:
    /// `max_slots_per_tier` as for simulate_plan. `sampling_interval` k >= 1: only snapshots of steps n with
    /// n % k == 0 are counted as held in memory (the others cost nothing); validation ignores it.
    PlanReplay(std::int64_t steps, std::vector<int> max_slots_per_tier, int sampling_interval = 1);

    /// Applies action `index` of the plan; throws PlanError naming it.
    void apply(const Action& a, std::size_t index);
    /// Checks the plan (of `plan_size` actions) left nothing undone; throws PlanError.
    void finish(std::size_t plan_size);

    const PlanCounts& counts() const { return counts_; }
    /// Counts with the per-tier vectors trimmed as documented for simulate_plan.
    PlanCounts final_counts() const;

    int occupied_slots(int tier) const { return occupied_[static_cast<std::size_t>(tier)]; }
    int tier_capacity() const { return static_cast<int>(occupied_.size()); }
    /// Sampled snapshots held now.
    std::int64_t held_sampled_snapshots() const { return held_sampled_; }
    /// Of the last action: sampled snapshots it added (AdvanceSnapshots) or consumed (Reverse from the
    /// buffer).
    std::int64_t last_sampled_added() const { return last_sampled_added_; }
    std::int64_t last_sampled_consumed() const { return last_sampled_consumed_; }
    /// Of the last action (a Reverse): whether it ran its own forward step.
    bool last_reverse_ran_forward() const { return last_reverse_ran_forward_; }

  private:
    [[noreturn]] void fail(const Action& a, std::size_t index, const std::string& what) const;
    void check_slot(const Action& a, std::size_t index) const;
    bool sampled(std::int64_t step) const { return step % sampling_interval_ == 0; }

    std::int64_t steps_;
    std::vector<int> limits_; // empty = defaults
    int sampling_interval_;
    std::int64_t current_ = 0;  // -1 = unknown
    std::int64_t next_reverse_; // the step the next Reverse must name; -1 when all are done
    std::vector<std::vector<std::int64_t>> slots_; // [tier][slot] -> step held, -1 = free
    std::vector<int> occupied_;
    std::vector<char> buffered_; // [step] snapshot held
    std::int64_t held_ = 0, held_sampled_ = 0;
    int highest_tier_used_ = 0;
    std::int64_t last_sampled_added_ = 0, last_sampled_consumed_ = 0;
    bool last_reverse_ran_forward_ = false;
    PlanCounts counts_;
};

} // namespace fwi::detail
