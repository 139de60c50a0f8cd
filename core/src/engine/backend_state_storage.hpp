#pragma once
// States of tier 0 kept in a backend's own memory (Propagator::state_slots, a GPU's): a Store copies the
// wave state into its slot on the device and a Restore copies it back, with no host copy, codec or PCIe
// transfer. Everything else (snapshots, other tiers) goes to the storage it wraps.
//
// Invariants: tier 0's bytes are the wrapped storage's plus slot_bytes() per held slot, and a put_state that
// would take them beyond the budget throws BudgetExceeded before copying anything; a slot is held from its
// put_state to its free.
#include "engine/item_storage.hpp"

#include <memory>

namespace fwi {

/// Wraps `inner`: tier-0 states go to `slots` under `budget_bytes` for all of tier 0 (0: no budget).
std::unique_ptr<ItemStorage> keep_states_in_backend(std::unique_ptr<ItemStorage> inner,
                                                    std::unique_ptr<StateSlots> slots,
                                                    std::uint64_t budget_bytes);

} // namespace fwi
