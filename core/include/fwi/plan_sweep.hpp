#pragma once
// When compression pays: the performance model swept over memory budgets, as in Kukreja et al.'s Figures
// 15-17 (Eq. 3). For each budget, Revolve alone (uncompressed states, as many slots as fit) against Revolve
// with each codec (F times smaller states, so about F times more slots, each paying t_c / t_d), and the
// fastest plan of plan_table() for that codec. A pure function of calibrated costs: no timing, no wavefields.
#include "fwi/performance_model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fwi {

struct SweepRequest {
    std::int64_t steps = 0;
    StepCosts costs;                          ///< calibrated, uncompressed; compression fields are replaced
    CodecEstimate uncompressed;               ///< the "none" codec's own times, for Revolve alone
    std::vector<CodecEstimate> codecs;        ///< each codec's expected (measured) ratio and times
    std::vector<std::uint64_t> budgets_bytes; ///< tier-0 budgets; empty = sweep_budgets(steps, costs, 16)
};

/// One priced plan of the sweep.
struct SweepPlan {
    std::string schedule; ///< a make_schedule() spec, e.g. "revolve:12"; empty when nothing fits
    std::int64_t ram_slots = 0;
    double predicted_s = 0;
    /// Forward steps beyond the first computation of each step (Revolve's Reverse recomputes its own step, so
    /// Revolve's least is l - 1, reached with l - 1 slots).
    std::int64_t recompute_steps = 0;
    std::uint64_t peak_bytes = 0; ///< tier 0
    bool fits_budget = false;
    /// Fits only if the run's data compress as well as the probe's (PlanRow::fits_only_at_probed_ratio): the
    /// sweep prices compression at the probed ratio, as the seed's figures do; a run stops when it exceeds.
    bool fits_only_at_probed_ratio = false;
};

/// One codec at one budget.
struct SweepCodecPoint {
    SweepPlan revolve;       ///< Revolve with this codec, the most slots that fit
    double speedup = 0;      ///< Revolve alone's time / revolve.predicted_s (the seed's curves)
    SweepPlan best;          ///< the fastest fitting plan for this codec (revolve or a plan_table() row)
    double best_speedup = 0; ///< Revolve alone's time / best.predicted_s
};

struct SweepCurve {
    CodecEstimate codec;
    std::vector<SweepCodecPoint> points; ///< one per budget
};

struct PlanSweep {
    std::int64_t steps = 0;
    std::vector<std::uint64_t> budgets_bytes; ///< ascending
    std::vector<SweepPlan> revolve_alone;     ///< one per budget
    std::vector<SweepCurve> curves;           ///< one per codec, in the request's order
};

/// The costs of an uncompressed run: ratio 1, `none`'s times, snapshots kept in place (as the executor does).
StepCosts uncompressed_costs(StepCosts costs, const CodecEstimate& none);

/// Revolve with the most slots (1..steps) whose predicted tier-0 peak fits `budget_bytes` under `costs` (its
/// ratio sizes the slots); revolve:1 with fits_budget = false when even that does not fit.
SweepPlan fitted_revolve(std::int64_t steps, const StepCosts& costs, std::uint64_t budget_bytes);

/// `count` budgets, log-spaced (rounded to bytes, ascending, duplicates dropped) from the peak of
/// uncompressed revolve:2 (two checkpoints) to the peak of uncompressed revolve:(steps - 1), the least memory
/// at which Revolve alone advances no step twice. `costs` as uncompressed_costs() gives. ConfigError for
/// steps < 1 or count < 1.
std::vector<std::uint64_t> sweep_budgets(std::int64_t steps, const StepCosts& costs, int count);

/// The sweep. Budgets are sorted and deduplicated. ConfigError for steps < 1, bad costs, no codec, a zero
/// budget or a bad codec estimate.
PlanSweep plan_sweep(const SweepRequest& request);

} // namespace fwi
