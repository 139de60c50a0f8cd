#pragma once
// The checkpoint schedules (pure plans, see fwi/schedule.hpp) and the factory that builds them from a spec
// string. Slots count states kept in a tier; for Revolve and the online schedule the initial state counts as
// one slot.
#include "fwi/performance_model.hpp"
#include "fwi/schedule.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fwi {

/// Minimal Advance steps to reverse l steps with s slots (state 0 in one of them) when each Reverse runs its
/// own forward step: t(l, s) = r l - C(s + r, s + 1), r = min { r : C(s + r, s) >= l } (Griewank & Walther
/// 2000). Requires l >= 1, s >= 1; throws Error otherwise.
std::int64_t revolve_advance_steps(std::int64_t l, std::int64_t s);
/// The repetition number r above.
std::int64_t revolve_repetition_number(std::int64_t l, std::int64_t s);

/// "all": AdvanceSnapshots over every step, then reverse from the buffer. No recomputation; l snapshots held.
class StoreAllSchedule final : public Schedule {
  public:
    std::string name() const override { return "all"; }
    std::vector<Action> plan(std::int64_t steps) const override;
};

/// "uniform:K": K states at equal spacing (state 0 first) are stored during the first sweep, which then goes
/// on with AdvanceSnapshots over a final (K+1)-th segment. Each stored segment is later restored, its slot
/// freed, recomputed once with AdvanceSnapshots and reversed from the buffer. Boundaries c_i = floor(i l /
/// (K+1)); K is capped at l-1. Memory: K states + the longest segment's snapshots. Advance steps: l + c_K
/// (recompute = l - last segment length).
class UniformSchedule final : public Schedule {
  public:
    explicit UniformSchedule(std::int64_t slots); ///< slots >= 1, else ConfigError
    std::string name() const override;
    std::vector<Action> plan(std::int64_t steps) const override;
    std::int64_t slot_count() const { return slots_; }

  private:
    std::int64_t slots_;
};

/// "revolve:S": optimal binomial checkpointing with S slots in tier 0, built by recursive binomial splitting.
/// Advance steps == revolve_advance_steps(l, S) exactly; each Reverse runs its own forward step; never more
/// than S slots (S >= l - 1: every state is stored and Advance steps == l - 1).
class RevolveSchedule final : public Schedule {
  public:
    explicit RevolveSchedule(std::int64_t slots, int tier = 0); ///< slots >= 1, else ConfigError
    std::string name() const override;
    std::vector<Action> plan(std::int64_t steps) const override;
    std::int64_t slot_count() const { return slots_; }

  private:
    std::int64_t slots_;
    int tier_;
};

/// "multilevel:R,D": tier 0 (R slots, fast) + tier 1 (D slots, e.g. disk, with the write/read costs of
/// `costs`). The plan of least predicted time under the cost model of fwi/performance_model.hpp, found by
/// (choose() below, in this order):
///   1. the exact two-tier programme with unbounded disk slots (schedule/two_tier_optimum.hpp, O(l^2 R)):
///      the optimum whenever its plan holds at most D states on disk at once;
///   2. else the exact programme bounded by D (O(l^2 R D)), where that is small enough; both are proved
///      equal to a brute-force shortest path over all plans on small instances;
///   3. past both, the cheaper of two heuristics: the multistage family - the first sweep writes states 0,
///      q, ..., (n-1)q to tier 1 (n <= D) and reverses the final range [nq, l) with Revolve(R) in tier 0;
///      each tier-1 interval is then read back once and reversed with Revolve(R) (n = 0 is plain
///      Revolve(R), q = 1, n = l-1 store-all on tier 1), or Revolve(D) in tier 1 alone; O(l log l)
///      candidates, optimal within that family, so never worse than RAM-only or disk-only Revolve - and the
///      bounded programme's optimum for fewer disk slots D' < D.
/// Requires R >= 1, D >= 0.
class MultiLevelSchedule final : public Schedule {
  public:
    MultiLevelSchedule(std::int64_t ram_slots, std::int64_t disk_slots, StepCosts costs = {});
    std::string name() const override;
    std::vector<Action> plan(std::int64_t steps) const override;

    /// The chosen candidate for `steps` (for tests and reports): disk interval q and count n (n = 0:
    /// RAM-only), or disk_only = true; and its predicted seconds.
    /// exact = true: the optimal two-tier plan of the exact dynamic programme
    /// (schedule/two_tier_optimum.hpp), which may interleave tiers freely. Tried first, the same programme
    /// with unbounded disk slots (when l^2 (R+1) <= kUnboundedDiskWork, under a second for 2403 steps and
    /// 10 RAM slots) is the exact optimum whenever its plan holds at most D states on disk at once: then
    /// `plan` holds that plan. Else the bounded programme when l^2 (R+1) (D+1) <= kExactWork (`plan` holds
    /// its plan too). Past both, the cheaper of the best of the multistage family (interval,
    /// disk_intervals; RAM-only or disk-only Revolve) and the bounded programme's optimum for as many disk
    /// slots D' < D as kExactWork allows (exact = false, `plan` set; run only when the multistage plan is
    /// more than kNearOptimum above the unbounded optimum).
    struct Choice {
        bool exact = false;
        bool disk_only = false;
        std::int64_t interval = 0;
        std::int64_t disk_intervals = 0;
        double predicted_s = 0;
        std::shared_ptr<const std::vector<Action>> plan; ///< the plan itself, when choose() made it
    };
    /// The last few choices are kept (per steps, R, D and costs, across objects): the plan table and the
    /// run it picks ask for the same one.
    Choice choose(std::int64_t steps) const;
    /// The best of the multistage family, RAM-only and disk-only Revolve alone (what choose() falls back to).
    Choice multistage_choice(std::int64_t steps) const;
    static constexpr double kExactWork = 1.5e8; ///< 0.2-0.4 s (800 steps, R = 10, D = 20; the 2-core VM)
    static constexpr double kUnboundedDiskWork = 1.5e8; ///< one unbounded programme, the same
    /// Past both exact tables, choose() keeps the multistage plan without running the fewer-slots table when
    /// it is within this factor of the unbounded optimum (a lower bound on every plan for D slots).
    static constexpr double kNearOptimum = 1.02;
    std::vector<Action> plan_for(std::int64_t steps, const Choice& choice) const;

  private:
    Choice compute_choice(std::int64_t steps) const;
    std::int64_t peak_disk_slots(const std::vector<Action>& plan, std::int64_t steps) const;

    std::int64_t ram_slots_, disk_slots_;
    StepCosts costs_;
};

/// "online:S": the step count is unknown during the first sweep. Stumm & Walther (SISC 2010): S slots (state
/// 0 included) are placed so that, wherever the run stops with l <= C(S+2, 2) steps, the reversal takes
/// exactly revolve_advance_steps(l, S) Advance steps (every segment between checkpoints then has repetition
/// number <= 1 with the slots freed above it). Past C(S+2, 2) it thins greedily: at each state it keeps its
/// checkpoints or replaces one by the current state, whichever minimises the reversal cost if the run stopped
/// one step later (always valid; measured within 1.15 t(l, S) for S <= 20, l <= 2000). The reversal reverses
/// segments top-down with Revolve.
class OnlineRevolveSchedule final : public OnlineSchedule {
  public:
    explicit OnlineRevolveSchedule(std::int64_t slots, int tier = 0); ///< slots >= 1, else ConfigError
    std::string name() const override;
    void reset() override;
    std::vector<Action> at_forward_state(std::int64_t n) override;
    std::vector<Action> reversal(std::int64_t l) override;
    /// C(S+2, 2): the largest l for which the schedule is provably optimal.
    std::int64_t optimal_limit() const;

  private:
    struct Checkpoint {
        std::int64_t step;
        int slot;
    };
    std::vector<Action> replace(std::int64_t n, std::int64_t drop_step);
    /// The step to drop for n (-2: keep, -1: store in a free slot).
    std::int64_t greedy_drop(std::int64_t n) const;

    std::int64_t slots_;
    int tier_;
    std::int64_t next_n_ = 0;             ///< the state at_forward_state expects next
    std::vector<Checkpoint> checkpoints_; ///< sorted by step
    std::vector<int> free_slots_;
    /// Optimal phase: the sub-problem with level_ slots from level_offset_.
    std::int64_t level_ = 0, level_offset_ = 0;
    bool finished_ = false; ///< reversal() was called
};

/// Runs an online schedule on a known step count and returns the whole plan (first sweep + reversal),
/// following the protocol of OnlineSchedule. Calls schedule.reset() first.
std::vector<Action> plan_online(OnlineSchedule& schedule, std::int64_t steps);

/// "online:S" as an offline Schedule (plan() runs a fresh OnlineRevolveSchedule through plan_online).
class OnlineAsOfflineSchedule final : public Schedule {
  public:
    explicit OnlineAsOfflineSchedule(std::int64_t slots);
    std::string name() const override;
    std::vector<Action> plan(std::int64_t steps) const override;

  private:
    std::int64_t slots_;
};

/// "adaptive:S" / "adaptive": Revolve whose slot count grows as the real (compressed) sizes of the stored
/// states arrive, under a byte budget B that is never exceeded. A slot is sized pessimistically at P bytes
/// (the worst case of one stored state), so it starts as revolve:floor(B / P). Each range of the reversal is
/// planned when the executor reaches it (the AdaptiveSchedule protocol): with H the bytes held then (each
/// held state at its real size), the range may use sigma = 1 + floor((B - H) / P) slots, its own base
/// included - a pessimistic reserve for everything it may still store. Its split is Revolve's optimal one for
/// sigma slots on the left and, on the right, the slots the right part would get if its base were no larger
/// than the largest state stored so far (a look-ahead that only steers the split, never the budget; a right
/// part that gets fewer falls back to re-planning its parent when that is cheaper). With every state at P
/// and no prices (or stores cheaper than a step) this is exactly revolve:floor(B / P) (same plan); smaller
/// states give more slots to the rest of the run.
/// As an offline Schedule, plan() is the pessimistic plan (every state at P), which prices and draws it.
///
/// With prices (what one recomputed step, one Store and one Restore of a state cost), a range does not take
/// every slot the budget allows: of the counts up to the budget's, it takes the one whose Revolve reversal
/// costs least, advances, stores and restores priced. A codec that costs tens of steps per state then stores
/// no more states than pay for themselves, fewer than revolve:floor(B / P) where that stores too many.
/// Without prices (store = restore = 0) it minimises recomputation alone.
struct AdaptivePrices {
    double advance = 1; ///< one recomputed forward step
    double store = 0;   ///< one state stored (copy and compression)
    double restore = 0; ///< one state restored (copy and decompression)
    bool operator==(const AdaptivePrices&) const = default;
    /// A store cheaper than a step: every slot pays (Revolve's stores rise by no more than its advances fall
    /// as slots are added), so a range takes every slot it may and the schedule never takes fewer.
    bool every_slot_pays() const { return store < advance; }
};

class AdaptiveRevolveSchedule final : public Schedule, public AdaptiveSchedule {
  public:
    /// budget_bytes >= state_bytes > 0, advance > 0, store and restore >= 0 (all finite), else ConfigError.
    AdaptiveRevolveSchedule(std::uint64_t budget_bytes, std::uint64_t state_bytes, int tier = 0,
                            AdaptivePrices prices = {});
    std::string name() const override; ///< "adaptive:S" with S = initial_slots()
    std::vector<Action> plan(std::int64_t steps) const override;
    /// The plan when every state is stored in `stored_bytes` (<= P, else ConfigError): a fresh copy replayed
    /// (replay_adaptive), what a run whose states compress at the expected ratio would do. plan(steps) is
    /// expected_plan(steps, P).
    std::vector<Action> expected_plan(std::int64_t steps, std::uint64_t stored_bytes) const;
    /// What a run of it is predicted to cost: predict() of expected_plan at `priced` (costs at the expected
    /// ratio; its stored state size, at most P), its store coding each state on the caller's thread
    /// (StepCosts::coded_on_caller); the snapshots kept at once are the larger of that plan's and plan()'s,
    /// which the executor sizes its buffer for. The one pricing of adaptive runs (plan table, resolve_plan).
    Prediction predict_run(std::int64_t steps, StepCosts priced) const;
    void reset(std::int64_t steps) override;
    std::vector<Action> next(std::uint64_t held_bytes) override;

    std::int64_t initial_slots() const { return std::int64_t(budget_bytes_ / state_bytes_); }
    std::uint64_t budget_bytes() const { return budget_bytes_; }
    std::uint64_t state_bytes() const { return state_bytes_; }
    /// Slots a range may use (its base included) while `held_bytes` are held: 1 + floor((B - held) / P), at
    /// least 1 (a range with one slot stores nothing).
    std::int64_t slots_for(std::uint64_t held_bytes) const;
    const AdaptivePrices& prices() const { return prices_; }
    bool priced() const { return prices_.store > 0 || prices_.restore > 0; }
    /// The slot count in [lowest, sigma] whose Revolve reversal of `len` steps (base held) costs least at
    /// these prices (the fewest slots on a tie); sigma itself when store and restore are free or when the
    /// cheapest stores every state anyway.
    std::int64_t cheapest_slots(std::int64_t len, std::int64_t lowest, std::int64_t sigma);

  private:
    struct Task {
        bool is_free = false; ///< true: free `base` (the range whose base it was is reversed)
        std::int64_t a = 0, len = 0;
        int base = 0;
        bool need_restore = false;
        bool look_ahead = true; ///< may count on more slots for its right part than the reserve gives
        /// A right part whose parent's split counted on this many slots (0: on no more than the reserve's).
        std::int64_t counted_on_slots = 0;
        std::int64_t parent_len = 0, parent_sigma = 0; ///< that parent range (set with counted_on_slots)
    };
    static Task free_task(int slot) { return {true, 0, 0, slot, false}; }
    /// Plans `task` with `sigma` slots (cheapest_slots of the `allowed` = slots_for(held_bytes)).
    std::vector<Action> range(const Task& task, std::int64_t allowed, std::int64_t sigma,
                              std::uint64_t held_bytes);
    /// `right` has fewer slots than its parent's split counted on: free its base and plan the parent again
    /// without looking ahead.
    std::vector<Action> fall_back(const Task& right);
    /// Whether planning the parent of `right` again is cheaper than going on with the slots it has.
    bool should_fall_back(const Task& right, std::int64_t slots_now);
    int take_slot();

    std::uint64_t budget_bytes_, state_bytes_;
    int tier_;
    AdaptivePrices prices_;
    struct CountMemo;                 ///< memoised Revolve counts for cheapest_slots, behind a mutex
    std::shared_ptr<CountMemo> memo_; ///< shared by copies (each may run on its own thread)
    std::int64_t steps_ = -1;         ///< -1: reset() not called
    bool started_ = false;
    std::vector<Task> work_;                ///< pending ranges and frees, the next one last
    std::vector<int> free_slots_;           ///< slots given back, reused first
    int slots_used_ = 0;                    ///< slot indices 0..slots_used_-1 were handed out
    std::uint64_t held_before_store_ = 0;   ///< held_bytes when the last Store (of a state > 0) was emitted
    std::uint64_t largest_state_bytes_ = 0; ///< the largest real size of a state > 0 stored (0: none yet)
    bool last_was_store_ = false;           ///< the last batch ended with that Store
};

/// The outcome of running an adaptive schedule on known stored sizes.
struct AdaptiveReplay {
    std::vector<Action> plan;
    std::uint64_t peak_held_bytes =
        0;                       ///< most bytes held at once (by the sizes given, not the schedule's word)
    std::int64_t peak_slots = 0; ///< most states held at once
};

/// Drives `schedule` through the AdaptiveSchedule protocol for `steps` steps as an executor would, when
/// storing state n takes state_bytes[n] bytes (state_bytes.size() == steps, else ConfigError): after each
/// batch it reports the bytes held by the replayed Store/Free actions. Replays without wavefields, so tests
/// can check the plan (simulate_plan), the budget and the recomputation for any size sequence. Throws
/// PlanError when the actions store into an occupied slot or free an empty one.
AdaptiveReplay replay_adaptive(AdaptiveSchedule& schedule, std::int64_t steps,
                               const std::vector<std::uint64_t>& state_bytes);

/// all | uniform:K | revolve:S | multilevel:R,D | online:S | adaptive:S (spaces around parts are not
/// allowed). `costs` are used by multilevel, and by adaptive:S for the pessimistic stored size of a state
/// (costs.stored_state_bytes(); its budget is S of them). "auto" must be resolved first with choose_auto(),
/// and "adaptive" (the memory budget) built with make_adaptive_schedule(). Throws ConfigError naming the
/// spec.
std::unique_ptr<Schedule> make_schedule(const std::string& spec, const StepCosts& costs = {});
/// True for "adaptive" and "adaptive:S": specs the executor runs through the AdaptiveSchedule protocol.
bool is_adaptive_spec(const std::string& spec);
/// What the adaptive schedule weighs, from the costs: a recomputed step, a tier-0 Store (copy of P bytes,
/// compression, transfer) and a Restore (the same back); no prices ({}) when steps cost nothing.
AdaptivePrices adaptive_prices(const StepCosts& costs);
/// "adaptive" (budget: `budget_bytes`, which must be > 0) or "adaptive:S" (budget: S pessimistic states),
/// with P = costs.stored_state_bytes() and adaptive_prices(costs). Throws ConfigError naming the spec.
std::unique_ptr<AdaptiveRevolveSchedule>
make_adaptive_schedule(const std::string& spec, const StepCosts& costs, std::uint64_t budget_bytes);
/// online:S as an OnlineSchedule, for executors that do not know the step count. Throws ConfigError.
std::unique_ptr<OnlineSchedule> make_online_schedule(const std::string& spec);

} // namespace fwi
