#pragma once
// The binomial (Revolve) reversal of one range of steps, shared by the Revolve, online and multi-level
// schedules.
//
// reverse_segment(a, len, sigma, base) reverses steps a+len-1 .. a given that state a is held in slot `base`
// and that sigma slots may be used (base included; the other sigma-1 come from a pool and are returned). It
// follows the recurrence t(len, sigma) = min_j [ j + t(j, sigma) + t(len - j, sigma - 1) ]: advance j steps,
// store that state, reverse the right part with one slot less, restore a, reverse the left part. A right part
// of one step needs no slot (its Reverse uses the state in hand), and sigma = 1 degenerates to "restore,
// advance, reverse" per step. It is written with an explicit work stack, so long ranges never recurse deeply.
#include "fwi/schedule.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace fwi::detail {

struct SlotRef {
    int slot = 0;
    int tier = 0;
};

/// Free slots of one tier; take() returns the lowest never-used or the most recently given back.
class SlotPool {
  public:
    SlotPool(int tier, int count);
    int tier() const { return tier_; }
    int free_count() const { return static_cast<int>(free_.size()); }
    SlotRef take(); ///< throws Error when empty
    void give(SlotRef slot);

  private:
    int tier_;
    std::vector<int> free_;
};

/// Appends the reversal of steps a+len-1 .. a to `out` (see above). If `need_restore`, it starts by restoring
/// state a from `base`; otherwise state a must be current. `base` stays occupied. Requires len >= 1, sigma >=
/// 1 and pool.free_count() >= min(sigma, len) - 1.
void reverse_segment(std::vector<Action>& out, std::int64_t a, std::int64_t len, std::int64_t sigma,
                     SlotRef base, bool need_restore, SlotPool& pool);

/// What reverse_segment(..., need_restore = false) emits, without emitting it.
struct SegmentCounts {
    std::int64_t advance_steps = 0;
    std::int64_t stores = 0;
    std::int64_t restores = 0;
};

/// counts[m] = what reverse_segment(a, m, sigma, ...) emits, for every m in [0, l_max] (counts[0] is zero),
/// by the recurrence over sigma levels with the same splits as reverse_segment; the smallest optimal split is
/// non-decreasing in m, so each level costs O(l_max log r). O(min(sigma, l_max) l_max) time, O(l_max) memory.
std::vector<SegmentCounts> segment_counts_upto(std::int64_t l_max, std::int64_t sigma);

/// Memoised counts of reverse_segment for single queries.
class SegmentCounter {
  public:
    SegmentCounts count(std::int64_t len, std::int64_t sigma);
    std::size_t memo_size() const { return memo_.size(); }

  private:
    std::unordered_map<std::uint64_t, SegmentCounts> memo_;
};

/// One SegmentCounter for every adaptive schedule alive in the process. The counts depend on (len, sigma)
/// alone, never on prices or budgets, and a plan table or a sweep prices dozens of adaptive schedules at
/// different prices over the same ranges: each kept its own memo, so a Marmousi-II sweep counted 12 million
/// ranges, 3 million of them distinct, and spent most of its seconds there.
struct SharedSegmentCounter {
    std::mutex mutex; ///< a leaf lock: nothing else is locked under it
    SegmentCounter counter;
};
/// The process's shared counter while anything holds it (a schedule's memo, or a plan table or a sweep for
/// its whole run); a new one after the last holder let go, so its memory goes with its users.
std::shared_ptr<SharedSegmentCounter> shared_segment_counter();

} // namespace fwi::detail
