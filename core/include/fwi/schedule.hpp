#pragma once
// Checkpoint schedules are PURE PLANS: a sequence of actions over step indices and slots, never a wavefield.
// The executor (gradient_engine) is the only place that turns actions into propagation and storage.
//
// Vocabulary (l forward steps 0..l-1; "state n" = the forward state before step n; state 0 is the zero
// state):
//   Advance{from,to}         current state is `from`; run forward steps from..to-1; current state becomes
//   `to`. AdvanceSnapshots{from,to} as Advance, and keep the gradient snapshot of every step in [from,to)
//   (those the
//                            gradient sampling interval asks for) in the snapshot buffer, until its Reverse.
//   Store{step,slot,tier}    copy the current state (which is `step`) into `slot` of `tier`.
//   Restore{step,slot,tier}  current state := the copy in slot (which holds `step`); the slot stays occupied.
//   Free{slot,tier}          release the slot.
//   Reverse{step}            adjoint step `step`. If the snapshot of `step` is in the buffer it is used and
//   freed;
//                            otherwise the current state must be `step`: the executor runs forward step
//                            `step` once to obtain the snapshot (Revolve's "firstturn/youturn"), and that
//                            forward step is NOT an Advance (cost models count it separately). Reverses run
//                            step = l-1 down to 0. After such a Reverse the current state is unknown (the
//                            executor may have stepped it); after a Reverse served from the buffer the
//                            current state is unchanged.
// Receivers are recorded the first time each forward step is computed.
//
// Rules a valid plan obeys (simulate_plan checks them): it starts with state 0 current; an Advance starts at
// the current state, is non-empty and never recomputes a step already reversed; a Store's step is the current
// state and its slot is empty (Free first); a Restore's slot holds its step; a snapshot is never buffered
// twice; every step is reversed exactly once, in order l-1..0; at the end every slot is free and the buffer
// is empty.
#include "fwi/error.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fwi {

enum class ActionType { Advance, AdvanceSnapshots, Store, Restore, Free, Reverse };

struct Action {
    ActionType type = ActionType::Advance;
    std::int64_t from = 0; ///< Advance*: first step; Store/Restore/Reverse: the step
    std::int64_t to = 0;   ///< Advance*: one past the last step
    int slot = -1;         ///< Store/Restore/Free
    int tier = 0;          ///< 0 = fast memory (RAM / device), 1 = next tier (host or disk), ...
    bool operator==(const Action&) const = default;
};

std::string to_string(ActionType type);
/// One line, e.g. "Store{step 12, slot 3, tier 1}".
std::string to_string(const Action& a);

/// A plan breaks the rules above; the message names the action index, the action and what is wrong.
class PlanError : public Error {
  public:
    using Error::Error;
};

/// Counts used by tests and the performance model.
struct PlanCounts {
    std::int64_t advance_steps = 0; ///< forward steps in Advance/AdvanceSnapshots (recomputation included)
    std::int64_t reverse_steps = 0; ///< adjoint steps
    std::int64_t reverse_forward_steps = 0; ///< forward steps done inside Reverse (no snapshot buffered)
    std::int64_t snapshot_steps = 0;        ///< snapshots kept by AdvanceSnapshots
    std::int64_t peak_snapshots = 0;        ///< most snapshots buffered at once
    /// Most snapshots kept at once when only every k-th step's is kept (the gradient's sampling interval k):
    /// what the run holds in memory. Equal to peak_snapshots for k = 1 and from simulate_plan.
    std::int64_t peak_kept_snapshots = 0;
    std::vector<std::int64_t> writes; ///< Store count per tier
    std::vector<std::int64_t> reads;  ///< Restore count per tier
    std::vector<int> peak_slots;      ///< most slots occupied at once per tier
};

/// Replays a plan without wavefields: checks it is consistent (states in hand, slots occupied, every step
/// reversed once in order) and counts. `max_slots_per_tier`, when not empty, bounds the tiers (tier < size)
/// and slot indices (slot < max_slots_per_tier[tier]); when empty, tiers < 8 and slots <= steps are allowed.
/// The per-tier vectors of the result have max_slots_per_tier.size() entries, or (highest tier used + 1, at
/// least 1). Throws PlanError (an fwi::Error) naming the first bad action; ConfigError when steps < 0.
PlanCounts simulate_plan(const std::vector<Action>& plan, std::int64_t steps,
                         const std::vector<int>& max_slots_per_tier = {});

/// An offline schedule knows the step count in advance.
class Schedule {
  public:
    virtual ~Schedule() = default;
    virtual std::string name() const = 0;
    virtual std::vector<Action> plan(std::int64_t steps) const = 0;
};

/// An online schedule learns the step count only when the forward run stops. Protocol of the first sweep, for
/// n = 0, 1, ...: the executor holds state n; if forward step n is the last one (l = n + 1) it calls
/// reversal(l) and applies the returned actions (they start with Reverse{l-1}, which computes that last
/// forward step); otherwise it calls at_forward_state(n), applies the returned Store/Free actions, then
/// advances one step. So the first sweep makes l-1 Advance steps, and plan_online() in fwi/schedules.hpp
/// turns this protocol into a plan for a known l.
class OnlineSchedule {
  public:
    virtual ~OnlineSchedule() = default;
    virtual std::string name() const = 0;
    /// Forgets every decision, ready for a new first sweep from state 0.
    virtual void reset() = 0;
    /// Called with the current state at step n (before forward step n) during the first sweep, n = 0, 1, ...
    /// in order; returns the Store/Free actions to apply now. Throws Error when called out of order.
    virtual std::vector<Action> at_forward_state(std::int64_t n) = 0;
    /// The forward run has l steps and state l-1 is current (at_forward_state was called for 0..l-2, or for
    /// 0..l-1 by an executor that learnt too late that l-1 was the last state); returns the rest of the plan
    /// (the reversal). Throws Error when l does not follow the calls made, or when called twice without
    /// reset().
    virtual std::vector<Action> reversal(std::int64_t l) = 0;
};

/// A schedule that learns the real size of each stored state as the run goes (compressed checkpoints: the
/// size depends on the data) and may use the memory the compression freed for more slots. Protocol, for a
/// known step count: reset(steps), then repeatedly next(held_bytes), applying the returned actions in order,
/// until next() returns an empty list. `held_bytes` are the bytes the schedule's tier holds now for this
/// plan's states: the real stored size of each (an executor that has not yet learnt one counts it at its
/// worst case). Budget rule: whatever sizes the stores still to come turn out to have (each at most the
/// schedule's pessimistic state size), the bytes held never exceed the schedule's budget. So an executor
/// that reports true (or larger) sizes never sees its store refuse a put.
class AdaptiveSchedule {
  public:
    virtual ~AdaptiveSchedule() = default;
    virtual std::string name() const = 0;
    /// Starts a new plan of `steps` forward steps from state 0 (forgetting the previous one). Throws
    /// ConfigError when steps < 0.
    virtual void reset(std::int64_t steps) = 0;
    /// The next actions (at least one), or an empty list when the plan is complete. Throws Error when called
    /// before reset().
    virtual std::vector<Action> next(std::uint64_t held_bytes) = 0;
};

} // namespace fwi
