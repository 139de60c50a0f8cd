#pragma once
// The only place that connects a checkpoint plan to the propagator and the store: it executes actions,
// records receivers on the first sweep, checks budgets before every store (through the store), emits events,
// and polls the cancel token between steps. An adaptive plan is asked for its actions batch by batch, with
// the bytes tier 0 holds after each batch (stores are then synchronous, so those bytes are exact).
#include "engine/item_storage.hpp"
#include "fwi/gradient_engine.hpp"
#include "fwi/run_plan.hpp"
#include "fwi/schedule.hpp"
#include "fwi/schedules.hpp"
#include "runtime/zeroed_allocator.hpp"

#include <chrono>
#include <memory>

namespace fwi {

struct ShotOutcome {
    double misfit = 0;
    Gather modelled;
};

class PlanExecutor {
  public:
    PlanExecutor(Simulation& sim, const GradientOptions& options, std::chrono::steady_clock::time_point t0);
    ~PlanExecutor();
    /// Runs forward and adjoint for one shot; the gradient accumulates inside the propagator.
    ShotOutcome run_shot(int shot, const Gather& observed);
    void fill(GradientResult& result) const;
    /// Seconds from t0 to the resolved plan: calibration and planning, not the storage set-up.
    double planning_seconds() const { return planning_seconds_; }
    /// What this run measured of the model's costs (for learn_from_run).
    RunMeasurement measurement() const;

  private:
    double wall() const;
    void emit(EventType type, std::int64_t step, std::int64_t steps, int tier = -1, std::uint64_t bytes = 0,
              double seconds = 0);
    /// Compress/Decompress events for the codec time spent since the last call (workers included).
    void emit_codec_time(std::int64_t step);
    void advance(WaveState& state, std::int64_t to, bool keep_snapshots);
    void begin_reversal(WaveState& state, const Gather& observed, ShotOutcome& out);
    void reverse(WaveState& state, AdjointState& adj, std::int64_t n);
    void run_actions(WaveState& state, AdjointState& adj, const Gather& observed, ShotOutcome& out,
                     bool& reversing);
    /// Applies action number `index` of this shot's plan.
    void apply(std::size_t index, const Action& a, WaveState& state, AdjointState& adj,
               const Gather& observed, ShotOutcome& out, bool& reversing);

    Simulation& sim_;
    const GradientOptions& options_;
    std::chrono::steady_clock::time_point t0_;
    std::vector<Action> plan_; ///< the fixed plan (adaptive: its pessimistic form, unused)
    std::string plan_name_;
    std::unique_ptr<AdaptiveRevolveSchedule> adaptive_; ///< set: plan each shot with it instead of plan_
    std::unique_ptr<ItemStorage> storage_;
    /// Host scratch for a snapshot the store codes or a Reverse computes (on a cache line).
    ZeroedVector snapshot_;
    /// The backend's own memory for a snapshot a Reverse computes (a GPU's: no transfer), or null.
    std::unique_ptr<SnapshotMemory> reverse_scratch_;
    /// The shot's states, kept from shot to shot and cleared for the next (renew_state): new ones would map
    /// and first-touch their arrays again every shot.
    std::unique_ptr<WaveState> state_;
    std::unique_ptr<AdjointState> adjoint_;
    std::vector<float> inner_traces_;   ///< first-sweep receiver samples at the inner rate
    std::vector<float> adjoint_source_; ///< inner-rate residual
    std::int64_t recorded_upto_ = 0;    ///< samples [0, recorded_upto_) recorded this shot
    std::int64_t computed_upto_ = 0; ///< forward steps [0, computed_upto_) computed at least once this shot
    int shot_ = -1;
    // counters over all shots
    std::int64_t forward_steps_ = 0, adjoint_steps_ = 0, recompute_steps_ = 0;
    int shots_run_ = 0;
    double planning_seconds_ = 0;
    int tiers_ = 1;
    RunMeasurement measured_; ///< kernel step times so far (the storage's part is read at the end)
    double compress_reported_s_ = 0, decompress_reported_s_ = 0;
    double predicted_shot_s_ = 0; ///< the performance model's time for one shot of this plan
    double predicted_first_touch_s_ =
        0; ///< the part of it spent touching new memory (paid by the first shot only)
};

} // namespace fwi
