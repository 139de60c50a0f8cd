#pragma once
// The gradient of a data misfit with respect to velocity, summed over shots, computed by the ONE executor
// that turns a checkpoint plan (schedule.hpp) into forward steps, stores, restores and adjoint steps.
#include "fwi/communicator.hpp"
#include "fwi/events.hpp"
#include "fwi/gather.hpp"
#include "fwi/settings.hpp"
#include "fwi/simulation.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fwi {

/// Misfit of one shot: returns J_shot and writes dJ/d(modelled trace sample) (user rate, receivers x
/// samples).
using MisfitFunction =
    std::function<double(const Gather& modelled, const Gather& observed, std::vector<float>& adjoint_source)>;

/// J = 1/2 sum (d - d_obs)^2 over receivers and samples.
double l2_misfit(const Gather& modelled, const Gather& observed, std::vector<float>& adjoint_source);

struct GradientOptions {
    GradientSettings settings;
    std::vector<int> shots; ///< this rank's / batch's shots; empty = all
    MisfitFunction misfit;  ///< empty = l2_misfit
    Observer* observer = nullptr;
    const CancelToken* cancel = nullptr;
    bool keep_modelled = true; ///< distributed: each rank keeps only its own shots' data
    /// The job's ranks (communicator.hpp): the shots are split over them by cost and the per-shot
    /// contributions summed in shot order, so the result is the same bits for any number of ranks. Every rank
    /// must call with the same arguments. null = this process alone.
    Communicator* communicator = nullptr;
};

struct GradientResult {
    double misfit = 0;
    std::vector<float> gradient;    ///< dJ/dv on the model grid (s/m per unit misfit)
    std::vector<Gather> modelled;   ///< user-rate modelled data per shot (if keep_modelled)
    std::string schedule;           ///< the plan that ran, e.g. "revolve:12"
    std::int64_t forward_steps = 0; ///< all forward steps (first sweep + recomputation + inside reverses)
    std::int64_t adjoint_steps = 0;
    std::int64_t recompute_steps = 0; ///< forward steps beyond the first sweep
    std::int64_t checkpoint_writes = 0;
    std::int64_t checkpoint_reads = 0;
    std::uint64_t peak_snapshot_bytes = 0;          ///< peak bytes held in gradient snapshots
    std::vector<std::uint64_t> peak_bytes_per_tier; ///< states + snapshots, stored (compressed) size
    double compression_ratio = 1;
    double predicted_seconds = 0; ///< the performance model's prediction for this plan (0 if unknown)
    double seconds = 0;
    double planning_seconds = 0; ///< calibration of the performance model and planning (part of seconds)
};

/// The sum over the shots is the shot-ordered one of communicator.hpp: each shot's gradient on its own, then
/// added in list order. Distributed, the step and checkpoint counts are the job's (summed over the ranks) and
/// peak_snapshot_bytes the largest rank's; peak_bytes_per_tier stays this rank's. Throws ConfigError (bad
/// settings, observed data of the wrong shape), BudgetExceeded, ResourceError, Cancelled.
GradientResult compute_gradient(Simulation& sim, const Model& model, const std::vector<Gather>& observed,
                                const GradientOptions& options);

/// Throws ResourceError when the traces a gradient of all of `sim`'s shots holds besides its checkpoints
/// (which its plan budgets) exceed the machine's memory: the observed data, one shot's modelled traces and
/// adjoint source at the inner time step and at the user's rate, with keep_modelled every shot's modelled
/// data, and the stencils. compute_gradient checks it first; so does the step-cost probe, which does a shot's
/// set-up.
void check_gradient_trace_memory(const Simulation& sim, bool keep_modelled);

/// A gradient keeps its in-place snapshot memory for the next gradient of the process (an inversion or a
/// benchmark touches it once, not once per gradient); the next gradient trims it to its need or frees it.
/// This frees it now: a desktop session calls it when a job ends, so that idle it holds nothing.
void release_retained_snapshot_memory();

} // namespace fwi
