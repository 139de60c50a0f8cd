// Online checkpointing after Stumm & Walther (SISC 2010), with a greedy thinning fallback.
//
// Why the optimal phase works. With checkpoints c_0 = 0 < c_1 < ... < c_{S-1} and the run stopping with state
// l-1 in hand, the reversal handles the segments top-down; segment k (length m_k) can use S - k slots (its
// own plus those freed above it), the top one additionally has the state in hand. Its cost is t(m_k, S - k),
// and the total equals the offline optimum t(l, S) = 2l - (S+2) of the region C(S+1,1) < l <= C(S+2,2)
// exactly when every segment has repetition number <= 1: m_k <= S - k + 1 for k < S-1 and l - c_{S-1} <= 3
// (for l <= S+1, storing every state is optimal). At l = C(S+2,2) that forces the "staircase" of lengths S+1,
// S, ..., 3 | 3. The trajectory below keeps that invariant at every state, so it is optimal wherever the run
// stops:
//   fill:   states 0..S-1 are stored (level sigma = S, offset o = 0);
//   level (sigma, o), whose states o..o+sigma-1 are stored: at state o+sigma nothing; at each state
//     n = o+sigma+1 .. o+2 sigma-1 store n in place of the highest remaining middle checkpoint 2o + 2 sigma -
//     n; then the level becomes (sigma-1, o+sigma+1), whose states are exactly the ones just stored.
// Level 1 ends at state o+2 = C(S+2,2)-1. (We derived this construction ourselves from the invariant; it
// attains the optimum Stumm & Walther prove reachable, and the tests check t(l,S) exactly for all l in the
// region.)
#include "fwi/schedules.hpp"

#include "fwi/error.hpp"
#include "schedule/binomial.hpp"
#include "schedule/plan_builders.hpp"
#include "schedule/revolve_emitter.hpp"

#include <algorithm>
#include <string>

namespace fwi {

namespace {
constexpr std::int64_t kKeep = -2;     // greedy_drop: store nothing
constexpr std::int64_t kFreeSlot = -1; // store into a free slot
std::int64_t t_cost(std::int64_t len, std::int64_t sigma) {
    return detail::optimal_advance_steps(len, sigma);
}
} // namespace

OnlineRevolveSchedule::OnlineRevolveSchedule(std::int64_t slots, int tier) : slots_(slots), tier_(tier) {
    if (slots < 1) throw ConfigError("schedule online:S needs S >= 1, got " + std::to_string(slots));
    if (slots > (std::int64_t{1} << 30))
        throw ConfigError("schedule online:S: S = " + std::to_string(slots) + " is absurd");
    if (tier < 0) throw ConfigError("schedule online: tier must be >= 0, got " + std::to_string(tier));
    reset();
}

std::string OnlineRevolveSchedule::name() const {
    return "online:" + std::to_string(slots_);
}

std::int64_t OnlineRevolveSchedule::optimal_limit() const {
    return (slots_ + 2) * (slots_ + 1) / 2;
}

void OnlineRevolveSchedule::reset() {
    next_n_ = 0;
    checkpoints_.clear();
    free_slots_.clear();
    for (std::int64_t s = slots_ - 1; s >= 0; --s)
        free_slots_.push_back(static_cast<int>(s));
    level_ = slots_;
    level_offset_ = 0;
    finished_ = false;
}

std::vector<Action> OnlineRevolveSchedule::replace(std::int64_t n, std::int64_t drop_step) {
    std::vector<Action> out;
    int slot = -1;
    if (drop_step == kFreeSlot) {
        slot = free_slots_.back();
        free_slots_.pop_back();
    } else {
        const auto it = std::find_if(checkpoints_.begin(), checkpoints_.end(),
                                     [&](const Checkpoint& c) { return c.step == drop_step; });
        if (it == checkpoints_.end() || drop_step == 0)
            throw Error(name() + ": internal error, cannot drop checkpoint " + std::to_string(drop_step));
        slot = it->slot;
        checkpoints_.erase(it);
        out.push_back(detail::free_action(slot, tier_));
    }
    out.push_back(detail::store_action(n, slot, tier_));
    checkpoints_.push_back({n, slot}); // n is beyond every checkpoint, so the list stays sorted
    return out;
}

std::int64_t OnlineRevolveSchedule::greedy_drop(std::int64_t n) const {
    // Reversal cost if the run stopped at l = n + 2 (state n+1 in hand), for each choice. With e =
    // c_0..c_{m-1}, n and segments g_i = e_{i+1} - e_i: keeping costs sum_{i<m-1} t(g_i, S-i) + t(g_{m-1} +
    // 1, S-m+1); dropping c_k (1 <= k < m) costs sum_{i<k-1} t(g_i, S-i) + t(g_{k-1} + g_k, S-k+1) +
    // sum_{i>k} t(g_i, S-i+1), the last segment [n, n+1) costing nothing. Prefix/suffix sums make each choice
    // O(1).
    const auto m = static_cast<std::int64_t>(checkpoints_.size());
    std::vector<std::int64_t> gap(static_cast<std::size_t>(m));
    for (std::int64_t i = 0; i < m; ++i)
        gap[static_cast<std::size_t>(i)] =
            (i + 1 < m ? checkpoints_[static_cast<std::size_t>(i + 1)].step : n) -
            checkpoints_[static_cast<std::size_t>(i)].step;
    auto g = [&](std::int64_t i) { return gap[static_cast<std::size_t>(i)]; };
    std::vector<std::int64_t> prefix(static_cast<std::size_t>(m) + 1, 0),
        suffix(static_cast<std::size_t>(m) + 2, 0);
    for (std::int64_t i = 0; i < m; ++i)
        prefix[static_cast<std::size_t>(i + 1)] =
            prefix[static_cast<std::size_t>(i)] + t_cost(g(i), slots_ - i);
    for (std::int64_t i = m - 1; i >= 0; --i)
        suffix[static_cast<std::size_t>(i)] =
            suffix[static_cast<std::size_t>(i + 1)] + t_cost(g(i), slots_ - i + 1);
    const std::int64_t keep = prefix[static_cast<std::size_t>(m - 1)] + t_cost(g(m - 1) + 1, slots_ - m + 1);
    if (!free_slots_.empty()) {
        const std::int64_t store = prefix[static_cast<std::size_t>(m)];
        return store < keep ? kFreeSlot : kKeep;
    }
    std::int64_t best = keep, choice = kKeep;
    for (std::int64_t k = 1; k < m; ++k) {
        const std::int64_t cost = prefix[static_cast<std::size_t>(k - 1)] +
                                  t_cost(g(k - 1) + g(k), slots_ - k + 1) +
                                  suffix[static_cast<std::size_t>(k + 1)];
        if (cost < best) {
            best = cost;
            choice = checkpoints_[static_cast<std::size_t>(k)].step;
        }
    }
    return choice;
}

std::vector<Action> OnlineRevolveSchedule::at_forward_state(std::int64_t n) {
    if (finished_)
        throw Error(name() + ": at_forward_state(" + std::to_string(n) +
                    ") after the reversal; reset() first");
    if (n != next_n_)
        throw Error(name() + ": at_forward_state(" + std::to_string(n) + ") out of order, expected state " +
                    std::to_string(next_n_));
    ++next_n_;
    if (n < slots_) return replace(n, kFreeSlot); // fill
    if (n < optimal_limit() - 1) {
        while (level_ >= 2 && n > level_offset_ + 2 * level_ - 1) {
            level_offset_ += level_ + 1;
            --level_;
        }
        if (level_ >= 2 && n >= level_offset_ + level_ + 1)
            return replace(n, 2 * level_offset_ + 2 * level_ - n);
        return {};
    }
    const std::int64_t drop = greedy_drop(n);
    if (drop == kKeep) return {};
    return replace(n, drop);
}

std::vector<Action> OnlineRevolveSchedule::reversal(std::int64_t l) {
    using namespace detail;
    if (finished_) throw Error(name() + ": reversal(" + std::to_string(l) + ") called twice; reset() first");
    // at_forward_state ran for 0..l-2 (the protocol) or, leniently, for 0..l-1.
    if (l < 1 || (next_n_ != l - 1 && next_n_ != l))
        throw Error(name() + ": reversal(" + std::to_string(l) +
                    ") does not follow at_forward_state up to state " + std::to_string(next_n_ - 1));
    finished_ = true;
    std::vector<Action> out;
    out.push_back(reverse_action(l - 1));
    SlotPool pool(tier_, 0);
    for (int s : free_slots_)
        pool.give({s, tier_});
    std::int64_t end = l - 1; // steps end.. are reversed
    for (auto it = checkpoints_.rbegin(); it != checkpoints_.rend(); ++it) {
        const SlotRef slot{it->slot, tier_};
        if (it->step < end) {
            const std::int64_t sigma = 1 + pool.free_count();
            reverse_segment(out, it->step, end - it->step, sigma, slot, true, pool);
            end = it->step;
        }
        out.push_back(free_action(slot.slot, slot.tier));
        pool.give(slot);
    }
    if (end != 0) throw Error(name() + ": internal error, state 0 was not kept");
    checkpoints_.clear();
    return out;
}

std::vector<Action> plan_online(OnlineSchedule& schedule, std::int64_t steps) {
    if (steps < 0) throw ConfigError("plan_online: step count must be >= 0, got " + std::to_string(steps));
    schedule.reset();
    std::vector<Action> out;
    if (steps == 0) return out;
    for (std::int64_t n = 0; n + 1 < steps; ++n) {
        const auto actions = schedule.at_forward_state(n);
        out.insert(out.end(), actions.begin(), actions.end());
        if (!out.empty() && out.back().type == ActionType::Advance && out.back().to == n)
            ++out.back().to;
        else
            out.push_back(detail::advance_action(n, n + 1));
    }
    const auto rest = schedule.reversal(steps);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
}

OnlineAsOfflineSchedule::OnlineAsOfflineSchedule(std::int64_t slots) : slots_(slots) {
    OnlineRevolveSchedule check(slots); // validates
}

std::string OnlineAsOfflineSchedule::name() const {
    return "online:" + std::to_string(slots_);
}

std::vector<Action> OnlineAsOfflineSchedule::plan(std::int64_t steps) const {
    OnlineRevolveSchedule online(slots_);
    return plan_online(online, steps);
}

} // namespace fwi
