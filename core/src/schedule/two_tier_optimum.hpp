#pragma once
// The optimal two-tier (RAM + disk) reversal schedule under the cost model of predict(): every Advance step
// costs f, every Store/Restore in tier t costs w_t / r_t (codec included), Reverse performs its own forward
// step (a term common to all schedules). A dynamic programme over (range length m, free RAM slots, free disk
// slots, tier of the range's base checkpoint), in the spirit of H-Revolve (Herrmann & Pallez 2020) but exact:
//   B_t(1, r, d) = 0
//   B_t(m, r, d) = min( (m-1) f + r_t + A_t(m-1, r, d),                            -- no inner checkpoint
//                       min_{1<=j<m, u with a free slot} j f + w_u + B_u(m-j, r', d') + r_t + A_t(j, r, d) )
//   A_t(m, r, d) = min( B_t(m, r, d), w_u + B_u(m, r'', d'') )
//     (after restoring the base, which is then in hand, it may move to the other tier u, freeing its slot)
// B_t: state a is in hand and stored in tier t; r, d free slots besides it. The left part's base is the same
// checkpoint, so it is read back once per sub-range. O(l^2 R D) time, O(l R D) memory: used only when small.
// UNBOUNDED DISK: the same programme with the disk slots left out of the state (every disk write allowed),
// O(l^2 R) time: the exact optimum for any D at least the plan's peak disk slots (more slots never cost
// more), which reaches the step counts of real runs (2403 steps and 10 RAM slots in well under a second).
#include "fwi/performance_model.hpp"
#include "fwi/schedule.hpp"

#include <cstdint>
#include <vector>

namespace fwi::detail {

class TwoTierOptimum {
  public:
    /// ram_slots >= 1 (state 0 counts as a slot when stored), disk_slots >= 0, steps >= 1. `threads`: how
    /// many fill a large table; 0 = the OpenMP threads on idle cores (idle_cores.hpp). The result is the same
    /// bit for bit on any number.
    TwoTierOptimum(std::int64_t steps, std::int64_t ram_slots, std::int64_t disk_slots,
                   const StepCosts& costs, int threads = 0);

    struct UnboundedDisk {};
    /// As many disk slots as the plan wants: plan()'s peak disk slots (simulate_plan) say which D it serves.
    TwoTierOptimum(std::int64_t steps, std::int64_t ram_slots, UnboundedDisk, const StepCosts& costs,
                   int threads = 0);

    /// Work of the table, l^2 (R+1) (D+1): callers fall back to a heuristic above a limit.
    static double table_work(std::int64_t steps, std::int64_t ram_slots, std::int64_t disk_slots);
    /// Work of the unbounded-disk table, l^2 (R+1).
    static double unbounded_table_work(std::int64_t steps, std::int64_t ram_slots);

    /// Minimal predicted seconds of the whole reversal, common term l (f + adjoint) included.
    double predicted_s() const { return best_s_; }
    std::vector<Action> plan() const;

  private:
    void fill_table(const StepCosts& costs, int threads);
    /// Free slots (r, d) after taking (-1) or giving back (+1) one slot of `tier`; an unbounded disk keeps d
    /// at 0 (its one value).
    std::int64_t ram_after(int tier, std::int64_t r, int delta) const;
    std::int64_t disk_after(int tier, std::int64_t d, int delta) const;
    double b(int tier, std::int64_t m, std::int64_t r, std::int64_t d) const;
    double a(int tier, std::int64_t m, std::int64_t r, std::int64_t d) const;
    std::size_t index(int tier, std::int64_t m, std::int64_t r, std::int64_t d) const;

    std::int64_t steps_, ram_, disk_;
    bool unbounded_disk_ = false;
    double f_, w_[2], r_[2], common_s_, best_s_ = 0, inner_s_ = 0; // inner: without the common term
    std::vector<double> b_, a_;
};

} // namespace fwi::detail
