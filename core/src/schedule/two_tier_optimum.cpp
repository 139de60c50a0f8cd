#include "schedule/two_tier_optimum.hpp"

#include "fwi/error.hpp"
#include "runtime/idle_cores.hpp"
#include "schedule/plan_builders.hpp"
#include "schedule/revolve_emitter.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>

namespace fwi::detail {

namespace {
constexpr int kRam = 0;
constexpr int kDisk = 1;
constexpr double kInf = std::numeric_limits<double>::infinity();
/// Table work l^2 (R+1) (D+1) from which the cells of each m are shared among threads (about 10 ms alone).
constexpr double kParallelWork = 4e6;
} // namespace

std::int64_t TwoTierOptimum::ram_after(int tier, std::int64_t r, int delta) const {
    return tier == kRam ? r + delta : r;
}
std::int64_t TwoTierOptimum::disk_after(int tier, std::int64_t d, int delta) const {
    return tier == kDisk && !unbounded_disk_ ? d + delta : d;
}

double TwoTierOptimum::table_work(std::int64_t steps, std::int64_t ram_slots, std::int64_t disk_slots) {
    const double l = static_cast<double>(steps);
    return l * l * static_cast<double>(std::min(ram_slots, steps) + 1) *
           static_cast<double>(std::min(disk_slots, steps) + 1);
}

double TwoTierOptimum::unbounded_table_work(std::int64_t steps, std::int64_t ram_slots) {
    return table_work(steps, ram_slots, 0); // the disk dimension has one value
}

std::size_t TwoTierOptimum::index(int tier, std::int64_t m, std::int64_t r, std::int64_t d) const {
    // m fastest: the programme's inner loop walks one table forward in j and the other backward in m - j.
    return static_cast<std::size_t>(((tier * (ram_ + 1) + r) * (disk_ + 1) + d) * (steps_ + 1) + m);
}
double TwoTierOptimum::b(int tier, std::int64_t m, std::int64_t r, std::int64_t d) const {
    return b_[index(tier, m, r, d)];
}
double TwoTierOptimum::a(int tier, std::int64_t m, std::int64_t r, std::int64_t d) const {
    return a_[index(tier, m, r, d)];
}

TwoTierOptimum::TwoTierOptimum(std::int64_t steps, std::int64_t ram_slots, std::int64_t disk_slots,
                               const StepCosts& costs, int threads)
    : steps_(steps), ram_(std::min(ram_slots, steps)), disk_(std::min(disk_slots, steps)) {
    if (steps < 1 || ram_slots < 1 || disk_slots < 0)
        throw ConfigError("two-tier schedule needs steps >= 1, R >= 1, D >= 0");
    fill_table(costs, threads);
}

TwoTierOptimum::TwoTierOptimum(std::int64_t steps, std::int64_t ram_slots, UnboundedDisk,
                               const StepCosts& costs, int threads)
    : steps_(steps), ram_(std::min(ram_slots, steps)), disk_(0), unbounded_disk_(true) {
    if (steps < 1 || ram_slots < 1) throw ConfigError("two-tier schedule needs steps >= 1, R >= 1");
    fill_table(costs, threads);
}

void TwoTierOptimum::fill_table(const StepCosts& costs, int threads) {
    const std::uint64_t bytes = costs.stored_state_bytes();
    f_ = costs.recompute_price(); // every advance step beyond the first sweep, as predict() charges them
    for (int t : {kRam, kDisk}) {
        w_[t] = costs.write_s(t, bytes);
        r_[t] = costs.read_s(t, bytes);
    }
    common_s_ = static_cast<double>(steps_) * (costs.forward_step_s + costs.adjoint_step_s);
    b_.assign(std::size_t(2 * (ram_ + 1) * (disk_ + 1) * (steps_ + 1)), kInf);
    a_.assign(b_.size(), kInf);
    const std::int64_t caps[2] = {ram_, disk_};
    // B_t(m, r, d) and A_t(m, r, d) of one cell: B reads smaller m only, A reads B at this m.
    const auto b_cell = [&](int t, std::int64_t m, std::int64_t r, std::int64_t d) {
        if (m == 1) {
            b_[index(t, m, r, d)] = 0;
            return;
        }
        double best = static_cast<double>(m - 1) * f_ + r_[t] + a(t, m - 1, r, d);
        for (int u : {kRam, kDisk}) {
            const std::int64_t r2 = ram_after(u, r, -1), d2 = disk_after(u, d, -1);
            if (r2 < 0 || d2 < 0) continue;
            const double* bu = &b_[index(u, 0, r2, d2)];
            const double* at = &a_[index(t, 0, r, d)];
            // Four running minima (a minimum is exact in any order), so that the loop is not one chain of
            // dependent comparisons (1.5x on 2403 steps and 10 RAM slots).
            double best4[4] = {best, kInf, kInf, kInf};
            std::int64_t j = 1;
            for (; j + 3 < m; j += 4)
                for (int k = 0; k < 4; ++k) {
                    const std::int64_t i = j + k;
                    const double c = static_cast<double>(i) * f_ + w_[u] + bu[m - i] + r_[t] + at[i];
                    best4[k] = std::min(best4[k], c);
                }
            for (; j < m; ++j) {
                const double c = static_cast<double>(j) * f_ + w_[u] + bu[m - j] + r_[t] + at[j];
                best4[0] = std::min(best4[0], c);
            }
            best = std::min(std::min(best4[0], best4[1]), std::min(best4[2], best4[3]));
        }
        b_[index(t, m, r, d)] = best;
    };
    const auto a_cell = [&](int t, std::int64_t m, std::int64_t r, std::int64_t d) {
        double best = b(t, m, r, d);
        const int u = 1 - t;
        const std::int64_t r2 = ram_after(t, ram_after(u, r, -1), +1);
        const std::int64_t d2 = disk_after(t, disk_after(u, d, -1), +1);
        if (r2 >= 0 && d2 >= 0 && r2 <= caps[kRam] && d2 <= caps[kDisk])
            best = std::min(best, w_[u] + b(u, m, r2, d2));
        a_[index(t, m, r, d)] = best;
    };
    // Large tables on the threads of idle cores: beside a busy process a barrier per m waits on a shared
    // core.
    const std::int64_t per_tier = (ram_ + 1) * (disk_ + 1), cells = 2 * per_tier;
    const bool large =
        static_cast<double>(steps_) * static_cast<double>(steps_) * static_cast<double>(per_tier) >=
        kParallelWork;
    const int team = threads > 0                   ? threads
                     : large && !omp_in_parallel() ? std::min(omp_get_max_threads(), idle_cores())
                                                   : 1;
    // The cells of one m are shared among the threads (one thread: the region runs serially), each computed
    // by one thread exactly as alone: the table is the same bit for bit (plan() finds its choices by
    // equality).
    const auto cell_at = [&](std::int64_t cell, std::int64_t m, const auto& fill) {
        fill(static_cast<int>(cell / per_tier), m, (cell % per_tier) / (disk_ + 1), cell % (disk_ + 1));
    };
#pragma omp parallel num_threads(team) if (team > 1)
    for (std::int64_t m = 1; m <= steps_; ++m) {
#pragma omp for schedule(static)
        for (std::int64_t cell = 0; cell < cells; ++cell)
            cell_at(cell, m, b_cell);
#pragma omp for schedule(static)
        for (std::int64_t cell = 0; cell < cells; ++cell)
            cell_at(cell, m, a_cell);
    }
    best_s_ = kInf;
    if (steps_ == 1)
        best_s_ = 0;
    else
        for (int t : {kRam, kDisk}) {
            const std::int64_t r = ram_after(t, ram_, -1), d = disk_after(t, disk_, -1);
            if (r >= 0 && d >= 0) best_s_ = std::min(best_s_, w_[t] + b(t, steps_, r, d));
        }
    inner_s_ = best_s_;
    best_s_ += common_s_;
}

std::vector<Action> TwoTierOptimum::plan() const {
    std::vector<Action> out;
    SlotPool pools[2] = {SlotPool(kRam, static_cast<int>(ram_)),
                         SlotPool(kDisk, static_cast<int>(unbounded_disk_ ? steps_ : disk_))};
    // Emits B_t(m, r, d): state `at` is in hand and stored in `base`. Returns the slot that holds state `at`
    // at the end (the base, or where A moved it).
    auto emit_b = [&](auto& self_b, auto& self_a, std::int64_t at, std::int64_t m, std::int64_t r,
                      std::int64_t d, SlotRef base) -> SlotRef {
        const int t = base.tier;
        if (m == 1) {
            out.push_back(reverse_action(at));
            return base;
        }
        const double target = b(t, m, r, d);
        if (static_cast<double>(m - 1) * f_ + r_[t] + a(t, m - 1, r, d) == target) {
            out.push_back(advance_action(at, at + m - 1));
            out.push_back(reverse_action(at + m - 1));
            out.push_back(restore_action(at, base.slot, t));
            return self_a(self_b, self_a, at, m - 1, r, d, base);
        }
        for (int u : {kRam, kDisk}) {
            const std::int64_t r2 = ram_after(u, r, -1), d2 = disk_after(u, d, -1);
            if (r2 < 0 || d2 < 0) continue;
            for (std::int64_t j = 1; j < m; ++j) {
                if (static_cast<double>(j) * f_ + w_[u] + b(u, m - j, r2, d2) + r_[t] + a(t, j, r, d) !=
                    target)
                    continue;
                out.push_back(advance_action(at, at + j));
                const SlotRef inner = pools[u].take();
                out.push_back(store_action(at + j, inner.slot, u));
                const SlotRef held = self_b(self_b, self_a, at + j, m - j, r2, d2, inner);
                out.push_back(free_action(held.slot, held.tier));
                pools[held.tier].give(held);
                out.push_back(restore_action(at, base.slot, t));
                return self_a(self_b, self_a, at, j, r, d, base);
            }
        }
        throw Error("two-tier plan: no choice attains the table's optimum");
    };
    // Emits A_t(m, r, d) (base just restored); returns the slot that holds state `at` afterwards.
    auto emit_a = [&](auto& self_b, auto& self_a, std::int64_t at, std::int64_t m, std::int64_t r,
                      std::int64_t d, SlotRef base) -> SlotRef {
        const int t = base.tier;
        if (a(t, m, r, d) == b(t, m, r, d)) return self_b(self_b, self_a, at, m, r, d, base);
        const int u = 1 - t;
        out.push_back(free_action(base.slot, t));
        pools[t].give(base);
        const SlotRef moved = pools[u].take();
        out.push_back(store_action(at, moved.slot, u));
        return self_b(self_b, self_a, at, m, ram_after(t, ram_after(u, r, -1), +1),
                      disk_after(t, disk_after(u, d, -1), +1), moved);
    };
    if (steps_ == 1) {
        out.push_back(reverse_action(0));
        return out;
    }
    const double target = inner_s_;
    for (int t : {kRam, kDisk}) {
        const std::int64_t r = ram_after(t, ram_, -1), d = disk_after(t, disk_, -1);
        if (r < 0 || d < 0 || w_[t] + b(t, steps_, r, d) != target) continue;
        const SlotRef base = pools[t].take();
        out.push_back(store_action(0, base.slot, t));
        const SlotRef held = emit_b(emit_b, emit_a, 0, steps_, r, d, base);
        out.push_back(free_action(held.slot, held.tier));
        return out;
    }
    throw Error("two-tier plan: no top-level choice attains the optimum");
}

} // namespace fwi::detail
