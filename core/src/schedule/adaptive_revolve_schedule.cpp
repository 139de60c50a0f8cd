// Revolve whose slot count grows as the real sizes of stored states arrive (compressed checkpoints).
//
// Invariants (B budget, P pessimistic size of one state, H bytes held when a range is planned):
//   - a range is planned only when the executor reaches it, with sigma = 1 + floor((B - H) / P) slots, its
//     base included; it stores at most sigma - 1 states at once (Revolve's rule), each <= P, and every state
//     held when it starts stays counted in H. So H + (sigma - 1) P <= B bounds every byte it will hold.
//   - ranges still on the work stack hold their bases (already stored and counted in H); when one of them
//     is reached, the ranges above it have freed what they stored, so its H is no larger than when it was
//     pushed and its sigma no smaller.
//   - with every state at P and no prices, the plan is revolve:floor(B / P) action for action (the look-ahead
//     below then counts on sigma - 1 slots for the right part, which is Revolve's optimal_split(len, sigma));
//     priced with stores cheaper than a step, too (every slot pays).
// Look-ahead: the right part [a+j, a+len) of a split will be planned with the real size of its base, not
// known yet. The split counts on the slots it would have if that base were no larger than the largest state
// (other than the zero state 0) stored so far. When the right part starts with fewer slots than counted on,
// it compares going on (t(j, sigma) + t(len', slots now)) with freeing its base and planning the parent range
// again without look-ahead (t(len, sigma)), and takes the cheaper. The look-ahead only steers splits; the
// budget rests on the reserve above alone. It is a heuristic: on 1,200 replayed size sequences (constant,
// random, growing) the unpriced schedule never recomputed more than the fixed pessimistic slots, but that is
// not proved. Prices (cheapest_slots): slots are taken only where they pay. A range may use sigma slots; it
// takes the count s in [1, sigma] minimising the priced Revolve reversal, advance * t(len, s) + store *
// stores(len, s) + restore * restores(len, s) (the counts of reverse_segment). When s < sigma it splits as
// Revolve with s slots; when every slot pays, the look-ahead counts on the right part's slots only as far as
// they pay for it, and the fall-back compares priced costs. A codec costing tens of steps per state thus
// stores no more states than pay for themselves, even where the budget holds more uncompressed ones than
// that (revolve:S with a budget's S stores them all). Without the look-ahead a plan provably costs no more
// than revolve:floor(B/P) at these prices (each range's choice includes the count Revolve would give it);
// with it, replays on random sizes cost 17% less on average and were above it in under 1% of runs, where
// the unpriced schedule was above it in a quarter of them (tst_adaptive_schedule).
#include "fwi/error.hpp"
#include "fwi/schedules.hpp"
#include "schedule/binomial.hpp"
#include "schedule/plan_builders.hpp"
#include "schedule/revolve_emitter.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace fwi {

using namespace detail;

struct AdaptiveRevolveSchedule::CountMemo {
    std::mutex mutex; ///< guards `cheapest`; taken before counts->mutex where both are
    /// Per range length: the cheapest slot count of all that change the plan (1..len-1). It depends on the
    /// prices, so the memo is shared only by copies of one schedule (expected_plan's fresh copy).
    std::unordered_map<std::int64_t, std::int64_t> cheapest;
    /// Revolve's counts, which no price changes: shared by every schedule of the process.
    std::shared_ptr<SharedSegmentCounter> counts = shared_segment_counter();
};

namespace {

double priced_cost(const AdaptivePrices& prices, const SegmentCounts& c) {
    return prices.advance * double(c.advance_steps) + prices.store * double(c.stores) +
           prices.restore * double(c.restores);
}

} // namespace

AdaptiveRevolveSchedule::AdaptiveRevolveSchedule(std::uint64_t budget_bytes, std::uint64_t state_bytes,
                                                 int tier, AdaptivePrices prices)
    : budget_bytes_(budget_bytes), state_bytes_(state_bytes), tier_(tier), prices_(prices),
      memo_(std::make_shared<CountMemo>()) {
    const auto bad_price = [](double v) { return !std::isfinite(v) || v < 0; };
    if (bad_price(prices.advance) || prices.advance == 0 || bad_price(prices.store) ||
        bad_price(prices.restore))
        throw ConfigError(
            "schedule adaptive: prices must be finite, advance > 0 and store, restore >= 0; got " +
            std::to_string(prices.advance) + ", " + std::to_string(prices.store) + ", " +
            std::to_string(prices.restore));
    if (state_bytes == 0) throw ConfigError("schedule adaptive: the state size must be > 0");
    if (budget_bytes < state_bytes)
        throw ConfigError("schedule adaptive: a budget of " + std::to_string(budget_bytes) +
                          " bytes does not hold one state of " + std::to_string(state_bytes) + " bytes");
    if (tier < 0) throw ConfigError("schedule adaptive: tier must be >= 0, got " + std::to_string(tier));
}

std::string AdaptiveRevolveSchedule::name() const {
    return "adaptive:" + std::to_string(initial_slots());
}

std::int64_t AdaptiveRevolveSchedule::slots_for(std::uint64_t held_bytes) const {
    if (held_bytes >= budget_bytes_) return 1;
    return 1 + std::int64_t((budget_bytes_ - held_bytes) / state_bytes_);
}

namespace {

/// The count in [lowest, last] (last <= len - 1) whose Revolve reversal of `len` steps costs least at
/// `prices` (the fewest on a tie), by branch and bound on these facts of Revolve's counts
/// (tst_adaptive_schedule checks them for every len <= 300; checked to 1000): advances are t(len, s) in
/// closed form and never rise with s, restores are len - 1 for every s, stores never fall, and they rise by
/// no more than advances fall (stores(s + 1) - stores(s) <= t(s) - t(s + 1)). Between two counted ends lo < s
/// < hi, the cost is then at least advance t(s) + store stores(lo) (B1, falling with s) and at least advance
/// t(s) + store (stores(hi) - t(s) + t(hi)) (B2, rising with s when a store costs more than a step), plus the
/// restores. The search counts the s where the larger of the two is least, and drops an interval whose least
/// bound exceeds the best cost found. A scan of every count cost O(len) counts per range, seconds per plan
/// for thousands of steps. Requires store >= advance (below that every slot pays: cheapest_slots answers
/// without a search).
std::int64_t cheapest_in(SegmentCounter& counter, const AdaptivePrices& prices, std::int64_t len,
                         std::int64_t lowest, std::int64_t last) {
    struct End {
        std::int64_t s;
        double advances, stores;
    };
    const auto end = [&](std::int64_t s) {
        const SegmentCounts c = counter.count(len, s);
        return End{s, double(c.advance_steps), double(c.stores)};
    };
    const auto cost = [&](const End& e) { return prices.advance * e.advances + prices.store * e.stores; };
    const auto t = [&](std::int64_t s) { return double(optimal_advance_steps(len, s)); };
    const End first = end(lowest), final = end(last);
    std::int64_t best = lowest;
    double best_cost = cost(first);
    const auto consider = [&](const End& e) {
        const double c = cost(e);
        if (c < best_cost || (c == best_cost && e.s < best)) { // the fewest slots on a tie
            best = e.s;
            best_cost = c;
        }
    };
    consider(final);
    // The s in (lo, hi) where max(B1, B2) is least, and that bound (restores left out, as in cost()).
    const auto least_bound = [&](const End& lo, const End& hi) {
        const auto b1 = [&](std::int64_t s) { return prices.advance * t(s) + prices.store * lo.stores; };
        const auto b2 = [&](std::int64_t s) {
            return prices.advance * t(s) + prices.store * (hi.stores - t(s) + hi.advances);
        };
        // b2 - b1 never falls with s: find the first s in [lo + 1, hi - 1] where b2 >= b1. Below it the
        // larger bound is b1 (least at its top), from it on b2 (least at it).
        std::int64_t a = lo.s + 1, z = hi.s - 1;
        if (b2(z) < b1(z)) return std::pair{z, b1(z)};
        while (a < z) {
            const std::int64_t mid = a + (z - a) / 2;
            if (b2(mid) >= b1(mid))
                z = mid;
            else
                a = mid + 1;
        }
        if (a > lo.s + 1 && b1(a - 1) < b2(a)) return std::pair{a - 1, b1(a - 1)};
        return std::pair{a, b2(a)};
    };
    std::vector<std::pair<End, End>> open{{first, final}};
    while (!open.empty()) {
        const auto [lo, hi] = open.back();
        open.pop_back();
        if (hi.s - lo.s < 2) continue; // nothing inside
        const auto [s, bound] = least_bound(lo, hi);
        // Within rounding of the best cost, an interval of more slots than the best holds no better count.
        const double slack = 1e-12 * best_cost;
        if (bound > best_cost + slack || (lo.s + 1 > best && bound >= best_cost - slack)) continue;
        const End inside = end(s);
        consider(inside);
        open.push_back({inside, hi});
        open.push_back({lo, inside}); // the fewer slots first
    }
    return best;
}

} // namespace

std::int64_t AdaptiveRevolveSchedule::cheapest_slots(std::int64_t len, std::int64_t lowest,
                                                     std::int64_t sigma) {
    if (!priced()) return sigma;
    lowest = std::clamp<std::int64_t>(lowest, 1, sigma);
    // Beyond len - 1 slots Revolve stores every state: more change nothing.
    const std::int64_t useful = std::max<std::int64_t>(len - 1, 1);
    const std::int64_t last = std::min(sigma, useful);
    if (lowest >= last || prices_.every_slot_pays()) return sigma;
    std::lock_guard<std::mutex> lock(memo_->mutex);
    std::lock_guard<std::mutex> counts_lock(memo_->counts->mutex);
    SegmentCounter& counter = memo_->counts->counter;
    if (counter.memo_size() > (std::size_t{1} << 22)) counter = {}; // ~200 MB at most
    std::int64_t best = 0;
    if (lowest == 1) {
        // The cheapest of every count that changes the plan, once per length: the answer wherever the
        // budget allows it.
        auto [it, inserted] = memo_->cheapest.try_emplace(len, 0);
        if (inserted) it->second = cheapest_in(counter, prices_, len, 1, useful);
        if (it->second <= last) best = it->second;
    }
    if (best == 0) best = cheapest_in(counter, prices_, len, lowest, last);
    return best == last ? sigma : best;
}

void AdaptiveRevolveSchedule::reset(std::int64_t steps) {
    if (steps < 0) throw ConfigError(name() + ": step count must be >= 0, got " + std::to_string(steps));
    steps_ = steps;
    started_ = false;
    work_.clear();
    free_slots_.clear();
    slots_used_ = 0;
    held_before_store_ = 0;
    largest_state_bytes_ = 0;
    last_was_store_ = false;
}

int AdaptiveRevolveSchedule::take_slot() {
    if (!free_slots_.empty()) {
        const int s = free_slots_.back();
        free_slots_.pop_back();
        return s;
    }
    return slots_used_++;
}

std::vector<Action> AdaptiveRevolveSchedule::next(std::uint64_t held_bytes) {
    if (steps_ < 0) throw Error(name() + ": next() called before reset()");
    if (last_was_store_ && held_bytes >= held_before_store_) { // the Store ended the last batch
        const std::uint64_t stored = held_bytes - held_before_store_;
        largest_state_bytes_ = std::max(largest_state_bytes_, std::min(stored, state_bytes_));
    }
    last_was_store_ = false;
    if (!started_) {
        started_ = true;
        if (steps_ == 0) return {};
        if (steps_ == 1) return {reverse_action(0)}; // state 0 is in hand: no slot needed
        const int base = take_slot();
        work_.push_back(free_task(base));
        work_.push_back({false, 0, steps_, base, false});
        return {store_action(0, base, tier_)}; // the root range is planned once its size is known
    }
    if (work_.empty()) return {};
    const Task task = work_.back();
    work_.pop_back();
    if (task.is_free) {
        free_slots_.push_back(task.base);
        return {free_action(task.base, tier_)};
    }
    // The slots the range takes: up to the budget's, as many as pay. A right part may get fewer than its
    // parent's split counted on (its base came out larger, or fewer pay).
    const std::int64_t allowed = slots_for(held_bytes);
    const std::int64_t sigma = cheapest_slots(task.len, 1, allowed);
    if (task.counted_on_slots > sigma && should_fall_back(task, sigma)) return fall_back(task);
    std::vector<Action> out = range(task, allowed, sigma, held_bytes);
    if (!out.empty() && out.back().type == ActionType::Store) { // never state 0: it is stored above
        last_was_store_ = true;
        held_before_store_ = held_bytes;
    }
    return out;
}

bool AdaptiveRevolveSchedule::should_fall_back(const Task& right, std::int64_t slots_now) {
    // The parent range [p, p + parent_len) split at right.a with parent_sigma slots; its Advance to right.a
    // is spent either way. Going on costs t(j, parent_sigma) + t(len, slots now); planning the parent again
    // from its base costs at most t(parent_len, parent_sigma) (Revolve's split for it). Priced, the same
    // with the priced Revolve counts.
    const std::int64_t j = right.parent_len - right.len;
    if (!priced()) // recomputed steps alone: Revolve's closed form, no counts to memoise
        return optimal_advance_steps(right.parent_len, right.parent_sigma) <
               optimal_advance_steps(j, right.parent_sigma) + optimal_advance_steps(right.len, slots_now);
    std::lock_guard<std::mutex> counts_lock(memo_->counts->mutex); // the counts alone: no cheapest slots
    const auto cost = [&](std::int64_t len, std::int64_t sigma) {
        return priced_cost(prices_, memo_->counts->counter.count(len, sigma));
    };
    return cost(right.parent_len, right.parent_sigma) <
           cost(j, right.parent_sigma) + cost(right.len, slots_now);
}

std::vector<Action> AdaptiveRevolveSchedule::fall_back(const Task& right) {
    // Below it on the stack: the Free of its base, then the left part of the same parent range.
    if (work_.size() < 2 || !work_.back().is_free || work_.back().base != right.base ||
        work_[work_.size() - 2].is_free)
        throw Error(name() + ": internal error, no parent range to fall back to");
    work_.pop_back();
    const Task left = work_.back();
    work_.pop_back();
    free_slots_.push_back(right.base);
    Task parent{false, left.a, right.a + right.len - left.a, left.base, true};
    parent.look_ahead = false;
    work_.push_back(parent);
    return {free_action(right.base, tier_)};
}

std::vector<Action> AdaptiveRevolveSchedule::range(const Task& task, std::int64_t allowed, std::int64_t sigma,
                                                   std::uint64_t held_bytes) {
    const std::int64_t a = task.a, len = task.len;
    std::vector<Action> out;
    if (task.need_restore) out.push_back(restore_action(a, task.base, tier_));
    if (len == 1) {
        out.push_back(reverse_action(a));
        return out;
    }
    if (sigma == 1) { // no room for another state: each step is recomputed from a
        for (std::int64_t i = len - 1; i >= 0; --i) {
            if (i != len - 1) out.push_back(restore_action(a, task.base, tier_));
            if (i > 0) out.push_back(advance_action(a, a + i));
            out.push_back(reverse_action(a + i));
        }
        return out;
    }
    // The right part's slots if its base is no larger than the largest state seen (P before any).
    const std::uint64_t estimate =
        task.look_ahead && largest_state_bytes_ > 0 ? largest_state_bytes_ : state_bytes_;
    // Where this range takes fewer slots than allowed, more do not pay here: split as Revolve with sigma.
    // Otherwise count on the right part's slots, priced: as many as would pay for it.
    std::int64_t sigma_right = sigma - 1;
    if (sigma == allowed) {
        sigma_right = std::max(sigma - 1, slots_for(held_bytes + estimate));
        if (priced() && sigma_right > sigma - 1)
            sigma_right =
                cheapest_slots(len - optimal_split(len, sigma, sigma_right), sigma - 1, sigma_right);
    }
    const std::int64_t j = optimal_split(len, sigma, sigma_right);
    out.push_back(advance_action(a, a + j));
    work_.push_back({false, a, j, task.base, true}); // the left part, after the right one
    if (len - j == 1) {
        out.push_back(reverse_action(a + j));
    } else {
        const int right = take_slot();
        work_.push_back(free_task(right));
        Task right_part{false, a + j, len - j, right, false};
        if (sigma_right > sigma - 1) { // counting on a size below P: checked when the right part starts
            right_part.counted_on_slots = sigma_right;
            right_part.parent_len = len;
            right_part.parent_sigma = sigma;
        }
        work_.push_back(right_part);
        out.push_back(store_action(a + j, right, tier_));
    }
    return out;
}

std::vector<Action> AdaptiveRevolveSchedule::plan(std::int64_t steps) const {
    return expected_plan(steps, state_bytes_);
}

std::vector<Action> AdaptiveRevolveSchedule::expected_plan(std::int64_t steps,
                                                           std::uint64_t stored_bytes) const {
    if (steps < 0) throw ConfigError(name() + ": step count must be >= 0, got " + std::to_string(steps));
    if (stored_bytes == 0 || stored_bytes > state_bytes_)
        throw ConfigError(name() + ": a stored state of " + std::to_string(stored_bytes) +
                          " bytes is outside 1.." + std::to_string(state_bytes_));
    AdaptiveRevolveSchedule fresh(budget_bytes_, state_bytes_, tier_, prices_);
    fresh.memo_ = memo_; // the same counts: share what is already memoised
    return replay_adaptive(fresh, steps, std::vector<std::uint64_t>(std::size_t(steps), stored_bytes)).plan;
}

Prediction AdaptiveRevolveSchedule::predict_run(std::int64_t steps, StepCosts priced) const {
    priced.coded_on_caller = true; // exact sizes: make_item_storage gives it no store workers
    const std::uint64_t stored = std::min(priced.stored_state_bytes(), state_bytes_);
    const Prediction pessimistic = predict(plan(steps), steps, priced); // validates the plan too
    if (stored == state_bytes_) return pessimistic;
    Prediction p = predict(expected_plan(steps, stored), steps, priced);
    p.counts.peak_kept_snapshots =
        std::max(p.counts.peak_kept_snapshots, pessimistic.counts.peak_kept_snapshots);
    return p;
}

} // namespace fwi
