#include "fwi/schedules.hpp"

#include "fwi/error.hpp"
#include "schedule/plan_builders.hpp"
#include "schedule/revolve_emitter.hpp"
#include "schedule/two_tier_optimum.hpp"

#include <algorithm>
#include <deque>
#include <mutex>
#include <string>

namespace fwi {

namespace {
constexpr int kRam = 0;
constexpr int kDisk = 1;

/// choose() is a pure function of (steps, R, D, costs) and takes tenths of a second on long runs; `auto` and
/// the desktop's prediction ask for the same choice twice (the plan table's row, then the chosen schedule's
/// plan, on separate objects), so the last few answers are kept, newest first.
struct ChoiceMemo {
    struct Entry {
        std::int64_t steps, ram_slots, disk_slots;
        StepCosts costs;
        MultiLevelSchedule::Choice choice;
    };
    static constexpr std::size_t kEntries = 8;
    std::mutex mutex;
    std::deque<Entry> entries;
};

ChoiceMemo& choice_memo() {
    static ChoiceMemo memo;
    return memo;
}
} // namespace

MultiLevelSchedule::MultiLevelSchedule(std::int64_t ram_slots, std::int64_t disk_slots, StepCosts costs)
    : ram_slots_(ram_slots), disk_slots_(disk_slots), costs_(std::move(costs)) {
    if (ram_slots < 1 || disk_slots < 0)
        throw ConfigError("schedule multilevel:R,D needs R >= 1 and D >= 0, got " +
                          std::to_string(ram_slots) + "," + std::to_string(disk_slots));
    costs_.validate();
}

std::string MultiLevelSchedule::name() const {
    return "multilevel:" + std::to_string(ram_slots_) + "," + std::to_string(disk_slots_);
}

MultiLevelSchedule::Choice MultiLevelSchedule::choose(std::int64_t steps) const {
    if (steps < 1) throw ConfigError(name() + ": step count must be >= 1, got " + std::to_string(steps));
    ChoiceMemo& memo = choice_memo();
    {
        const std::lock_guard lock(memo.mutex);
        for (const ChoiceMemo::Entry& e : memo.entries)
            if (e.steps == steps && e.ram_slots == ram_slots_ && e.disk_slots == disk_slots_ &&
                e.costs == costs_)
                return e.choice;
    }
    Choice choice = compute_choice(steps); // outside the lock: other schedules need not wait for it
    const std::lock_guard lock(memo.mutex);
    memo.entries.push_front({steps, ram_slots_, disk_slots_, costs_, choice});
    if (memo.entries.size() > ChoiceMemo::kEntries) memo.entries.pop_back();
    return choice;
}

MultiLevelSchedule::Choice MultiLevelSchedule::compute_choice(std::int64_t steps) const {
    using detail::TwoTierOptimum;
    // The unbounded-disk optimum first: (D+1) times cheaper than the bounded table, and exact whenever its
    // plan fits D (more slots never cost more).
    const bool unbounded_fits_work =
        disk_slots_ >= 1 && TwoTierOptimum::unbounded_table_work(steps, ram_slots_) <= kUnboundedDiskWork;
    double lower_bound = 0; // no plan for D slots is cheaper than the unbounded optimum
    if (unbounded_fits_work) {
        const TwoTierOptimum opt(steps, ram_slots_, TwoTierOptimum::UnboundedDisk{}, costs_);
        auto plan = std::make_shared<const std::vector<Action>>(opt.plan());
        if (peak_disk_slots(*plan, steps) <= disk_slots_)
            return {true, false, 0, 0, opt.predicted_s(), std::move(plan)};
        lower_bound = opt.predicted_s();
    }
    if (TwoTierOptimum::table_work(steps, ram_slots_, disk_slots_) <= kExactWork) {
        const TwoTierOptimum opt(steps, ram_slots_, disk_slots_, costs_);
        return {
            true, false, 0, 0, opt.predicted_s(), std::make_shared<const std::vector<Action>>(opt.plan())};
    }
    // Past both: the cheaper of the multistage plan and the exact optimum for fewer disk slots, as many as
    // the bounded table allows (a plan for D' < D slots is one for D). That table takes tenths of a second:
    // not run where the multistage plan is within kNearOptimum of the unbounded optimum, a lower bound.
    Choice best = multistage_choice(steps);
    if (best.predicted_s <= kNearOptimum * lower_bound) return best;
    // table_work grows with D + 1: the most slots whose table fits kExactWork.
    const auto fewer =
        static_cast<std::int64_t>(kExactWork / TwoTierOptimum::table_work(steps, ram_slots_, 0)) - 1;
    if (fewer >= 1) {
        const TwoTierOptimum opt(steps, ram_slots_, std::min(fewer, disk_slots_ - 1), costs_);
        if (opt.predicted_s() < best.predicted_s) {
            best = Choice{};
            best.predicted_s = opt.predicted_s();
            best.plan = std::make_shared<const std::vector<Action>>(opt.plan());
        }
    }
    return best;
}

std::int64_t MultiLevelSchedule::peak_disk_slots(const std::vector<Action>& plan, std::int64_t steps) const {
    return simulate_plan(plan, steps, {static_cast<int>(ram_slots_), static_cast<int>(steps)}).peak_slots[1];
}

MultiLevelSchedule::Choice MultiLevelSchedule::multistage_choice(std::int64_t steps) const {
    if (steps < 1) throw ConfigError(name() + ": step count must be >= 1, got " + std::to_string(steps));
    const std::int64_t l = steps;
    const std::uint64_t bytes = costs_.stored_state_bytes();
    const double f = costs_.recompute_price(); // advance steps are recomputations but for l of them
    const double w_ram = costs_.write_s(kRam, bytes), r_ram = costs_.read_s(kRam, bytes);
    const double w_disk = costs_.write_s(kDisk, bytes), r_disk = costs_.read_s(kDisk, bytes);
    // Time of reversing m >= 2 steps whose first state is current (stored first) with Revolve in one tier.
    auto revolve_s = [&](const detail::SegmentCounts& c, double write_s, double read_s) {
        return write_s * static_cast<double>(1 + c.stores) + read_s * static_cast<double>(c.restores) +
               f * static_cast<double>(c.advance_steps);
    };
    // Every range length 1..l may be needed in RAM: count them all at once (m = 1 costs nothing: its Reverse
    // uses the state in hand).
    std::vector<double> ram_s(static_cast<std::size_t>(l) + 1, 0.0);
    {
        const auto counts = detail::segment_counts_upto(l, ram_slots_);
        for (std::int64_t m = 2; m <= l; ++m)
            ram_s[static_cast<std::size_t>(m)] = revolve_s(counts[static_cast<std::size_t>(m)], w_ram, r_ram);
    }
    auto ram = [&](std::int64_t m) { return ram_s[static_cast<std::size_t>(m)]; };
    // Every candidate reverses l steps, each with one internal forward step: a common term.
    const double common_s = static_cast<double>(l) * (costs_.forward_step_s + costs_.adjoint_step_s);

    Choice best{false, false, 0, 0, common_s + ram(l), nullptr}; // RAM-only Revolve(R)
    if (disk_slots_ >= 1) {
        const double disk_only =
            common_s +
            (l == 1 ? 0.0 : revolve_s(detail::SegmentCounter().count(l, disk_slots_), w_disk, r_disk));
        if (disk_only < best.predicted_s) best = {false, true, 0, 0, disk_only, nullptr};
    }
    for (std::int64_t q = 1; q < l; ++q) {
        const std::int64_t max_n = std::min(disk_slots_, (l - 1) / q);
        if (max_n < 1) break; // (l-1)/q only shrinks with q
        // One tier-1 interval: read back, then (q >= 2) copy to RAM and Revolve(R) inside.
        const double interval_s = r_disk + (q >= 2 ? ram(q) : 0.0);
        for (std::int64_t n = 1; n <= max_n; ++n) {
            const double cost = common_s +
                                static_cast<double>(n) * (w_disk + f * static_cast<double>(q) + interval_s) +
                                ram(l - n * q);
            if (cost < best.predicted_s) best = {false, false, q, n, cost, nullptr};
        }
    }
    return best;
}

std::vector<Action> MultiLevelSchedule::plan_for(std::int64_t steps, const Choice& choice) const {
    using namespace detail;
    std::vector<Action> out;
    if (choice.plan) return *choice.plan;
    if (choice.exact) // a Choice the caller built without its plan
        return detail::TwoTierOptimum(steps, ram_slots_, disk_slots_, costs_).plan();
    if (choice.disk_only) return RevolveSchedule(disk_slots_, kDisk).plan(steps);
    const std::int64_t q = choice.interval, n = choice.disk_intervals;
    if (n < 0 || n > disk_slots_ || (n > 0 && (q < 1 || n * q >= steps)))
        throw ConfigError(name() + ": bad choice of " + std::to_string(n) + " disk intervals of " +
                          std::to_string(q) + " steps for " + std::to_string(steps) + " steps");
    SlotPool ram(kRam, static_cast<int>(std::min(ram_slots_, steps)));
    auto reverse_in_ram = [&](std::int64_t a, std::int64_t m) { // state a is current
        if (m == 1) {
            out.push_back(reverse_action(a));
            return;
        }
        const SlotRef base = ram.take();
        out.push_back(store_action(a, base.slot, base.tier));
        reverse_segment(out, a, m, ram_slots_, base, false, ram);
        out.push_back(free_action(base.slot, base.tier));
        ram.give(base);
    };
    for (std::int64_t i = 0; i < n; ++i) {
        out.push_back(store_action(i * q, static_cast<int>(i), kDisk));
        out.push_back(advance_action(i * q, (i + 1) * q));
    }
    reverse_in_ram(n * q, steps - n * q);
    for (std::int64_t i = n - 1; i >= 0; --i) {
        out.push_back(restore_action(i * q, static_cast<int>(i), kDisk));
        out.push_back(free_action(static_cast<int>(i), kDisk));
        reverse_in_ram(i * q, q);
    }
    return out;
}

std::vector<Action> MultiLevelSchedule::plan(std::int64_t steps) const {
    if (steps < 0) throw ConfigError(name() + ": step count must be >= 0, got " + std::to_string(steps));
    if (steps == 0) return {};
    return plan_for(steps, choose(steps));
}

} // namespace fwi
