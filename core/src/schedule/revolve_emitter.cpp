#include "schedule/revolve_emitter.hpp"

#include "fwi/error.hpp"
#include "schedule/binomial.hpp"
#include "schedule/plan_builders.hpp"

#include <string>

namespace fwi::detail {

SlotPool::SlotPool(int tier, int count) : tier_(tier) {
    for (int s = count - 1; s >= 0; --s)
        free_.push_back(s);
}

SlotRef SlotPool::take() {
    if (free_.empty()) throw Error("schedule: no free slot left in tier " + std::to_string(tier_));
    const int s = free_.back();
    free_.pop_back();
    return {s, tier_};
}

void SlotPool::give(SlotRef slot) {
    free_.push_back(slot.slot);
}

namespace {

Action advance(std::int64_t from, std::int64_t to) {
    return advance_action(from, to);
}
Action reverse(std::int64_t step) {
    return reverse_action(step);
}
Action store(std::int64_t step, SlotRef s) {
    return store_action(step, s.slot, s.tier);
}
Action restore(std::int64_t step, SlotRef s) {
    return restore_action(step, s.slot, s.tier);
}
Action free_slot(SlotRef s) {
    return free_action(s.slot, s.tier);
}

struct Task {
    bool is_free = false; // true: give `base` back to the pool after emitting Free
    std::int64_t a = 0, len = 0, sigma = 0;
    SlotRef base;
    bool need_restore = false;
};

} // namespace

void reverse_segment(std::vector<Action>& out, std::int64_t a0, std::int64_t len0, std::int64_t sigma0,
                     SlotRef base0, bool need_restore0, SlotPool& pool) {
    if (len0 < 1 || sigma0 < 1)
        throw Error("reverse_segment: needs len >= 1 and sigma >= 1, got " + std::to_string(len0) + ", " +
                    std::to_string(sigma0));
    std::vector<Task> work{{false, a0, len0, sigma0, base0, need_restore0}};
    while (!work.empty()) {
        const Task task = work.back();
        work.pop_back();
        if (task.is_free) {
            out.push_back(free_slot(task.base));
            pool.give(task.base);
            continue;
        }
        const std::int64_t a = task.a, len = task.len, sigma = task.sigma;
        if (task.need_restore) out.push_back(restore(a, task.base));
        if (len == 1) {
            out.push_back(reverse(a));
            continue;
        }
        if (sigma == 1) { // one slot: each step is recomputed from a
            for (std::int64_t i = len - 1; i >= 0; --i) {
                if (i != len - 1) out.push_back(restore(a, task.base));
                if (i > 0) out.push_back(advance(a, a + i));
                out.push_back(reverse(a + i));
            }
            continue;
        }
        const std::int64_t j = optimal_split(len, sigma);
        out.push_back(advance(a, a + j));
        // Pushed in reverse order of execution: right part, then (Free), then the left part from a.
        work.push_back({false, a, j, sigma, task.base, true});
        if (len - j == 1) {
            out.push_back(reverse(a + j));
        } else {
            const SlotRef right = pool.take();
            out.push_back(store(a + j, right));
            work.push_back({true, 0, 0, 0, right, false});
            work.push_back({false, a + j, len - j, sigma - 1, right, false});
        }
    }
}

std::vector<SegmentCounts> segment_counts_upto(std::int64_t l_max, std::int64_t sigma) {
    if (l_max < 1 || sigma < 1)
        throw Error("segment_counts_upto: needs l_max >= 1 and sigma >= 1, got " + std::to_string(l_max) +
                    ", " + std::to_string(sigma));
    const auto size = static_cast<std::size_t>(l_max) + 1;
    std::vector<SegmentCounts> prev(size), cur(size);
    for (std::int64_t m = 1; m <= l_max; ++m)
        cur[static_cast<std::size_t>(m)] = {m * (m - 1) / 2, 0, m - 1};
    // Beyond sigma = l_max - 1 every range stores everything, so more levels change nothing.
    const std::int64_t levels = std::min(sigma, std::max<std::int64_t>(l_max - 1, 1));
    for (std::int64_t s = 2; s <= levels; ++s) {
        std::swap(prev, cur);
        const BinomialTable same(s, l_max), fewer(s - 1, l_max);
        cur[1] = {};
        std::int64_t j = 1;
        for (std::int64_t m = 2; m <= l_max; ++m) {
            auto& c = cur[static_cast<std::size_t>(m)];
            if (m - 1 <= s) { // store everything (the splits are j = 1 all the way)
                c = {m - 1, m - 2, m - 1};
                continue;
            }
            while (j < m - 1 && 1 + same.repetition_number(j + 1) - fewer.repetition_number(m - j) < 0)
                ++j;
            const SegmentCounts& left = cur[static_cast<std::size_t>(j)];
            c = {j + left.advance_steps, left.stores, 1 + left.restores};
            if (m - j >= 2) {
                const SegmentCounts& right = prev[static_cast<std::size_t>(m - j)];
                c.advance_steps += right.advance_steps;
                c.stores += 1 + right.stores;
                c.restores += right.restores;
            }
        }
    }
    return cur;
}

SegmentCounts SegmentCounter::count(std::int64_t len, std::int64_t sigma) {
    if (len < 1 || sigma < 1)
        throw Error("SegmentCounter: needs len >= 1 and sigma >= 1, got " + std::to_string(len) + ", " +
                    std::to_string(sigma));
    if (len == 1) return {};
    if (sigma == 1) return {len * (len - 1) / 2, 0, len - 1};
    if (sigma >= len - 1) return {len - 1, len - 2, len - 1}; // store every state: j = 1 all the way
    if (len >= (std::int64_t{1} << 32))
        throw Error("SegmentCounter: range of " + std::to_string(len) + " steps is too long");
    const std::uint64_t key = (static_cast<std::uint64_t>(len) << 32) | static_cast<std::uint64_t>(sigma);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    // Walk the chain of left parts iteratively (it can be long), stopping at the first one already known;
    // recurse only into right parts (sigma drops). Callers that ask for lengths in increasing order thus pay
    // O(1) per length.
    SegmentCounts total;
    std::int64_t l = len;
    while (l > 1) {
        if (l - 1 <= sigma) { // the rest stores everything
            total.advance_steps += l - 1;
            total.stores += l - 2;
            total.restores += l - 1;
            break;
        }
        if (l != len) {
            const auto known =
                memo_.find((static_cast<std::uint64_t>(l) << 32) | static_cast<std::uint64_t>(sigma));
            if (known != memo_.end()) {
                total.advance_steps += known->second.advance_steps;
                total.stores += known->second.stores;
                total.restores += known->second.restores;
                break;
            }
        }
        const std::int64_t j = optimal_split(l, sigma);
        total.advance_steps += j;
        total.restores += 1; // restore a before the left part
        if (l - j >= 2) {
            const SegmentCounts right = count(l - j, sigma - 1);
            total.advance_steps += right.advance_steps;
            total.stores += 1 + right.stores;
            total.restores += right.restores;
        }
        l = j;
    }
    memo_[key] = total;
    return total;
}

std::shared_ptr<SharedSegmentCounter> shared_segment_counter() {
    static std::mutex mutex;
    static std::weak_ptr<SharedSegmentCounter> live;
    std::lock_guard<std::mutex> lock(mutex);
    if (std::shared_ptr<SharedSegmentCounter> held = live.lock()) return held;
    auto made = std::make_shared<SharedSegmentCounter>();
    live = made;
    return made;
}

} // namespace fwi::detail
