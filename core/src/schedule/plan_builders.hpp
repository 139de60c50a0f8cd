#pragma once
// Tiny constructors for actions, so plan code reads like the plan.
#include "fwi/schedule.hpp"

namespace fwi::detail {

inline Action advance_action(std::int64_t from, std::int64_t to) {
    return {ActionType::Advance, from, to, -1, 0};
}
inline Action advance_snapshots_action(std::int64_t from, std::int64_t to) {
    return {ActionType::AdvanceSnapshots, from, to, -1, 0};
}
inline Action store_action(std::int64_t step, int slot, int tier) {
    return {ActionType::Store, step, 0, slot, tier};
}
inline Action restore_action(std::int64_t step, int slot, int tier) {
    return {ActionType::Restore, step, 0, slot, tier};
}
inline Action free_action(int slot, int tier) {
    return {ActionType::Free, 0, 0, slot, tier};
}
inline Action reverse_action(std::int64_t step) {
    return {ActionType::Reverse, step, 0, -1, 0};
}

} // namespace fwi::detail
