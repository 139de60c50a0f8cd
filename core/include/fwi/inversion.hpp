#pragma once
// The inversion workflow: frequency-continuation stages, each minimising a filtered Objective (objective.hpp)
// with an Optimizer (optimizer.hpp) from where the previous stage ended, with a record per iteration and a
// resumable state.
//
// Resume: after every iteration the driver produces an OptimizerState holding the optimizer's state, the
// stage and iteration counters and the illumination in use. run_inversion with that state as `resume`
// continues exactly where the saved run stood, and gives the same models and misfits, bit for bit, as the
// uninterrupted run (the engine is deterministic whatever the thread count, and the random shot subsets
// depend only on the seed, stage and iteration).
#include "fwi/events.hpp"
#include "fwi/gather.hpp"
#include "fwi/objective.hpp"
#include "fwi/optimizer.hpp"
#include "fwi/project.hpp"
#include "fwi/settings.hpp"

#include <functional>
#include <string>
#include <vector>

namespace fwi {

struct InversionStage {
    double cutoff_hz = 0; ///< low-pass cut-off of observed data and wavelet; 0 = unfiltered
    int iterations = 10;
    bool operator==(const InversionStage&) const = default;
};

/// One stage per cut-off (ascending), `iterations` each; an empty list gives one unfiltered stage.
std::vector<InversionStage> make_stages(const std::vector<double>& cutoffs_hz, int iterations);

struct InversionSetup {
    Model initial_model;
    Model true_model; ///< optional (empty vp_mps = unknown): gives each record's model_error
    Acquisition acquisition;
    PropagationSettings propagation;
    std::vector<Gather> observed; ///< one gather per shot, at the propagation settings' sampling
    std::vector<InversionStage> stages;
    OptimizerOptions
        optimizer; ///< lower_bound / upper_bound are the velocity bounds in m/s (required finite)
    ObjectiveOptions objective;
    double min_relative_decrease = 0; ///< a stage ends early after an iteration that lowers J by less than
                                      ///< this fraction (its saved state then counts it complete)
    double reference_velocity_mps =
        0; ///< CFL and PML reference; 0 = max(upper bound, initial model's maximum)
    std::string backend = "auto";
    OptimizerState resume;      ///< non-empty: continue from this state (InversionResult::state)
    bool keep_models = true;    ///< records carry the model after each iteration
    bool keep_gradients = true; ///< records carry the gradient at that model
};

struct InversionResult {
    Model model;                          ///< the final (or last completed) model
    std::vector<IterationRecord> history; ///< this run's records (iteration 0 = the start, when not resuming)
    OptimizerState state;                 ///< resume from here
    StopReason reason = StopReason::None; ///< MaxIterations when every stage ran to its count; Cancelled; ...
    int evaluations = 0; ///< objective evaluations (each one a gradient over the active shots)
    double seconds = 0;
    std::string warnings; ///< from the simulation (e.g. dispersion)
};

/// Runs (or resumes) the inversion. on_iteration gets every record (iteration 0 is the starting model with
/// its misfit); on_state gets the resumable state after every iteration. Cancellation (between time steps)
/// returns the last completed iteration with reason Cancelled. Throws ConfigError for inconsistent setups
/// (bounds outside the reference velocity, observed data of the wrong shape, a resume state of another run)
/// and what the engine throws.
InversionResult run_inversion(const InversionSetup& setup, Observer* observer, const CancelToken* cancel,
                              std::function<void(const IterationRecord&)> on_iteration,
                              std::function<void(const OptimizerState&)> on_state = {});

} // namespace fwi
